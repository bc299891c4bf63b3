"""Fields a read of one record answers beyond the record's own, as its docs' "Returns ... plus ..." lists them:

- another record's fields, through the reference the record holds: "plus the route's name and fare";
- a figure computed from two number fields: "berths_free (berths minus moored, never below 0)";
- the keys of the records of another collection that name this one: "plus boat_ids: the ids of all boats of the
  harbour, sorted";
- those records themselves, cut to the fields in brackets: "plus a crews summary (crew_id, name)" (summary_rows.py;
  the one addition a list read answers in each of its records).

A listed field that is no field of the record (derived_field) is a list's length, a figure the docs define, or
how many records of another collection name this one ("free_berths counts berths with status 'free'").

Each becomes an `output_map` entry of the plan (rendered by codegen's shape function): {"op": "eq", "via",
"collection", "path"} for a referenced field, {"op": "calc", "left", "operator", "right", "floor"} for a figure,
{"op": "ids", "collection", "ref"} for the keys, {"op": "rows", ...} for the records, {"op": "count", "collection",
"ref", "where"} for a count.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.linked_answers import id_list_rule
from synth.envsynth.named_paths import named_path
from synth.envsynth.plan import ToolPlan
from synth.envsynth.summary_rows import summary_rows
from synth.spec import ToolSpec
from synth.words import plural, singular

PLUS = re.compile(
    r"\b(?:Returns?|The\s+(?:response|answer)\s+is|Responds\s+with)\b[^.]*?\bplus\b\s+(.+?)(?:\.\s|\.$|\n\n|$)",
    re.IGNORECASE | re.DOTALL,
)
WRITES = {"update", "recorded_update"}  # a change answering its record, with additions read after the change
OPERATORS = {"minus": "-", "less": "-", "plus": "+", "times": "*", "multiplied by": "*", "divided by": "/"}
CALC = re.compile(
    r"^(?P<left>\w+)\s+(?P<op>minus|less|plus|times|multiplied by|divided by)\s+(?P<right>\w+)"
    r"(?:\s*,\s*(?:never|not)\s+(?:below|less than)\s+(?P<floor>-?\d+(?:\.\d+)?))?$",
    re.IGNORECASE,
)
IDS = re.compile(
    r"^(?P<name>\w+)\s*:\s*the\s+(?:ids|keys|codes)\s+of\s+(?:all\s+|every\s+)?(?:the\s+)?(?P<noun>\w+)\b", re.I
)
COUNTS_TAIL = (
    r"(?:counts|is\s+the\s+number\s+of)\s+(?:the\s+)?(?P<noun>\w+)"
    r"(?:\s+(?:with|whose|where)\s+(?P<field>\w+)\s+(?:is\s+|=\s*)?[`'\"](?P<value>[^`'\"]{1,40})[`'\"])?"
    r"(?P<rest>\s+(?:with|whose|where)\b)?"
    r"(?:\s*\((?:at|in|for)\s+the\s+given\s+(?P<given>\w+)\s+only\b[^()]*\))?"  # "(at the given branch only, ...)"
)
POSSESSIVE = re.compile(r"^the\s+(?P<noun>\w+)['\u2019]s\s+(?P<field>\w+)$", re.IGNORECASE)


def _number(text: str | None) -> int | float | None:
    if text is None:
        return None
    return float(text) if "." in text else int(text)


def _calc_rule(calc: re.Match[str]) -> dict[str, Any]:
    """The `calc` output_map entry of a formula CALC matched."""
    return {
        "op": "calc",
        "left": calc.group("left"),
        "operator": OPERATORS[calc.group("op").lower()],
        "right": calc.group("right"),
        "floor": _number(calc.group("floor")),
    }


def _fields(cols: dict[str, Any], name: str) -> dict[str, Any]:
    col = cols.get(name) or {}
    record = col.get("additionalProperties") if isinstance(col, dict) else None
    props = record.get("properties") if isinstance(record, dict) else None
    return props if isinstance(props, dict) else {}


def _numeric(own: dict[str, Any], *names: str) -> bool:
    return all(isinstance(own.get(n), dict) and own[n].get("type") in ("number", "integer") for n in names)


def _items(clause: str) -> list[str]:
    """The clause split at commas and "and", keeping parentheses whole."""
    depth, cur, parts = 0, "", []
    for ch in clause:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    out = []
    for part in parts:
        out += [p.strip() for p in re.split(r"\s+and\s+(?![^(]*\))", part) if p.strip()]
    return out


def _reference(own: dict[str, Any], noun: str, cols: dict[str, Any]) -> tuple[str, str] | None:
    """(reference field, collection) of the record the noun names: a field whose data references `<noun>s`, else
    one named `<noun>_...`."""
    target = plural(noun.lower())
    if target not in cols:
        return None
    hits = [f for f, s in sorted(own.items()) if isinstance(s, dict) and s.get("x-references") == target]
    hits = hits or [f for f in sorted(own) if f.lower().startswith(noun.lower() + "_")]
    return (hits[0], target) if len(hits) == 1 else None


def answer_extras(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{answer field: how it is made} for a `get` whose docs list additions with "plus"; {} when none is read."""
    listing = plan.kind in ("filter", "list", "search")  # each record answered: only records of another collection
    if (plan.kind not in {"get"} | WRITES and not listing) or not plan.collection or plan.output_key:
        return {}
    cols = state_schema.get("properties") or {}
    own = _fields(cols, plan.collection)
    found = PLUS.search(re.sub(r"\b(e\.g|i\.e|etc|vs)\.", lambda m: m.group(1).replace(".", ""), spec.description))
    if not own or not found:
        return {}
    extras: dict[str, dict[str, Any]] = {}
    owner: tuple[str, str] | None = None  # the record a possessive named, for the bare fields after it
    for item in _items(found.group(1)):
        rows = summary_rows(item, plan.collection, cols)  # "a crews summary (crew_id, name)"
        if rows or listing:
            extras.update([rows] if rows else [])
            continue
        ids = IDS.match(item)
        if ids:
            other = plural(singular(ids.group("noun").lower()))
            refs = [
                f
                for f, s in _fields(cols, other).items()
                if isinstance(s, dict) and s.get("x-references") == plan.collection
            ]
            if other in cols and other != plan.collection and len(refs) == 1:
                extras[ids.group("name")] = {"op": "ids", "collection": other, "ref": refs[0]}
            continue
        head, _, rest = item.partition("(")
        head = head.strip()
        if rest and re.fullmatch(r"\w+", head):
            calc = CALC.match(rest.rstrip(")").strip())
            if calc and _numeric(own, calc.group("left"), calc.group("right")) and head not in own:
                extras[head] = _calc_rule(calc)
            whose = re.search(r"\bthe\s+(\w+)['\u2019]s\b", rest)  # "copay_balance (the patient's balance ...)"
            held = _reference(own, whose.group(1), cols) if whose and not calc else None
            if held and head not in own and head in _fields(cols, held[1]):
                extras[head] = {"op": "eq", "via": held[0], "collection": held[1], "path": [head]}
            continue
        named = POSSESSIVE.match(head)
        if named:
            owner = _reference(own, named.group("noun"), cols)
            head = named.group("field")
        if owner and re.fullmatch(r"\w+", head) and head not in own and head in _fields(cols, owner[1]):
            extras[head] = {"op": "eq", "via": owner[0], "collection": owner[1], "path": [head]}
    return extras


