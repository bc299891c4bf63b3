"""The documented response envelope: a tool whose documented response is an object with one property returns
its result under that property (`{"file_content": ...}`), unless the result is a record that has that field.
A tool that answers a record (or a list of them) but whose docs list fewer of the record's fields (its response
schema's properties, or "Returns {boat_id, waiting_list}", "Returns ... [{id, status}]") answers those fields only;
listed fields the record lacks come from the record it references (`owner_name` -> the name of the `owner_id` record);
a write answers back an argument a listed field names (`settled`: the "Amount settled").
A read of one record also answers the records of another collection that name it, when the docs say so (a list
property of the response, or "plus moorings: ... as {mooring_id, pier, status}"), and the other additions its
"Returns ... plus ..." lists (answer_extras.py)."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.answer_extras import answer_extras, derived_field
from synth.envsynth.current_flags import current_flag
from synth.envsynth.filter_map import map_param
from synth.envsynth.keyed_views import key_names
from synth.envsynth.linked_answers import joined_rule
from synth.envsynth.listed_phrases import linked_phrase_fields
from synth.envsynth.paired_lists import edited_answer
from synth.envsynth.plan import ToolPlan
from synth.envsynth.returns_shape import answer_schema, returned_fields, row_fields
from synth.envsynth.schema_figures import schema_figure
from synth.envsynth.schema_rows import schema_reading
from synth.envsynth.stated_answers import stated_answer
from synth.spec import ToolSpec, record_props
from synth.words import singular


def response_key(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> str | None:
    """The one property of the documented response object, or None."""
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    props = returns.get("properties") if returns.get("type", "object") == "object" else None
    if not isinstance(props, dict) or len(props) != 1:
        return None
    key = next(iter(props))
    col = (state_schema.get("properties") or {}).get(plan.collection or "") or {}
    record = col.get("additionalProperties") if isinstance(col, dict) else None
    if isinstance(record, dict) and key in (record.get("properties") or {}):
        return None  # the result is a record that holds this field itself
    return key


RECORD_KINDS = {"get", "update", "recorded_update", "item_add", "item_remove", "create"}
LIST_KINDS = {"filter", "list", "search", "get_many"}


def documented_fields(spec: ToolSpec) -> list[str]:
    """The response's field names: its schema's properties (an `allOf` merged), else a "Returns {a, b}" in the
    description."""
    returns = answer_schema(spec)
    props = returns.get("properties") if returns.get("type", "object") == "object" else None
    if isinstance(props, dict) and props:
        return list(props)
    return [one.name for one in returned_fields(spec.description)]


def echoed(name: str, spec: ToolSpec) -> dict[str, Any] | None:
    """A listed answer field a write answers back from its arguments: a parameter of that name, or the one
    parameter whose description puts its own name next to it (`settled` for `amount`: "Amount settled, in euros")."""
    params = spec.parameters.get("properties") or {}
    if name in params:
        return {"op": "arg", "name": name}
    word = re.escape(name.replace("_", " "))
    users = [  # the parameter's own name next to the word: "Amount settled, in euros" for `amount` and `settled`
        p
        for p, s in params.items()
        if isinstance(s, dict)
        and re.search(
            rf"\b{re.escape(p.replace('_', ' '))}\s+{word}\b|\b{word}\s+{re.escape(p.replace('_', ' '))}\b",
            str(s.get("description") or ""),
            re.IGNORECASE,
        )
    ]
    return {"op": "arg", "name": users[0]} if len(users) == 1 else None


PLACE = re.compile(r"\b(?:the\s+)?(?P<noun>\w+)['\u2019]s\s+(?:place|position|rank)\s+in\s+the\s+(?P<list>\w+)", re.I)


def place_in_list(name: str, spec: ToolSpec, own: dict[str, Any]) -> dict[str, Any] | None:
    """A listed answer field the docs define as an argument's place in one of the record's lists, from 1
    ("position is the sailor's place in the queue, starting at 1")."""
    params = spec.parameters.get("properties") or {}
    for m in re.finditer(rf"\b{re.escape(name)}\s+(?:is|=)\s+[^.]{{0,20}}?" + PLACE.pattern, spec.description, re.I):
        arg = next((p for p in (m.group("noun"), f"{m.group('noun')}_id") if p in params), None)
        word = singular(m.group("list").lower())
        lists = [f for f, s in own.items() if isinstance(s, dict) and s.get("type") == "array" and word in f.lower()]
        if arg and len(lists) == 1:
            return {"op": "place", "path": [lists[0]], "arg": arg}
    return None


def wrapped(name: str, plan: ToolPlan) -> dict[str, Any] | None:
    """A listed answer field of a write that is its record itself (`boat` for boats) or the fee the call charged
    (`late_fee` for a move of "a fee of 12.50", 0 when its starting state did not hold)."""
    if plan.collection and name == singular(plan.collection):
        return {"op": "self"}
    last = name.split("_")[-1].lower()
    for e in plan.effects:
        if e.get("op") == "adjust" and e.get("noun") == last:
            amount = (e["delta"]["expr"].get("plus") or e["delta"]["expr"].get("minus") or [{}])[0].get("const")
            if amount is not None:
                return {"op": "charged", "amount": amount, "when": e.get("when")}
    return None


def spread_answer(name: str, spec: ToolSpec, plan: ToolPlan, cols: dict[str, Any]) -> dict[str, Any] | None:
    """A listed answer field of a change that spreads an amount over other records (allocations.py): a list whose
    entries hold those records' key, their new state and the part each took."""
    spread = [e for e in plan.effects if e.get("op") == "allocate"]
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    node = (returns.get("properties") or {}).get(name) or {}
    items = ((node.get("items") or {}).get("properties") or {}) if node.get("type") == "array" else {}
    if len(spread) != 1 or not items:
        return None
    rule = spread[0]
    key = (cols.get(rule["collection"]) or {}).get("x-key-field") or f"{singular(rule['collection'])}_id"
    fields = {}
    for sub, schema in items.items():
        if sub == key:
            fields[sub] = "key"
        elif sub == rule["field"]:
            fields[sub] = "state"
        elif isinstance(schema, dict) and schema.get("type") in ("number", "integer"):
            fields[sub] = "applied"
    if (
        len(fields) != len(items)
        or sorted(fields.values()) != sorted(set(fields.values()))
        or "key" not in fields.values()
    ):
        return None
    return {"op": "allocated", "fields": fields}


