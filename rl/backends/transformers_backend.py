"""Token-in, token-out generation with Hugging Face transformers (CPU or GPU), batched across episodes.

Prompts of different lengths are left-padded into one batch; one forward pass per step with a KV
cache samples the next token of every unfinished row. The logprob kept for a token is its log
probability under the distribution it was sampled from (logits / temperature, then top-p), which is
what the trainer's importance ratio needs; at temperature 1 and top_p 1 it is the model's own logprob.
"""

from __future__ import annotations

import inspect
from typing import Any

from rl.backends.base import Sample, SamplingParams


class TransformersPolicy:
    """A causal LM and its tokenizer as a `TokenPolicy`; `max_batch` bounds rows per forward pass."""

    def __init__(self, model: Any, tokenizer: Any, device: str | None = None, max_batch: int = 16, name: str | None = None):
        import torch

        self.model = model
        self.tokenizer = tokenizer
        self.device = torch.device(device) if device else next(model.parameters()).device
        if next(model.parameters()).device != self.device:
            self.model.to(self.device)
        self.max_batch = max(1, max_batch)
        self.name = name or f"transformers:{getattr(model.config, '_name_or_path', '') or type(model).__name__}"
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        self.pad_token_id = int(pad if pad is not None else 0)
        # transformers 5 renamed `past_key_values` to `cache`; accept both
        params = inspect.signature(model.forward).parameters
        self._cache_kwarg = "cache" if "cache" in params else "past_key_values"

    @classmethod
    def from_pretrained(cls, path: str, device: str = "cpu", dtype: str = "float32", **kwargs: Any) -> "TransformersPolicy":
        """Load model and tokenizer from a local folder (no hub access is assumed)."""
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(path)
        model = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, dtype))
        model.eval()
        return cls(model.to(device), tokenizer, device=device, **kwargs)

    def generate(self, prompts: list[list[int]], params: SamplingParams) -> list[Sample]:
        """Sample one turn per prompt, `max_batch` prompts per forward pass."""
        out: list[Sample] = []
        for start in range(0, len(prompts), self.max_batch):
            chunk = prompts[start : start + self.max_batch]
            out.extend(self._generate_batch(chunk, params, params.seed + start))
        return out

    def _generate_batch(self, prompts: list[list[int]], params: SamplingParams, seed: int) -> list[Sample]:
        import torch

        if not prompts:
            return []
        if any(len(p) == 0 for p in prompts):
            raise ValueError("cannot generate from an empty prompt")
        dev = self.device
        width = max(len(p) for p in prompts)
        ids = torch.full((len(prompts), width), self.pad_token_id, dtype=torch.long)
        attn = torch.zeros((len(prompts), width), dtype=torch.long)
        for row, p in enumerate(prompts):
            ids[row, width - len(p) :] = torch.tensor(p, dtype=torch.long)
            attn[row, width - len(p) :] = 1
        ids, attn = ids.to(dev), attn.to(dev)
        positions = (attn.cumsum(-1) - 1).clamp(min=0)
        generator = torch.Generator(device=dev).manual_seed(int(seed))
        stops = torch.tensor(sorted(set(params.stop_token_ids)) or [-1], device=dev)
        tokens: list[list[int]] = [[] for _ in prompts]
        logps: list[list[float]] = [[] for _ in prompts]
        finished = torch.zeros(len(prompts), dtype=torch.bool, device=dev)
        reasons = ["length"] * len(prompts)
        with torch.no_grad():
            out = self.model(input_ids=ids, attention_mask=attn, position_ids=positions, use_cache=True)
            past = _cache_of(out)
            logits = out.logits[:, -1, :]
            for _step in range(params.max_new_tokens):
                tok, lp = _sample(logits.float(), params, generator)
                for row in range(len(prompts)):
                    if not finished[row]:
                        tokens[row].append(int(tok[row]))
                        logps[row].append(float(lp[row]))
                hit = torch.isin(tok, stops) & ~finished
                for row in hit.nonzero().flatten().tolist():
                    reasons[row] = "stop"
                finished |= hit
                if bool(finished.all()):
                    break
                attn = torch.cat([attn, torch.ones((len(prompts), 1), dtype=attn.dtype, device=dev)], dim=1)
                positions = positions[:, -1:] + 1
                out = self.model(input_ids=tok[:, None], attention_mask=attn, position_ids=positions, use_cache=True,
                                 **{self._cache_kwarg: past})  # fmt: skip
                past = _cache_of(out)
                logits = out.logits[:, -1, :]
        return [Sample(token_ids=t, logprobs=l, finish_reason=r) for t, l, r in zip(tokens, logps, reasons)]


def _cache_of(out: Any) -> Any:
    cache = getattr(out, "cache", None)
    return cache if cache is not None else getattr(out, "past_key_values", None)


def _sample(logits: Any, params: SamplingParams, generator: Any) -> tuple[Any, Any]:
    """Draw one token per row; return (tokens, logprobs under the sampled distribution)."""
    import torch

    if params.temperature <= 0:
        logp = torch.log_softmax(logits, dim=-1)
        tok = logp.argmax(dim=-1)
        return tok, logp.gather(-1, tok[:, None]).squeeze(-1)
    logp = torch.log_softmax(logits / params.temperature, dim=-1)
    if params.top_p < 1.0:
        sorted_lp, order = logp.sort(dim=-1, descending=True)
        cum = sorted_lp.exp().cumsum(dim=-1)
        drop_sorted = (cum - sorted_lp.exp()) >= params.top_p  # keep the smallest prefix reaching top_p
        drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
        logp = torch.log_softmax(logp.masked_fill(drop, float("-inf")), dim=-1)
    tok = torch.multinomial(logp.exp(), 1, generator=generator).squeeze(-1)
    return tok, logp.gather(-1, tok[:, None]).squeeze(-1)