def _count_rule(name: str, glossary: str, cols: dict[str, Any], collection: str) -> dict[str, Any] | None:
    """ "`free_berths` counts berths with status 'free'": the records of another collection that name this one,
    those with the quoted value only ("(at the given pier only, when pier is set)": and the argument's value, when
    it is passed)."""
    said = re.search(rf"`?\b{re.escape(name)}`?\s+{COUNTS_TAIL}", glossary, re.IGNORECASE)
    if said is None or said.group("rest"):  # a condition that is not read must not be dropped
        return None
    where = {said.group("field"): said.group("value")} if said.group("field") else {}
    return linked_count(said.group("noun"), collection, cols, where, said.group("given"))


def linked_count(
    noun: str, collection: str, cols: dict[str, Any], where: dict[str, Any], given: str | None = None
) -> dict[str, Any] | None:
    """{"op": "count", "collection", "ref", "where", "where_args"?}: the records of the collection `noun` names
    that name a record of `collection` through their one reference to it, with the `where` values, and with the
    argument `given`'s value in its field (`given` or `given_id`) when it is passed; None when any is not there."""
    other = plural(singular(noun.lower()))
    fields = _fields(cols, other)
    own_key = f"{singular(collection)}_id"
    refs = [
        f for f, s in fields.items() if (isinstance(s, dict) and s.get("x-references") == collection) or f == own_key
    ]
    if other == collection or len(refs) != 1 or any(f not in fields for f in where):
        return None
    rule = {"op": "count", "collection": other, "ref": refs[0], "where": dict(where)}
    if given:
        held = [f for f in (given, f"{given}_id") if f in fields]
        if not held:
            return None
        rule["where_args"] = {held[0]: given}
    return rule


