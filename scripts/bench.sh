#!/usr/bin/env bash
# Build the Google Benchmark suites with the `release` preset and run them.
# Every suite listed with hodyn_add_bench(...) in bench/CMakeLists.txt is run
# with 10 repetitions (aggregates only), pinned to CPU 1 when taskset exists;
# JSON results go to build/release/bench/<name>.json. Each benchmark gets a
# 0.2 s warm-up (--benchmark_min_warmup_time; a later argument overrides it).
# Extra arguments go to every benchmark binary, e.g.:
#   scripts/bench.sh --benchmark_filter='BM_InverseDynamics/'
# Suites whose target is not configured (bench_mujoco without MuJoCo) are
# skipped. Then (issue 22) the suites that compare builds — bench_inverse_dynamics,
# bench_dynamics, bench_controller — are built again with the `bench-build`
# preset (no -march=native: x86-64 with SSE2, 128-bit vectors, as a NEON flight
# computer has) and run on the benchmarks the report compares (ID r = 0..2,
# FD r = 0, the mass matrix, the controller step) into
# build/bench-build/bench/; HODYN_BENCH_BASELINE=0 skips that part.
# At the end bench/report.py turns the JSON files into bench/RESULTS.md
# and the plots in bench/img/ (Debian python3 + matplotlib). A full run takes
# about 35 minutes (2026-11-29, 15 suites); scripts/build-bench.sh only builds the suites.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/deps.sh libmujoco-dev  # MuJoCo: the bench_mujoco baseline only
cmake --preset release

mapfile -t benches < <(sed -nE 's/^[[:space:]]*hodyn_add_bench\(([A-Za-z0-9_]+).*/\1/p' bench/CMakeLists.txt)
if [[ ${#benches[@]} -eq 0 ]]; then
  echo "bench: no hodyn_add_bench(...) entries in bench/CMakeLists.txt" >&2
  exit 1
fi
# Keep only the suites this configuration defines (bench_mujoco needs MuJoCo).
targets=$(cmake --build --preset release --target help)
configured=()
for name in "${benches[@]}"; do
  if grep -qE "(^|[[:space:]])${name}([[:space:]]|$)" <<<"${targets}"; then
    configured+=("${name}")
  else
    echo "bench: ${name} is not configured here, skipped"
  fi
done
benches=("${configured[@]}")
cmake --build --preset release -j"$(nproc)" --target "${benches[@]}"

pin=()
if command -v taskset >/dev/null 2>&1 && taskset -c 1 true 2>/dev/null; then
  pin=(taskset -c 1)
fi

outdir=build/release/bench
for name in "${benches[@]}"; do
  echo "== ${name}"
  "${pin[@]}" "${outdir}/${name}" \
    --benchmark_repetitions=10 \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="${outdir}/${name}.json" \
    --benchmark_out_format=json \
    --benchmark_color=false \
    --benchmark_min_warmup_time=0.2 \
    "$@" | tee "${outdir}/${name}.txt"
done

if [[ ${HODYN_BENCH_BASELINE:-1} != 0 ]]; then
  base_suites=(bench_inverse_dynamics bench_dynamics bench_controller)
  cmake --preset bench-build
  cmake --build --preset bench-build -j"$(nproc)" --target "${base_suites[@]}"
  basedir=build/bench-build/bench
  for name in "${base_suites[@]}"; do
    echo "== ${name} (baseline x86-64)"
    "${pin[@]}" "${basedir}/${name}" \
      --benchmark_repetitions=10 \
      --benchmark_report_aggregates_only=true \
      --benchmark_out="${basedir}/${name}.json" \
      --benchmark_out_format=json \
      --benchmark_color=false \
      --benchmark_min_warmup_time=0.2 \
      --benchmark_filter='^(BM_InverseDynamics/[0-2]|BM_ForwardDynamics/0|BM_MassMatrix|BM_ControllerStep<double>)$' \
      "$@" | tee "${basedir}/${name}.txt"
  done
fi

echo
echo "== medians (${pin[*]:-unpinned})"
for name in "${benches[@]}"; do
  grep -E '_median ' "${outdir}/${name}.txt" || true
done

# Plots and bench/RESULTS.md from the JSON files. Debian's matplotlib lives in
# the system interpreter, which may not be the first python3 on PATH.
python=python3
if [[ -x /usr/bin/python3 ]] && /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  python=/usr/bin/python3
fi
echo
"${python}" bench/report.py --bench-dir "${outdir}" --baseline-dir build/bench-build/bench \
  --cpu "${pin[*]:-unpinned}"
