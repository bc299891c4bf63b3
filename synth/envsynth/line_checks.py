"""Refusals a quote's lines (quote_lines.py) read from the docs and from the records' own fields:

- a value of an element field that its description allows only with a flag of the line's record ("2 = two hulls
  (only on moorings with twin_hull = true)"): refused when the element holds the value and the record's flag is
  not true;
- a line's record that the docs call discontinued, retired, withdrawn, archived or inactive by its noun ("retired
  moorings"), when it has a yes/no `active` (or `available`, `enabled`) field: refused when that field is false;
- a record an element field names (line_pricing.element_links) that lists what it fits (`compatible_<x>s`,
  `allowed_<x>s`, naming a field `x` of the line's record) or bounds it (`min_<w>`, `max_<w>`, naming the line
  record's one number field with the word `w`): refused when the list or bound is set and the line's record falls
  outside it;
- "A <flag> job may contain at most N <units> across all lines": a whole-call refusal when the call sets the flag
  and the elements' one count sums above N.

Each check is {"when": yes/no node, "said": the docs' words}; a line check reads the line's names
(`code_templates/_blocks.j2` `lines`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.figure_terms import param_default
from synth.envsynth.lead_conditions import flag_param
from synth.envsynth.line_pricing import count_fields
from synth.words import singular, split_words

ONLY_WITH = re.compile(
    r"(?:^|[,;.]\s*)`?([\w-]+)`?\s*=\s*[^()=,;]*\(\s*only\s+(?:on|for)\s+[\w -]+?\s+with\s+`?(\w+)`?\s*=\s*true\s*\)",
    re.I,
)
RETIRED = re.compile(r"\b(discontinued|retired|withdrawn|archived|inactive)\b", re.I)
ACTIVE = ("active", "available", "enabled")
CAPPED = re.compile(
    r"\bAn?\s+([\w-]+)\s+[\w-]+\s+may\s+(?:contain|hold|have|take)\s+at\s+most\s+([\d,]+)\s+([\w-]+)\s+across\s+all\s+"
    r"(?:the\s+)?[\w-]+",
    re.I,
)


def _field(field: str, holder: str) -> dict[str, Any]:
    return {"field": field, "param": holder}


def _only_with(element: dict[str, Any], names: dict[str, str], record: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for field, schema in sorted(element.items()):
        if not isinstance(schema, dict):
            continue
        for said in ONLY_WITH.finditer(str(schema.get("description") or "")):
            value = next((v for v in schema.get("enum") or [] if str(v) == said.group(1)), None)
            flag = said.group(2)
            if value is None or (record.get(flag) or {}).get("type") != "boolean":
                continue
            held = {"test": _field(field, names["element"]), "in": [value]}
            lacking = {"not": {"test": _field(flag, names["record"]), "in": [True]}}
            out.append({"when": {"all": [held, lacking]}, "said": said.group(0).strip(" ,;.")})
    return out


def _retired(docs: str, names: dict[str, str], record: dict[str, Any]) -> list[dict[str, Any]]:
    noun = re.escape(names["record"])  # "retired moorings", "a mooring is withdrawn": the line record's own noun
    words = RETIRED.pattern
    said = re.search(rf"{words}\s+{noun}s?\b|\b{noun}s?\s+(?:is|are)\s+(?:now\s+)?{words}", docs, re.I)
    flags = [f for f in ACTIVE if (record.get(f) or {}).get("type") == "boolean"]
    if said is None or len(flags) != 1:
        return []
    return [{"when": {"test": _field(flags[0], names["record"]), "in": [False]}, "said": said.group(0)}]


def _fits(link: str, linked: dict[str, Any], names: dict[str, str], record: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for field, schema in sorted(linked.items()):
        kind = schema.get("type") if isinstance(schema, dict) else None
        kinds = set(kind) if isinstance(kind, list) else {kind}
        words = split_words(field)
        if "array" in kinds and words[0] in ("compatible", "allowed") and len(words) > 1:
            own = singular("_".join(words[1:]))
            if own in record:
                held = _field(field, link)
                outside = {"not": {"member": _field(own, names["record"]), "of": held}}
                out.append({"when": {"all": [{"set": held}, outside]}, "said": f"{link} needs a listed {own}"})
        if kinds & {"number", "integer"} and words[0] in ("min", "max") and len(words) == 2:
            own_numbers = [
                f
                for f, s in sorted(record.items())
                if isinstance(s, dict) and s.get("type") in ("number", "integer") and words[1] in split_words(f)
            ]
            if len(own_numbers) == 1:
                held = _field(field, link)
                op = "<" if words[0] == "min" else ">"
                past = {"op": op, "args": [_field(own_numbers[0], names["record"]), held]}
                out.append({"when": {"all": [{"set": held}, past]}, "said": f"{link} needs {field.replace('_', ' ')}"})
    return out


def line_checks(
    docs: str, element: dict[str, Any], names: dict[str, str], record: dict[str, Any], links: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The refusals of one line (`links`: {element field: the fields of the record it names})."""
    if "record" not in names:
        return []
    checks = _only_with(element, names, record) if "element" in names else []
    checks += _retired(docs, names, record)
    for link, linked in sorted(links.items()):
        checks += _fits(link, linked, names, record)
    return checks


def whole_call_caps(spec: Any, params: dict[str, Any], param: str) -> list[dict[str, Any]]:
    """ "An express booking may hold at most 30 nights across all lines": refused above that with the flag set."""
    docs, element = spec.description, element_of(spec, param)
    counts = count_fields(element)
    out = []
    for said in CAPPED.finditer(docs):
        named = flag_param(said.group(1), params)
        if named is None or len(counts) != 1:
            continue
        flag = {"test": {"arg": named, "default": param_default(params[named])}, "in": [True]}
        over = {
            "op": ">",
            "args": [{"total_of": {"param": param, "of": counts[0]}}, {"num": int(said.group(2).replace(",", ""))}],
        }
        out.append({"when": {"all": [flag, over]}, "said": said.group(0)})
    return out


def element_of(spec: Any, param: str) -> dict[str, Any]:
    """The fields of one element of a list parameter."""
    schema = (spec.parameters.get("properties") or {}).get(param) or {}
    return ((schema.get("items") or {}) if isinstance(schema, dict) else {}).get("properties") or {}
