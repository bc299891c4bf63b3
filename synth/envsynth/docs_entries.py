"""Entries the docs name by their kind only: "A `boarded` entry is appended to the voyage's log", "a
'hauled' event is added to the log".

The kind is a known value of one field of the list's elements (`event`), or, quoted and never logged yet, a new
value of the one closed field whose values are names; the rest of the entry is read off the entries of that kind
already in the sample data (of any kind, for a new one): a field that is a parameter holds the argument ("with the
reason as its note" names another), a field the docs equate with one of the call's record ("(charge = fee)")
holds that, a field with one value in every such entry (two or more, or null in the only one) holds that value,
and a date field holds the business date the docs state ("the office's current date is 2031-02-03"; "as of the
business date 2031-02-03"). An entry with a field none of these explains is not appended (a guess would be wrong
anyway).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.business_dates import business_date
from synth.envsynth.earned_figures import earned_figures
from synth.envsynth.entry_ids import composed_ids
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.id_series import fresh_ids
from synth.envsynth.returned_states import CONDITION
from synth.words import singular

NAMED = re.compile(
    r"\b(?:an?|one)\s+[`'\"]?(?P<kind>[\w-]+)[`'\"]?\s+(?P<word>entry|event|record|note|line)\b(?P<aside>[^.]{0,80}?)"
    r"\b(?:is|gets|are)\s+(?:appended|added|written|recorded|logged)\s+to\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:(?P<owner>\w+)'s\s+)?(?P<field>\w+)",
    re.IGNORECASE,
)
NAMED_LIST_FIRST = re.compile(  # 'a "vehicle_added" history entry is written'
    r"\b(?:an?|one)\s+[`'\"]?(?P<kind>[\w-]+)[`'\"]?\s+(?P<field>\w+)\s+(?:entry|event|record|line)\b"
    r"(?P<aside>[^.]{0,80}?)\b(?:is|gets|are)\s+(?:appended|added|written|recorded|logged)\b(?P<owner>)",
    re.IGNORECASE,
)
GOES_INTO = re.compile(  # 'a "vehicle_removed" entry goes into the history'
    r"\b(?:an?|one)\s+[`'\"]?(?P<kind>[\w-]+)[`'\"]?\s+(?:entry|event|record|line)\b(?P<aside>[^.]{0,80}?)"
    r"\b(?:goes|go|is\s+put|are\s+put)\s+(?:in|into|on)\s+(?:the\s+|its\s+|their\s+)?(?:(?P<owner>\w+)'s\s+)?"
    r"(?P<field>\w+)",
    re.IGNORECASE,
)
LISTED_EFFECT = re.compile(  # 'Effects: status `cancelled`, ..., and a `cancelled` history entry.'
    r"\bEffects?:[^.]*?\b(?:an?|one)\s+`(?P<kind>[\w-]+)`\s+(?P<field>\w+)\s+(?:entry|event|record|line)\b(?P<aside>)"
    r"(?P<owner>)(?=\s*(?:[.,;]|$))",
    re.IGNORECASE,
)
LOGGED_UNNAMED = re.compile(  # 'a "rerouted" entry is logged': the list is the one whose entries have that kind
    r"(?<![`'\"\w-])(?<!\bno\s)(?<!\bNo\s)(?:\b(?:an?|one|the)\s+)?[`'\"]?(?P<kind>[\w-]+)[`'\"]?\s+"
    r"(?P<word>entr(?:y|ies)|events?|records?|lines?)\b"
    r"(?P<aside>[^.]{0,80}?)\b(?:is|are|gets|get|will\s+be)\s+(?:appended|added|written|recorded|logged)\b"
    r"(?!\s+(?:to|in|into|on)\b)(?P<owner>)(?P<field>)",
    re.IGNORECASE,
)
LOGS_UNNAMED = re.compile(  # "Logs a `rerouted` entry."
    r"\b(?:logs|records|writes|appends|adds)\s+(?:an?|one)\s+[`'\"](?P<kind>[\w-]+)[`'\"]\s+"
    r"(?P<word>entry|event|record|line)\b(?P<aside>)(?!\s+(?:to|in|into|on)\b)(?P<owner>)(?P<field>)",
    re.IGNORECASE,
)
EQUALS = re.compile(
    r"\b(\w+)\s*=\s*(?:the\s+|its\s+)?(\w+(?:\s+\w+){0,2})"
)  # "(charge = fee)": an entry field's source


def _joined(words: str, count: int) -> str:
    return "_".join(words.split()[:count]).lower()


AS_ITS = re.compile(r"\bthe\s+(?P<param>\w+)\s+as\s+its\s+(?P<field>\w+)", re.IGNORECASE)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _entries(records: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    return [e for r in records for e in (r.get(field) or []) if isinstance(e, dict)]


def _quoted_kind(m: re.Match[str]) -> bool:
    """The kind a NAMED match found is quoted ("a `boarded` entry")."""
    return bool(re.match(r"[`'\"]", m.group(0)[m.start("kind") - m.start() - 1 :]))


def _name_fields(items: dict[str, Any]) -> list[str]:
    """The entry fields whose known values are names (`boarded`), not free text nor ids: where an unseen kind goes."""
    return [
        k
        for k, s in (items.get("properties") or {}).items()
        if isinstance(s, dict)
        and s.get("x-enum")
        and all(re.fullmatch(r"[A-Za-z][A-Za-z_-]*", str(v)) for v in s["x-enum"])
    ]


def _conditional(text: str, m: re.Match[str]) -> bool:
    """The sentence of the match states a condition ("If the route changes, ...", "... only if ...")."""
    start = max(text.rfind(". ", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
    stop = [i for i in (text.find(". ", m.end()), text.find("\n", m.end())) if i >= 0]
    sentence = text[start : min(stop) if stop else len(text)]
    return bool(CONDITION.search(sentence))


def _logging_list(record_props: dict[str, Any], kind: str) -> str:
    """The record's one list whose entries are known to have the kind `kind` (else "")."""
    lists = [
        f
        for f, s in record_props.items()
        if isinstance(s, dict) and isinstance(s.get("items"), dict) and _kind_fields(s["items"], kind, False)[0]
    ]
    return lists[0] if len(lists) == 1 else ""


