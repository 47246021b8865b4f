#!/usr/bin/env bash
# ctest firmware_mac_bench_<board>: mac_bench.cpp's image under QEMU with
# -icount shift=0 (one instruction = 1 ns of virtual time, so the image's
# SysTick cycles are instructions); passes on exit status 0 and "mac bench: ok"
# (every primitive matched its published vector on the target).
# Usage: run_mac_bench.sh QEMU MACHINE IMAGE.elf
set -uo pipefail
QEMU=${1:?usage: run_mac_bench.sh QEMU MACHINE IMAGE}
MACHINE=${2:?usage}
IMAGE=${3:?usage}
out=$(timeout --kill-after=5 120 "$QEMU" -M "$MACHINE" -display none -monitor none -serial none \
  -semihosting-config enable=on,target=native -icount shift=0 -kernel "$IMAGE" </dev/null 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 0 ]] && grep -q "^mac bench: ok" <<<"$out" || { echo "FAIL (exit $rc)"; exit 1; }
