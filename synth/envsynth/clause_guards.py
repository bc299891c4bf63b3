"""The guards a change's clauses hold under: the one starting state a sentence puts the record in ("For a paid
mooring, ..."), else the value of a closed argument it opens on ("With `pontoon`, ...", or a bullet item '- "pontoon":
...' for all of its sentences, when the line the bullets follow names the parameter). docs_counters reads its moves
clause by clause with these."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.move_phrases import unelided
from synth.envsynth.prose import unwrap


def _guard(sentence: str, states: dict[str, list[Any]]) -> dict[str, Any] | None:
    """The one starting state a sentence puts the record in ("For a paid mooring, ...", "a voyage which is still
    `underway`"), when the call is allowed from several: its moves hold only from that state."""
    q = "[`'\"]?"
    named, found = [], []
    for field, values in sorted(states.items()):
        if len(values) < 2:
            continue
        for value in values:
            v = re.escape(str(value))
            if not re.search(rf"(?<![\w-]){v}(?![\w-])", sentence, re.IGNORECASE):
                continue
            named.append(value)
            forms = (
                rf"\b(?:a|an)\s+{q}{v}{q}\s+\w+",
                rf"\b(?:that|which)\s+(?:was|is|were|are)\s+(?:already\s+|still\s+)?{q}{v}{q}(?![\w-])",
                rf"\b(?:if|when)\s+(?:the\s+\w+|it)\s+(?:was|is)\s+(?:already\s+|still\s+)?{q}{v}{q}(?![\w-])",
            )
            if any(re.search(f, sentence, re.IGNORECASE) for f in forms):
                found.append((field, value))
    if len(named) != 1 or len(found) != 1:
        return None
    return {"field": found[0][0], "in": [found[0][1]]}


def _arg_guard(sentence: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """The one value of a closed parameter a sentence opens on ("With account, ...", "If the method is
    `account`, ..."): its moves hold only when the call passes that value."""
    lead = re.match(r"^\W*(?:with|for|if|when|on|paying\s+by)\s+([^,]{1,60}),", sentence, re.IGNORECASE)
    lead = lead or re.match(
        r"^\W*(?:with|for|if|when)\s+(`?\w+`?\s+['`\"][\w-]+['`\"])\s", sentence, re.I
    )  # "With method 'x' the"
    if not lead:
        return None
    found = [
        (name, value)
        for name, sub in sorted(params.items())
        if isinstance(sub, dict) and len(sub.get("enum") or []) >= 2
        for value in sub["enum"]
        if isinstance(value, str) and re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", lead.group(1), re.I)
    ]
    if len(found) != 1:
        return None
    name, value = found[0]
    return {"arg": name, "default": params[name].get("default"), "in": [value]}


def _pieces(
    text: str, states: dict[str, list[Any]], params: dict[str, Any] | None = None
) -> list[tuple[str, dict[str, Any] | None]]:
    """The text's clauses, each with the starting state its whole sentence puts the record in (_guard), else the
    argument value it opens on (_arg_guard)."""
    out = []
    for line, item in bullet_guards(text, params or {}):
        for sentence in re.split(r"(?<=[.!?;])\s+", line):
            out += _clauses(sentence, _guard(sentence, states) or _arg_guard(sentence, params or {}) or item)
    return out


BULLET = re.compile(r"^\s*[-*]\s+['`\"]?([\w-]+)['`\"]?\s*:\s")


def bullet_guards(text: str, params: dict[str, Any]) -> list[tuple[str, dict[str, Any] | None]]:
    """Each line of the text with the value of a closed parameter its bullet opens on ('- "card": ...', an indented
    line going on with it), when the line the bullets follow names that parameter ("payment_method:",
    "Paying by method:"); else None."""
    out: list[tuple[str, dict[str, Any] | None]] = []
    item: dict[str, Any] | None = None
    header = ""
    for line in unwrap(text).split("\n"):
        bullet = BULLET.match(line)
        if bullet:
            guard = _arg_guard(f"with {bullet.group(1)}, ", params)
            name = re.escape(guard["arg"]).replace("_", "[_ ]") if guard else ""
            item = guard if guard and re.search(rf"\b{name}s?\b", header, re.I) else None  # "Payment methods:"
        elif not (line.strip() and line[:1].isspace() and item is not None):  # not a bullet's indented next line
            item = None
            header = line if line.strip() else header
        out.append((line, item))
    return out


def _clauses(sentence: str, guard: dict[str, Any] | None) -> list[tuple[str, dict[str, Any] | None]]:
    """The sentence's clauses, each with the sentence's guard."""
    out = []
    for piece in re.split(r",\s+(?=and\b|the\b)|\s+and\s+(?=(?:a|an|the)\b)", sentence):
        out += [(said, guard) for said in unelided(piece)]
    return out


__all__ = ["_arg_guard", "_guard", "_pieces", "bullet_guards"]