def _kind_fields(items: dict[str, Any], kind: str, may_be_unseen: bool) -> tuple[list[str], bool]:
    """(fields, unseen): the entry fields whose known values hold `kind`; else, when the kind may be one the data
    never logged, the fields of plain names (_name_fields) and True."""
    fields = [
        k
        for k, s in (items.get("properties") or {}).items()
        if isinstance(s, dict) and kind in (s.get("enum") or s.get("x-enum") or [])
    ]
    if fields or not may_be_unseen:
        return fields, False
    return _name_fields(items), True


def named_entries(
    text: str,
    noun: str,
    record_props: dict[str, Any],
    parameters: dict[str, Any],
    records: list[dict[str, Any]],
    today: str | None,
    element_list: str | None = None,
    removed: bool = False,
    stated: str = "",
    taken: frozenset[str] | None = None,
) -> list[dict[str, Any]]:
    """`append` effects for the entries the text names by kind on the tool's own record (`noun`); `parameters` is
    the tool's parameters schema; `element_list`: the list field whose new element the entry logs (an item add), or
    whose removed element it logs (`removed`); `stated`: text read for the figures an entry earns (earned_figures);
    `taken`: the sample state's keys, given when a fresh id of a series the entries show may be read (fresh_ids)."""
    params = parameters.get("properties") or {}
    required = list(parameters.get("required") or [])
    out: list[dict[str, Any]] = []
    text = split_both(text)
    found = list(NAMED.finditer(text)) + list(NAMED_LIST_FIRST.finditer(text)) + list(GOES_INTO.finditer(text))
    found += list(LISTED_EFFECT.finditer(text))
    found += [m for m in [*LOGGED_UNNAMED.finditer(text), *LOGS_UNNAMED.finditer(text)] if not _conditional(text, m)]
    for m in sorted(found, key=lambda m: m.start()):
        field, owner = m.group("field"), (m.group("owner") or "").lower()
        field = field or _logging_list(record_props, m.group("kind"))  # 'a "rerouted" entry is logged'
        own = singular(noun.lower())
        rest = text[m.end() :]
        after = re.match(r"\s+`?(\w+)`?", rest)
        if field not in record_props and not owner and singular(field.lower()) in (own, own.split("_")[-1]) and after:
            field, rest = after.group(1), rest[after.end() :]  # "appended to the boat log": the noun, then its list
        schema = record_props.get(field)
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        if not isinstance(items, dict) or (owner and singular(owner) not in (own, own.split("_")[-1])):
            continue
        # a kind no entry of the data has yet, quoted: the list's one field of names holds it
        kinds, unseen = _kind_fields(items, m.group("kind"), _quoted_kind(m))
        held = sorted({k for e in _entries(records, field) for k, v in e.items() if v == m.group("kind")})
        if (unseen or not kinds) and len(held) == 1:  # a field too varied for an enum, but the data holds the kind
            kinds, unseen = held, False
        word = (m.groupdict().get("word") or "").lower()
        if unseen and len(kinds) > 1 and word in kinds:  # "a `crew_added` event": of the names, the `event` field
            kinds = [word]
        if len(kinds) != 1 or any(e["field"] == field for e in out):
            continue
        same = [e for e in _entries(records, field) if unseen or e.get(kinds[0]) == m.group("kind")]
        renamed = AS_ITS.findall(m.group("aside"))
        texts = {} if unseen else _entry_texts(records, field, kinds[0], m.group("kind"), element_list)
        mirror = _mirror_kind(m.group("kind"), items, kinds[0]) if unseen and element_list else None
        if mirror:  # an `addon_removed` entry written like the data's `addon_added` ones, of the element taken off
            texts = _entry_texts(records, field, kinds[0], mirror, element_list)
            texts = {k: _element_as_argument(v) for k, v in texts.items()} if removed else texts
            texts = {k: _mirrored_words(v, mirror, m.group("kind")) for k, v in texts.items()}
        entry_fields = set((items.get("properties") or {}))
        texts = {**texts, **composed_ids(rest, own, record_props, field, kinds[0], entry_fields)}  # "(id + `-D` + ...)"
        earned = earned_figures(stated, entry_fields, parameters, m.group("kind"))  # "30 or more earns 3.00 bonus"
        texts = {**earned, **texts}
        texts = {**(fresh_ids(same, taken) if taken is not None and not unseen else {}), **texts}  # "PT-0105"
        rule = _carrying(m.group("aside"), kinds[0], m.group("kind"), same, params, today) if unseen else None
        rule = rule or _entry_rule(
            kinds[0], m.group("kind"), same, params, required, renamed, today, unseen=unseen, texts=texts
        )
        if rule is not None:
            out.append({"op": "append", "field": field, "items": [rule]})
    return out


