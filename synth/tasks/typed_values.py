"""Typed values: what a field of a given format holds, never a placeholder phrase.

Sources, in order: the values the environment's own data holds for a field of that name (a
grounded environment, `forgegym synth --data`), the docs' `examples` and `x-enum` of the field,
a string sampled from its `pattern`, and seeded offline generators by the field's kind (zip code,
city, street, country, code, amount). The free-text pool (values.py) is used only for free text.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any

from synth.tasks.envmodel import EnvModel, json_type
from synth.words import split_words

MAX_SCAN = 400  # records of one collection scanned for a field's data values

CITIES = ("Austin", "Denver", "Portland", "Columbus", "Raleigh", "Madison", "Tucson", "Omaha", "Boise", "Fresno")
STATES = ("TX", "CO", "OR", "OH", "NC", "WI", "AZ", "NE", "ID", "CA")
STREETS = ("Maple Street", "Oak Avenue", "Cedar Lane", "Pine Road", "Elm Drive", "Hill Street", "Lake Avenue")
COUNTRIES = ("USA", "Canada", "Germany", "France", "Japan", "Brazil")
TYPED_KINDS = ("zip", "city", "state", "country", "street", "code", "amount", "unit")


def typed_kind(field_name: str) -> str | None:
    """The kind of a formatted text field from its name (zip, city, state, country, street, code), or None."""
    w = set(split_words(field_name))
    if w & {"zip", "zipcode", "postal", "postcode"}:
        return "zip"
    if "city" in w or "town" in w:
        return "city"
    if "state" in w or "province" in w or "region" in w:
        return "state"
    if "country" in w:
        return "country"
    if w & {"address", "address1", "street", "line1"}:
        return "street"
    if w & {"address2", "line2", "apartment", "suite"}:
        return "unit"
    if w & {"code", "sku", "number", "iata", "airport", "flight", "serial", "isbn", "id", "ids", "uuid", "guid"}:
        return "code"
    return None


def typed_text(kind: str, rng: random.Random) -> str:
    """A seeded value of a formatted kind."""
    if kind == "zip":
        return "%05d" % rng.randint(10000, 99999)
    if kind == "city":
        return rng.choice(CITIES)
    if kind == "state":
        return rng.choice(STATES)
    if kind == "country":
        return rng.choice(COUNTRIES)
    if kind == "street":
        return f"{rng.randint(10, 999)} {rng.choice(STREETS)}"
    if kind == "unit":
        return f"Suite {rng.randint(100, 999)}"
    if kind == "amount":
        return "%.2f" % rng.uniform(5, 500)
    return "".join(rng.choice(string.ascii_uppercase) for _ in range(2)) + "%04d" % rng.randint(0, 9999)


_CLASS = re.compile(r"\[([^\]]+)\]|\\d|\\w|\.|\\.|[^\\\[\]{}()*+?^$|]")
_QUANT = re.compile(r"\{(\d+)(?:,(\d*))?\}|[*+?]")


def _chars(cls: str) -> str:
    out = []
    i = 0
    while i < len(cls):
        if i + 2 < len(cls) and cls[i + 1] == "-":
            out += [chr(c) for c in range(ord(cls[i]), ord(cls[i + 2]) + 1)]
            i += 3
        elif cls[i] == "\\" and i + 1 < len(cls):
            out += list(string.digits) if cls[i + 1] == "d" else [cls[i + 1]]
            i += 2
        else:
            out.append(cls[i])
            i += 1
    return "".join(out)


def sample_pattern(pattern: str, rng: random.Random) -> str | None:
    """A string matching a simple regular expression (classes, literals, {n}, {n,m}, +, *, ?), or None
    when the pattern uses groups or alternation."""
    body = pattern[1:] if pattern.startswith("^") else pattern
    body = body[:-1] if body.endswith("$") else body
    if any(c in body for c in "()|") or not body:
        return None
    out: list[str] = []
    pos = 0
    while pos < len(body):
        m = _CLASS.match(body, pos)
        if not m:
            return None
        tok = m.group(0)
        pos = m.end()
        if m.group(1) is not None:
            if m.group(1).startswith("^"):
                return None
            pool = _chars(m.group(1))
        elif tok == "\\d":
            pool = string.digits
        elif tok in ("\\w", "."):
            pool = string.ascii_lowercase
        else:
            pool = tok[-1]
        q = _QUANT.match(body, pos)
        lo = hi = 1
        if q:
            pos = q.end()
            if q.group(1):
                lo = int(q.group(1))
                hi = lo if q.group(2) is None else int(q.group(2) or lo + 4)
            else:
                lo, hi = {"*": (0, 4), "+": (3, 6), "?": (0, 1)}[q.group(0)]
        if hi < lo:  # "{3,1}": a pattern written wrong
            return None
        out += [rng.choice(pool) for _ in range(rng.randint(lo, hi))]
    text = "".join(out)
    try:
        return text if re.fullmatch(pattern.strip("^$"), text) else None
    except re.error:  # a pattern written wrong
        return None


def field_schema_named(model: EnvModel, collection: str | None, name: str) -> dict[str, Any]:
    """The record schema of a field called `name` anywhere inside `collection`'s records (nested objects
    included), else inside any collection; {} when there is none."""
    cols = [model.collections[collection]] if collection in model.collections else []
    cols += [c for c in model.collections.values() if c.name != collection]
    for col in cols:
        found = _find_prop(col.record_schema, name, 0)
        if found is not None:
            return found
    return {}


def _find_prop(schema: Any, name: str, depth: int) -> dict[str, Any] | None:
    if not isinstance(schema, dict) or depth > 5:
        return None
    props = schema.get("properties") or {}
    if isinstance(props.get(name), dict):
        return props[name]
    for sub in list(props.values()) + [schema.get("items")]:
        found = _find_prop(sub, name, depth + 1)
        if found is not None:
            return found
    return None


def data_values(state: dict[str, Any], collection: str | None, name: str) -> list[Any]:
    """Distinct scalar values the state holds under field `name` (any depth) in `collection`'s records,
    sorted for determinism: what the environment's own data uses for that field."""
    recs = state.get(collection or "") if collection else None
    if not isinstance(recs, dict):
        return []
    found: set[Any] = set()

    def visit(x: Any, depth: int) -> None:
        if depth > 5:
            return
        if isinstance(x, dict):
            for k, v in x.items():
                if k == name and isinstance(v, (str, int, float)) and not isinstance(v, bool):
                    found.add(v)
                elif isinstance(v, (dict, list)):
                    visit(v, depth + 1)
        elif isinstance(x, list):
            for v in x:
                visit(v, depth + 1)

    for i, k in enumerate(sorted(recs)):
        if i >= MAX_SCAN:
            break
        visit(recs[k], 0)
    return sorted(found, key=lambda v: (str(type(v)), str(v)))


