#!/usr/bin/env bash
# Runs a bare-metal hodyn image under QEMU with semihosting and checks it.
#   run-qemu.sh [--qemu PATH] --machine mps2-an500 [--timeout S] [--expect REGEX]... IMAGE.elf
# The UART (serial0) and the semihosting console both go to stdout. Passes
# (exit 0) only when QEMU exits with status 0 (the program's exit code via
# SYS_EXIT_EXTENDED) and every --expect regex occurs in the output.
set -uo pipefail

qemu=qemu-system-arm
machine=
timeout_s=120
expects=()
while [[ $# -gt 1 ]]; do
  case "$1" in
    --qemu) qemu=$2; shift 2 ;;
    --machine) machine=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --expect) expects+=("$2"); shift 2 ;;
    *) echo "run-qemu.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
image=${1:?usage: run-qemu.sh --machine M [--timeout S] [--expect REGEX]... IMAGE}
[[ -n $machine ]] || { echo "run-qemu.sh: --machine is required" >&2; exit 2; }

log=$(mktemp "${TMPDIR:-/tmp}/hodyn-qemu.XXXXXX")
trap 'rm -f "$log"' EXIT

start=$(date +%s%N)
timeout --kill-after=5 "$timeout_s" "$qemu" -M "$machine" -nographic -monitor none \
  -semihosting-config enable=on,target=native -kernel "$image" </dev/null 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
end=$(date +%s%N)
elapsed_ms=$(( (end - start) / 1000000 ))
printf 'run-qemu.sh: %s on %s: exit status %d after %d.%03d s\n' "$(basename "$image")" "$machine" \
  "$status" $((elapsed_ms / 1000)) $((elapsed_ms % 1000))

if [[ $status -eq 124 || $status -eq 137 ]]; then
  echo "run-qemu.sh: FAIL: timed out after ${timeout_s} s" >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "run-qemu.sh: FAIL: exit status $status" >&2
  exit 1
fi
for regex in "${expects[@]}"; do
  if ! grep -Eq -- "$regex" "$log"; then
    echo "run-qemu.sh: FAIL: output lacks /$regex/" >&2
    exit 1
  fi
done
echo "run-qemu.sh: PASS"