CARRYING = re.compile(r"\bwith\s+(?:the\s+|its\s+)?(?:\w+['\u2019]s\s+)?`?(\w+)`?", re.IGNORECASE)


def _carrying(
    aside: str, kind_field: str, kind: str, entries: list[dict[str, Any]], params: dict[str, Any], today: str | None
) -> dict[str, Any] | None:
    """A new kind of entry that carries arguments no logged entry has ("a `crew_added` event with the member's
    name"): its kind, the business date in the date fields every logged entry has, and those arguments; None when
    the aside names none such."""
    renamed = {p for p, _ in AS_ITS.findall(aside or "")}  # "(with the reason as its note)": a field, not a new one
    carried = [p for p in CARRYING.findall(aside or "") if p in params and p not in renamed]
    if not carried or not entries or any(p in e for p in carried for e in entries) or not today:
        return None
    shared = [k for k in entries[0] if all(k in e for e in entries) and k != kind_field]
    dated = [k for k in shared if all(isinstance(e.get(k), str) and DATE.match(e[k]) for e in entries)]
    fields: dict[str, dict[str, Any]] = {kind_field: {"from": "const", "value": kind}}
    fields.update({k: {"from": "const", "value": today} for k in dated})
    fields.update({p: {"from": "arg", "name": p} for p in carried})
    return {"fields": fields}


MIRRORS = {"added": "removed", "attached": "detached", "assigned": "unassigned", "linked": "unlinked"}
MIRRORS.update({v: k for k, v in MIRRORS.items()})


def _mirror_kind(kind: str, items: dict[str, Any], kind_field: str) -> str | None:
    """The kind the data logs that mirrors an unseen one (`addon_added` for `addon_removed`)."""
    head, _, last = kind.rpartition("_")
    other = f"{head}_{MIRRORS[last]}" if head and last in MIRRORS else None
    known = ((items.get("properties") or {}).get(kind_field) or {}).get("x-enum") or []
    return other if other in known else None


