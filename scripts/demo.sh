#!/usr/bin/env bash
# The main job: build the Release closed-loop demo and fly the aerial
# manipulator along the Table 3 reference in every scenario (hodyn-demo).
# Extra arguments go to hodyn-demo, e.g. --scenario gust --summary-json s.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target hodyn-demo hodyn_feedback_linearization_plugin -j2
exec build/release/tools/closed-loop-demo/hodyn-demo --out build/closed-loop "$@"
