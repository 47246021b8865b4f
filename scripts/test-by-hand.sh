#!/usr/bin/env bash
# What CI (scripts/test.sh) leaves out for time, in one place. Each part is
# a suite that CI runs in a smaller form; docs/cross-linux.md "CI time" says
# what each leaves out and why.
#
#   scripts/test-by-hand.sh [part...]     (default: every part, in this order)
#
#   native    the native suites of label native-by-hand (the analysis calls
#             on ball and universal joints against their oracles): the
#             `test` preset builds every suite (it sets
#             HODYN_TEST_EXCLUDE_LABELS empty), ctest -L native-by-hand
#   firmware  the firmware suite with the by-hand HIL runs too
#             (HODYN_FIRMWARE_HIL_BY_HAND=ON: octo_arm on the Cortex-M7, the
#             M4F's payload-estimation run) and their budgets
#   aarch64   label cross-by-hand under qemu-aarch64 (every oracle suite but
#             inverse dynamics', the analysis calls, octo_arm's controller)
#   armhf     the armhf subset (labels controller and link, 32-bit ARM)
#
# Every part runs even when an earlier one fails; the exit status is non-zero
# if any failed. Each part compiles in its own build directory (build/test,
# build/firmware-*, build/cross-*), switching a CI-configured
# one back to the by-hand configuration (and the next CI run switches it
# back). Not here, for their length: the whole tree under the sanitizers
# (scripts/sanitize.sh without --ci; its header lists what --ci leaves out),
# the fuzzers' long runs
# (scripts/fuzz.sh all 600), the Debug build type (docs/sanitizers.md,
# "Build types").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

case "${1:-}" in
  -h | --help)
    sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(native firmware aarch64 armhf)
for part in "${parts[@]}"; do
  case "$part" in
    native | firmware | aarch64 | armhf) ;;
    *)
      echo "test-by-hand.sh: unknown part '$part' (native, firmware, aarch64, armhf)" >&2
      exit 2 ;;
  esac
done

native() {
  cmake --preset test -DHODYN_FAST_COMPILE=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 \
    && cmake --build --preset test -j2 \
    && ctest --preset test -L native-by-hand
}

summary=()
failed=0
for part in "${parts[@]}"; do
  echo
  echo "======== $part (by hand)"
  start=$SECONDS
  set +e
  case "$part" in
    native) native ;;
    firmware) HODYN_FIRMWARE_HIL_BY_HAND=1 bash scripts/test-firmware.sh ;;
    aarch64) bash scripts/test-cross.sh aarch64 -L cross-by-hand ;;
    armhf) bash scripts/test-cross.sh --ci armhf ;;
  esac
  rc=$?
  set -e
  took=$((SECONDS - start))
  if [[ $rc -eq 0 ]]; then
    summary+=("$part: passed ($((took / 60)) min $((took % 60)) s)")
  else
    summary+=("$part: FAILED, exit $rc ($((took / 60)) min $((took % 60)) s)")
    failed=1
  fi
done

echo
echo "======== summary (by hand)"
for line in "${summary[@]}"; do echo "== $line"; done
exit "$failed"
