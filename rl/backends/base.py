"""The policy protocols the rollout loop drives.

- `TokenPolicy` (transformers, vLLM): token ids in, sampled token ids and their logprobs out. This is
  the only kind the trainer can learn from: what it sampled is appended to the stream unchanged.
- `TextPolicy` (OpenAI-compatible endpoints, scripted gold/noop): answers a message list with text.
  Its turns are tokenized after the fact when a tokenizer is present (`Trajectory.tokens.retokenized`), so
  it serves evaluation and SFT data, never an on-policy update.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from synth.task import Task


@dataclass(frozen=True)
class SamplingParams:
    """How to sample one assistant turn. logprobs are of the tempered distribution actually sampled."""

    max_new_tokens: int = 512
    temperature: float = 1.0
    top_p: float = 1.0
    stop_token_ids: tuple[int, ...] = ()
    seed: int = 0


@dataclass
class Sample:
    """One sampled turn: ids as sampled (stop token included when hit), logprobs per id, and why it ended."""

    token_ids: list[int]
    logprobs: list[float]
    finish_reason: str  # "stop" (a stop token was sampled) | "length" (max_new_tokens reached)
    policy_version: int = -1  # asynchronous mode: the weights version that sampled it (-1: not tracked)


@runtime_checkable
class TokenPolicy(Protocol):
    """Batched token-in, token-out generation; `tokenizer` is a Hugging Face tokenizer."""

    name: str
    tokenizer: Any

    def generate(self, prompts: list[list[int]], params: SamplingParams) -> list[Sample]:
        """Sample one continuation per prompt (all prompts in one batch where the backend can)."""
        ...


@runtime_checkable
class TextPolicy(Protocol):
    """A policy that answers chat messages with raw assistant text (Hermes format)."""

    name: str

    def respond(self, messages: list[dict[str, Any]], task: Task) -> str:
        """Return the next assistant turn as text. Only scripted policies may look at `task`."""
        ...


def is_token_policy(policy: Any) -> bool:
    """True for policies that sample token ids (transformers, vLLM)."""
    return hasattr(policy, "generate") and hasattr(policy, "tokenizer")
