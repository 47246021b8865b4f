#!/usr/bin/env bash
# Build every Google Benchmark suite without running any (CI: proves they
# compile). Uses the `bench-build` preset (build/bench-build: Release, benchmarks
# ON, tests and tools OFF, portable ISA — HODYN_NATIVE_ARCH OFF — and warnings
# as errors). The suites are the hodyn_add_bench(...) entries of
# bench/CMakeLists.txt; one whose target this configuration does not define
# (bench_mujoco without MuJoCo) is reported and skipped. Prints the wall time.
#   scripts/build-bench.sh            # -j2
#   HODYN_BUILD_JOBS=4 scripts/build-bench.sh
# To time the suites, use scripts/bench.sh (release preset, -march=native).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

start=$(date +%s)
bash scripts/deps.sh libmujoco-dev  # MuJoCo: the bench_mujoco baseline only
cmake --preset bench-build

mapfile -t benches < <(sed -nE 's/^[[:space:]]*hodyn_add_bench\(([A-Za-z0-9_]+).*/\1/p' bench/CMakeLists.txt)
if [[ ${#benches[@]} -eq 0 ]]; then
  echo "build-bench: no hodyn_add_bench(...) entries in bench/CMakeLists.txt" >&2
  exit 1
fi
targets=$(cmake --build --preset bench-build --target help)
configured=()
for name in "${benches[@]}"; do
  if grep -qE "(^|[[:space:]])${name}([[:space:]]|$)" <<<"${targets}"; then
    configured+=("${name}")
  else
    echo "build-bench: ${name} is not configured here, skipped"
  fi
done
if [[ ${#configured[@]} -eq 0 ]]; then
  echo "build-bench: no benchmark target configured (is Google Benchmark installed?)" >&2
  exit 1
fi

cmake --build --preset bench-build -j"${HODYN_BUILD_JOBS:-2}" --target "${configured[@]}"

elapsed=$(($(date +%s) - start))
echo
echo "build-bench: built ${#configured[@]} suites (${configured[*]}) in build/bench-build/bench" \
  "in $((elapsed / 60)) min $((elapsed % 60)) s"