QUALIFIERS = {"new", "old", "current", "previous", "source", "target", "original", "updated", "other"}


def field_names(name: str) -> list[str]:
    """The data fields a parameter may hold values of: its name, the singular of a list name, and the same without a
    leading qualifier ('new_item_ids' -> 'item_ids', 'item_id')."""
    out = [name, singular_name(name)]
    words = split_words(name)
    if len(words) > 1 and words[0] in QUALIFIERS:
        rest = name.lstrip("_")[len(words[0]) :].lstrip("_")
        rest = rest[0].lower() + rest[1:] if rest else rest  # camelCase: 'newItemIds' -> 'itemIds'
        out += [rest, singular_name(rest)]
    return [n for i, n in enumerate(out) if n and n not in out[:i]]


def singular_name(name: str) -> str:
    """'item_ids' -> 'item_id', 'tagIds' -> 'tagId' (a list parameter named after the field it holds)."""
    return name[:-1] if len(name) > 3 and name.endswith(("ids", "Ids", "IDs")) else name


def typed_value(
    schema: dict[str, Any],
    name: str,
    rng: random.Random,
    state: dict[str, Any],
    collection: str | None,
    model: EnvModel | None = None,
    avoid: set | None = None,
    grounded: bool = False,
) -> Any | None:
    """A formatted value for a string field, or None when the field is free text (the pool's job).

    `grounded`: the state is the environment's own data, so the values it holds for the field come first."""
    avoid = avoid or set()
    hint = dict(
        field_schema_named(model, collection, name) or field_schema_named(model, collection, singular_name(name))
        if model is not None
        else {}
    )
    schema = {**hint, **{k: v for k, v in (schema or {}).items() if v is not None}}
    if json_type(schema) not in ("string", "enum"):
        return None
    kind = typed_kind(name)
    options: list[Any] = []
    if grounded and (
        kind or schema.get("pattern") or schema.get("examples") or schema.get("x-enum") or name != singular_name(name)
    ):
        options = []
        for candidate in field_names(name):
            options = [v for v in data_values(state, collection, candidate) if isinstance(v, str)]
            if options:
                break
    if not options:
        options = [
            v for v in list(schema.get("x-enum") or []) + list(schema.get("examples") or []) if isinstance(v, str)
        ]
    fresh = [v for v in options if v not in avoid]
    if fresh:
        return rng.choice(fresh)
    if schema.get("pattern"):
        for _ in range(5):
            v = sample_pattern(str(schema["pattern"]), rng)
            if v is not None and v not in avoid:
                return v
    if kind:
        for _ in range(5):
            v = typed_text(kind, rng)
            if v not in avoid:
                return v
        return v
    return options[0] if options else None
