"""Records of another collection a read answers inside each of its records, as the docs' "plus" names them with
their fields: "each boat being the full record ..., plus a crews summary (crew_id, name, role)" (or "its crews (...)",
"a summary of its crews (crew_id and name)").

The named collection's records are those the record lists by id (its `crew_ids`, in that order), else those whose
one reference names the record (sorted by key); each is cut to the fields in brackets, all of which must be fields
of that collection. The `output_map` entry is {"op": "rows", "collection", "fields", "list" | "ref"}.
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import record_props
from synth.words import plural, singular

FIELD = r"`?[A-Za-z_]\w*`?"
SUMMARY = re.compile(  # "a berths summary (a, b)", "its berths (a, b)", "a summary of its berths (a and b)"
    r"(?:an?\s+|the\s+|its\s+|their\s+)?(?:(?:summary|list)\s+of\s+(?:its\s+|the\s+|their\s+)?)?"
    r"(?P<name>[A-Za-z_]\w*)\s+(?:summary|summaries|list)?\s*"
    rf"\((?P<fields>{FIELD}(?:\s*(?:,|\band\b|,\s*and\b)\s*{FIELD})+)\)",
    re.IGNORECASE,
)


def summary_rows(item: str, collection: str, cols: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(answer field, rule) for one "plus" item naming another collection's records with their fields, or None."""
    m = SUMMARY.fullmatch(item.strip())
    if not m:
        return None
    name = m.group("name")
    target = name if name in cols else plural(singular(name.lower()))
    theirs = record_props(cols, target)
    fields = [f.strip("`") for f in re.split(r"\s*(?:,\s*and\b|,|\band\b)\s*", m.group("fields").strip())]
    if target == collection or not theirs or not all(f in theirs for f in fields):
        return None
    own = record_props(cols, collection)
    lists = [
        f
        for f, s in sorted(own.items())
        if isinstance(s, dict) and isinstance(s.get("items"), dict) and s["items"].get("x-references") == target
    ]
    if len(lists) == 1:
        return name, {"op": "rows", "collection": target, "list": lists[0], "fields": fields}
    refs = [f for f, s in sorted(theirs.items()) if isinstance(s, dict) and s.get("x-references") == collection]
    if len(refs) == 1 and not lists:
        return name, {"op": "rows", "collection": target, "ref": refs[0], "fields": fields}
    return None


def rows_code(name: str, spec: dict[str, Any], key_field: str | None) -> str:
    """The shape function's lines answering `name` with the rows a `rows` rule names."""
    pick = f"{{f: copy.deepcopy(r[f]) for f in {list(spec['fields'])!r} if f in r}}"
    if "list" in spec:  # the records the record lists by id, in its order
        return (
            f"    rows = collection(env_state, {spec['collection']!r})\n"
            f"    out[{name!r}] = [\n"
            f"        {pick}\n"
            f"        for r in (rows.get(str(k)) for k in (record.get({spec['list']!r}) or []))\n"
            f"        if isinstance(r, dict)\n"
            f"    ]\n"
        )
    return (
        f"    out[{name!r}] = [\n"
        f"        {pick}\n"
        f"        for _, r in sorted(collection(env_state, {spec['collection']!r}).items())\n"
        f"        if isinstance(r, dict) and record.get({key_field!r}) is not None\n"
        f"        and str(r.get({spec['ref']!r})) == str(record.get({key_field!r}))\n"
        f"    ]\n"
    )
