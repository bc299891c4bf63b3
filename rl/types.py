"""Typed contracts of the RL side: one Trajectory per episode, exactly what the trainer consumes.

A Trajectory is made of small parts: who it is (`EpisodeId`), the token stream the trainer scores
(`TokenStream`), the dialogue and how it ended (`Dialogue`, `StopReason`), the verifier's outcome
(`Outcome`), the user-error judge's verdict (`JudgeVerdict`) and the settings that produced it
(`RolloutSetup`). On disk (trajectories.jsonl) it is one flat JSON object, as `to_dict` writes it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class StopReason(str, enum.Enum):
    """Why an episode ended; a str, so logs and JSON keep the plain names."""

    NOT_STOPPED = ""  # still running (or a trajectory made by hand)
    USER_STOP = "user_stop"
    MAX_TURNS = "max_turns"
    MAX_TOOL_CALLS = "max_tool_calls"
    CONTEXT_FULL = "context_full"
    PARSE_ERROR = "parse_error"
    ENV_DONE = "env_done"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class TokenRow(NamedTuple):
    """One sequence the trainer scores: a context, then what the policy sampled in it (mask 1)."""

    token_ids: list[int]
    loss_mask: list[int]
    logprobs: list[float]


@dataclass
class EpisodeId:
    """Which task of which environment, and which of its K samples."""

    env_id: str
    task_id: str
    sample_index: int = 0


@dataclass
class TokenStream:
    """The episode as one growing token stream.

    `loss_mask[i] == 1` exactly on tokens the policy sampled; `logprobs[i]` is the sampling logprob of
    token i (0.0 where the mask is 0). `turn_spans` are (start, end, role) over `token_ids`.
    `sequences`: when the policy's context was not the whole stream (a context policy other than
    keep_all, or interleaved thinking off), the exact per-context training sequences; empty means the
    stream itself is the one training sequence. `retokenized`: the assistant text was tokenized after
    the fact (scripted or endpoint policy), so there are no sampling logprobs. `turn_versions`: the
    policy version (number of updates applied to the sampler's weights) of every sampled assistant
    turn, in order; empty where versions are not tracked (the synchronous mode).
    """

    token_ids: list[int] = field(default_factory=list)
    loss_mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    turn_spans: list[tuple[int, int, str]] = field(default_factory=list)
    sequences: list[TokenRow] = field(default_factory=list)
    retokenized: bool = False
    turn_versions: list[int] = field(default_factory=list)

    def training_sequences(self) -> list[TokenRow]:
        """The rows to score: the stream, or one per context change (see `sequences`)."""
        return list(self.sequences) if self.sequences else [TokenRow(self.token_ids, self.loss_mask, self.logprobs)]

    def sampled_tokens(self) -> int:
        """Number of tokens the policy sampled."""
        return sum(self.loss_mask)


@dataclass
class Dialogue:
    """The structured dialogue (role, content, thinking, tool_calls) and its counters."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: StopReason = StopReason.NOT_STOPPED
    num_turns: int = 0
    num_tool_calls: int = 0
    num_parse_errors: int = 0


@dataclass
class Outcome:
    """The verifier's score of the final state and replies (`breakdown` explains it)."""

    reward: float = 0.0
    breakdown: dict[str, Any] = field(default_factory=dict)
    final_state_hash: str = ""

    @property
    def success(self) -> bool:
        """Task solved: the verifier's explicit `success`, else the full reward."""
        if "success" in self.breakdown:
            return bool(self.breakdown["success"])
        return self.reward >= 1.0


@dataclass
class JudgeVerdict:
    """The user-error judge's verdict: None = not judged; True masks the trajectory out of training."""

    user_error: bool | None = None
    rationale: str = ""


@dataclass
class RolloutSetup:
    """What produced the episode: policy ("transformers:...", "gold", "openai:MODEL"), user simulator
    ("scripted", "llm:MODEL"), chat format ("hermes", "template:NAME") and context settings."""

    policy: str = ""
    user: str = ""
    chat_format: str = ""
    context_policy: str = "keep_all"
    thinking_interleaved: bool = True


class EpisodeStat(NamedTuple):
    """What the step statistics need of one trajectory (small enough to gather from every rank)."""

    env_id: str
    task_id: str
    reward: float
    valid: bool
    success: bool

    @classmethod
    def of(cls, t: Trajectory) -> EpisodeStat:
        return cls(t.env_id, t.task_id, t.reward, t.valid, t.outcome.success)


# Flat on-disk field -> (part, attribute), in the order trajectories.jsonl has always listed them.
_FLAT: tuple[tuple[str, str, str], ...] = (
    ("env_id", "ident", "env_id"),
    ("task_id", "ident", "task_id"),
    ("sample_index", "ident", "sample_index"),
    ("token_ids", "tokens", "token_ids"),
    ("loss_mask", "tokens", "loss_mask"),
    ("logprobs", "tokens", "logprobs"),
    ("turn_spans", "tokens", "turn_spans"),
    ("messages", "dialogue", "messages"),
    ("reward", "outcome", "reward"),
    ("reward_breakdown", "outcome", "breakdown"),
    ("stop_reason", "dialogue", "stop_reason"),
    ("user_error", "verdict", "user_error"),
    ("judge_rationale", "verdict", "rationale"),
    ("context_policy", "setup", "context_policy"),
    ("thinking_interleaved", "setup", "thinking_interleaved"),
    ("num_turns", "dialogue", "num_turns"),
    ("num_tool_calls", "dialogue", "num_tool_calls"),
    ("final_state_hash", "outcome", "final_state_hash"),
    ("sequences", "tokens", "sequences"),
    ("retokenized", "tokens", "retokenized"),
    ("policy", "setup", "policy"),
    ("user", "setup", "user"),
    ("chat_format", "setup", "chat_format"),
    ("num_parse_errors", "dialogue", "num_parse_errors"),
    ("turn_versions", "tokens", "turn_versions"),
)


@dataclass
class Trajectory:
    """One episode: identity, token stream, dialogue, outcome, judge verdict and rollout settings."""

    ident: EpisodeId
    tokens: TokenStream = field(default_factory=TokenStream)
    dialogue: Dialogue = field(default_factory=Dialogue)
    outcome: Outcome = field(default_factory=Outcome)
    verdict: JudgeVerdict = field(default_factory=JudgeVerdict)
    setup: RolloutSetup = field(default_factory=RolloutSetup)

    @property
    def env_id(self) -> str:
        return self.ident.env_id

    @property
    def task_id(self) -> str:
        return self.ident.task_id

    @property
    def reward(self) -> float:
        return self.outcome.reward

    @property
    def valid(self) -> bool:
        """False when the simulated user erred: such trajectories are masked out of training."""
        return self.verdict.user_error is not True

    def training_sequences(self) -> list[TokenRow]:
        """(token_ids, loss_mask, logprobs) per sequence the trainer should score.

        One sequence (the stream) in the default setting; one per context change otherwise. Every
        sampled token appears with mask 1 in exactly one sequence, preceded by the context it was
        sampled in.
        """
        return self.tokens.training_sequences()

    def to_dict(self) -> dict[str, Any]:
        """The flat JSON form of trajectories.jsonl (plain lists, dicts and strings)."""
        out: dict[str, Any] = {}
        for key, part, attr in _FLAT:
            value = getattr(getattr(self, part), attr)
            if key == "turn_versions" and not value:
                continue  # only the asynchronous mode tracks versions; synchronous dumps keep their fields
            if key == "turn_spans":
                value = [list(s) for s in value]
            elif key == "sequences":
                value = [r._asdict() for r in value]
            elif key == "stop_reason":
                value = StopReason(value).value
            elif isinstance(value, (list, dict)):
                value = _plain(value)
            out[key] = value
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Trajectory:
        """Inverse of `to_dict` (unknown keys are ignored, missing ones take their defaults)."""
        parts: dict[str, dict[str, Any]] = {
            name: {} for name in ("ident", "tokens", "dialogue", "outcome", "verdict", "setup")
        }
        for key, part, attr in _FLAT:
            if key in d:
                parts[part][attr] = d[key]
        tok = parts["tokens"]
        tok["turn_spans"] = [tuple(s) for s in tok.get("turn_spans", [])]
        tok["sequences"] = [TokenRow(s["token_ids"], s["loss_mask"], s["logprobs"]) for s in tok.get("sequences", [])]
        parts["dialogue"]["stop_reason"] = StopReason(parts["dialogue"].get("stop_reason", ""))
        return cls(
            ident=EpisodeId(**parts["ident"]),
            tokens=TokenStream(**tok),
            dialogue=Dialogue(**parts["dialogue"]),
            outcome=Outcome(**parts["outcome"]),
            verdict=JudgeVerdict(**parts["verdict"]),
            setup=RolloutSetup(**parts["setup"]),
        )


def _plain(value: Any) -> Any:
    """A deep copy of nested lists, tuples and dicts as lists and dicts (what `asdict` used to give)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
