"""The answer's shape as a description writes it in braces: "Answers with {pier_id, arrivals: [{boat_id, nights}],
per_class: {<class>: {boats, metres}}, busiest (the longest stay), departures}. Every departure has {boat_id, left}."

Each top-level entry gives a field: its name, the remark after it (in brackets, or after a colon when that opens a
group: `arrivals: [{...}]`), and the fields of its entries when the remark gives them in braces. A field is a list
when its entries come in square brackets, after "list of", or from a group that the field's singular opens
elsewhere in the description ("Every departure has {boat_id, left}"); a map when a placeholder keys them
(`per_class` -> boats, metres by `class`); else a nested object. A flat "{a, b, c}" reads as three plain fields.
A list answer may also name its records' fields in round brackets ("Returns a list of short records (a_id, b, c)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from synth.spec import ToolSpec
from synth.tooldocs.oas_schema import flatten_all_of
from synth.words import singular

ANSWER = re.compile(
    r"(?:\b(?:[Rr]eturns?|Answers?\s+with|Responds?\s+with)\b|\bResponse\s*:|\b(?:Each|Every)\s+\w+\s+(?:is|has|holds|carries)\b)"
    r"[^{.]{0,80}?(\[?\{)"
)
NAME = re.compile(r'\s*"?([A-Za-z_]\w*)"?\s*(.*)$', re.S)
# a bare list of fields after a lead-in: "Returns: a, b (..), c.", "Response fields: ...", "The response has ..."
BARE = re.compile(
    r"(?:\bReturns?(?:\s+(?:the|an?)\s+[\w ]{1,40}?)?\s*:|\bResponse\s+fields\s*:|"
    r"\b(?:The\s+)?response\s+(?:has|holds|carries|contains)\b|"
    r"\b(?:Each|Every)\s+\w+\s+(?:carries|has|holds)\s*:|"
    r"\bReturns(?=\s+[a-z]\w*_\w*\s*(?:\([^()]*\))?\s*(?:,|and\s+[a-z]\w*\s*[.;]))"  # "Returns pier_id (P-##), name"
    r")\s*(?=[A-Za-z_])",
    re.I,
)
LITERAL = re.compile(r""":\s*(?:"[^"]*"|'[^']*'|-?\d+(?:\.\d+)?|true|false|null)""")
PLACEHOLDER = re.compile(r"^\s*<\s*([\w ]+?)\s*>\s*:\s*(\{.*\})\s*$", re.S)


@dataclass
class ReturnedField:
    """One field of a documented answer: its name, its remark, and the fields of its entries (if given)."""

    name: str
    remark: str = ""
    entries: list["ReturnedField"] = field(default_factory=list)
    keyed_by: str = ""  # "{<class>: {...}}": a map from the placeholder's values to entries
    is_list: bool = False  # "[{...}]", "list of {...}", or entries given where its singular opens a group
    literal: bool = False  # `status: "moored"`: the remark is the value the field always holds


