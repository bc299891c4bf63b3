"""Entries the docs name by their kind on a record the call's record names: "a 'hire' event is added to the
skipper's log", "... to the skipper log" (the skipper of the record's `skipper_id`), read like the entries of the
call's own record (docs_entries), and the entries such a record gets written out in full (literal_links).

A text such an entry holds may be written from the holder's values after the call and the key of the call's record
("H-7001; 4 lifts remaining": the haul-out that names the boat, and the boat's `lifts_remaining`), learned from the
data's entries of that kind (entry_texts.py): each is read with the key of the record of the call's collection that
names its holder (the one its text shows, when several do); an entry no such record names is left out, and so is one
whose text shows none of them when the entries that do show one agree without it."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_entries import (
    EQUALS,
    GOES_INTO,
    NAMED,
    NAMED_LIST_FIRST,
    _entries,
    _entry_rule,
    _joined,
    _kind_fields,
    _quoted_kind,
    split_both,
)
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.literal_links import literal_linked_entries, owner_collection, record_link

OWN_KEY = "\x00own_key"  # the key of the call's record, among the holder's values an entry text may show


def _holder_source(node: Any) -> Any:
    """A learned source over the holder's values, read from the holder (and the call's record's key)."""
    if isinstance(node, dict):
        if node.get("from") == "record":
            path = list(node.get("path") or [])
            return {"from": "own_key"} if path == [OWN_KEY] else {**node, "from": "holder"}
        return {k: _holder_source(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_holder_source(v) for v in node]
    return node


def _holder_texts(
    holders: dict[str, Any],
    field: str,
    kind_field: str,
    kind: str,
    own_records: dict[str, Any],
    via: str | None,
) -> dict[str, dict[str, Any]]:
    """{entry field: a text source} for the kind's entries on the holders whose texts the holder's values and the
    key of the call's record naming it write, in every such entry of the data."""
    if not via:
        return {}
    pairs = []
    for hkey, holder in holders.items():
        entries = holder.get(field) if isinstance(holder, dict) and isinstance(holder.get(field), list) else []
        naming = [k for k, r in sorted(own_records.items()) if isinstance(r, dict) and str(r.get(via)) == str(hkey)]
        for e in entries:
            if isinstance(e, dict) and e.get(kind_field) == kind and naming:
                pairs.append((holder, naming, e))
    out: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(n for _, _, e in pairs for n in e if n != kind_field):
        if len(pairs) < 2 or len({repr(e.get(name)) for _, _, e in pairs}) < 2:
            continue  # one value throughout is a constant; one entry shows no template to trust
        samples, showing = [], []
        for holder, naming, e in pairs:
            shown = [k for k in naming if isinstance(e.get(name), str) and k in e[name]]
            key = shown[0] if len(shown) == 1 else naming[0] if len(naming) == 1 else None
            samples += [(e.get(name), {**holder, OWN_KEY: key}, [])] if key is not None else []
            showing += [(e.get(name), {**holder, OWN_KEY: key}, [])] if len(shown) == 1 else []
        found = learned_text(samples) if len(samples) >= 2 else None
        if found is None and len(showing) >= 2 and len(showing) < len(samples):  # a text naming another record
            found = learned_text(showing)  # (one whose record is gone) is left out
        if found is not None:
            out[name] = _holder_source(found)
    return out


def linked_entries(
    text: str,
    collection: str,
    state_schema: dict[str, Any],
    parameters: dict[str, Any],
    sample: dict[str, Any],
    today: str | None,
) -> list[dict[str, Any]]:
    """`ref_append` effects for the entries the text names by kind on a record the call's record names ("a
    'hire' event is added to the skipper's log", "... to the skipper log": the skipper of the record's
    `skipper_id`). An entry field that holds, in every such entry of the data, a key of the call's collection holds
    the call's record key."""
    cols = state_schema.get("properties") or {}
    params = parameters.get("properties") or {}
    required = list(parameters.get("required") or [])
    own = ((cols.get(collection) or {}).get("additionalProperties") or {}).get("properties") or {}
    out: list[dict[str, Any]] = []
    text = split_both(text)
    found = list(NAMED.finditer(text)) + list(NAMED_LIST_FIRST.finditer(text)) + list(GOES_INTO.finditer(text))
    for m in sorted(found, key=lambda m: m.start()):
        owner = (m.group("owner") or "").lower()
        if not owner and re.search(r"\btheir\s+\w+$", m.group(0), re.IGNORECASE):
            before = re.split(r"(?<=[.!?])\s+", text[: m.start()])[-1]  # "their": the sentence's last owner
            owners = [w.lower() for w in re.findall(r"\b(\w+)['\u2019]s\b", before)]
            owner = owners[-1] if owners else ""
        field = m.group("field")
        after = re.match(r"\s+(\w+)", text[m.end() :])
        if not owner and after and owner_collection(field, cols, collection):  # "appended to the studio history"
            owner, field = field, after.group(1)
        other = owner_collection(owner, cols, collection)
        if other is None:
            continue
        props = ((cols[other].get("additionalProperties") or {}).get("properties")) or {}
        items = (props.get(field) or {}).get("items") if (props.get(field) or {}).get("type") == "array" else None
        if not isinstance(items, dict) or any(e["collection"] == other and e["field"] == field for e in out):
            continue
        kinds, unseen = _kind_fields(items, m.group("kind"), _quoted_kind(m))
        records = [r for r in (sample.get(other) or {}).values() if isinstance(r, dict)]
        if len(kinds) != 1:
            continue
        same = [e for e in _entries(records, field) if unseen or e.get(kinds[0]) == m.group("kind")]
        copied = {  # "(charge = fee)", "(ref = pier id)": the longest run of words naming a field of the record
            f: next(n for n in (_joined(words, k) for k in (3, 2, 1)) if n in own)
            for f, words in EQUALS.findall(m.group("aside"))
            if any(_joined(words, k) in own for k in (3, 2, 1))
        }
        own_records = sample.get(collection) if isinstance(sample.get(collection), dict) else {}
        link = record_link(own, other, params)  # the record's link to it, else the argument naming it
        holders = sample.get(other) if isinstance(sample.get(other), dict) else {}
        texts = (
            {}
            if unseen or not link
            else _holder_texts(holders, field, kinds[0], m.group("kind"), own_records, link.get("via"))
        )
        rule = _entry_rule(
            kinds[0], m.group("kind"), same, params, required, [], today, copied, unseen, own_records, texts
        )
        if rule is not None and link is not None:
            out.append({"op": "ref_append", "collection": other, **link, "field": field, "items": [rule]})
    written = literal_linked_entries(text, collection, state_schema, parameters, today)  # entries written in full
    return out + [
        e for e in written if not any(o["collection"] == e["collection"] and o["field"] == e["field"] for o in out)
    ]


__all__ = ["linked_entries"]