SIGNS = {"-": "-", "+": "+", "*": "*", "/": "/", "\u2212": "-", "\u00d7": "*"}


def _written_calc(name: str, own: dict[str, Any], glossary: str) -> dict[str, Any] | None:
    """ "a computed free_places = places - moored (null for closed piers)": the figure of two of the record's numbers,
    none while the record holds the value the aside names (its known values read with `-` or a space for `_`)."""
    said = re.search(
        rf"\b{re.escape(name)}`?\s*=\s*`?(?P<left>\w+)`?\s*(?P<op>[-+*/\u2212\u00d7])\s*`?(?P<right>\w+)`?"
        r"(?:\s*\((?:null|none)\s+(?:for|when|if)\s+(?P<null>[^()]{1,60})\))?",
        glossary,
        re.IGNORECASE,
    )
    if said is None or not _numeric(own, said.group("left"), said.group("right")):
        return None
    rule = {"op": "calc", "left": said.group("left"), "operator": SIGNS[said.group("op")], "right": said.group("right")}
    rule["floor"] = None
    if said.group("null"):
        hit = aside_value(said.group("null"), own)
        if hit is None:
            return None  # a condition that is not read must not be dropped
        rule["null_when"] = {"field": hit[0], "in": [hit[1]]}
    return rule


def _named_path(name: str, own: dict[str, Any], glossary: str, noun: str) -> dict[str, Any] | None:
    """A field the docs define as one of the record's numbers ("The fee charged is the boat's charges.total")."""
    path = named_path(name, own, glossary, noun=noun)
    if path is None or len(path) > 2:
        return None
    return {"op": "nested", "path": path} if len(path) == 2 else {"op": "own", "field": path[0]}


NULL_ASIDE = re.compile(r"\((?:null|none)\s+(?:for|when|if)\s+(?P<null>[^()]{1,60})\)", re.I)


def aside_value(aside: str, own: dict[str, Any]) -> tuple[str, str] | None:
    """(field, value): the one known value of the record's fields the aside names ("walk-up skippers" for
    `walk_up`; `-` or a space read for `_`), None when not exactly one."""
    hits = [
        (f, v)
        for f, s in sorted(own.items())
        for v in (s.get("enum") or s.get("x-enum") or [] if isinstance(s, dict) else [])
        if isinstance(v, str) and re.search(rf"\b{re.escape(v.lower()).replace('_', '[-_ ]')}\b", aside.lower())
    ]
    return hits[0] if len(hits) == 1 else None