def _closing(text: str, start: int) -> int:
    """The index of the brace that closes the one at `start` (-1 when unbalanced)."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return -1


def top_level_parts(inner: str, sep: str = ",") -> list[str]:
    """The parts of a text between separators (commas by default), those inside brackets or braces left alone."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif depth == 0 and i >= start and inner.startswith(sep, i):
            parts.append(inner[start:i])
            start = i + len(sep)
    parts.append(inner[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_braces(group: str) -> list[ReturnedField] | None:
    """The fields of one "{...}" group (with its braces), or None when an entry is not a field (`{kind: 'x'}`
    is a value, not a shape)."""
    out: list[ReturnedField] = []
    for part in top_level_parts(group.strip()[1:-1]):
        m = NAME.match(part)
        if not m:
            return None
        name, rest = m.group(1), m.group(2).strip()
        one = ReturnedField(name=name)
        if rest.startswith("(") and rest.endswith(")"):
            one.remark = rest[1:-1].strip()
        elif rest.startswith(":") and rest[1:].strip()[:1] in ("{", "[", "<"):  # a group, or `: <what it is>`
            one.remark = rest[1:].strip()
        elif LITERAL.fullmatch(rest):  # `status: "moored"`: the value it always holds
            one.remark, one.literal = rest[1:].strip(), True
        elif rest:
            return None
        inner = one.remark.find("{")
        close = _closing(one.remark, inner) if inner >= 0 else -1
        if close > inner >= 0:
            nested = one.remark[inner : close + 1]
            keyed = PLACEHOLDER.match(nested[1:-1])
            if keyed:
                one.keyed_by = keyed.group(1).strip()
                nested = keyed.group(2)
            one.entries = parse_braces(nested) or []
            before = one.remark[:inner]
            one.is_list = not one.keyed_by and ("[" in before or bool(re.search(r"\blist\s+of\b", before, re.I)))
        elif one.remark.startswith("["):  # `"items": [...]`: a list whose entries it does not spell out
            one.is_list = True
        out.append(one)
    return None if out and all(one.literal for one in out) else out  # `{kind: 'x'}` is a value, not a shape


def returned_fields(description: str) -> list[ReturnedField]:
    """The fields of the first answer group ("Returns {...}", "Answers with {...}") that reads as a shape."""
    for found in ANSWER.finditer(description):
        start = found.start(1) + (1 if found.group(1).startswith("[") else 0)
        before = description[found.start() : start]
        if re.search(r":\s*[A-Za-z_]\w*\s*,", before) or re.match(r"\w+\s+[a-z]\w*_\w*\s*(?:\([^()]*\))?\s*,", before):
            continue  # "Returns the record: a, b, contact {phone, email}", "Returns a_id, b, and c: each {x, y}"
        close = _closing(description, start)
        fields = parse_braces(description[start : close + 1]) if close > start else None
        if not fields or len(fields) < 2:
            continue
        for one in fields:
            if not one.entries:
                one.entries = _entries_elsewhere(one.name, description, start, close)
                one.is_list = one.is_list or bool(one.entries)
        return fields
    return (
        _named_in_brackets(description)
        or _bare_fields(description.replace("`", ""))
        or _possessive_fields(description.replace("`", ""))
    )


POSSESSIVE = re.compile(r"\bReturns?\s+(?:the|its)\s+(?P<noun>\w+)['\u2019]s\s+(?=[a-z]\w*\s*,)", re.I)


def _possessive_fields(description: str) -> list[ReturnedField]:
    """The record's id (`boat_id`) and the fields a sentence such as "Returns the boat's status, suspension_reason
    and lights_enabled" lists, when some is written as a field (`suspension_reason`, not a plain word)."""
    found = POSSESSIVE.search(description)
    text = description[found.end() :] if found else ""
    out = _listed(text[: _sentence_end(text)]) if found else []
    key = f"{found['noun'].lower()}_id" if found else ""
    return [ReturnedField(name=key)] + [o for o in out if o.name != key] if any("_" in o.name for o in out) else []


# "Returns a list of short records (boat_id, name, pier_id); ...": the records' field names in round brackets
IN_BRACKETS = re.compile(
    r"\bReturns?\s+(?:an?|the)\s+(?:list|array)\s+of\s+[\w -]{1,40}?\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*\)",
    re.I,
)


def _named_in_brackets(description: str) -> list[ReturnedField]:
    """The field names a list answer's lead-in gives in round brackets, when some is written as a field
    (`boat_id`, not a plain word); [] otherwise."""
    found = IN_BRACKETS.search(description)
    names = [n.strip() for n in found.group(1).split(",")] if found else []
    return [ReturnedField(name=n) for n in names] if any("_" in n for n in names) else []


def _bare_fields(description: str) -> list[ReturnedField]:
    """The fields of the first bare list after a lead-in ("Returns: a, b (remark), and c."), each part a name with
    an optional remark in brackets; "plus two computed lists: d (...)" and "and e" give d and e."""
    for found in BARE.finditer(description):
        text = description[found.end() :]
        end = _sentence_end(text)
        out = _listed(text[:end])
        if len(out) >= 2:
            more = ALSO.match(text[end + 1 :])  # "The response also carries two values ...: a (...) and b."
            if more:
                rest = text[end + 1 + more.end() :]
                out += [f for f in _listed(rest[: _sentence_end(rest)]) if f.name not in {o.name for o in out}]
            for flag in FLAG_SAID.finditer(text[end:]):  # "... feeding. berths_current is true when ..."
                if flag.group(1) not in {o.name for o in out} and not PARAM_LIKE.match(flag.group(1)):
                    out.append(ReturnedField(name=flag.group(1), remark=flag.group(2).strip()))
            return out
    return []


def row_fields(description: str, noun: str) -> list[ReturnedField]:
    """The fields a list answer's records have when a sentence lists them bare after its noun: "each berth has
    berth_id, size, and moored_boat (...)"; [] when none does, or no listed name is written as a field."""
    lead = (
        rf"\b(?:each|every)\s+{re.escape(noun)}(?:\s+(?:object|record|entry|item|row))?\s+(?:has|carries|holds|is)\b"
        r"(?:[^.:;]{0,60}:)?\s*"
    )
    for found in re.finditer(lead, description, re.I):
        text = description[found.end() :]
        out = _listed(text[: _sentence_end(text)])
        if len(out) >= 2 and any("_" in one.name for one in out):
            return out
    return []


ALSO = re.compile(
    r"\s*(?:The\s+(?:response|answer|result|reply)|It)\s+also\s+(?:carries|has|holds|includes|contains|returns|gives)"
    r"\b(?:[^.:]{0,100}:)?\s*",
    re.I,
)


# a flag the sentences after a bare answer list define: "berths_current is true when every permit is valid today"
PARAM_LIKE = re.compile(r"(?:include|show|only|dry|with)_")  # a call's switch, not an answer field
FLAG_SAID = re.compile(r"(?:^|[.;]\s+)([a-z]\w*_\w*)\s+(is\s+(?:true|false)\s+(?:only\s+)?(?:when|if|while)\b[^.;]*)")


def _sentence_end(text: str) -> int:
    """Where the sentence (or line) that starts the text ends, brackets left whole."""
    depth = 0
    for i, ch in enumerate(text):
        depth += 1 if ch in "({[" else -1 if ch in ")}]" else 0
        if depth == 0 and (ch == "\n" or ch == "." and (i + 1 == len(text) or text[i + 1].isspace())):
            return i
    return len(text)


def _listed(text: str) -> list[ReturnedField]:
    """The fields of a bare list ("a, b (remark), and c"), each part a name with an optional remark in brackets;
    [] when a part is no field name."""
    out: list[ReturnedField] = []
    for part in [piece for whole in top_level_parts(text) for piece in top_level_parts(whole, " and ")]:
        if re.fullmatch(r"etc\.?|and\s+so\s+on", part.strip(), re.I):
            continue  # "a, b, c, etc."
        if out and re.match(
            r"(?:each|every|or|if|null)\b", part, re.I
        ):  # "berths: an object ..., each {...}", "or null"
            out[-1].remark = f"{out[-1].remark}, {part}".lstrip(", ")
            continue
        named = re.fullmatch(r"(?:(?:and|plus)\s+)?([a-z]\w*)\s*:\s*(.+)", part.strip(), re.S)
        if named:  # "berths: an object with one entry per size": the field and its remark
            out.append(ReturnedField(name=named.group(1), remark=named.group(2).strip()))
            continue
        part = re.sub(r"^(?:and|or|plus)\s+", "", part.split(":")[-1].strip() if ":" in part.split("(")[0] else part)
        m = re.fullmatch(  # "contact {name, phone}": an object; "a computed free = places - moored (...)": a figure
            r"(?:an?\s+(?:computed|derived)\s+)?([A-Za-z_]\w*)\s*(?:\((.*)\)|\{[^{}]*\}|=\s*([^=]+))?",
            part.strip(),
            re.S,
        )
        if not m:
            return []
        out.append(ReturnedField(name=m.group(1), remark=(m.group(2) or m.group(3) or "").strip()))
    return out


def _entries_elsewhere(name: str, text: str, start: int, close: int) -> list[ReturnedField]:
    """The entries of a list field from a group its singular opens: "every departure has {...}", "the line is {"."""
    noun = singular(name.split("_")[-1]).lower()
    if noun == name.lower():
        return []
    for m in re.finditer(rf"\b{re.escape(noun)}\s+(?:is|has|holds|reads|carries|=|:)\s*(\{{)", text, re.I):
        if start <= m.start(1) <= close:
            continue
        end = _closing(text, m.start(1))
        entries = parse_braces(text[m.start(1) : end + 1]) if end > 0 else None
        if entries and len(entries) >= 2:
            return entries
    return []


__all__ = ["ReturnedField", "parse_braces", "returned_fields", "row_fields", "top_level_parts"]


def answer_schema(spec: ToolSpec) -> dict[str, Any]:
    """The object schema of one answered record: the tool's response schema with an `allOf` merged and a list
    answer's items taken ({} when the docs give none)."""
    returns = flatten_all_of(spec.returns) if isinstance(spec.returns, dict) else {}
    if returns.get("type") == "array" and isinstance(returns.get("items"), dict):
        returns = returns["items"]
    return returns
