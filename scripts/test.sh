#!/usr/bin/env bash
# Build and run every hodyn test, one suite after the other:
#   native    preset `test`: unit, oracle, closed-loop, HIL, tool tests (ctest),
#             except the suites of label native-by-hand (the analysis calls on
#             ball and universal joints; scripts/test-by-hand.sh runs them
#             and the other parts CI leaves out; docs/cross-linux.md "CI time")
#   cross     preset `cross-aarch64`: the suite cross-built and run under
#             qemu-aarch64, the CI subset (scripts/test-cross.sh --ci aarch64:
#             labels oracle, controller and link; no tools, no -g). armhf and
#             the packaging-cross consumer are by hand since 2026-11-27
#             (docs/cross-linux.md "CI time")
#   firmware  presets `firmware-m7`, `firmware-m4f`, `firmware-f405`: bare-metal self-tests,
#             firmware HIL and budgets under qemu-system-arm
#             (scripts/test-firmware.sh, label `firmware`; no -g)
#   sanitize  presets `sanitize` (g++, ASan + LeakSanitizer + UBSan, no
#             recovery, -O1: the build type CI runs besides -O2) and
#             `sanitize-thread` (ThreadSanitizer): the CI subset of
#             scripts/sanitize.sh --ci (labels controller, link, hil,
#             security, simulator, plugins, safety; no tools, no
#             core/oracle/closed_loop suites, which run sanitized by hand;
#             docs/sanitizers.md says why)
#   fuzz      the libFuzzer targets of tests/fuzz built with clang, ASan and
#             UBSan and run 20 s each, two at a time (scripts/fuzz.sh --ci;
#             docs/fuzzing.md); ~4 min. In the default set since 2026-11-28:
#             out of it, the link target's harness had been broken by link
#             protocol 4 for a day without anyone seeing it
#   bench     builds (does not run) every benchmark (scripts/build-bench.sh);
#             not in the default set (CI time): name it to run it
# and the parts CI leaves out for time (not in the default set either; all
# four: scripts/test-by-hand.sh; docs/cross-linux.md "CI time"):
#   native-by-hand    the native suites of label native-by-hand (preset
#                     `test` with nothing excluded, ctest -L native-by-hand)
#   firmware-by-hand  the firmware suite with the BY_HAND HIL runs too
#                     (HODYN_FIRMWARE_HIL_BY_HAND=1 scripts/test-firmware.sh)
#   aarch64-by-hand   label cross-by-hand under qemu-aarch64
#                     (scripts/test-cross.sh aarch64 -L cross-by-hand)
#   armhf             the 32-bit ARM subset (scripts/test-cross.sh --ci armhf)
# Every suite runs even when an earlier one fails; the exit status is non-zero
# if any failed. Installs the missing Debian packages first.
#
#   scripts/test.sh                          # native, cross, firmware, sanitize, fuzz (what CI runs)
#   HODYN_TEST_SUITES=bench scripts/test.sh  # the benchmarks' build
#   HODYN_TEST_SUITES=fuzz scripts/test.sh   # the fuzzers' CI slot
#   HODYN_TEST_SUITES="native firmware" scripts/test.sh
#   scripts/test.sh -L core                  # extra arguments go to the native
#                                            # ctest, and select the native suite
#                                            # unless HODYN_TEST_SUITES says otherwise
#   scripts/test.sh --help                   # this text
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

case "${1:-}" in
  -h | --help)  # this comment (not a ctest argument: it would build and run the native suite)
    sed -n '2,48p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