def _mirrored_words(node: Any, seen: str, kind: str) -> Any:
    """A text of the data's `seen` kind written for its mirror `kind`: the literal verb turned ("HL-4 added, ..."
    logs an `addon_removed` as "HL-4 removed, ...")."""
    old, new = seen.rpartition("_")[2], kind.rpartition("_")[2]
    if isinstance(node, str):
        return re.sub(rf"\b{re.escape(old)}\b", new, node)
    if isinstance(node, dict) and node.get("from") == "const" and isinstance(node.get("value"), str):
        return {**node, "value": _mirrored_words(node["value"], seen, kind)}
    if isinstance(node, dict):  # only the texts a source writes, never the names it reads
        return {k: _mirrored_words(v, seen, kind) if k in ("parts", "then", "else") else v for k, v in node.items()}
    if isinstance(node, list):
        return [_mirrored_words(v, seen, kind) for v in node]
    return node


def _element_as_argument(node: Any) -> Any:
    """A text source with the logged element's fields read from the call's arguments (a removal merges the
    element it took off into them)."""
    if isinstance(node, dict) and node.get("from") == "new_element":
        return {"from": "arg", "name": node["field"]}
    if isinstance(node, dict):
        return {k: _element_as_argument(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_element_as_argument(v) for v in node]
    return node


def _entry_texts(
    records: list[dict[str, Any]], field: str, kind_field: str, kind: str, element_list: str | None
) -> dict[str, dict[str, Any]]:
    """{entry field: a `concat` source} for the text fields of the kind's entries the sample data writes from
    their record's values (entry_texts.py)."""
    pairs = [
        (r, e)
        for r in records
        for e in (r.get(field) if isinstance(r.get(field), list) else [])
        if isinstance(e, dict) and e.get(kind_field) == kind
    ]
    names = dict.fromkeys(n for _, e in pairs for n in e if n != kind_field)
    out = {}
    for name in names:
        if len({repr(e.get(name)) for _, e in pairs}) < 2 and len(pairs) > 1:
            continue  # one value throughout: a constant, not a text to write (one sample may show a template)
        samples = [(e.get(name), r, (r.get(element_list) or []) if element_list else []) for r, e in pairs]
        found = learned_text(samples)
        if found is not None:
            out[name] = found
    return out


def _mirrored(name: str, ref: str, same: list[dict[str, Any]], own_records: dict[str, Any]) -> str | None:
    """The one field of the call's records that every such entry's `name` equals, on the record its `ref` names
    (a 'sunk' line whose sum is the stay's deposit)."""
    found = None
    for e in same:
        record = own_records.get(e[ref])
        if not isinstance(record, dict) or e.get(name) is None:
            return None
        matches = {f for f, v in record.items() if v == e[name] and type(v) is type(e[name])}
        found = matches if found is None else found & matches
    return next(iter(found)) if found and len(found) == 1 else None


def _entry_rule(
    kind_field: str,
    kind: str,
    same: list[dict[str, Any]],
    params: dict[str, Any],
    required: list[str],
    renamed: list[tuple[str, str]],
    today: str | None,
    copied: dict[str, str] | None = None,
    unseen: bool = False,
    own_records: dict[str, Any] | None = None,
    texts: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any] | None:
    """The entry's fields, from the entries of the same kind in the data (`unseen`: of every kind, for a kind the
    data has none of yet: an amount they vary in is then the zero some of them hold, a reference the null some
    hold, nothing named for them). `own_records`: the call's collection in the data, for fields naming them."""
    if not same:
        return None
    own_keys = {str(k) for k in own_records or {}}
    names = {f: p for p, f in renamed if p in params}
    fields: dict[str, dict[str, Any]] = {}
    refs = [  # the entry field naming a record of the call's collection in every such entry
        n
        for n in dict.fromkeys(k for e in same for k in e)
        if own_records and all(isinstance(e.get(n), str) and e[n] in own_records for e in same)
    ]
    ref = refs[0] if len(refs) == 1 and not unseen else None
    for name in dict.fromkeys(k for e in same for k in e):
        values = [e.get(name) for e in same]
        if name == kind_field:
            fields[name] = {"from": "const", "value": kind}
        elif name in (copied or {}):  # the call's record's field, as the docs say
            fields[name] = {"from": "record", "path": [(copied or {})[name]]}
        elif name in names or name in params:
            arg = names.get(name, name)
            fields[name] = {"from": "arg", "name": arg}
            if arg not in required and all(isinstance(v, str) for v in values):
                fields[name]["default"] = ""
        elif all(isinstance(v, str) and DATE.match(v) for v in values) and today:
            fields[name] = {"from": "const", "value": today}
        elif own_keys and len(same) >= 2 and all(isinstance(v, str) and v in own_keys for v in values):
            fields[name] = {"from": "own_key"}  # every such entry names a record of the call's collection
        elif name == ref:
            fields[name] = {"from": "own_key"}  # the one such entry names a record of the call's collection
        elif ref and (source := _mirrored(name, ref, same, own_records or {})):
            fields[name] = {"from": "record", "path": [source]}  # the named record's field, in every such entry
        elif (
            unseen
            and own_keys
            and sum(isinstance(v, str) and v in own_keys for v in values) >= 2
            and all(v is None or (isinstance(v, str) and v in own_keys) for v in values)
        ):
            fields[name] = {"from": "own_key"}  # every entry that names a record names one of the call's collection
        elif (len(same) >= 2 or values[0] is None) and all(v == values[0] for v in values):
            fields[name] = {"from": "const", "value": values[0]}  # one value throughout; a lone null too
        elif unseen and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values) and 0 in values:
            fields[name] = {"from": "const", "value": 0.0 if any(isinstance(v, float) for v in values) else 0}
        elif unseen and None in values and name not in params:
            fields[name] = {"from": "const", "value": None}  # a reference some leave empty: nothing it names
        elif name in (texts or {}):  # a text the data writes from the record's values ("party of 4 at S-102")
            fields[name] = (texts or {})[name]
        else:
            return None
    return {"fields": fields}


