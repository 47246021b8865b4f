#!/usr/bin/env bash
# Build and run hodyn's libFuzzer targets (tests/fuzz, docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET [SECONDS]   one target (link, state_json,
#                                      plugin_parameters, urdf, robot_files)
#                                      or `all`, SECONDS each (default 600)
#   scripts/fuzz.sh --ci               every target for HODYN_FUZZ_CI_SECONDS
#                                      (default 20) each, two at a time: the
#                                      `fuzz` suite of scripts/test.sh
#   scripts/fuzz.sh --build            only configure and build
#
# The build directory is build/fuzz (HODYN_FUZZ_BUILD_DIR overrides it):
# clang, RelWithDebInfo at -O1 -g (--ci: -O1), HODYN_FUZZ=ON, ASan + UBSan (no recovery).
# By hand, each target grows its own working corpus in BUILD/corpus/TARGET
# (the checked-in seeds tests/fuzz/corpus/TARGET and the regression inputs
# tests/fuzz/regressions/TARGET are read, never written); --ci starts from
# the seeds every time. A crash, a leak, UB or an input running longer than
# 10 s stops that target: the input is written to BUILD/artifacts/TARGET/,
# and the script exits 1 after the others ran. Add such an input to
# tests/fuzz/regressions/TARGET/ with its fix (docs/fuzzing.md).
#
# Prints, per target: executions, executions per second, and libFuzzer's
# coverage (cov: edges reached, ft: features) at the end of the run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

targets_all=(link state_json plugin_parameters urdf robot_files)
build=${HODYN_FUZZ_BUILD_DIR:-build/fuzz}
jobs=${HODYN_FUZZ_JOBS:-2}

usage() {
  sed -n '2,12p' "$0" >&2
  exit 2
}

mode=hand
seconds=600
targets=()
case "${1:-}" in
  --ci)
    mode=ci
    seconds=${HODYN_FUZZ_CI_SECONDS:-20}
    targets=("${targets_all[@]}")
    [[ $# -eq 1 ]] || usage ;;
  --build)
    mode=build
    [[ $# -eq 1 ]] || usage ;;
  all)
    targets=("${targets_all[@]}")
    seconds=${2:-600} ;;
  "" | -h | --help) usage ;;
  *)
    [[ " ${targets_all[*]} " == *" $1 "* ]] || {
      echo "fuzz.sh: unknown target '$1' (${targets_all[*]}, all)" >&2
      exit 2
    }
    targets=("$1")
    seconds=${2:-600} ;;
esac
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || {
  echo "fuzz.sh: SECONDS must be a positive integer, got '$seconds'" >&2
  exit 2
}

start=$SECONDS
bash scripts/deps.sh clang libclang-rt-14-dev >/dev/null
# --ci compiles without -g (CI time, since 2026-11-29): a finding still
# prints its stack with function names (the symbol table) and writes its
# input to BUILD/artifacts/TARGET/; replay it by hand (-g) for file and line.
# Switching between the two recompiles BUILD.
opt="-O1 -g"
[[ $mode == ci ]] && opt="-O1"
echo "== configure and build $build (clang, $opt, ASan + UBSan + libFuzzer)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$opt" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt" \
  -DHODYN_FUZZ=ON -DHODYN_WERROR=ON -DHODYN_BUILD_BENCH=OFF >"$build.configure.log" 2>&1 || {
  cat "$build.configure.log"
  exit 1
}
fuzzers=()
for t in "${targets[@]:-${targets_all[@]}}"; do fuzzers+=("fuzz_$t"); done
cmake --build "$build" --target "${fuzzers[@]}" -j"$jobs"
built=$((SECONDS - start))
echo "== built in $((built / 60)) min $((built % 60)) s"
[[ $mode == build ]] && exit 0

# Sanitizer settings: stop at the first error, with a stack trace; leaks of
# urdfdom's own graphs are suppressed (tests/fuzz/lsan.supp says why).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/fuzz/lsan.supp:print_suppressions=0}

dict_of() {
  case "$1" in
    state_json | robot_files) echo "tests/fuzz/dict/json.dict" ;;
    urdf) echo "tests/fuzz/dict/urdf.dict" ;;
  esac
}

# run_target TARGET: one libFuzzer run; its log is BUILD/logs/TARGET.log.
run_target() {
  local t=$1 work dict
  local log=$build/logs/$t.log artifacts=$build/artifacts/$t
  mkdir -p "$build/logs" "$artifacts"
  if [[ $mode == ci ]]; then
    work=$build/ci-corpus/$t
    rm -rf "$work"
  else
    work=$build/corpus/$t
  fi
  mkdir -p "$work"
  local inputs=("$work" "tests/fuzz/corpus/$t")
  [[ -d tests/fuzz/regressions/$t ]] && inputs+=("tests/fuzz/regressions/$t")
  local options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048
    -print_final_stats=1 -artifact_prefix="$artifacts/")
  dict=$(dict_of "$t")
  [[ -n $dict ]] && options+=(-dict="$dict")
  "$build/tests/fuzz/fuzz_$t" "${options[@]}" "${inputs[@]}" >"$log" 2>&1
}

# summary TARGET STATUS: one line from the log.
summary() {
  local t=$1 rc=$2 log=$build/logs/$1.log
  local runs rate cov ft
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  local verdict=ok
  if [[ $rc -ne 0 ]]; then
    verdict="FAILED (exit $rc): $(ls "$build/artifacts/$t" 2>/dev/null | head -n 1)"
  fi
  printf '== %-18s %9s runs %7s exec/s  cov %6s  ft %7s  %s\n' "$t" "${runs:-?}" "${rate:-?}" \
    "${cov:-?}" "${ft:-?}" "$verdict"
}

echo "== fuzzing ${targets[*]}: $seconds s each, $jobs at a time"
declare -A rc_of
running=0
for t in "${targets[@]}"; do
  if [[ $running -ge $jobs ]]; then
    wait -n || true
    running=$((running - 1))
  fi
  rm -f "$build/logs/$t.rc"
  (
    rc=0
    run_target "$t" || rc=$?
    echo "$rc" >"$build/logs/$t.rc"
  ) &
  running=$((running + 1))
done
wait
failed=0
for t in "${targets[@]}"; do
  rc_of[$t]=$(cat "$build/logs/$t.rc" 2>/dev/null || echo 1)
  [[ ${rc_of[$t]} -eq 0 ]] || failed=1
done

for t in "${targets[@]}"; do summary "$t" "${rc_of[$t]}"; done
for t in "${targets[@]}"; do
  [[ ${rc_of[$t]} -eq 0 ]] && continue
  echo
  log=$build/logs/$t.log
  first=$(grep -nE 'fuzz invariant failed|ERROR:|runtime error:|what\(\):|terminate called' "$log" |
    head -n 1 | cut -d: -f1)
  echo "== $t failed; $log from the first error:"
  tail -n +"${first:-1}" "$log" | grep -vE '^#[0-9]+|NEW_FUNC' | head -n 40
  echo "== reproduce: $build/tests/fuzz/fuzz_$t $build/artifacts/$t/<file>"
done
took=$((SECONDS - start))
echo "== fuzz: $((took / 60)) min $((took % 60)) s in all (build $((built / 60)) min $((built % 60)) s)"
exit "$failed"
