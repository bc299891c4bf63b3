"""What the policy sees at each turn: blocks of the episode stream, and the context policies.

An episode is a list of blocks: the head (system prompt, first user message, generation prompt), then
pairs of (assistant turn, observation) where the observation is the rendered continuation after the
turn (tool results, a user reply or parse-error feedback, ending in the next generation prompt).

Context policies (per environment, recorded on the trajectory):
- `keep_all` (default): the whole stream;
- `sliding_window`: the head and the last `window` (assistant, observation) pairs;
- `summary`: like the window, but the head is re-rendered with a note that summarizes the dropped pairs.
With interleaved thinking off, the `<think>` block of every earlier assistant turn is dropped (token
spans are cut, nothing is re-tokenized). Views are built from the blocks' own tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

CONTEXT_POLICIES = ("keep_all", "sliding_window", "summary")


@dataclass
class Block:
    """A piece of the stream.

    Assistant blocks start with `thinking_tokens` tokens (`thinking_chars` chars) of thinking.
    """

    kind: str  # "head" | "assistant" | "tool" | "user" | "feedback"
    messages: list[dict[str, Any]]
    token_ids: list[int] = field(default_factory=list)
    loss_mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    thinking_tokens: int = 0
    thinking_chars: int = 0


@dataclass
class View:
    """The blocks in the policy's context, each with whether its thinking is dropped."""

    items: list[tuple[Block, bool]]

    def token_ids(self) -> list[int]:
        out: list[int] = []
        for block, drop in self.items:
            out.extend(block.token_ids[block.thinking_tokens :] if drop else block.token_ids)
        return out

    def messages(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for block, drop in self.items:
            for m in block.messages:
                if drop and m.get("role") == "assistant" and block.thinking_chars:
                    m = dict(m, content=str(m.get("content", ""))[block.thinking_chars :])
                out.append(m)
        return out


def pairs_of(blocks: list[Block]) -> list[list[Block]]:
    """Group the blocks after the head into (assistant, observation...) groups."""
    groups: list[list[Block]] = []
    for block in blocks[1:]:
        if block.kind == "assistant" or not groups:
            groups.append([block])
        else:
            groups[-1].append(block)
    return groups


def select_view(
    blocks: list[Block],
    policy: str,
    window: int,
    interleaved_thinking: bool,
    summary_head: Callable[[list[list[Block]]], Block] | None = None,
) -> View:
    """The context for the next assistant turn under `policy`."""
    if policy not in CONTEXT_POLICIES:
        raise ValueError(f"context policy {policy!r} is not one of {', '.join(CONTEXT_POLICIES)}")
    head = blocks[0]
    groups = pairs_of(blocks)
    kept = groups
    if policy != "keep_all" and len(groups) > window:
        dropped, kept = groups[: len(groups) - window], groups[len(groups) - window :]
        if policy == "summary":
            if summary_head is None:
                raise ValueError("the summary context policy needs a summary_head builder")
            head = summary_head(dropped)
    items: list[tuple[Block, bool]] = [(head, False)]
    for group in kept:
        for block in group:
            items.append((block, block.kind == "assistant" and not interleaved_thinking))
    return View(items)


@dataclass
class TrainingSequence:
    """One training sequence: a context the policy saw, then what it sampled (mask 1)."""

    token_ids: list[int] = field(default_factory=list)
    loss_mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, list]:
        return {"token_ids": self.token_ids, "loss_mask": self.loss_mask, "logprobs": self.logprobs}


def extend_sequences(seqs: list[TrainingSequence], context: list[int], turn: Block) -> None:
    """Add one turn: extend the last sequence when `context` continues it, else start a new one.

    With keep_all and interleaved thinking every context extends the previous one, so the whole
    episode is one sequence equal to the stream; other policies yield one sequence per context change.
    """
    last = seqs[-1] if seqs else None
    if last is not None and len(context) >= len(last.token_ids) and context[: len(last.token_ids)] == last.token_ids:
        extra = context[len(last.token_ids) :]
        target = last
    else:
        extra = context
        target = TrainingSequence()
        seqs.append(target)
    target.token_ids.extend(extra)
    target.loss_mask.extend([0] * len(extra))
    target.logprobs.extend([0.0] * len(extra))
    target.token_ids.extend(turn.token_ids)
    target.loss_mask.extend(turn.loss_mask)
    target.logprobs.extend(turn.logprobs)