STATE_ENTRY = re.compile(  # "logs a voyage entry with the note", "adds one new log line"
    r"\b(?:appends?|adds?|writes?|logs?|records?)\s+(?:a|an|one)\s+(?:new\s+)?(?P<list>\w+)\s+(?:entry|event|line|record)\b",
    re.IGNORECASE,
)
STATE_ENTRY_PASSIVE = re.compile(  # "a history entry is added"
    r"\b(?:a|an|one)\s+(?:new\s+)?(?P<list>\w+)\s+(?:entry|event|line|record)\s+(?:is|gets)\s+"
    r"(?:appended|added|written|recorded|logged)\b",
    re.IGNORECASE,
)
LOGGED_IN = re.compile(  # "the reason is logged in its history": an entry of the new state holding the argument
    r"\bthe\s+(?P<param>\w+)\s+is\s+(?:logged|recorded|noted|written|kept)\s+(?:in|to|into)\s+"
    r"(?:its|the\s+\w+['\u2019]s|the)\s+(?P<list>\w+)",
    re.IGNORECASE,
)
BOTH = re.compile(  # 'a "filled" entry is appended to both the order's and the prescription's history'
    r"(?P<head>\b(?:an?|one)\s+[`'\"]?[\w-]+[`'\"]?\s+(?:entry|event|record|note|line)\b[^.]{0,80}?"
    r"\b(?:is|gets|are)\s+(?:appended|added|written|recorded|logged)\s+to\s+)both\s+(?:the\s+)?(?P<a>\w+)['\u2019]s\s+"
    r"and\s+(?:the\s+)?(?P<b>\w+)['\u2019]s\s+(?P<field>\w+)",
    re.IGNORECASE,
)


def split_both(text: str) -> str:
    """The text with an entry appended "to both the A's and the B's list" said once for each owner."""
    return BOTH.sub(lambda m: f"{m['head']}the {m['a']}'s {m['field']}; {m['head']}the {m['b']}'s {m['field']}", text)


def _state_holders(items: dict[str, Any], record_props: dict[str, Any], sets: dict[str, Any]) -> list[tuple[str, Any]]:
    """(entry field, value) for each entry field holding states of the record: the value the call sets goes there."""
    return [
        (k, sets[f])
        for k, sub in (items.get("properties") or {}).items()
        for f in sets
        if isinstance(sub, dict)
        and isinstance(record_props.get(f), dict)
        and set(map(str, sub.get("x-enum") or sub.get("enum") or []))
        & set(map(str, record_props[f].get("x-enum") or record_props[f].get("enum") or []))
    ]


