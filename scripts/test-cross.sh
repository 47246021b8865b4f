#!/usr/bin/env bash
# Cross-build hodyn for ARM Linux and run its tests under QEMU user mode
# (docs/cross-linux.md).
# Usage: scripts/test-cross.sh [--ci] [aarch64|armhf|all] [ctest arguments...]
#   aarch64: preset cross-aarch64 (Raspberry Pi 4/5, Jetson; qemu-aarch64)
#   armhf:   preset cross-armhf (32-bit ARMv7-A hard-float; qemu-arm)
#   all:     both (the default)
# Without --ci every test is built and run on each architecture (by hand).
# --ci does not repeat under emulation what a second architecture adds
# little to:
#   aarch64  (what scripts/test.sh runs: --ci aarch64) the labels oracle,
#            controller and link (built with HODYN_TEST_LABELS), except the
#            label cross-by-hand (every oracle suite but inverse dynamics'
#            and the Taylor scalar's own — forward dynamics, high orders,
#            the mass matrix's statuses and kinematics since 2026-11-29, the
#            analysis calls' before: partials and linearize, M̄⁻¹, closed
#            forms, regressors, loop closures, fixed bases, ball and
#            universal joints; the dense reference's self-check; octo_arm's
#            controller suite, whose law the firmware runs on 32-bit ARM;
#            docs/cross-linux.md lists them): the flight path — inverse
#            dynamics of every order against its oracle on the target's FPU,
#            the control law, the wire format;
#            the rest runs natively (label native-by-hand by hand). (Label
#            packaging-cross, a downstream
#            project against the cross install, left CI on 2026-11-27 to make
#            room for the sanitize suite: scripts/test-cross.sh aarch64 -L
#            packaging-cross.)
#   armhf    only the labels controller and link (the 32-bit build of the
#            control law, float and double, and of the wire format), built
#            with HODYN_TEST_LABELS and without the tools, so nothing else
#            is compiled. Not in CI since 2026-11-27 (the firmware suite runs
#            the control law and the link on 32-bit ARM there, double on the
#            M7, float on the M4F and F405): by hand, --ci armhf
# and neither builds the tools (none of those tests runs one) or anything
# but the selected test executables (target hodyn_test_executables), and both
# compile at -O2 without -g (debug info: 35-40 % of the compile time of the
# heavy files, objects ~100x larger; HODYN_TEST_DEBUG_INFO=ON keeps the
# preset's -O2 -g).
# Times and what runs where: docs/cross-linux.md, "CI time".
# e.g. scripts/test-cross.sh armhf -L hil
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ci=0
if [[ ${1:-} == --ci ]]; then
  ci=1
  shift
fi
target=${1:-all}
[ $# -gt 0 ] && shift
case "$target" in
  aarch64) arches=(aarch64) ;;
  armhf) arches=(armhf) ;;
  all) arches=(aarch64 armhf) ;;
  -h | --help)
    sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  *)
    echo "test-cross.sh: unknown target '$target' (aarch64, armhf or all)" >&2
    exit 2 ;;
esac

# googletest: the sources (/usr/src/googletest) are built for the target.
# Only the cross compilers of the targets asked for (CI: aarch64 alone).
compilers=()
for arch in "${arches[@]}"; do
  case "$arch" in
    aarch64) compilers+=(g++-aarch64-linux-gnu) ;;
    armhf) compilers+=(g++-arm-linux-gnueabihf) ;;
  esac
done
bash scripts/deps.sh "${compilers[@]}" qemu-user googletest

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
  # The CI subset (see the usage above); by hand, every test.
  labels=""
  excluded=""
  tools=ON
  selection=()
  flags=()
  targets=()
  if [[ $ci -eq 1 ]]; then
    # None of the CI subset's tests runs a tool (armhf: 13 min with them;
    # aarch64: 22 of the 84 objects of its CI build, 2026-11-26), and only
    # the test executables are built: not the libraries no selected test
    # links (simulator, closed loop, POSIX runtime, octo_arm's plugin), the
    # plugin modules or the link header check (2026-11-27).
    tools=OFF
    targets=(--target hodyn_test_executables)
    if [[ ${HODYN_TEST_DEBUG_INFO:-OFF} != ON ]]; then
      flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2)
    fi
  fi
  if [[ $ci -eq 1 && $arch == aarch64 ]]; then
    labels="oracle;controller;link"
    excluded="cross-by-hand"
    selection=(-L 'oracle|controller|link' -LE 'cross-by-hand')
  elif [[ $ci -eq 1 && $arch == armhf ]]; then
    labels="controller;link"
    selection=(-L 'controller|link')
  fi
  echo "== $preset: configure + build${labels:+ (tests of labels $labels only)}"
  start=$SECONDS
  cmake --preset "$preset" -DHODYN_URDF_EXECUTABLE="$host_urdf" "-DHODYN_TEST_LABELS=$labels" \
    "-DHODYN_TEST_EXCLUDE_LABELS=$excluded" \
    -DHODYN_BUILD_TOOLS="$tools" -DHODYN_FAST_COMPILE=ON "${flags[@]}"
  cmake --build --preset "$preset" -j2 "${targets[@]}"
  built=$SECONDS

  echo "== $preset: ctest (under $([ "$arch" = aarch64 ] && echo qemu-aarch64 || echo qemu-arm))" \
    "${selection[*]}"
  set +e
  ctest --preset "$preset" "${selection[@]}" "$@" 2>&1 | tee "$log"
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
