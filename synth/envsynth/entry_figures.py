"""Numbers a new list entry carries that the call does not give, read from the sample data when every sample entry
shows the same rule:

- a number of a record the entry's parent leads to, under another name: a vehicle line's `fee_per_night` is the
  `extra_vehicle_fee` of the site type of the reservation's site (`site_id` -> campsites, its `type` -> site_types;
  at most two links);
- the product of two numbers of the entry or its parent: its `fee` is its `fee_per_night` times the reservation's
  `nights`.

As with entry_copies.py, at least three sample entries holding at least two values of the field between them must
all agree, so a constant or a coincidence is not taken for a rule; where several sources agree, the one whose name
shares a word with the field is taken, and none when that still leaves several.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.data_copies import MIN_RECORDS, keyed_records, sample_records
from synth.envsynth.entry_copies import _entries, _holder
from synth.envsynth.expr_runtime import fg_number
from synth.words import split_words

Pair = tuple[dict[str, Any], dict[str, Any]]  # (parent record, entry)


def _enough(values: list[Any]) -> bool:
    return len(values) >= MIN_RECORDS and len({repr(v) for v in values}) >= 2


def _link_values(values: list[Any]) -> bool:
    """Values that can name records: text or whole numbers, every one set."""
    return bool(values) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values)


def _chains(sample: dict[str, Any], collection: str, parents: list[dict[str, Any]]) -> list[list[dict[str, str]]]:
    """Ways from the parents to other records: one link (`site_id` -> campsites) or two (then `type` ->
    site_types), each a link field every parent (or linked record) holds."""
    out: list[list[dict[str, str]]] = []
    level: list[tuple[list[dict[str, str]], list[dict[str, Any]]]] = [([], parents)]
    for _ in range(2):
        following = []
        for chain, records in level:
            fields = sorted({f for r in records for f in r})
            for via in fields:
                values = [r.get(via) for r in records]
                here = chain[-1]["collection"] if chain else collection
                other = _holder(sample, here, values) if _link_values(values) else None
                if other is None or any(hop["collection"] == other for hop in chain) or other == collection:
                    continue
                held = keyed_records(sample, other)
                step = chain + [{"via": via, "collection": other}]
                out.append(step)
                following.append((step, [held[str(r.get(via))] for r in records]))
        level = following
    return out


def _follow(sample: dict[str, Any], parent: dict[str, Any], chain: list[dict[str, str]]) -> dict[str, Any] | None:
    node: Any = parent
    for hop in chain:
        node = keyed_records(sample, hop["collection"]).get(str((node or {}).get(hop["via"])))
    return node if isinstance(node, dict) else None


def _preferred(field: str, found: list[Any], name_of: Any) -> list[Any]:
    """The candidates whose source name shares a word with the field, when some do."""
    words = set(split_words(field))
    close = [c for c in found if words & set(split_words(name_of(c)))]
    return close or found


def _looked_up(sample: dict[str, Any], collection: str, pairs: list[Pair], field: str) -> dict[str, Any] | None:
    values = [e.get(field) for _, e in pairs]
    if not all(fg_number(v) for v in values) or not _enough(values):
        return None
    found = []
    for chain in _chains(sample, collection, [p for p, _ in pairs]):
        sources = [_follow(sample, p, chain) for p, _ in pairs]
        if any(s is None for s in sources):
            continue
        for name in sorted({k for s in sources for k in s}):
            if all(fg_number(s.get(name)) and s.get(name) == v for s, v in zip(sources, values)):
                found.append((chain, name))
    found = _preferred(field, found, lambda c: c[1])
    if len(found) != 1:
        return None
    chain, name = found[0]
    return {"op": "entry_looked_up", "field": field, "chain": chain, "source": name}


def _product(pairs: list[Pair], field: str, entry_fields: list[str]) -> dict[str, Any] | None:
    values = [e.get(field) for _, e in pairs]
    if not all(fg_number(v) for v in values) or not _enough(values):
        return None
    sides = [("entry", f) for f in entry_fields if f != field] + [
        ("record", f) for f in sorted({f for p, _ in pairs for f, v in p.items() if fg_number(v)})
    ]
    found = []
    for i, a in enumerate(sides):
        for b in sides[i + 1 :]:
            if a[0] == "record" and b[0] == "record":
                continue  # a figure of the parent alone is not the entry's own
            xs = [(entry if a[0] == "entry" else parent).get(a[1]) for parent, entry in pairs]
            ys = [(entry if b[0] == "entry" else parent).get(b[1]) for parent, entry in pairs]
            if any(all(f in (0, 1) for f in factors) for factors in (xs, ys)):
                continue  # a factor that is always 1 (or 0) says nothing
            if all(fg_number(x) and fg_number(y) and abs(x * y - v) < 0.005 for x, y, v in zip(xs, ys, values)):
                found.append([list(a), list(b)])
    found = _preferred(field, found, lambda c: c[0][1] + "_" + c[1][1])
    return {"op": "entry_product", "field": field, "of": found[0]} if len(found) == 1 else None


def entry_figures(
    sample: dict[str, Any], collection: str, list_field: str, known: list[str], item_fields: list[str]
) -> list[dict[str, Any]]:
    """`entry_looked_up` and `entry_product` effects, in the order they must run, for the number fields of a new
    entry of `collection.list_field` that neither the call nor a copy (`known`) sets."""
    pairs: list[Pair] = _entries(sample_records(sample, collection), list_field)
    open_fields = [f for f in item_fields if f not in known]
    if not pairs or not open_fields:
        return []
    out: list[dict[str, Any]] = []
    for field in open_fields:
        found = _looked_up(sample, collection, pairs, field)
        if found:
            out.append(found)
    have = list(known) + [e["field"] for e in out]
    for field in open_fields:
        if field in have:
            continue
        found = _product(pairs, field, have)
        if found:
            out.append(found)
            have.append(field)
    return out


def _cap_names(list_field: str) -> set[str]:
    """Names a limit on the number of entries goes by: `max_extra_vehicles`, `extra_vehicles_max`,
    `max_vehicles`."""
    last = list_field.split("_")[-1]
    return {f"max_{list_field}", f"{list_field}_max", f"max_{last}", f"{last}_max", f"max_{list_field}_count"}


def entry_caps(sample: dict[str, Any], collection: str, list_field: str) -> list[dict[str, Any]]:
    """A `list_cap` check when the record, or one its links lead to, holds a whole number named as the limit of
    the list (`max_extra_vehicles` of the site type for `extra_vehicles`) and no sample record holds more entries
    than its limit: an entry beyond it is refused."""
    records = [r for r in sample_records(sample, collection) if isinstance(r.get(list_field), list)]
    if len(records) < MIN_RECORDS:
        return []
    names = _cap_names(list_field)
    for chain in [[]] + _chains(sample, collection, records):
        holders = [_follow(sample, r, chain) if chain else r for r in records]
        if any(h is None for h in holders):
            continue
        for name in sorted({k for h in holders for k in h} & names):
            caps = [h.get(name) for h in holders]
            if all(isinstance(c, int) and not isinstance(c, bool) for c in caps) and all(
                len(r[list_field]) <= c for r, c in zip(records, caps)
            ):
                return [{"op": "list_cap", "list": list_field, "chain": chain, "field": name}]
    return []


__all__ = ["entry_caps", "entry_figures"]