def state_entries(
    text: str,
    record_props: dict[str, Any],
    parameters: dict[str, Any],
    records: list[dict[str, Any]],
    today: str | None,
    sets: dict[str, Any],
) -> list[dict[str, Any]]:
    """`append` effects for "appends a <list> entry" on a transition: the entry of the record's list of that name
    whose one field holds the record's states takes the new state; its other fields as the list's entries in the
    data show (a date the business date, a field named as a parameter the argument)."""
    params = parameters.get("properties") or {}
    required = list(parameters.get("required") or [])
    out: list[dict[str, Any]] = []
    logged = {m.group("list"): m.group("param") for m in LOGGED_IN.finditer(text) if m.group("param") in params}
    found = list(STATE_ENTRY.finditer(text)) + list(STATE_ENTRY_PASSIVE.finditer(text)) + list(LOGGED_IN.finditer(text))
    for m in sorted(found, key=lambda m: m.start()):
        field = m.group("list")
        schema = record_props.get(field)
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        if not isinstance(items, dict) or any(e["field"] == field for e in out):
            continue
        holders = _state_holders(items, record_props, sets)
        if len(holders) != 1:
            continue
        kind_field, kind = holders[0]
        same = [e for e in _entries(records, field) if e.get(kind_field) == kind]
        renamed = _logged_as(logged.get(field), same or _entries(records, field), kind_field, params)
        if same:  # entries of this kind are in the data: as they are written there
            texts = _entry_texts(records, field, kind_field, kind, None)
            rule = _entry_rule(kind_field, kind, same, params, required, renamed, today, texts=texts)
        else:
            rule = _entry_rule(
                kind_field, kind, _entries(records, field), params, required, renamed, today, unseen=True
            )
        if rule is not None:
            out.append({"op": "append", "field": field, "items": [rule]})
    return out


def seen_entries(
    record_props: dict[str, Any],
    parameters: dict[str, Any],
    records: list[dict[str, Any]],
    today: str | None,
    sets: dict[str, Any],
    taken: set[str],
) -> list[dict[str, Any]]:
    """`append` effects for a transition the docs say nothing of logging, when the data logs it: a list of the
    record whose entries have one field holding the record's states, and entries of the new state in the data
    (an `approved` entry where the call approves), written as those are. `taken`: lists the docs already fill."""
    params = parameters.get("properties") or {}
    required = list(parameters.get("required") or [])
    out: list[dict[str, Any]] = []
    for field, schema in sorted(record_props.items()):
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        if field in taken or not isinstance(items, dict):
            continue
        holders, copied = _state_holders(items, record_props, sets), None
        if len(holders) == 2 and len(sets) == 1:  # `{date, from, to}`: the state left and the state entered
            holders, copied = _transition_pair(records, field, holders, next(iter(sets)))
        if len(holders) != 1:
            continue
        kind_field, kind = holders[0]
        same = [e for e in _entries(records, field) if e.get(kind_field) == kind]
        if not same:
            continue  # the data never logs this state: nothing says the call does
        texts = _entry_texts(records, field, kind_field, kind, None)
        rule = _entry_rule(kind_field, kind, same, params, required, [], today, copied=copied, texts=texts)
        for left in copied or {}:  # the state left is the record's as the call found it
            if rule is not None and (rule["fields"].get(left) or {}).get("from") == "record":
                rule["fields"][left] = {**rule["fields"][left], "before": True}
        if rule is not None:
            out.append({"op": "append", "field": field, "items": [rule]})
    return out


def _transition_pair(
    records: list[dict[str, Any]], field: str, holders: list[tuple[str, Any]], state: str
) -> tuple[list[tuple[str, Any]], dict[str, str] | None]:
    """Of two entry fields holding states, the one every record's last entry agrees with the record's state on
    (the state entered) and the other (the state left, read off the record before the call): ([entered], {left:
    state}), or the holders unchanged when the data does not tell them apart."""
    logged = [r for r in records if [e for e in (r.get(field) or []) if isinstance(e, dict)]]
    entered = [
        (k, v)
        for k, v in holders
        if len(logged) >= 2
        and all([e for e in r[field] if isinstance(e, dict)][-1].get(k) == r.get(state) for r in logged)
    ]
    if len(entered) != 1:
        return holders, None
    left = next(k for k, _ in holders if k != entered[0][0])
    return entered, {left: state}


def _logged_as(
    param: str | None, same: list[dict[str, Any]], kind_field: str, params: dict[str, Any]
) -> list[tuple[str, str]]:
    """[(parameter, entry field)] for "the reason is logged in its history": the entry's one text field that is no
    date, no kind and no parameter's name holds the argument."""
    if param is None:
        return []
    fields = {
        k
        for e in same
        for k, v in e.items()
        if k != kind_field and k not in params and isinstance(v, str) and not DATE.match(v)
    }
    return [(param, fields.pop())] if len(fields) == 1 else []


__all__ = ["business_date", "named_entries", "seen_entries", "split_both", "state_entries"]
