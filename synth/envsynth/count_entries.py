"""What a priced create does by count and to the records its quote reads (quote_reuse.priced_fields):

- "issues one apron per cook" or "with `cooks` new aprons": the new record's list field `aprons` gets as many
  entries as the count parameter says; each entry field is a parameter of that name, the field of that name of
  the one record or entry the quote reads that has it (the station picked from the workshop's stations), or, for
  an id field, the next numbers after the highest that any record's entries hold (one sequence over all
  records: apron numbers running on across every enrolment);
- "adds `cooks` to the station's `filled`", "takes one from a coupon's `stamps`", "the station's `filled` rises by
  cooks": a number of a record or entry the quote reads moves by a count parameter or by one.

- "the station needs enough places free (places - filled)": the count may not exceed the quote's figure of that
  formula.

Each becomes a create effect: {"op": "repeat", "field", "count": {"arg", "default"}, "fields": {name: source},
"sequence": {"field", "prefix", "digits"}} and {"op": "entry_adjust", "param", "field", "amount", "sign"}, and
{"op": "covers", "figure", "amount", "noun"} (code_templates/create.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.figure_terms import param_default
from synth.envsynth.item_plan import _id_format
from synth.envsynth.prose import unwrap
from synth.words import plural, singular, split_words

COUNTED = re.compile(r"\b(?:holding|with|makes?|creates?|issues?|adds?)\s+`?(\w+)`?\s+new\s+([a-z_]+)\b", re.I)
PER_COUNT = re.compile(  # "issues one <entry> per <unit>": the count is the integer parameter naming the unit
    r"\b(?:holding|with|makes?|creates?|issues?|adds?|gets?)\s+(?:one|a|an)\s+([a-z_]+)\s+(?:per|for\s+each|for\s+every)\s+"
    r"`?(\w+)`?",
    re.I,
)
MOVED = re.compile(
    r"\b(?:the|a|an|its)\s+([a-z][\w ]{0,30}?)['\u2019]s\s+`?(\w+)`?\s+(grows|increases|rises|goes\s+up|"
    r"decreases|drops|falls|goes\s+down)\s+by\s+(?:the\s+)?`?(\w+)`?",
    re.I,
)
ADDED = re.compile(  # "adds <count> to the <entry>'s `field`", "takes one from a <record>'s `field`"
    r"\b(adds?|takes?|subtracts?)\s+(?:the\s+)?`?(\w+)`?\s+(?:to|onto|from)\s+(?:the|a|an|its)\s+"
    r"([a-z][\w ]{0,30}?)['\u2019]s\s+`?(\w+)`?",
    re.I,
)


def _held(quote: dict[str, Any], cols: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{parameter: fields of the record it names or the entry it picks} of the records a quote reads."""
    out = {p: _props(cols, col) for p, col in (quote.get("named") or {}).items()}
    for param, (holder, items, _match) in (quote.get("select") or {}).items():
        entry = ((out.get(holder) or {}).get(items) or {}).get("items") or {}
        out[param] = (entry.get("properties") or {}) if isinstance(entry, dict) else {}
    return out


def _sequence(sample: dict[str, Any], collection: str, field: str, sub: str, schema: dict[str, Any]) -> dict | None:
    records = sample.get(collection) if isinstance(sample.get(collection), dict) else {}
    values = [
        e.get(sub) for r in records.values() if isinstance(r, dict) for e in r.get(field) or [] if isinstance(e, dict)
    ]
    found = _id_format([v for v in values if v is not None], schema)
    return {"field": sub, **found} if values and found else None


