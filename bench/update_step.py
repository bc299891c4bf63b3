"""One ERPO update step against TRL's GRPO loss: tokens/s and peak memory on the same model and batch.

Every variant runs the same work on the same tiny Llama ("small", ~3.6M parameters, rl.tiny_model) and
the same random batch (B sequences of PROMPT + COMPLETION tokens; in the completion, blocks of 64 tokens
whose first --agent-fraction are agent tokens and the rest tool output): forward, per-token logprobs,
clipped surrogate with token-mean aggregation, backward, gradient clipping, AdamW step.

- "erpo": the trainer's own update, `rl.update_step.Learner.update` (log-probs at agent positions only,
  the LM head in chunks of `optim.logprob_chunk`, rl/agent_logprobs.py);
- "erpo-full": the same Learner with `optim.logprob_chunk: 0` (logits of every position from the first
  agent token on, the path before chunking);
- "trl":  `GRPOTrainer._compute_loss` of TRL with loss_type "bnpo" (token mean over the batch), called on
  a GRPOTrainer built around the same model. TRL is needed only here: `pip install trl accelerate`
  (the script says so and skips that variant when it is missing);
- "erpo-lora": the trainer's update with rank --lora-rank adapters (rl.lora) on the same model, AdamW on
  the adapters only.

`logits_peak_mib`: the most bytes that tensors as wide as the vocabulary (logits, their log-softmax and
gradients) held at once during one update step, tracked per allocation (a TorchDispatchMode).
--model DIR runs the variants on a from_pretrained folder (e.g. `python -m rl.gguf_convert`'s SmolLM2)
instead of the tiny Llama.

Each variant runs in its own process, so peak memory is that process's peak RSS above its RSS before the
first step. The script also checks that both compute the same loss value on an off-policy batch.

    python -m bench.update_step --batch 8 --prompt 384 --completion 128 --steps 5
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import subprocess
import sys
import time
import weakref

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from bench import common
from rl.distributed import DistInfo
from rl.lora import LoRAConfig, apply_lora, trainable_parameters
from rl.sft import collate_rows
from rl.train_config import config_from_dict
from rl.types import TokenRow
from rl.update_step import Learner, UpdateRow

VARIANTS = ("erpo", "erpo-full", "trl", "erpo-lora")


class VocabPeak(TorchDispatchMode):
    """Tracks the live bytes of tensors whose last dimension is the vocabulary (per storage) and their peak."""

    def __init__(self, vocab: int):
        super().__init__()
        self.vocab, self.live, self.refs, self.now, self.peak = vocab, {}, {}, 0, 0

    def _drop(self, ptr: int) -> None:
        self.refs[ptr] -= 1
        if self.refs[ptr] == 0:
            self.now -= self.live.pop(ptr)
            del self.refs[ptr]

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor) and t.dim() >= 2 and t.shape[-1] == self.vocab:
                ptr = t.untyped_storage().data_ptr()
                if ptr not in self.live:
                    self.live[ptr], self.refs[ptr] = t.untyped_storage().nbytes(), 0
                    self.now += self.live[ptr]
                    self.peak = max(self.peak, self.now)
                self.refs[ptr] += 1
                weakref.finalize(t, self._drop, ptr)
        return out


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def make_batch(
    vocab: int, batch: int, prompt: int, completion: int, seed: int = 0, agent_fraction: float = 1.0
) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, vocab, (batch, prompt + completion), generator=g)
    mask = torch.zeros(batch, prompt + completion)
    for lo in range(prompt, prompt + completion, 64):  # agent turns between tool outputs
        mask[:, lo : lo + max(1, round(64 * agent_fraction))] = 1.0
    adv = torch.randn(batch, generator=g)
    # an off-policy batch: old logprobs a little away from the current ones (filled in by the caller)
    return {"ids": ids, "mask": mask, "adv": adv, "noise": 0.05 * torch.randn(batch, completion, generator=g)}


def build(size: str, folder: str = ""):
    if folder:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tok = AutoTokenizer.from_pretrained(folder)
        model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32)
    else:
        from rl.tiny_model import build_model, build_tokenizer

        tok = build_tokenizer(vocab_size=2048)
        model = build_model(tok, size=size, seed=0)
    model.train()
    return model, tok


class BenchTrajectory:
    """What `Learner.update` reads of a trajectory: its training sequences."""

    def __init__(self, ids: torch.Tensor, mask: torch.Tensor):
        self.row = TokenRow(ids.tolist(), [int(m) for m in mask.tolist()], [0.0] * ids.shape[0])

    def training_sequences(self) -> list[TokenRow]:
        return [self.row]


def make_learner(model, params, batch: int, chunk: int) -> Learner:
    """The trainer's Learner on `model`: token-mean (as TRL's bnpo), clip 0.2 / 0.28, one micro-batch."""
    cfg = config_from_dict(
        {
            "envs": ["-"],
            "loss": {"agg": "token-mean", "clip_low": 0.2, "clip_high": 0.28},
            "optim": {"lr": 1e-4, "micro_batch_size": batch, "logprob_chunk": chunk, "grad_clip": 1.0},
        }
    )
    opt = torch.optim.AdamW(params, lr=1e-4)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0)
    return Learner(
        config=cfg,
        model=model,
        wrapped=model,
        ref_model=None,
        optimizer=opt,
        scheduler=sched,
        dist=DistInfo(),
        device=torch.device("cpu"),
        pad_id=0,
        temperature=1.0,
    )


def erpo_offpolicy_loss(learner: Learner, b, prompt: int) -> tuple[float, torch.Tensor]:
    """The Learner's loss on the batch with old logprobs = current + noise; (loss, old logprobs of the completion)."""
    trajs = [BenchTrajectory(ids, m) for ids, m in zip(b["ids"], b["mask"])]
    rows = [UpdateRow(t.row, float(a)) for t, a in zip(trajs, b["adv"].tolist())]
    batch = collate_rows([r.seq for r in rows], 0, "cpu")
    with torch.no_grad():
        old = learner.token_logprobs(learner.model, batch)[0]
    old[:, prompt:] += b["noise"]
    loss, _ = learner._micro_step(rows, float(b["mask"].sum()), old)
    learner.optimizer.zero_grad(set_to_none=True)
    return loss, old[:, prompt:]


