"""Small readers shared by the computed-answer rules: how the docs may write a field's name, the clauses that
define a figure, and a parameter's default when only its description gives it."""

from __future__ import annotations

import re
from typing import Any

from synth.spec import ToolSpec
from synth.words import split_words

SPLIT = re.compile(r"\s+(multiplied by|divided by|times|plus|minus|less|x|×|\*|/|\+|-|\u2212)\s+")
ROUNDED = re.compile(
    r",?\s*(?:and\s+)?rounded\s+(down\s+|up\s+)?to\s+(?:the\s+)?(?:(\d)\s+decimals?(?:\s+places)?|cents?)", re.I
)


def spoken(name: str) -> str:
    """A regex alternation for a field's name as written (`line_total`) or spoken (`line total`, `one-way fee`)."""
    return "(?:" + "|".join(re.escape(n).replace("_", "[ _-]") for n in sorted({name})) + ")"


# clause ends: "; ", ". ", ": ", ", and ", and " and " before another "<name> ="
CLAUSE_END = re.compile(r";|(?<!\d)\.(?!\d)|:|,\s+and\s+|\s+and\s+(?=\w+\s*=)")


def stated_formulas(name: str, text: str) -> list[str]:
    """The formula texts of the clauses that define a figure: "charge is ...", "charge = ..."."""
    out = []
    for clause in CLAUSE_END.split(text):
        m = re.search(rf"\b{spoken(name)}\s*(?:=|\s+is\s+)\s*(.{{3,200}})$", clause.strip(), re.I)
        if m:
            out.append(m.group(1).strip())
    return out


EMPTY = re.compile(
    r"\bempty(?:\s+string|\s+text)?\s+(?:if|when)\s+(?:omitted|left\s+out|not\s+given|absent)"
    r"|\bdefaults?\s+(?:to\s+|is\s+)?(?:an?\s+)?empty(?:\s+string)?\b",
    re.I,
)


NUMBER_DEFAULT = r"\bdefaults?(?:\s+to|\s+is|:)?\s+(-?\d+(?:\.\d+)?|true|false)\b"


def param_default(schema: dict[str, Any]) -> Any:
    """A parameter's default: its schema's, else one of its enum values its description calls the default
    ("'daily' (default)", "default 'daily'", "defaults to daily"), a number or yes/no its description gives
    ("Default 0.", "defaults to false"), a value a free text's description quotes as the default ("`harbour`
    (default)"), else "" for text its description says is empty when left out ("empty
    text when not given", "defaults to empty")."""
    if "default" not in schema and schema.get("type") == "string" and EMPTY.search(str(schema.get("description"))):
        return ""
    if "default" not in schema and schema.get("type") in ("integer", "number", "boolean"):
        said = re.search(NUMBER_DEFAULT, str(schema.get("description")), re.I)
        if said:  # "Default 0.", "defaults to false"
            word = said.group(1).lower()
            if schema["type"] == "boolean":
                return word == "true" if word in ("true", "false") else None
            if not re.fullmatch(r"-?\d+(?:\.\d+)?", word):
                return None
            return float(word) if "." in word else int(word)
    if "default" not in schema and not schema.get("enum") and schema.get("type") == "string":
        quoted = r"[`'\"]([\w-]+)[`'\"]"  # "`harbour` (default), `crew` or `yard`": a value it quotes
        said = re.search(
            rf"{quoted}\s*\(default\)|\bdefaults?(?:\s+to|:|\s+is)?\s+{quoted}", str(schema.get("description"))
        )
        return (said.group(1) or said.group(2)) if said else None
    if "default" in schema or not schema.get("enum"):
        return schema.get("default")
    text = str(schema.get("description") or "")
    for value in schema["enum"]:
        v = re.escape(str(value))
        said = rf"(?<![\w-])['\"`]?{v}['\"`]?\s*\(default\)|\bdefaults?(?:\s+to|:|\s+is)?\s+['\"`]?{v}(?![\w-])"
        if re.search(said, text, re.I):
            return value
    return None


def alike(name: str, field: str) -> bool:
    """Two names for one value: the same words once "previous", "prior" and "last" are one word."""
    same = {"prior": "previous", "last": "previous"}
    words = [[same.get(w, w) for w in split_words(n)] for n in (name, field)]
    return name != field and words[0] == words[1]


TOTAL_WORDS = ("cost", "price", "estimate", "amount", "charge", "sum", "bill")  # may open the `total`'s formula


ASIDE = re.compile(r"\b(?:is|are)\s+(?:not|never)\b", re.I)


def definitions(name: str, spec: ToolSpec, own: str) -> list[str]:
    """The formula texts the docs give for an answer field."""
    said = spoken(name)
    out = [  # "(length - taken)" in the field's own description; not a side remark ("(after discount)")
        m.group(1)
        for m in re.finditer(r"\(([^()]{3,120})\)", own)
        if SPLIT.search(m.group(1)) or ROUNDED.search(m.group(1)) or "percent" in m.group(1)
    ]
    text = spec.description
    names = [said] + ([spoken(name[: -len("_total")])] if name.endswith("_total") else [])
    shown = {w.lower() for part in re.findall(r"[{\[][^}\]]*", text) for w in re.findall(r"\w+", part)}
    opening = [w for w in TOTAL_WORDS if w not in shown]  # not a word the answer names itself (a line's `charge`)
    names += ["(?:" + "|".join(opening) + ")"] if name == "total" and opening else []  # "Cost = parts + labour"
    for words in names:
        found = [m.group(1) for m in re.finditer(rf"\b{words}\s*\(((?:[^()]|\([^()]*\)){{3,200}})\)", text, re.I)]
        found = [f for f in found if not ASIDE.search(f)]  # "subtotal (the surcharge is not discounted)": a remark
        found += [m.group(1) for m in re.finditer(rf"\b{words}`?\s*=\s*([^;]{{3,300}}?)(?:[;]|\.\s|\.$|$)", text, re.I)]
        per_line = [f for f in found if re.search(r"\bfor\s+(?:each|every)\b", re.sub(r"\([^()]*\)", "", f), re.I)]
        found = [f for f in found if words == said or f not in per_line]
        if found:  # "labour (hours x rate)" defines `labour_total` when nothing defines it by its own name (not a
            return out + found  # line's formula: "parts (unit price x quantity for each part)")
    return out


def loose_formulas(spec: ToolSpec) -> list[str]:
    """Clauses of the description that no field name opens: "...: nightly_rate x nights, less ..."."""
    clauses = re.split(r"(?<!\d)\.(?!\d)|;|:", spec.description)
    return [c.strip() for c in clauses if SPLIT.search(c)]


__all__ = ["ROUNDED", "SPLIT", "alike", "definitions", "loose_formulas", "param_default", "spoken", "stated_formulas"]
