"""Token-in, token-out generation with Hugging Face transformers (CPU or GPU), batched across episodes.

Prompts of different lengths are left-padded into one batch; one forward pass per step with a KV
cache samples the next token of every unfinished row. The logprob kept for a token is its log
probability under the distribution it was sampled from (logits / temperature, then top-p), which is
what the trainer's importance ratio needs; at temperature 1 and top_p 1 it is the model's own logprob.

Across turns the policy keeps each served row's KV cache (`rl.backends.prefix_cache`): a prompt that
extends an earlier prompt and its sampled tokens encodes only the new tokens. Rows of one batch may reuse
prefixes of different lengths; the layout is [pad | cached prefix | pad | new tokens] with the pads masked
out and explicit position ids, which is the same computation as encoding the whole prompt.
"""

from __future__ import annotations

import inspect
from typing import Any

from rl.backends.base import Sample, SamplingParams
from rl.backends.kv_buffer import BufferedCache, plain_attention_layers
from rl.backends.prefix_cache import PrefixCache


class TransformersPolicy:
    """A causal LM and its tokenizer as a `TokenPolicy`; `max_batch` bounds rows per forward pass.

    `prefix_cache_mb` is the budget of KV caches kept across calls (0 turns reuse off).
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        device: str | None = None,
        max_batch: int = 16,
        name: str | None = None,
        prefix_cache_mb: float = 1024.0,
    ):
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
        self.prefix_cache = PrefixCache(int(prefix_cache_mb * 2**20)) if prefix_cache_mb > 0 else None
        self._layers = plain_attention_layers(model.config)  # 0: let the model make its own cache

    def reset_prefix_cache(self) -> None:
        """Forget every cached prefix (its counters stay); `run_episodes` calls this before each call."""
        if self.prefix_cache is not None:
            self.prefix_cache.clear()

    @classmethod
    def from_pretrained(
        cls, path: str, device: str = "cpu", dtype: str = "float32", **kwargs: Any
    ) -> "TransformersPolicy":
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
        cache = self.prefix_cache
        if cache is not None:
            cache.check_weights(self.model)
        reused = [cache.lookup(p) if cache is not None else (None, 0) for p in prompts]
        ids, attn, positions, past, context_cols = self._prefill_inputs(prompts, reused, params.max_new_tokens)
        width = attn.shape[1]  # cache columns before the first sampled token is fed
        generator = torch.Generator(device=dev).manual_seed(int(seed))
        stops = torch.tensor(sorted(set(params.stop_token_ids)) or [-1], device=dev)
        tokens: list[list[int]] = [[] for _ in prompts]
        logps: list[list[float]] = [[] for _ in prompts]
        finished = torch.zeros(len(prompts), dtype=torch.bool, device=dev)
        reasons = ["length"] * len(prompts)
        with torch.no_grad():
            extra = {self._cache_kwarg: past} if past is not None else {}
            out = self.model(input_ids=ids, attention_mask=attn, position_ids=positions, use_cache=True, **extra)
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
                out = self.model(
                    input_ids=tok[:, None],
                    attention_mask=attn,
                    position_ids=positions,
                    use_cache=True,
                    **{self._cache_kwarg: past},
                )
                past = _cache_of(out)
                logits = out.logits[:, -1, :]
        if self.prefix_cache is not None:
            self._keep_rows(prompts, tokens, past, context_cols, width)
        return [Sample(token_ids=t, logprobs=lp, finish_reason=r) for t, lp, r in zip(tokens, logps, reasons)]

    def _prefill_inputs(
        self, prompts: list[list[int]], reused: list[tuple[Any, int]], max_new_tokens: int
    ) -> tuple[Any, Any, Any, Any, Any]:
        """Input ids, attention mask, positions and past cache of the first forward pass.

        Row r reuses n_r cached tokens: its cached keys sit right-aligned in the first C columns of the
        cache, its remaining prompt tokens right-aligned in the S new columns; every pad is masked.
        Also returns, per row, the cache columns that will hold its prompt. The cache is a
        `BufferedCache` with room for the new tokens, so decoding appends without copying it.
        """
        import torch

        dev = self.device
        rows = len(prompts)
        c = max(n for _, n in reused)
        rest = [len(p) - n for p, (_, n) in zip(prompts, reused)]
        s = max(rest)
        ids = torch.full((rows, s), self.pad_token_id, dtype=torch.long)
        attn = torch.zeros((rows, c + s), dtype=torch.long)
        positions = torch.zeros((rows, s), dtype=torch.long)
        cols = []
        for r, (p, (_, n)) in enumerate(zip(prompts, reused)):
            ids[r, s - rest[r] :] = torch.tensor(p[n:], dtype=torch.long)
            attn[r, c - n : c] = 1
            attn[r, c + s - rest[r] :] = 1
            positions[r, s - rest[r] :] = torch.arange(n, len(p))
            cols.append(torch.cat([torch.arange(c - n, c), torch.arange(c + s - rest[r], c + s)]))
        past = None
        if c:
            first = next(e for e, n in reused if n)
            layers = []
            for layer in range(len(first.keys)):
                k0, v0 = first.keys[layer], first.values[layer]
                keys = k0.new_zeros((rows, k0.shape[0], c, k0.shape[2]))
                values = v0.new_zeros((rows, v0.shape[0], c, v0.shape[2]))
                for r, (entry, n) in enumerate(reused):
                    if n:
                        keys[r, :, c - n :] = entry.keys[layer][:, :n]
                        values[r, :, c - n :] = entry.values[layer][:, :n]
                layers.append((keys, values))
            past = BufferedCache(len(layers), reserve=s + max_new_tokens + 1, prefix=layers)
        elif self._layers:
            past = BufferedCache(self._layers, reserve=max_new_tokens + 1)
        return ids.to(dev), attn.to(dev), positions.to(dev), past, cols

    def _keep_rows(
        self, prompts: list[list[int]], tokens: list[list[int]], past: Any, context_cols: list[Any], width: int
    ) -> None:
        """Store each row's keys and values for prompt + sampled[:-1] in the prefix cache."""
        import torch

        layers = getattr(past, "layers", None)
        if not layers or any(
            getattr(layer, "is_sliding", False) or getattr(layer, "keys", None) is None for layer in layers
        ):
            self.prefix_cache = None  # a cache layout this code does not know (sliding windows, states): turn reuse off
            return
        for r, (prompt, sampled) in enumerate(zip(prompts, tokens)):
            fed = max(len(sampled) - 1, 0)
            cols = torch.cat([context_cols[r], torch.arange(width, width + fed)]).to(layers[0].keys.device)
            self.prefix_cache.store(
                prompt + sampled[:fed],
                [layer.keys[r][:, cols] for layer in layers],
                [layer.values[r][:, cols] for layer in layers],
            )


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