if [[ $# -gt 0 ]]; then
  suites=${HODYN_TEST_SUITES:-native}
else
  suites=${HODYN_TEST_SUITES:-native cross firmware sanitize fuzz}
fi

packages=()
for suite in $suites; do
  case "$suite" in
    native | native-by-hand) ;;
    cross | aarch64-by-hand) packages+=(g++-aarch64-linux-gnu qemu-user googletest) ;;
    armhf) packages+=(g++-arm-linux-gnueabihf qemu-user googletest) ;;
    firmware | firmware-by-hand)
      packages+=(gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib qemu-system-arm) ;;
    sanitize) ;;
    fuzz) packages+=(clang libclang-rt-14-dev) ;;
    bench) packages+=(libmujoco-dev) ;;
    *)
      echo "test.sh: unknown suite '$suite' (native, cross, firmware, sanitize, fuzz, bench;" \
        "by hand: native-by-hand, firmware-by-hand, aarch64-by-hand, armhf)" >&2
      exit 2 ;;
  esac
done
bash scripts/deps.sh "${packages[@]}"

summary=()
failed=0
run_suite() {  # run_suite <name> <command...>
  local name=$1 start=$SECONDS rc
  shift
  echo
  echo "======== $name"
  set +e
  "$@"
  rc=$?
  set -e
  local took=$((SECONDS - start))
  if [[ $rc -eq 0 ]]; then
    summary+=("$name: passed ($((took / 60)) min $((took % 60)) s)")
  else
    summary+=("$name: FAILED, exit $rc ($((took / 60)) min $((took % 60)) s)")
    failed=1
  fi
}

# CI compiles without debug info: -g costs 35-40 % of the compile time of the
# heavy test files (measured 2026-11-26, docs/cross-linux.md "CI time") and
# nothing in CI reads it. The presets keep -O2 -g for work by hand;
# HODYN_TEST_DEBUG_INFO=ON keeps it here too. (Switching build/test between
# the two recompiles it.)
native() {  # native <labels not built> [ctest arguments...]
  # HODYN_FAST_COMPILE: g++'s garbage collector held back, ~10 % less compile
  # CPU, the same objects (CMakeLists.txt; docs/cross-linux.md "CI time").
  # CI does not build the suites of label native-by-hand (the analysis calls
  # on ball and universal joints: tests/CMakeLists.txt); suite
  # native-by-hand builds everything and runs them.
  local flags=(-DHODYN_FAST_COMPILE=ON "-DHODYN_TEST_EXCLUDE_LABELS=$1")
  shift
  [[ ${HODYN_TEST_DEBUG_INFO:-OFF} == ON ]] || flags+=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2)
  cmake --preset test "${flags[@]}" && cmake --build --preset test -j2 || return
  local log=build/test/ctest-last.log rc
  ctest --preset test "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  echo "== $(grep -E 'tests passed|No tests were found' "$log" | tail -n 1 || echo "ctest exited with $rc")"
  return "$rc"
}

for suite in $suites; do
  case "$suite" in
    native) run_suite native native native-by-hand "$@" ;;
    native-by-hand) run_suite native-by-hand native "" -L native-by-hand ;;
    firmware-by-hand) run_suite firmware-by-hand env HODYN_FIRMWARE_HIL_BY_HAND=1 bash scripts/test-firmware.sh ;;
    aarch64-by-hand) run_suite aarch64-by-hand bash scripts/test-cross.sh aarch64 -L cross-by-hand ;;
    armhf) run_suite armhf bash scripts/test-cross.sh --ci armhf ;;
    # The CI subset under QEMU (scripts/test-cross.sh --ci aarch64): the
    # labels oracle, controller and link on aarch64. The armhf subset is by
    # hand (scripts/test-cross.sh --ci armhf), every test on both:
    # scripts/test-cross.sh (docs/cross-linux.md).
    cross) run_suite cross bash scripts/test-cross.sh --ci aarch64 ;;
    firmware) run_suite firmware bash scripts/test-firmware.sh ;;
    sanitize) run_suite sanitize bash scripts/sanitize.sh --ci ;;
    fuzz) run_suite fuzz bash scripts/fuzz.sh --ci ;;
    bench) run_suite "bench (build only)" bash scripts/build-bench.sh ;;
  esac
done

echo
echo "======== summary"
for line in "${summary[@]}"; do echo "== $line"; done
exit "$failed"