def logged_answer(name: str, plan: ToolPlan) -> dict[str, Any] | None:
    """A listed answer field of a change that is a field of the one entry it appends (the entry's new id)."""
    found = [
        e["field"]
        for e in plan.effects
        if e.get("op") == "append"
        and len(e.get("items") or []) == 1
        and name in ((e["items"][0] or {}).get("fields") or {})
    ]
    return {"op": "entry", "list": found[0], "field": name} if len(found) == 1 else None


def owned_answer(name: str, plan: ToolPlan, own: dict[str, Any]) -> dict[str, Any] | None:
    """A listed answer field named by the record's noun and one of its fields (`boat_status`: the `status`)."""
    noun = singular(plan.collection or "")
    for head in (noun, noun.split("_")[-1]):
        if head and name.startswith(head + "_") and name[len(head) + 1 :] in own:
            return {"op": "own", "field": name[len(head) + 1 :]}
    return None


def moved_answer(name: str, plan: ToolPlan, own: dict[str, Any]) -> dict[str, Any] | None:
    """A listed answer field sharing a word with the one number field the change sets to a constant (`hours_moved`
    of a change setting `hours_left` to 0): that field as the call found it."""
    words = {singular(w) for w in name.split("_")}
    hit = [
        e["field"]
        for e in plan.effects
        if e.get("op") == "set"
        and (e.get("source") or {}).get("from") == "const"
        and (own.get(e.get("field")) or {}).get("type") in ("number", "integer")
        and words & {singular(w) for w in str(e["field"]).split("_")}
    ]
    return {"op": "before", "path": [hit[0]]} if len(hit) == 1 else None


