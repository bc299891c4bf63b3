"""Fields a new list entry copies from another record, read from the sample data.

An entry that a call adds to a record's list (a line with a `sku`, a seat of a `class`) often carries fields the
call does not give: its `unit_cost` is the catalogue's for that `sku`, its `fare` the one the trip lists for that
class. When every sample entry agrees, the new entry copies them the same way:

- from the record an entry field names (`sku` -> the catalogue's record `sku`, its field of the same name);
- from the matching element of a list on the record its parent names (the parent's `trip_id` -> trips; the
  trip's `classes` element whose `class` is the entry's `class`, its field of the same name).

The matching field must be one the call gives. At least three sample entries, holding at least two values of the
copied field between them, must all agree, so a constant or a coincidence is not taken for a rule. A call whose
value names no record or element is refused ("<field> <value> not found"), as the copy has nothing to read.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.data_copies import MIN_RECORDS, keyed_records, sample_records


def _entries(records: list[dict[str, Any]], list_field: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(parent, entry) for every object entry of `list_field` across the records."""
    out = []
    for record in records:
        items = record.get(list_field)
        out.extend((record, e) for e in (items if isinstance(items, list) else []) if isinstance(e, dict))
    return out


def _varied(pairs: list[tuple[Any, Any]]) -> bool:
    """Enough sample entries, each holding the source's value (not None), with at least two values between them."""
    return (
        len(pairs) >= MIN_RECORDS
        and all(mine is not None and mine == theirs for mine, theirs in pairs)
        and len({repr(mine) for mine, _ in pairs}) >= 2
    )


def _holder(sample: dict[str, Any], own: str, values: list[Any]) -> str | None:
    """The one other sample collection keyed by every value (a field whose values are its record keys)."""
    found = [
        c
        for c in sorted(sample)
        if c != own and (keys := keyed_records(sample, c)) and values and all(str(v) in keys for v in values)
    ]
    return found[0] if len(found) == 1 else None


def _from_records(
    sample: dict[str, Any], collection: str, pairs: list[tuple[dict, dict]], given: list[str], open_fields: list[str]
) -> list[dict[str, Any]]:
    """Copies from the record a given entry field names."""
    out: list[dict[str, Any]] = []
    for by in given:
        values = [e.get(by) for _, e in pairs if e.get(by) is not None]
        if len(values) != len(pairs) or (other := _holder(sample, collection, values)) is None:
            continue
        records = keyed_records(sample, other)
        for field in open_fields:
            if any(c["field"] == field for c in out):
                continue
            if _varied([(e.get(field), records[str(e[by])].get(field)) for _, e in pairs]):
                out.append({"op": "entry_copied", "field": field, "from": "record", "collection": other, "by": by})
    return out


def _match(elements: Any, match: str, value: Any) -> dict[str, Any] | None:
    found = [x for x in (elements if isinstance(elements, list) else []) if isinstance(x, dict)]
    return next((x for x in found if x.get(match) == value), None)


def _from_linked_lists(
    sample: dict[str, Any], collection: str, pairs: list[tuple[dict, dict]], given: list[str], open_fields: list[str]
) -> list[dict[str, Any]]:
    """Copies from the matching element of a list on the record the entry's parent names."""
    out: list[dict[str, Any]] = []
    parent_fields = sorted({f for parent, _ in pairs for f, v in parent.items() if isinstance(v, (str, int))})
    for via in parent_fields:
        values = [parent.get(via) for parent, _ in pairs]
        if any(v is None for v in values) or (other := _holder(sample, collection, values)) is None:
            continue
        records = keyed_records(sample, other)
        lists = sorted({f for r in records.values() for f, v in r.items() if isinstance(v, list)})
        for list_field in lists:
            for match in given:
                found = [(e, _match(records[str(p[via])].get(list_field), match, e.get(match))) for p, e in pairs]
                if any(source is None for _, source in found):
                    continue
                for field in open_fields:
                    if any(c["field"] == field for c in out):
                        continue
                    if field != match and _varied([(e.get(field), source.get(field)) for e, source in found]):
                        out.append(
                            {
                                "op": "entry_copied",
                                "field": field,
                                "from": "linked_element",
                                "via": via,
                                "collection": other,
                                "list": list_field,
                                "by": match,
                            }
                        )
    return out


def entry_copies(
    sample: dict[str, Any], collection: str, list_field: str, given: list[str], item_fields: list[str]
) -> list[dict[str, Any]]:
    """`entry_copied` effects for a new entry of `collection.list_field` built from the `given` fields: for each
    other field of the entries (`item_fields`), where every sample entry shows it copied from another record."""
    pairs = _entries(sample_records(sample, collection), list_field)
    open_fields = [f for f in item_fields if f not in given]
    if not pairs or not open_fields or not given:
        return []
    out = _from_records(sample, collection, pairs, given, open_fields)
    rest = [f for f in open_fields if all(c["field"] != f for c in out)]
    return out + (_from_linked_lists(sample, collection, pairs, given, rest) if rest else [])


__all__ = ["entry_copies"]
