"""Small natural-language questions to an LLM, voted across paraphrases (what weak models do well).

Yes/no questions go through synth.llm.ask (shared with the tool graph and the judge).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from synth.llm import ask
from synth.llm.prompts import render

__all__ = ["ChatClient", "Vote", "ask_choice", "ask_yes_no", "parse_choice"]


class ChatClient(ask.ChatClient, Protocol):
    """The part of synth.llm.LLMClient the synthesis stages use: chat (synth.llm.ask.ChatClient) and json."""

    def json(self, messages: list[dict], schema: dict, *, max_tokens: int = 512, tag: str = "", **kw: Any) -> Any: ...


@dataclass
class Vote:
    """The outcome of one voted question: the decision (None = no majority) and each raw answer."""

    decision: Any
    answers: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "answers": self.answers}


def parse_choice(text: str, options: list[str]) -> str | None:
    """The option named earliest in the answer (case-insensitive), else None."""
    low = text.lower()
    hits = [(low.find(o.lower()), o) for o in options if o.lower() in low]
    return min(hits)[1] if hits else None


def ask_yes_no(client: ChatClient, template: str, variants: int, tag: str, **vars: Any) -> Vote:
    """Ask the question in `variants` paraphrases; majority of parseable answers, None on a tie."""
    ballot = ask.ask_yes_no(client, ask.variant_questions(template, range(variants), **vars), tag=tag, max_tokens=8)
    return Vote(decision=ballot.decision(), answers=ballot.answers)


def ask_choice(client: ChatClient, template: str, options: list[str], tag: str, **vars: Any) -> Vote:
    """Ask to pick one of `options`; None when the answer names none of them."""
    question = render(template, **vars)
    prompt = render("envsynth_choose.j2", question=question, options=options)
    text = client.chat([{"role": "user", "content": prompt}], max_tokens=16, tag=tag).text
    return Vote(decision=parse_choice(text, options), answers=[text.strip()])
