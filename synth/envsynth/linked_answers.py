"""Answer fields a read makes from other records, as the docs' remark on the field says:

- the keys of the records of another collection that name this one: "prescription_ids (every prescription on file
  for the patient, any status)", "open_order_ids (fill orders that are queued or filled and not yet picked up)"
  (only those in the states the remark names, or in every state but those it denies), and the one such key
  "open_order_id (the queued or filled order for this prescription, or null)";
- a field built from several fields of the record this one references: "medication_name (name and strength)".

Each is an `output_map` entry (codegen's shape function renders it): {"op": "ids", "collection", "ref", "where",
"one"} and {"op": "join", "via", "collection", "paths", "sep"}.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.words import singular

NEGATION = re.compile(r"\b(?:not|never|no\s+longer|except|other\s+than|excluding|but\s+not)\b", re.I)
ANY_STATE = re.compile(r"\b(?:any|every|all|whatever)\s+(?:status|state|statuses|states)\b", re.I)


def remark_of(name: str, glossary: str) -> str | None:
    """The remark in brackets straight after the field's name somewhere in the docs, or None."""
    found = re.search(rf"\b{re.escape(name)}`?\s*\(([^()]{{2,160}})\)", glossary)
    return found.group(1).strip() if found else None


def naming_collections(cols: dict[str, Any], collection: str) -> dict[str, str]:
    """{collection: its one field naming a record of `collection`} for every other collection holding one."""
    own_key = f"{singular(collection)}_id"
    out = {}
    for other in sorted(cols):
        if other == collection:
            continue
        fields = _props(cols, other)
        refs = [
            f
            for f, s in fields.items()
            if (isinstance(s, dict) and s.get("x-references") == collection) or f == own_key
        ]
        if len(set(refs)) == 1:
            out[other] = refs[0]
    return out


def _named_collection(stem: str, remark: str, naming: dict[str, str]) -> str | None:
    """The collection a field's stem (`open_order`) or its remark ("fill orders that ...") names: the one whose
    singular is the stem, else the one the remark names, else the one whose last word is the stem's."""
    words = stem.lower().split("_")
    text = remark.lower()
    levels = [
        [c for c in naming if singular(c) == stem.lower()],
        [c for c in naming if re.search(rf"\b{re.escape(singular(c).replace('_', ' '))}s?\b", text)],
        [c for c in naming if singular(c).split("_")[-1] == words[-1]],
    ]
    for found in levels:
        if len(found) == 1:
            return found[0]
        if found:
            return None  # two collections fit equally well
    return None


def _mentioned(text: str, values: list[str]) -> list[str]:
    out = []
    for value in values:
        if not value.strip():
            continue  # a blank sample value is named by no text
        forms = {value, value.replace("_", " "), value.replace("_", "-")}
        if any(re.search(rf"\b{re.escape(f)}\b", text, re.I) for f in forms):
            out.append(value)
    return out


def kept_states(remark: str, fields: dict[str, Any]) -> dict[str, list[Any]] | None:
    """{closed field: the values kept}: those the remark names before any negation, else every value but those it
    denies; {} when it names none (or says "any status"); None when values of two fields are named."""
    if ANY_STATE.search(remark):
        return {}
    parts = NEGATION.split(remark, maxsplit=1)
    kept, denied = parts[0], parts[1] if len(parts) > 1 else ""
    found: dict[str, list[Any]] = {}
    for field, schema in sorted(fields.items()):
        known = [str(v) for v in (schema.get("enum") or schema.get("x-enum") or [])] if isinstance(schema, dict) else []
        named = _mentioned(kept, known)
        refused = _mentioned(denied, known)
        if named:
            found[field] = named
        elif refused:
            found[field] = [v for v in known if v not in refused]
    return found if len(found) <= 1 else None


def id_list_rule(name: str, glossary: str, cols: dict[str, Any], collection: str) -> dict[str, Any] | None:
    """`<noun>_ids` (or a lone `<noun>_id`, or a field whose remark calls it "the <noun>_id of ..."): the sorted
    keys of the records of another collection that name this one, in the states its remark names; None when no
    collection or no remark makes it clear."""
    lower = name.lower()
    one = lower.endswith("_id")
    remark = remark_of(name, glossary)
    # "in_dock (the boat_id of the boat moored ...)": a key its remark names
    keyed = re.match(r"(?i:the\s+)?`?([a-z]\w*)_id`?\s+of\b", remark or "")
    if not (lower.endswith("_ids") or one) and keyed:
        lower, one = f"{keyed.group(1).lower()}_id", True
    if not (lower.endswith("_ids") or one):
        return None
    stem = lower[: -4 if not one else -3]
    if one and remark is None:
        return None  # a lone key without a word on it may be anything
    naming = naming_collections(cols, collection)
    other = _named_collection(stem, remark or "", naming)
    if other is None:
        return None
    where = kept_states(remark or "", _props(cols, other))
    if where is None:
        return None
    rule: dict[str, Any] = {"op": "ids", "collection": other, "ref": naming[other]}
    if where:
        rule["where"] = where
    if one:
        rule["one"] = True
    return rule


def joined_rule(name: str, glossary: str, cols: dict[str, Any], collection: str) -> dict[str, Any] | None:
    """A field whose remark names two or more fields of the one record this one references ("medication_name (name
    and strength)" through `medication_id`): those fields' values joined by a space; None otherwise."""
    remark = remark_of(name, glossary)
    if not remark:
        return None
    parts = [p.strip() for p in re.split(r"\s*,\s*|\s+and\s+|\s+plus\s+", remark) if p.strip()]
    if len(parts) < 2:
        return None
    found = []
    for via, schema in sorted(_props(cols, collection).items()):
        other = schema.get("x-references") if isinstance(schema, dict) else None
        if other and other != collection and all(p in _props(cols, other) for p in parts):
            found.append((via, other))
    if len(found) != 1:
        return None
    return {"op": "join", "via": found[0][0], "collection": found[0][1], "paths": [[p] for p in parts], "sep": " "}


def joined_node(name: str, fields: dict[str, dict[str, Any]], glossary: str) -> dict[str, Any] | None:
    """A quote's figure the docs remark on as two or more fields of one record in its scope ("boat_name (name and
    rig)"): a formula node joining them by a space; None otherwise."""
    remark = remark_of(name, glossary) if glossary else None
    parts = [p.strip() for p in re.split(r"\s*,\s*|\s+and\s+|\s+plus\s+", remark or "") if p.strip()]
    found = [p for p, own in fields.items() if len(parts) >= 2 and all(part in own for part in parts)]
    if len(found) != 1:
        return None
    return {"join": [{"field": part, "param": found[0]} for part in parts], "sep": " "}


__all__ = ["id_list_rule", "joined_node", "joined_rule", "kept_states", "naming_collections", "remark_of"]
