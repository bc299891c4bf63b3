"""Typed contracts of the RL side: one Trajectory per episode, exactly what the trainer consumes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Trajectory:
    """One episode as a single growing token stream.

    `loss_mask[i] == 1` exactly on tokens the policy sampled; `logprobs[i]` is the sampling logprob of
    token i (0.0 where the mask is 0). `turn_spans` are (start, end, role) over `token_ids`.
    `messages` is the structured dialogue (role, content, thinking, tool_calls) for judges and exports.
    `user_error` is the judge's verdict (None = not judged); the trainer masks True.
    """

    env_id: str
    task_id: str
    sample_index: int
    token_ids: list[int]
    loss_mask: list[int]
    logprobs: list[float]
    turn_spans: list[tuple[int, int, str]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    reward: float = 0.0
    reward_breakdown: dict[str, Any] = field(default_factory=dict)
    stop_reason: str = ""  # "user_stop" | "max_turns" | "max_tool_calls" | "context_full" | "parse_error" | "env_done"
    user_error: bool | None = None
    judge_rationale: str = ""
    context_policy: str = "keep_all"
    thinking_interleaved: bool = True
    num_turns: int = 0
    num_tool_calls: int = 0
    final_state_hash: str = ""
    # When the policy's context was not the whole stream (context policy other than keep_all, or
    # interleaved thinking off), the exact per-context training sequences: [{"token_ids", "loss_mask",
    # "logprobs"}]. Empty means the stream itself is the one training sequence.
    sequences: list[dict[str, list]] = field(default_factory=list)
    retokenized: bool = False  # assistant text was tokenized after the fact (scripted/endpoint policy): no sampling logprobs
    policy: str = ""  # which policy produced it ("transformers:...", "gold", "openai:MODEL", ...)
    user: str = ""  # which user simulator ("scripted", "llm:MODEL")
    chat_format: str = ""  # "hermes" or "template:NAME"
    num_parse_errors: int = 0

    @property
    def valid(self) -> bool:
        """False when the simulated user erred: such trajectories are masked out of training."""
        return self.user_error is not True

    def training_sequences(self) -> list[tuple[list[int], list[int], list[float]]]:
        """(token_ids, loss_mask, logprobs) per sequence the trainer should score.

        One sequence (the stream) in the default setting; one per context change otherwise. Every
        sampled token appears with mask 1 in exactly one sequence, preceded by the context it was
        sampled in.
        """
        if not self.sequences:
            return [(self.token_ids, self.loss_mask, self.logprobs)]
        return [(s["token_ids"], s["loss_mask"], s["logprobs"]) for s in self.sequences]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Trajectory":
        d = dict(d)
        d["turn_spans"] = [tuple(s) for s in d.get("turn_spans", [])]
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})
