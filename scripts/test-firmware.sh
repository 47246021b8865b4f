#!/usr/bin/env bash
# Build and test the firmware presets (docs/firmware.md): Cortex-M7 (double,
# QEMU mps2-an500, STM32H743 link check), Cortex-M4F (float, QEMU
# mps2-an386) and the STM32F405 (float, QEMU netduinoplus2; its CCM layout
# link-checked). Installs the ARM toolchain and QEMU when missing.
# HODYN_FIRMWARE_PRESETS="firmware-f405" runs a subset. The firmware
# HIL tests talk to the native hodyn-sim (build/test/tools/hil/hodyn-sim),
# which is built first when it is missing.
# Extra arguments go to ctest (e.g. -R selftest).
#
# The firmware HIL tests (firmware_hil_[<robot>_]mps2_*, which also measure the
# instructions per step and the painted stack of the control loop) run by
# default; HODYN_FIRMWARE_HIL=0 leaves them out (CMake option
# HODYN_FIRMWARE_HIL), and then only the static budgets (flash, RAM, static
# stack) are checked. The run says so in its summary.
# HODYN_FIRMWARE_HIL_BY_HAND=1 adds the HIL runs CI leaves out (CMake option
# HODYN_FIRMWARE_HIL_BY_HAND; scripts/test-by-hand.sh firmware).
#
# The images are compiled at -O2 -DNDEBUG without -g (the presets: -O2 -g
# -DNDEBUG; HODYN_TEST_DEBUG_INFO=ON keeps that, e.g. for a debugger on
# QEMU). -g does not change the code g++ generates (firmware-m4f, 2026-11-27:
# the loadable contents of all 6 images byte-identical with and without it),
# only adds debug sections no check reads (the budgets take .su files,
# section sizes and objdump -d), and it was 44 % of that build's CPU
# (docs/cross-linux.md "CI time"). Switching recompiles the build dirs.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib qemu-system-arm

if [[ ! -x build/test/tools/hil/hodyn-sim ]]; then
  echo "== native hodyn-sim (for the firmware HIL tests)"
  cmake --preset test
  cmake --build --preset test --target hodyn-sim -j2
fi
# consumer_firmware (label packaging-firmware) and the built-in robots of
# core/robots (octo_arm's firmware images, HIL and self-tests) generate their
# robot headers with a hodyn-urdf of this machine: the native test preset's.
host_urdf=$PWD/build/test/tools/urdf/hodyn-urdf
echo "== native hodyn-urdf (for consumer_firmware)"
cmake --build --preset test --target hodyn-urdf -j2

hil=ON
[[ ${HODYN_FIRMWARE_HIL:-1} == 0 ]] && hil=OFF
# HODYN_FIRMWARE_HIL_BY_HAND=1: the HIL runs CI leaves out too (images marked
# BY_HAND: octo_arm on the M7, the M4F's payload estimation and signed run;
# docs/firmware.md, docs/link-security.md).
hil_by_hand=OFF
[[ ${HODYN_FIRMWARE_HIL_BY_HAND:-0} == 1 ]] && hil_by_hand=ON
flags=()
if [[ ${HODYN_TEST_DEBUG_INFO:-OFF} != ON ]]; then
  flags=("-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG")
fi

summary=()
rc=0
for preset in ${HODYN_FIRMWARE_PRESETS:-firmware-m7 firmware-m4f firmware-f405}; do
  echo "== $preset"
  start=$SECONDS
  log=build/$preset/ctest-last.log
  cmake --preset "$preset" -DHODYN_FIRMWARE_HIL="$hil" -DHODYN_FIRMWARE_HIL_BY_HAND="$hil_by_hand" \
    -DHODYN_URDF_EXECUTABLE="$host_urdf" \
    -DHODYN_FAST_COMPILE=ON "${flags[@]}"
  cmake --build --preset "$preset" -j2
  built=$SECONDS
  set +e
  ctest --preset "$preset" "$@" 2>&1 | tee "$log"
  preset_rc=${PIPESTATUS[0]}
  set -e
  [[ $preset_rc -ne 0 ]] && rc=$preset_rc
  result=$(grep -E 'tests passed|No tests were found' "$log" | tail -n 1 || true)
  summary+=("$preset: ${result:-ctest exited with $preset_rc} (build $((built - start)) s, tests $((SECONDS - built)) s)")
  if [[ -f build/$preset/firmware-budget.json ]]; then
    summary+=("$preset: budgets in build/$preset/firmware-budget.json")
  fi
done

if [[ $hil == OFF ]]; then
  summary+=("NOT REGISTERED (HODYN_FIRMWARE_HIL=0): firmware_hil_* (both robots) and the per-step instruction budget")
fi
echo
for line in "${summary[@]}"; do echo "== $line"; done
exit "$rc"