def repeated_entries(
    text: str,
    collection: str,
    state_schema: dict[str, Any],
    params: dict[str, Any],
    quote: dict[str, Any],
    sample: dict[str, Any],
) -> list[dict[str, Any]]:
    """`repeat` effects for the new record's list fields the docs fill by a count parameter."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    held = _held(quote, cols)
    out: list[dict[str, Any]] = []
    plain = unwrap(text)
    counted = [(m.group(1), m.group(2).lower()) for m in COUNTED.finditer(plain)]
    for m in PER_COUNT.finditer(plain):  # the unit, singular or plural, names the count parameter
        unit = [p for p in (m.group(2), plural(m.group(2))) if (params.get(p) or {}).get("type") == "integer"]
        counted += [(unit[0], m.group(1).lower())] if unit else []
    for count, noun in counted:
        field = next((f for f in own if plural(singular(f)) == plural(singular(noun))), None)
        schema = own.get(field) if field else None
        if (params.get(count) or {}).get("type") != "integer" or not isinstance(schema, dict):
            continue
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        fields: dict[str, Any] = {}
        sequence = None
        for sub, sub_schema in (items.get("properties") or {}).items():
            holders = [p for p, fs in held.items() if sub in fs]
            if sub in params:
                fields[sub] = {"from": "arg", "name": sub}
            elif sub == "id" or sub.endswith("_id"):
                sequence = _sequence(sample, collection, field, sub, sub_schema or {})
                if sequence is None:
                    break
            elif len(holders) == 1:
                fields[sub] = {"from": "named", "param": holders[0], "field": sub}
            else:
                break
        else:
            count_default = param_default(params[count])
            out.append(
                {
                    "op": "repeat",
                    "field": field,
                    "count": {"arg": count, "default": 1 if count_default is None else count_default},
                    "fields": fields,
                    "sequence": sequence,
                }
            )
    return out


def _owner(words: str, held: dict[str, Any]) -> str | None:
    said = "_".join(split_words(words)[-2:])
    found = [p for p in held if p in (said, f"{said}_id") or p.endswith("_" + said) or said.endswith("_" + p)]
    return found[0] if len(found) == 1 else None


def entry_moves(
    text: str, state_schema: dict[str, Any], params: dict[str, Any], quote: dict[str, Any]
) -> list[dict[str, Any]]:
    """`entry_adjust` effects: numbers of the records or entries a priced create's quote reads, moved by a count
    parameter or by one."""
    held = _held(quote, state_schema.get("properties") or {})
    out = []
    plain = unwrap(text)
    said = [(m.start(), m.group(1), m.group(2), m.group(3).lower(), m.group(4)) for m in MOVED.finditer(plain)]
    said += [  # "adds `cooks` to the station's `filled`": a move up (to) or down (from)
        (m.start(), m.group(3), m.group(4), "increases" if m.group(1).lower()[:3] == "add" else "decreases", m.group(2))
        for m in ADDED.finditer(plain)
    ]
    for _, owner, field, verb, by in sorted(said):
        param = _owner(owner, held)
        schema = (held.get(param) or {}).get(field) if param else None
        if not isinstance(schema, dict) or schema.get("type") not in ("integer", "number"):
            continue
        if by.lower() in ("1", "one"):
            amount: dict[str, Any] = {"num": 1}
        elif (params.get(by) or {}).get("type") in ("integer", "number"):
            default = param_default(params[by])
            amount = {"arg": by, "default": default}
        else:
            continue
        sign = -1 if verb.split()[0] in ("decreases", "drops", "falls") or verb.endswith("down") else 1
        if not any(e["param"] == param and e["field"] == field for e in out):
            out.append({"op": "entry_adjust", "param": param, "field": field, "amount": amount, "sign": sign})
    return out


ENOUGH = re.compile(
    r"\b(?:must\s+(?:have|hold|keep)|needs?|requires?)\s+enough\s+([a-z][\w ]{0,30}?)\s+"
    r"(?:left|remaining|available|free|open)\s*\(([^()]{3,80})\)",
    re.I,
)


def _names_in(node: Any) -> set[str]:
    """The field, figure and argument names a formula node reads."""
    if isinstance(node, list):
        return set().union(*[_names_in(n) for n in node]) if node else set()
    if not isinstance(node, dict):
        return set()
    own = {str(node[k]) for k in ("field", "val", "arg") if k in node}
    return own.union(*[_names_in(v) for k, v in node.items() if k not in ("field", "val", "arg", "param")])


def _said(name: str, schema: dict[str, Any]) -> set[str]:
    """The singular words of a parameter's name and description."""
    return {singular(w.lower()) for w in split_words(name + " " + str(schema.get("description") or ""))}


def covered_counts(text: str, params: dict[str, Any], quote: dict[str, Any]) -> list[dict[str, Any]]:
    """`covers` checks: "the station needs enough places free (places - filled)" refuses a count parameter above
    the quote's figure of that formula (the figure reading exactly the names the bracket names)."""
    out = []
    for m in ENOUGH.finditer(unwrap(text)):
        names = set(re.findall(r"[A-Za-z_]\w*", m.group(2)))
        figures = [n for n, node in quote.get("steps") or [] if "op" in node and _names_in(node) == names]
        noun = singular(m.group(1).split()[-1].lower())
        counts = [p for p, sch in params.items() if isinstance(sch, dict) and sch.get("type") == "integer"]
        if len(counts) > 1:
            counts = [p for p in counts if noun in _said(p, params[p])]
        if len(figures) == 1 and len(counts) == 1:
            default = param_default(params[counts[0]])
            amount = {"arg": counts[0], "default": 1 if default is None else default}
            out.append({"op": "covers", "figure": figures[0], "amount": amount, "noun": plural(noun)})
    return out


__all__ = ["covered_counts", "entry_moves", "repeated_entries"]
