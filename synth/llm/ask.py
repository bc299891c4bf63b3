"""One way to ask an LLM yes/no: the question in one or more phrasings, one vote per answer.

Weak models answer short yes/no questions well, so environment synthesis (synth.envsynth.ask), the
tool graph (synth.tasks.graph) and the user-error judge (rl.judge) all ask this way:

    ballot = ask_yes_no(client, variant_questions("envsynth_mutates.j2", range(3), name=..., ...),
                        tag="plan.mutates")
    ballot.decision()   # True / False, or None on a tie

Each question is sent as one user message (wrapped in yes_no.j2 unless `wrap=False`), and each
answer's first "yes" or "no" word is its vote. A phrasing listed in `inverted` asks the opposite
question, so its vote is flipped. `temperature` is passed to the client only when set, so a request
is byte-for-byte the one the callers sent before they shared this module (the LLM cache keys on it).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from synth.llm.prompts import render

YES_NO_TEMPLATE = "yes_no.j2"
_YES_NO = re.compile(r"\b(yes|no)\b")


class ChatReply(Protocol):
    """What a chat call returns (synth.llm.ChatResult, or a fake's result)."""

    text: str


class ChatClient(Protocol):
    """The part of an LLM client the asker needs: one blocking chat call."""

    def chat(self, messages: list[dict[str, Any]], *, max_tokens: int = 256, tag: str = "", **kw: Any) -> ChatReply: ...


def parse_yes_no(text: str) -> bool | None:
    """The answer's first 'yes' or 'no' word (case-insensitive) as True/False; None when it has neither."""
    m = _YES_NO.search(text.strip().lower())
    return None if m is None else m.group(1) == "yes"


def vote_word(vote: bool | None) -> str:
    """'yes', 'no' or '?' for a vote (how the judge records its votes)."""
    return "?" if vote is None else ("yes" if vote else "no")


@dataclass
class Ballot:
    """The answers to one voted question: raw texts (stripped) and votes (after inversion; None = unclear)."""

    answers: list[str] = field(default_factory=list)
    votes: list[bool | None] = field(default_factory=list)

    @property
    def yes(self) -> int:
        return sum(1 for v in self.votes if v is True)

    @property
    def no(self) -> int:
        return sum(1 for v in self.votes if v is False)

    def decision(self) -> bool | None:
        """Majority of the clear votes; None on a tie (also when no answer was clear)."""
        return None if self.yes == self.no else self.yes > self.no


def variant_questions(template: str, variants: Iterable[int], **vars: Any) -> list[str]:
    """The question `template` rendered once per variant number (the template reads `variant`)."""
    return [render(template, variant=v, **vars) for v in variants]


def ask_yes_no(
    client: ChatClient,
    questions: list[str],
    *,
    tag: str,
    max_tokens: int = 8,
    temperature: float | None = None,
    wrap: bool = True,
    inverted: Collection[int] = (),
) -> Ballot:
    """Ask each question (index i flipped when i is in `inverted`); one vote per answer, in order (none: no votes)."""
    kw: dict[str, Any] = {} if temperature is None else {"temperature": temperature}
    ballot = Ballot()
    for i, question in enumerate(questions):
        prompt = render(YES_NO_TEMPLATE, question=question) if wrap else question
        text = client.chat([{"role": "user", "content": prompt}], max_tokens=max_tokens, tag=tag, **kw).text
        vote = parse_yes_no(text)
        if vote is not None and i in inverted:
            vote = not vote
        ballot.answers.append(text.strip())
        ballot.votes.append(vote)
    return ballot