def dated_answer(name: str, spec: ToolSpec, today: str | None) -> dict[str, Any] | None:
    """A listed answer date named by the tool's own verb (`moored_on` of `moor_boat`): the business date."""
    m = re.fullmatch(r"([a-z]+)_(?:on|at|date)", name)
    verb = spec.name.split("_")[0].lower()
    done = {verb + "ed", verb + "d", verb[:-1] + "ied", verb + verb[-1:] + "ed"}
    return {"op": "const", "value": today} if m and today and m.group(1) in done else None


COUNT_NAMES = {"count", "total", "total_count", "matches", "num_results", "result_count"}


def list_envelope(spec: ToolSpec, plan: ToolPlan) -> tuple[str, str, list[str]] | None:
    """(list key, count key, row fields) of a list read whose documented answer is an object of exactly two fields:
    the records under one key and how many there are under the other (`{"count": <n>, "units": [{...}]}`); a field
    written without brackets is the records when it is named as the tool's collection ("Returns {count, piers}")."""
    if plan.kind not in LIST_KINDS or plan.return_key or plan.output_key:
        return None
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    props = returns.get("properties") if returns.get("type", "object") == "object" else None
    if isinstance(props, dict) and props:
        parts = [
            (n, (s or {}).get("type") == "array", list(((s or {}).get("items") or {}).get("properties") or {}))
            for n, s in props.items()
        ]
    else:
        parts = [(f.name, f.is_list, [e.name for e in f.entries]) for f in returned_fields(spec.description)]
    counts = [p for p in parts if not p[1] and p[0].lower() in COUNT_NAMES]
    if len(parts) == 2 and len(counts) == 1 and not any(p[1] for p in parts):  # "Returns {count, piers}"
        parts = [(n, is_list or n == plan.collection, rows) for n, is_list, rows in parts]
    lists = [p for p in parts if p[1]]
    if len(parts) != 2 or len(lists) != 1 or len(counts) != 1:
        return None
    rows = lists[0][2] or [one.name for one in row_fields(spec.description, singular(lists[0][0]))]
    return lists[0][0], counts[0][0], rows  # "each berth has berth_id, size, ...": the rows' fields


