#!/usr/bin/env bash
# Cross-build hodyn for ARM Linux and run every test under QEMU user mode
# (docs/cross-linux.md).
# Usage: scripts/test-cross.sh [aarch64|armhf|all] [ctest arguments...]
#   aarch64: preset cross-aarch64 (Raspberry Pi 4/5, Jetson; qemu-aarch64)
#   armhf:   preset cross-armhf (32-bit ARMv7-A hard-float; qemu-arm)
#   all:     both (the default)
# e.g. scripts/test-cross.sh armhf -L hil
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

target=${1:-all}
[ $# -gt 0 ] && shift
case "$target" in
  aarch64) arches=(aarch64) ;;
  armhf) arches=(armhf) ;;
  all) arches=(aarch64 armhf) ;;
  -h | --help)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  *)
    echo "test-cross.sh: unknown target '$target' (aarch64, armhf or all)" >&2
    exit 2 ;;
esac

# googletest: the sources (/usr/src/googletest) are built for the target.
bash scripts/deps.sh g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user googletest

# The packaging tests (label packaging-cross: a downstream project cross-built
# against the install of each tree, run under QEMU) generate a robot header
# with a hodyn-urdf of this machine: the native test preset's.
host_urdf=$PWD/build/test/tools/urdf/hodyn-urdf
echo "== native hodyn-urdf (for the packaging tests)"
[[ -f build/test/CMakeCache.txt ]] || cmake --preset test
cmake --build --preset test --target hodyn-urdf -j2

summary=()
rc=0
for arch in "${arches[@]}"; do
  preset=cross-$arch
  log=build/$preset/ctest-last.log
  echo "== $preset: configure + build"
  start=$SECONDS
  cmake --preset "$preset" -DHODYN_URDF_EXECUTABLE="$host_urdf"
  cmake --build --preset "$preset" -j2
  built=$SECONDS

  echo "== $preset: ctest (under $([ "$arch" = aarch64 ] && echo qemu-aarch64 || echo qemu-arm))"
  set +e
  ctest --preset "$preset" "$@" 2>&1 | tee "$log"
  arch_rc=${PIPESTATUS[0]}
  set -e
  done_at=$SECONDS
  [ "$arch_rc" -ne 0 ] && rc=$arch_rc

  result=$(grep -E 'tests passed|No tests were found' "$log" | tail -n 1 || true)
  summary+=("$preset: ${result:-ctest exited with $arch_rc} (build $((built - start)) s, tests $((done_at - built)) s)")
done

echo
for line in "${summary[@]}"; do echo "== $line"; done
exit "$rc"
