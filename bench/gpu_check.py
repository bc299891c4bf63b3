"""GPU check: one ERPO update step, transformers batched generation and multi-turn rollouts for a ~0.5B model.

Needs torch and transformers only (no internet, no vLLM): the model is a Qwen2 configuration shaped like
Qwen2.5-0.5B (24 layers, hidden 896, GQA 14/2 heads, vocab 151,936, tied embeddings, ~494M parameters)
with random weights. The update step is the trainer's own math (rl.erpo.logprobs_from_logits and
policy_loss) under bf16 autocast with fp32 master weights and AdamW. Generation is measured twice: with
`model.generate`, and as multi-turn rollouts through the project's own backend (`TransformersPolicy`: each
turn appends new tokens to the last prompt and sample), with and without the KV cache kept across turns.
Prints one JSON summary.

    python -m bench.gpu_check                       # on the GPU machine (see bench/gpu_check.sh)
    python -m bench.gpu_check --size tiny --device cpu --batch 2 --seq 64   # smoke test anywhere
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import torch

from rl.erpo import first_target, logprobs_from_logits, policy_loss
from synth.fsio import write_json_atomic

SIZES = {
    # Qwen2.5-0.5B's shape
    "0.5b": dict(
        hidden_size=896,
        intermediate_size=4864,
        num_hidden_layers=24,
        num_attention_heads=14,
        num_key_value_heads=2,
        vocab_size=151936,
        tie_word_embeddings=True,
    ),
    "tiny": dict(
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        vocab_size=512,
        tie_word_embeddings=True,
    ),
}


def build_model(size: str, device: torch.device) -> torch.nn.Module:
    from transformers import AutoModelForCausalLM, Qwen2Config

    cfg = Qwen2Config(max_position_embeddings=32768, rope_theta=1e6, **SIZES[size])
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(cfg, attn_implementation="sdpa")
    return model.to(device=device, dtype=torch.float32)


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def peak_gib(device: torch.device) -> float | None:
    return round(torch.cuda.max_memory_allocated() / 2**30, 2) if device.type == "cuda" else None


def update_step_bench(model, device, batch: int, seq: int, steps: int, grad_ckpt: bool) -> dict:
    """Tokens/s and peak memory of old-logprob pass + forward/backward + AdamW step."""
    vocab = model.config.vocab_size
    if grad_ckpt:
        model.gradient_checkpointing_enable()
    else:
        model.gradient_checkpointing_disable()
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-6, fused=device.type == "cuda")
    g = torch.Generator(device="cpu").manual_seed(1)
    ids = torch.randint(0, vocab, (batch, seq), generator=g).to(device)
    mask = torch.zeros(batch, seq, device=device)
    mask[:, seq // 4 :] = 1.0  # the agent's tokens: the last three quarters
    adv = torch.randn(batch, generator=g).to(device)
    amp = torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda")
    times = []
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats()
    for i in range(steps + 1):  # first one warms up
        sync(device)
        t0 = time.perf_counter()
        start = first_target(mask) - 1  # as the trainer: logits from the first agent token on
        keep = seq - start
        with torch.no_grad(), amp:
            old = logprobs_from_logits(model(input_ids=ids, logits_to_keep=keep).logits, ids, start)
        with amp:
            logits = model(input_ids=ids, logits_to_keep=keep).logits
        lp = logprobs_from_logits(logits, ids, start)
        loss, metrics = policy_loss(lp, old, adv, mask, clip_low=0.2, clip_high=0.28)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        del logits, lp, loss
        sync(device)
        if i:
            times.append(time.perf_counter() - t0)
    mean = sum(times) / len(times)
    del opt
    return {
        "batch": batch,
        "seq": seq,
        "grad_checkpointing": grad_ckpt,
        "step_s": round(mean, 4),
        "tokens_per_s": round(batch * seq / mean, 1),
        "peak_mem_gib": peak_gib(device),
    }


@torch.no_grad()
def generate_bench(model, device, batch: int, prompt: int, new_tokens: int) -> dict:
    """Sampled generation with the KV cache: new tokens per second over the batch."""
    model.eval()
    vocab = model.config.vocab_size
    g = torch.Generator(device="cpu").manual_seed(2)
    ids = torch.randint(0, vocab, (batch, prompt), generator=g).to(device)
    attn = torch.ones_like(ids)
    kwargs = dict(
        max_new_tokens=new_tokens,
        min_new_tokens=new_tokens,
        do_sample=True,
        temperature=1.0,
        top_k=0,
        top_p=1.0,
        pad_token_id=0,
        eos_token_id=None,
    )
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
        model.generate(
            input_ids=ids[:, :8], attention_mask=attn[:, :8], **{**kwargs, "max_new_tokens": 4, "min_new_tokens": 4}
        )
        if device.type == "cuda":
            torch.cuda.reset_peak_memory_stats()
        sync(device)
        t0 = time.perf_counter()
        out = model.generate(input_ids=ids, attention_mask=attn, **kwargs)
        sync(device)
    dt = time.perf_counter() - t0
    made = (out.shape[1] - prompt) * batch
    return {
        "batch": batch,
        "prompt": prompt,
        "new_tokens": new_tokens,
        "seconds": round(dt, 3),
        "tokens_per_s": round(made / dt, 1),
        "peak_mem_gib": peak_gib(device),
    }


@torch.no_grad()
def policy_bench(
    model, device, batch: int, prompt: int, new_tokens: int, turns: int, added: int, cache_mb: float
) -> dict:
    """Rollout-shaped generation with `TransformersPolicy`: `turns` turns, each prompt = last prompt + sample +
    `added` new tokens (an observation); `cache_mb` 0 encodes every prompt whole."""
    from rl.backends.base import SamplingParams
    from rl.backends.transformers_backend import TransformersPolicy

    class Tok:  # TransformersPolicy reads pad and eos ids only
        pad_token_id, eos_token_id = 0, None

    model.eval()
    vocab = model.config.vocab_size
    g = torch.Generator(device="cpu").manual_seed(3)
    policy = TransformersPolicy(model, Tok(), device=str(device), max_batch=batch, prefix_cache_mb=cache_mb)
    prompts = [torch.randint(1, vocab, (prompt,), generator=g).tolist() for _ in range(batch)]
    made = 0
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
        policy.generate([p[:8] for p in prompts[:2]], SamplingParams(max_new_tokens=2, seed=0))  # warm-up
        if device.type == "cuda":
            torch.cuda.reset_peak_memory_stats()
        sync(device)
        t0 = time.perf_counter()
        for turn in range(turns):
            samples = policy.generate(prompts, SamplingParams(max_new_tokens=new_tokens, temperature=1.0, seed=turn))
            made += sum(len(s.token_ids) for s in samples)
            prompts = [
                p + s.token_ids + torch.randint(1, vocab, (added,), generator=g).tolist()
                for p, s in zip(prompts, samples)
            ]
        sync(device)
    dt = time.perf_counter() - t0
    stats = policy.prefix_cache.stats.as_dict() if policy.prefix_cache is not None else {}
    return {
        "batch": batch,
        "prompt": prompt,
        "new_tokens": new_tokens,
        "turns": turns,
        "added_per_turn": added,
        "prefix_cache": cache_mb > 0,
        "reused_share": stats.get("reused_share", 0.0),
        "seconds": round(dt, 3),
        "tokens_per_s": round(made / dt, 1),
        "peak_mem_gib": peak_gib(device),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", choices=sorted(SIZES), default="0.5b")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--batch", type=int, nargs="+", default=[8, 16])
    ap.add_argument("--seq", type=int, default=2048)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--gen-batch", type=int, nargs="+", default=[1, 16, 64])
    ap.add_argument("--prompt", type=int, default=512)
    ap.add_argument("--new-tokens", type=int, default=128)
    ap.add_argument(
        "--policy-batch", type=int, nargs="+", default=[16, 64], help="rows of the multi-turn rollout check"
    )
    ap.add_argument("--turns", type=int, default=4, help="turns of the multi-turn rollout check")
    ap.add_argument("--added", type=int, default=64, help="tokens added to the context between turns")
    ap.add_argument("--out", default=os.environ.get("OUT", ""))
    args = ap.parse_args(argv)
    device = torch.device(
        "cuda"
        if args.device == "auto" and torch.cuda.is_available()
        else ("cpu" if args.device == "auto" else args.device)
    )
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
    t0 = time.perf_counter()
    model = build_model(args.size, device)
    summary = {
        "device": torch.cuda.get_device_name() if device.type == "cuda" else "cpu",
        "torch": torch.__version__,
        "params_m": round(sum(p.numel() for p in model.parameters()) / 1e6, 1),
        "build_s": round(time.perf_counter() - t0, 1),
        "update": [],
        "generate": [],
        "rollouts": [],
    }
    for b in args.batch:
        for ckpt in (False, True):
            try:
                summary["update"].append(update_step_bench(model, device, b, args.seq, args.steps, ckpt))
            except torch.OutOfMemoryError:
                summary["update"].append(
                    {"batch": b, "seq": args.seq, "grad_checkpointing": ckpt, "error": "out of memory"}
                )
                torch.cuda.empty_cache()
            print(json.dumps(summary["update"][-1]), file=sys.stderr, flush=True)
            save(summary, args.out)
    for b in args.gen_batch:
        summary["generate"].append(generate_bench(model, device, b, args.prompt, args.new_tokens))
        print(json.dumps(summary["generate"][-1]), file=sys.stderr, flush=True)
        save(summary, args.out)
    for b in args.policy_batch:
        for cache_mb in (0.0, 4096.0):
            summary["rollouts"].append(
                policy_bench(model, device, b, args.prompt, args.new_tokens, args.turns, args.added, cache_mb)
            )
            print(json.dumps(summary["rollouts"][-1]), file=sys.stderr, flush=True)
            save(summary, args.out)  # a run cut by the time limit keeps what it measured
    summary["total_s"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(summary, indent=1, sort_keys=True))
    save(summary, args.out)


def save(summary: dict, out: str) -> None:
    """Write OUT/gpu_check.json atomically when an output folder is given.

    synth.fsio is standard library only, so this runs on a GPU machine with just torch and transformers.
    """
    if not out:
        return
    Path(out).mkdir(parents=True, exist_ok=True)
    write_json_atomic(Path(out) / "gpu_check.json", summary)


if __name__ == "__main__":
    main()
