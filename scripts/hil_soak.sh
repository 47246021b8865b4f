#!/usr/bin/env bash
# The HIL soak by hand (docs/hil.md, "Process faults"): hodyn-fc and
# hodyn-sim in lockstep for SECONDS of simulated time under mixed faults
# (drops, corruption, duplicates, reorders, delays, a 2 s outage, a 1 s burst
# of 30 % corrupted frames, 5 s of garbage between frames), the resident
# memory (VmRSS and RssAnon) of both sampled every 0.25 s. Passes when
# neither crashes, every watchdog engagement recovered and both RssAnon
# (heap, stacks) stay within 1 % or 8 kB after the first tenth of the run. CI runs 600 s (ctest hil_soak, ~160 s wall).
#
#   scripts/hil_soak.sh [SECONDS] [BUILD_DIR]   default 3600 s, build/test
#
# Builds nothing: build hodyn-fc and hodyn-sim in BUILD_DIR first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SECONDS_SIMULATED=${1:-3600}
BUILD=${2:-build/test}
for exe in hodyn-fc hodyn-sim; do
  [ -x "$BUILD/tools/hil/$exe" ] || { echo "no $BUILD/tools/hil/$exe: build it first"; exit 2; }
done
exec bash tests/tools/hil_process_faults.sh "$BUILD/tools/hil/hodyn-fc" "$BUILD/tools/hil/hodyn-sim" \
  soak "$SECONDS_SIMULATED"
