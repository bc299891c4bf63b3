#!/usr/bin/env bash
# One GPU check for the trainer, sized for 10 minutes on one GPU (H100/H200 class):
# ERPO update step (tokens/s, peak memory; with and without gradient checkpointing), transformers
# batched generation (tokens/s) and 4-turn rollouts through TransformersPolicy with and without the KV cache
# across turns, for a ~0.5B Qwen2-shaped model with random weights. Needs torch and
# transformers, no internet, no vLLM. Writes $OUT/gpu_check.json when OUT is set; prints the JSON.
#   bash bench/gpu_check.sh                 # defaults below
#   bash bench/gpu_check.sh --seq 1024      # any `python -m bench.gpu_check` option
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
exec timeout 560 "$PY" -m bench.gpu_check --size 0.5b --batch 8 16 --seq 2048 --steps 3 \
  --gen-batch 1 16 64 --prompt 512 --new-tokens 128 "$@"