def projection(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    glossary: str = "",
    rows: list[str] | None = None,
    today: str | None = None,
    siblings: tuple[ToolSpec, ...] = (),
) -> tuple[list[str], dict[str, Any]]:
    """(fields, mapped) a record- or list-answering tool's docs list (`rows`: those of an envelope's records), when
    they are two or more and fewer than the record's or some come from a record it references (`owner_name` through
    `owner_id`, filter_map) or are derived from the record (a list's length, a figure the docs define:
    answer_extras.derived_field)."""
    if (plan.kind not in RECORD_KINDS and plan.kind not in LIST_KINDS) or plan.output_key or plan.return_key:
        return [], {}
    cols = state_schema.get("properties") or {}
    col = cols.get(plan.collection or "") or {}
    fields = set(((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {})
    listed = documented_fields(spec) if rows is None else rows
    if len(listed) < 2 or not fields:
        return [], {}
    own = (col.get("additionalProperties") or {}).get("properties") or {}
    mapped = {}
    for name in listed:
        if name not in fields and name in key_names(plan.collection or "", state_schema):
            mapped[name] = {"op": "map_key", "collection": plan.collection}  # the key it is kept under
        elif name not in fields:
            found = joined_rule(name, glossary or spec.description, cols, plan.collection or "")  # "(name and size)"
            found = found or map_param(name, plan.collection or "", cols)
            if found is None or found["op"] not in ("eq", "join") or not found["via"] or "*" in found.get("path", []):
                found = derived_field(name, own, glossary or spec.description, cols, plan.collection or "")
            found = found or schema_figure(name, spec, own, today, siblings)  # "available: places not yet sold"
            found = found or current_flag(name, own, glossary or spec.description, today)  # "x is true when every"
            found = found or stated_answer(name, spec, own, state_schema, plan.collection or "", plan.key_param)
            found = found or schema_reading(name, spec, own, cols, plan.collection or "")  # rows, joined, set
            if found is None and plan.kind in RECORD_KINDS - {"get"}:  # a write answering its record
                found = echoed(name, spec) or place_in_list(name, spec, own) or wrapped(name, plan)
                found = found or spread_answer(name, spec, plan, cols) or logged_answer(name, plan)
                found = found or owned_answer(name, plan, own) or moved_answer(name, plan, own)
                found = found or dated_answer(name, spec, today) or edited_answer(name, plan)
            if found is None:
                return [], {}
            mapped[name] = found
    if mapped or set(listed) < fields:
        return listed, mapped
    return [], {}


AS_SIBLING = (
    re.compile(  # "(as get_boat)", "(as returned by get_boat)", "(see get_boat)", "the same fields as get_boat"
        r"\b[Rr]eturns?\b[^.()]{0,80}?(?:\(\s*(?:as|same\s+as|like|the\s+same\s+as|see|cf\.?)\s+(?:(?:in|returned\s+by|"
        r"given\s+by|from)\s+)?`?(\w+)`?\s*\)|\bthe\s+same\s+(?:fields|shape|record|object)\s+as\s+`?(\w+)`?)"
    )
)


def sibling_rows(spec: ToolSpec, siblings: tuple[ToolSpec, ...]) -> list[str] | None:
    """The fields another tool's docs list, when this tool's answer is said to be shaped as that tool's
    ("Returns the updated boat record (as get_boat)") and its own docs list none; None otherwise."""
    said = AS_SIBLING.search(spec.description)
    if not said or documented_fields(spec):
        return None
    name = said.group(1) or said.group(2)
    named = [one for one in siblings if one.name == name and one.name != spec.name]
    listed = documented_fields(named[0]) if named else []
    return listed or None


def embeds(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of other collections a read of one record answers with it, as the docs say: a collection whose
    records name this one (`moorings.boat_id` -> boats), which the response schema has as a list property, or which
    the description lists fields of ("plus moorings: ... as {mooring_id, pier, status}")."""
    if plan.kind != "get" or not plan.collection or not plan.key_param:
        return []
    cols = state_schema.get("properties") or {}
    own = singular(plan.collection)
    response = documented_fields(spec)
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    out = []
    for name, col in sorted(cols.items()):
        if name == plan.collection or not isinstance(col, dict):
            continue
        fields = ((col.get("additionalProperties") or {}).get("properties")) or {}
        refs = [
            f
            for f, s in fields.items()
            if (isinstance(s, dict) and s.get("x-references") == plan.collection) or f == f"{own}_id"
        ]
        if len(refs) != 1:
            continue
        listed: list[str] = []
        if name in response:
            items = ((returns.get("properties") or {}).get(name) or {}).get("items") or {}
            listed = [f for f in (items.get("properties") or {}) if f in fields] or sorted(fields)
        else:
            found = re.search(
                rf"\b{re.escape(name)}\b[^.{{}}]{{0,80}}\{{\s*(\w+(?:\s*,\s*\w+)+)\s*\}}", spec.description
            )
            named = [w.strip() for w in found.group(1).split(",")] if found else []
            listed = named if named and set(named) <= set(fields) else []
        listed = listed or (sorted(fields) if _returned_with(spec.description, name, own) else [])
        if listed:
            out.append({"key": name, "collection": name, "ref": refs[0], "fields": listed})
    return out


def _returned_with(description: str, collection: str, own: str) -> bool:
    """Whether a "Returns ..." sentence answers the record with the collection's records that name it: "with every
    boat of the skipper in full", "and the skipper's open mooring tabs" (their noun after "with")."""
    noun = re.escape(singular(collection).replace("_", " "))
    for sentence in re.split(r"(?<=[.!?])\s+", description):
        opened = re.match(r"\s*Returns?\b", sentence, re.I)
        rest = sentence[opened.end() :] if opened else ""
        every = rf"\b(?:with|and)\s+(?:every|each|all(?:\s+the)?|its)\s+{noun}s?\b"  # not "across all boats"
        theirs = rf"\b(?:with|and)\s+(?:the\s+)?{re.escape(own)}['\u2019]s\s+(?:[\w-]+\s+){{0,2}}{noun}s?\b"
        if rest and (re.search(every, rest, re.I) or re.search(theirs, rest, re.I)):
            return True
    return False


def their_totals(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{name: a `sum` answer} for "<list> and their <name>" of a get (`unbilled_charges` and their `unbilled_total`):
    the one number of the list's entries added up, under a name the record does not hold."""
    own = record_props(state_schema.get("properties") or {}, plan.collection or "")
    out = {}
    said = r"`?\b(\w+)`?\s+and\s+their\s+`?(\w+_\w+|total|sum|subtotal)`?\b"  # not "and their due dates"
    for m in re.finditer(said, spec.description) if plan.kind == "get" else ():
        items = ((own.get(m.group(1)) or {}).get("items") or {}).get("properties") or {}
        numbers = [f for f, sub in items.items() if "number" in str((sub or {}).get("type"))]
        if m.group(2) not in own and len(numbers) == 1:
            out[m.group(2)] = {"op": "sum", "path": [m.group(1), numbers[0]]}
    return out


def with_envelope(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    glossary: str = "",
    today: str | None = None,
    siblings: tuple[ToolSpec, ...] = (),
) -> ToolPlan:
    """The plan with `output_key` set from the docs' response (unchanged when it has one or the docs give none),
    or the record fields the docs list as `output_fields` (with the "plus ..." additions and derived fields in
    `output_map`, `glossary` being every tool's description) and the records it embeds."""
    if plan.output_key or plan.kind == "unsupported":
        return plan
    if plan.kind == "by_mode":  # each value's change answers as the docs say
        modes = {
            value: {
                **mode,
                "plan": with_envelope(
                    spec, ToolPlan.from_dict(mode["plan"]), state_schema, glossary, today, siblings
                ).to_dict(),
            }
            for value, mode in plan.modes.items()
        }
        return ToolPlan.from_dict({**plan.to_dict(), "modes": modes})
    key = response_key(spec, plan, state_schema)
    if key:
        return ToolPlan.from_dict({**plan.to_dict(), "output_key": key})
    envelope = list_envelope(spec, plan)
    if envelope:  # {"count": n, "<records>": [...]}, each record cut to the fields the docs give it
        key, count, rows = envelope
        fields, mapped = projection(spec, plan, state_schema, glossary, rows, today, siblings)
        extras = answer_extras(spec, plan, state_schema)  # "each pier ..., plus a berths summary (berth_id, size)"
        if extras:
            own = record_props(state_schema.get("properties") or {}, plan.collection or "")
            fields = (fields or sorted(own)) + [name for name in extras if name not in fields]
            mapped = {**mapped, **extras}
        shaped = {"output_fields": fields, "output_map": mapped} if fields else {}
        return ToolPlan.from_dict({**plan.to_dict(), "output_key": key, "count_key": count, **shaped})
    rows = sibling_rows(spec, siblings)  # "Returns the updated boat record (as get_boat)"
    fields, mapped = projection(spec, plan, state_schema, glossary, rows, today=today, siblings=siblings)
    extras = {**answer_extras(spec, plan, state_schema), **their_totals(spec, plan, state_schema)}
    if plan.kind == "get" and not fields and not extras:  # "Get a charter with its crew, ..., sailing date"
        extras = linked_phrase_fields(spec.description, plan.collection or "", state_schema.get("properties") or {})
    if extras:  # "Returns the X ... plus ...": the record (or the listed fields) and the additions
        col = (state_schema.get("properties") or {}).get(plan.collection or "") or {}
        fields = fields or sorted((col.get("additionalProperties") or {}).get("properties") or {})
        fields = fields + [name for name in extras if name not in fields]
        mapped = {**mapped, **extras}
    children = embeds(spec, plan, state_schema)
    if not fields and not children:
        return plan
    return ToolPlan.from_dict({**plan.to_dict(), "output_fields": fields, "output_map": mapped, "embeds": children})


__all__ = [
    "documented_fields",
    "embeds",
    "list_envelope",
    "projection",
    "response_key",
    "their_totals",
    "with_envelope",
    "wrapped",
]