def trl_trainer(model, tok):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    args = GRPOConfig(
        output_dir="/tmp/forgegym_trl_bench",
        loss_type="bnpo",
        beta=0.0,
        epsilon=0.2,
        epsilon_high=0.28,
        per_device_train_batch_size=2,
        num_generations=2,
        report_to=[],
        use_cpu=True,
        bf16=False,
        max_completion_length=8,
        logging_steps=1000,
    )
    data = Dataset.from_dict({"prompt": ["hello"] * 4})
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=lambda completions, **kw: [0.0] * len(completions),
        args=args,
        train_dataset=data,
        processing_class=tok,
    )
    return trainer


def trl_loss(trainer, model, b, prompt: int, old_completion: torch.Tensor | None):
    ids, mask = b["ids"], b["mask"]
    inputs = {
        "prompt_ids": ids[:, :prompt],
        "prompt_mask": torch.ones(ids.shape[0], prompt, dtype=torch.long),
        "completion_ids": ids[:, prompt:],
        "completion_mask": mask[:, prompt:].long(),
        "advantages": b["adv"],
        "num_items_in_batch": mask.sum(),
    }
    if old_completion is not None:
        inputs["old_per_token_logps"] = old_completion
    return trainer._compute_loss(model, inputs)


def run_variant(variant: str, args) -> dict:
    torch.set_num_threads(args.threads)
    model, tok = build(args.size, args.model)
    vocab = model.get_output_embeddings().weight.shape[0]
    b = make_batch(vocab, args.batch, args.prompt, args.completion, agent_fraction=args.agent_fraction)
    if variant == "erpo-lora":
        apply_lora(model, LoRAConfig(rank=args.lora_rank, alpha=2.0 * args.lora_rank), seed=0)
    params = trainable_parameters(model)
    learner = make_learner(model, params, args.batch, 0 if variant in ("erpo-full", "trl") else args.chunk)
    # agreement on an off-policy batch: old = current + noise on the completion
    loss_check, old = erpo_offpolicy_loss(learner, b, args.prompt)
    trainer = None
    if variant == "trl":
        trainer = trl_trainer(model, tok)
        trainer.current_gradient_accumulation_steps = 1
        model = trainer.model
        loss_check = trl_loss(trainer, model, b, args.prompt, old).item()
    trajs = [BenchTrajectory(ids, m) for ids, m in zip(b["ids"], b["mask"])]
    base = rss_mib()
    times, peak = [], 0
    for i in range(args.steps + 1):
        t0 = time.perf_counter()
        with VocabPeak(vocab) if i == 0 else contextlib.nullcontext() as watch:  # the warm-up step is measured
            if variant == "trl":
                trl_loss(trainer, model, b, args.prompt, None).backward()
                torch.nn.utils.clip_grad_norm_(params, 1.0)
                learner.optimizer.step()
                learner.optimizer.zero_grad(set_to_none=True)
            else:
                learner.update(trajs, b["adv"], step=i)  # type: ignore[arg-type]
        if i == 0:
            peak = watch.peak
        else:
            times.append(time.perf_counter() - t0)
    step_s = sum(times) / len(times)
    tokens = args.batch * (args.prompt + args.completion)
    return {
        "variant": variant,
        "step_s": round(step_s, 4),
        "tokens_per_s": round(tokens / step_s, 1),
        "peak_rss_above_start_mib": round(rss_mib() - base, 1),
        "offpolicy_loss": loss_check,
        "logits_peak_mib": round(peak / 2**20, 2),
        "params_m": round(sum(p.numel() for p in model.parameters()) / 1e6, 2),
        "trainable_m": round(sum(p.numel() for p in params) / 1e6, 3),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="small")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--prompt", type=int, default=384)
    ap.add_argument("--completion", type=int, default=128)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--model", default="", help="a from_pretrained folder instead of the tiny Llama --size")
    ap.add_argument("--lora-rank", type=int, default=16)
    ap.add_argument(
        "--agent-fraction", type=float, default=0.25, help="share of each 64-token completion block the agent wrote"
    )
    ap.add_argument("--chunk", type=int, default=1024, help="optim.logprob_chunk of the erpo variants")
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    ap.add_argument("--variant", choices=list(VARIANTS), help="(internal) run one variant and print its JSON")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    ap.add_argument("--quick", action="store_true", help="tiny sizes: proves the script runs")
    args = ap.parse_args(argv)
    if args.quick:
        args.size, args.batch, args.prompt, args.completion, args.steps, args.lora_rank = "test", 2, 16, 8, 1, 4
    if args.variant:
        print(json.dumps(run_variant(args.variant, args)))
        return
    results = []
    skip = ("variant", "variants", "json", "quick")
    for variant in args.variants:
        cmd = [sys.executable, "-m", "bench.update_step", "--variant", variant] + [
            f"--{k.replace('_', '-')}={v}" for k, v in vars(args).items() if k not in skip and v is not None
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=common.child_env(TOKENIZERS_PARALLELISM="false"))
        if proc.returncode != 0:
            missing = "No module named 'trl'" in proc.stderr
            results.append(
                {
                    "variant": variant,
                    "error": "TRL is not installed (pip install trl accelerate)"
                    if missing
                    else proc.stderr.strip().splitlines()[-1],
                }
            )
        else:
            results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        print(json.dumps(results[-1]), flush=True)
    ok = {r["variant"]: r for r in results if "error" not in r}
    summary: dict = {
        "variants": results,
        "shape": {
            "batch": args.batch,
            "prompt": args.prompt,
            "completion": args.completion,
            "size": args.size,
            "model": args.model or None,
        },
    }

    def compare(name: str, num: dict, den: dict, same_key: str) -> None:
        summary[f"{name}_tokens_per_s"] = round(num["tokens_per_s"] / den["tokens_per_s"], 3)
        summary[f"{name}_peak_rss"] = round(
            num["peak_rss_above_start_mib"] / max(den["peak_rss_above_start_mib"], 1e-9), 3
        )
        summary[same_key] = abs(num["offpolicy_loss"] - den["offpolicy_loss"]) < 1e-5

    if "erpo" in ok and "erpo-full" in ok:
        summary["chunked_over_full_logits_peak"] = round(
            ok["erpo"]["logits_peak_mib"] / max(ok["erpo-full"]["logits_peak_mib"], 1e-9), 4
        )
        summary["chunked_same_offpolicy_loss"] = (
            abs(ok["erpo"]["offpolicy_loss"] - ok["erpo-full"]["offpolicy_loss"]) < 1e-5
        )
    if "erpo" in ok and "trl" in ok:
        compare("erpo_over_trl", ok["erpo"], ok["trl"], "same_offpolicy_loss")
    if "erpo" in ok and "erpo-lora" in ok:  # LoRA's B starts at zero: before a step both compute the same loss
        compare("lora_over_full", ok["erpo-lora"], ok["erpo"], "lora_same_offpolicy_loss")
    common.emit("update_step", summary, args.json)


if __name__ == "__main__":
    main()