def null_wrapped(text: str, node: dict[str, Any], fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A figure's node, none while a named record holds the value its "(null for walk-up skippers)" aside names
    (`fields`: parameter -> fields of the record it names); the node as it is when the text has no such aside."""
    said = NULL_ASIDE.search(text)
    hits = [(p, hit) for p, own in sorted(fields.items()) if said and (hit := aside_value(said.group("null"), own))]
    if len(hits) != 1:
        return node
    (param, (field, value)) = hits[0]
    return {"if_field": {"param": param, "field": field, "in": [value]}, "then": {"const": None}, "else": node}


END_ENTRY = (
    r"\(the\s+(?P<what>\w+)\s+of\s+the\s+(?P<side>lowest|first|smallest|highest|last|largest)\s+"
    r"(?:\w+\s+){0,2}?(?P<noun>\w+)\)"
)


def _end_entry(name: str, own: dict[str, Any], glossary: str) -> dict[str, Any] | None:
    """ "base_rate (the rate of the lowest hire band)": that field of the first entry of the record's one list named
    for the noun (`hire_bands`), the last for "highest"/"last"/"largest" (entries kept in the documented order)."""
    said = re.search(rf"\b{re.escape(name)}`?\s*" + END_ENTRY, glossary, re.IGNORECASE)
    if said is None:
        return None
    noun = singular(said.group("noun").lower())
    lists = [
        f
        for f, s in sorted(own.items())
        if isinstance(s, dict) and s.get("type") == "array" and singular(f.lower().split("_")[-1]) == noun
    ]
    entry = ((own.get(lists[0]) or {}).get("items") or {}).get("properties") or {} if len(lists) == 1 else {}
    fields = [f for f in sorted(entry) if said.group("what").lower() in f.lower().split("_")]
    if len(fields) != 1:
        return None
    last = said.group("side").lower() in ("highest", "last", "largest")
    return {"op": "end_entry", "path": [lists[0], fields[0]], "last": last}


def derived_field(
    name: str, own: dict[str, Any], glossary: str, cols: dict[str, Any] | None = None, collection: str = ""
) -> dict[str, Any] | None:
    """How a listed answer field that is no field of the record is made: the length of one of its lists
    (`queue_length`, `berths_count`, `number_of_stops`), the key of that name of its one object that has it (`city`
    of `address`), a figure some tool's docs define for it
    ("berths_free (berths minus moored, never below 0)"), or a count of the records of another collection
    (`cols`) that name this one ("free_berths counts berths with status 'free'") or their keys
    ("open_order_ids (orders that are queued)", linked_answers); None when nothing says."""
    words = name.lower().split("_")
    for stem in (
        "_".join(words[:-1]) if words[-1] in ("length", "count") else "",
        "_".join(words[2:]) if words[:2] == ["number", "of"] else "",
        "_".join(words[1:]) if words[0] in ("num", "n") else "",
    ):
        lists = [f for f, s in own.items() if isinstance(s, dict) and s.get("type") == "array"]
        hit = [f for f in lists if stem and singular(f.lower()) == singular(stem)]
        hit = hit or [f for f in lists if stem and "_" not in stem and f.lower().split("_")[0] == stem]  # line_items
        if len(hit) == 1:
            return {"op": "len", "path": [hit[0]]}
    end = _end_entry(name, own, glossary)  # "(the price of the lowest quantity tier)"
    if end:
        return end
    holders = [f for f, s in own.items() if isinstance(s, dict) and name in (s.get("properties") or {})]
    if len(holders) == 1:  # `city`, a key of the record's `address` object
        return {"op": "nested", "path": [holders[0], name]}
    flat = [f for f, s in own.items() if name.startswith(f + "_") and name[len(f) + 1 :] in (s.get("properties") or {})]
    if len(flat) == 1:  # `licence_status`: the `status` of the record's `licence` object
        return {"op": "nested", "path": [flat[0], name[len(flat[0]) + 1 :]]}
    for found in re.finditer(rf"\b{re.escape(name)}\s*\(([^()]{{3,120}})\)", glossary):
        calc = CALC.match(found.group(1).strip())
        if calc and _numeric(own, calc.group("left"), calc.group("right")):
            return _calc_rule(calc)
    written = _written_calc(name, own, glossary) or _named_path(name, own, glossary, singular(collection))
    if written:
        return written
    if not collection:
        return None
    return _count_rule(name, glossary, cols or {}, collection) or id_list_rule(name, glossary, cols or {}, collection)


__all__ = ["answer_extras", "derived_field"]
