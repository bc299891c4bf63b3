#!/usr/bin/env bash
# Every performance benchmark of docs/benchmarks.md, one after another, each writing its JSON to OUT.
#   bash bench/run_all.sh [OUT]        (default runs/bench; about 10 minutes on 2 quiet cores)
# Each script also prints its tables; the wall time of each is appended to OUT/walls.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-runs/bench}
PY=${PY:-.venv/bin/python}
mkdir -p "$OUT"
export PREFECT_SERVER_ANALYTICS_ENABLED=false TOKENIZERS_PARALLELISM=false
run() {
  local name=$1; shift
  local t0=$SECONDS
  echo "== $name: $*"
  "$PY" "$@" --json "$OUT/$name.json" > "$OUT/$name.log" 2>&1 || { echo "$name failed (see $OUT/$name.log)"; tail -5 "$OUT/$name.log"; return 1; }
  echo "$name $((SECONDS - t0)) s" | tee -a "$OUT/walls.txt"
}
: > "$OUT/walls.txt"
run env_step -m bench.env_step
run many_episodes_125 -m bench.many_episodes
run many_episodes_25 -m bench.many_episodes --tasks 25
run rollouts -m bench.rollouts
run update_step -m bench.update_step --batch 8 --prompt 384 --completion 128 --steps 4
run synth_cost -m bench.synth_cost
