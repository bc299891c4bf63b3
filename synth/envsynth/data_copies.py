"""Fields a new record copies from the records it names, read from the sample data: when every sample record of
the collection holds the same value as the record its link names, under the same field name (a stay's `pier_code`
is its berth's `pier_code`; its `night_rate` is that pier's `night_rate`), a new record copies it the same way.

A qualified field copies the holder's field its name ends with (`pickup_branch_id` <- the vehicle's `branch_id`)
when at least MOSTLY of the sample records agree: the holder's value may have moved on since (the car was returned
elsewhere).

The link is a parameter the record keeps (`berth_id` -> berths), else a field the record has or copies (its
`pier_code` naming a pier). At least three sample records, each naming a record that exists and holding at least
two values between them, must agree; a field the docs or the call set is left alone.
"""

from __future__ import annotations

from typing import Any

MIN_RECORDS = 3
MOSTLY = 0.8


def sample_records(sample: dict[str, Any], collection: str) -> list[dict[str, Any]]:
    """The records of a sample collection, kept as a map by key or as a list."""
    node = sample.get(collection)
    values = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
    return [r for r in values if isinstance(r, dict)]


def field_values(schema: Any, records: list[dict[str, Any]], field: str) -> list[str]:
    """The values a text field may hold, as text: those its schema lists (spec.known_values), else those the sample
    records hold (each once, in order)."""
    from synth.spec import known_values

    listed = known_values(schema)
    return listed or sorted({r[field] for r in records if isinstance(r.get(field), str)})


def keyed_records(sample: dict[str, Any], collection: str) -> dict[str, dict[str, Any]]:
    """The records of a sample collection kept as a map, by key (empty when it is a list)."""
    node = sample.get(collection)
    return {str(k): r for k, r in node.items() if isinstance(r, dict)} if isinstance(node, dict) else {}


def _agrees(records: list[dict[str, Any]], holders: dict[str, dict[str, Any]], via: str, field: str) -> bool:
    """Every record names a holder by `via`, and holds the holder's value of `field` (not None)."""
    if len(records) < MIN_RECORDS or len({str(r.get(field)) for r in records}) < 2:  # one value everywhere: no copy
        return False
    for record in records:
        holder = holders.get(str(record.get(via)))
        if holder is None or field not in holder or record.get(field) is None or holder[field] != record.get(field):
            return False
    return True


def _qualified_source(records: list[dict[str, Any]], holders: dict[str, dict[str, Any]], via: str, field: str) -> str:
    """The holder's field a qualified field (`pickup_branch_id`) names by its ending (`branch_id`), when at least
    MOSTLY of the records hold the value their holder holds now (the holder's value may have moved on since); ''
    otherwise."""
    endings = sorted({g for h in holders.values() for g in h if g != field and field.endswith("_" + g)})
    if len(endings) != 1 or len(records) < MIN_RECORDS or len({str(r.get(field)) for r in records}) < 2:
        return ""
    pairs = [(r.get(field), (holders.get(str(r.get(via))) or {}).get(endings[0])) for r in records]
    same = sum(1 for mine, theirs in pairs if mine is not None and mine == theirs)
    return endings[0] if same >= MOSTLY * len(records) else ""


def data_copies(
    sample: dict[str, Any],
    collection: str,
    own: dict[str, Any],
    links: dict[str, str],
    skip: set[str],
) -> list[dict[str, Any]]:
    """`copied` effects ({field, via, collection, source}) in the order they must run: `links` are the record's
    fields that name another collection's records (the parameters it keeps); `skip` the fields set otherwise."""
    records = sample_records(sample, collection)
    out: list[dict[str, Any]] = []
    open_fields = [f for f in sorted(own) if f not in skip]
    known = dict(links)
    for _ in range(2):  # a copied field can name the next holder (a stay's pier_code -> piers)
        for field in open_fields:
            if any(e["field"] == field for e in out):
                continue
            for via, other in sorted(known.items()):
                if via != field and _agrees(records, keyed_records(sample, other), via, field):
                    out.append({"op": "copied", "field": field, "via": via, "collection": other, "source": field})
                    break
        for field in open_fields:  # `pickup_branch_id` is mostly the vehicle's `branch_id` (it moves later)
            if any(e["field"] == field for e in out):
                continue
            for via, other in sorted(known.items()):
                source = _qualified_source(records, keyed_records(sample, other), via, field)
                if via != field and source:
                    out.append({"op": "copied", "field": field, "via": via, "collection": other, "source": source})
                    break
        for e in out:  # a copied field whose values are keys of a collection links to it
            for other in sorted(sample):
                keys = keyed_records(sample, other)
                if other != collection and keys and all(str(r.get(e["field"])) in keys for r in records):
                    known.setdefault(e["field"], other)
    return out


__all__ = ["data_copies", "keyed_records", "sample_records"]
