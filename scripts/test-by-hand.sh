#!/usr/bin/env bash
# What CI (scripts/test.sh) leaves out for time, in one place: the by-hand
# suites of scripts/test.sh, run one after the other with its summary.
# docs/cross-linux.md "CI time" says what each leaves out and why.
#
#   scripts/test-by-hand.sh [part...]     (default: every part, in this order)
#
#   native    the native suites of label native-by-hand (the analysis calls
#             on ball and universal joints against their oracles): the
#             `test` preset with nothing excluded, ctest -L native-by-hand
#   firmware  the firmware suite with the by-hand HIL runs too
#             (HODYN_FIRMWARE_HIL_BY_HAND=1: octo_arm on the Cortex-M7, the
#             M4F's payload-estimation and signed runs) and their budgets
#   aarch64   label cross-by-hand under qemu-aarch64 (every oracle suite but
#             inverse dynamics', the analysis calls, octo_arm's controller)
#   armhf     the armhf subset (labels controller and link, 32-bit ARM)
#
# Each part builds in the directory of the CI suite it extends (build/test,
# build/firmware-*, build/cross-*), switching it to the by-hand
# configuration (the next CI run switches it back). Not here, for their
# length: the whole tree under the sanitizers (scripts/sanitize.sh without
# --ci; its header lists what --ci leaves out), the fuzzers' long runs
# (scripts/fuzz.sh all 600), the Debug build type (docs/sanitizers.md,
# "Build types").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

suites=()
for part in "${@:-native firmware aarch64 armhf}"; do
  for p in $part; do
    case "$p" in
      -h | --help)
        sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
      native | firmware | aarch64) suites+=("$p-by-hand") ;;
      armhf) suites+=(armhf) ;;
      *)
        echo "test-by-hand.sh: unknown part '$p' (native, firmware, aarch64, armhf)" >&2
        exit 2 ;;
    esac
  done
done
HODYN_TEST_SUITES="${suites[*]}" exec bash scripts/test.sh
