"""Small natural-language questions to an LLM, voted across paraphrases (what weak models do well)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from synth.llm.prompts import render


class ChatClient(Protocol):
    """The part of synth.llm.LLMClient the synthesis stages use."""

    def chat(self, messages: list[dict], *, max_tokens: int = 256, tag: str = "", **kw: Any) -> Any: ...

    def json(self, messages: list[dict], schema: dict, *, max_tokens: int = 512, tag: str = "", **kw: Any) -> Any: ...


@dataclass
class Vote:
    """The outcome of one voted question: the decision (None = no majority) and each raw answer."""

    decision: Any
    answers: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "answers": self.answers}


def parse_yes_no(text: str) -> bool | None:
    """First 'yes' or 'no' word in the answer, else None."""
    m = re.search(r"\b(yes|no)\b", text.strip().lower())
    return None if m is None else m.group(1) == "yes"


def parse_choice(text: str, options: list[str]) -> str | None:
    """The option named earliest in the answer (case-insensitive), else None."""
    low = text.lower()
    hits = [(low.find(o.lower()), o) for o in options if o.lower() in low]
    return min(hits)[1] if hits else None


def ask_yes_no(client: ChatClient, template: str, variants: int, tag: str, **vars: Any) -> Vote:
    """Ask the question in `variants` paraphrases; majority of parseable answers, None on a tie."""
    answers, votes = [], []
    for v in range(variants):
        question = render(template, variant=v, **vars)
        prompt = render("envsynth_yes_no.j2", question=question)
        text = client.chat([{"role": "user", "content": prompt}], max_tokens=8, tag=tag).text
        answers.append(text.strip())
        yn = parse_yes_no(text)
        if yn is not None:
            votes.append(yn)
    yes, no = votes.count(True), votes.count(False)
    return Vote(decision=None if yes == no else yes > no, answers=answers)


def ask_choice(client: ChatClient, template: str, options: list[str], tag: str, **vars: Any) -> Vote:
    """Ask to pick one of `options`; None when the answer names none of them."""
    question = render(template, **vars)
    prompt = render("envsynth_choose.j2", question=question, options=options)
    text = client.chat([{"role": "user", "content": prompt}], max_tokens=16, tag=tag).text
    return Vote(decision=parse_choice(text, options), answers=[text.strip()])
