"""Initial states: generated from the state schema with seeded values and the LLM's text pool.

Every collection gets a few records (more where a DAG needs them), so the records the calls need
exist and distractor records sit beside them. Fields that point into another collection
(`petId`, `from`) hold keys that exist; counters (`next_todo_id`) follow the records. The result
is checked against the state schema.
"""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from synth.tasks.envmodel import Collection, EnvModel, field_ref, map_key, natural_key
from synth.tasks.typed_values import typed_value
from synth.tasks.values import TextPool, fallback_text, text_kind


@dataclass
class GenContext:
    """What value generation reads: the model, the seeded rng, the text pool and the state so far."""

    model: EnvModel
    rng: random.Random
    pool: TextPool
    state: dict[str, Any]


def existing_keys(ctx: GenContext, collection: str, typed: str | None = None) -> list[Any]:
    """Values naming the records of a collection (its key field's values), sorted for determinism."""
    col = ctx.model.collections[collection]
    recs = ctx.state.get(collection) or {}
    out = []
    for k in sorted(recs, key=natural_key):
        rec = recs[k]
        v = rec.get(col.key_field) if col.key_field and isinstance(rec, dict) and col.key_field in rec else k
        if typed == "integer" and isinstance(v, str) and v.isdigit():
            v = int(v)
        if typed == "string" and not isinstance(v, str):
            v = str(v)
        out.append(v)
    return out


def _schema_type(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "enum"
    typ = schema.get("type", "string")
    if isinstance(typ, list):
        typ = next((t for t in typ if t != "null"), "string")
    return typ


def gen_value(
    schema: dict[str, Any],
    ctx: GenContext,
    resource: str,
    fname: str,
    *,
    collection: str | None = None,
    depth: int = 0,
    avoid: set | None = None,
) -> Any:
    """A schema-valid value for a field or parameter named `fname` of a `resource` record."""
    schema = schema or {}
    rng = ctx.rng
    typ = _schema_type(schema)
    ref = field_ref(ctx.model, collection, fname) if typ in ("string", "integer") else None
    if ref and ctx.state.get(ref):
        keys = existing_keys(ctx, ref, typ)
        return rng.choice(keys)
    if typ == "enum":
        return rng.choice(list(schema["enum"]))
    if typ == "integer":
        year = "year" in fname.lower()
        lo = int(schema.get("minimum", 1950 if year else 0 if "quantity" not in fname.lower() else 1))
        hi = int(schema.get("maximum", 2024 if year and lo <= 2024 else lo + 10))
        return rng.randint(lo, max(lo, hi))
    if typ == "number":
        lo = float(schema.get("minimum", 1))
        hi = float(schema.get("maximum", lo + 99))
        return round(rng.uniform(lo, hi), 2)
    if typ == "boolean":
        return rng.random() < 0.5
    if typ == "array":
        items = schema.get("items") or {"type": "string"}
        if depth >= 3:
            return []
        n = rng.randint(1, 2)
        out, seen = [], set()
        for _ in range(n):
            v = gen_value(items, ctx, resource, fname, collection=collection, depth=depth + 1, avoid=seen)
            if isinstance(v, (str, int)) and v in seen:
                continue
            if isinstance(v, (str, int)):
                seen.add(v)
            out.append(v)
        return out
    if typ == "object":
        props = schema.get("properties") or {}
        req = set(schema.get("required") or [])
        if depth >= 3:
            return {}
        return {
            k: gen_value(v, ctx, resource, k, collection=collection, depth=depth + 1)
            for k, v in props.items()
            if k in req or rng.random() < 0.7
        }
    fmt = schema.get("format")
    if fmt == "uuid":
        n = rng.randint(1, 99999)
        return "%08d-0000-4000-8000-%012d" % (n, n)
    if fmt in ("date-time",):
        return "2024-%02d-%02dT09:00:00Z" % (rng.randint(1, 12), rng.randint(1, 28))
    typed = typed_value(
        schema,
        fname,
        rng,
        ctx.state,
        collection,
        ctx.model,
        avoid,
        grounded=bool(ctx.model.state_schema.get("examples")),
    )
    if typed is not None:
        return typed
    if text_kind(fname) == "text":
        return ctx.pool.get(resource, fname, rng, avoid)
    v = fallback_text(resource, fname, rng)
    for _ in range(10):
        if not avoid or v not in avoid:
            break
        v = fallback_text(resource, fname, rng)
    return v


def new_key_value(ctx: GenContext, col: Collection, taken: set[str]) -> Any:
    """A key value for a new record of `col` not among `taken` map keys."""
    kschema = col.fields.get(col.key_field or "", {}) or {}
    typ = _schema_type(kschema)
    if typ in ("integer", "number"):
        n = 1
        while str(n) in taken:
            n += 1
        return n
    if kschema.get("format") == "uuid" or (col.key_field or "").lower() in ("uuid",):
        return gen_value(kschema, ctx, col.resource, col.key_field or "id", avoid=taken)
    if (col.key_field or "") == "id" or col.key_prefix:
        n = 1
        while f"{col.key_prefix}{n}" in taken:
            n += 1
        return f"{col.key_prefix}{n}"
    return gen_value(kschema, ctx, col.resource, col.key_field or "name", collection=col.name, avoid=taken)


def make_record(ctx: GenContext, col: Collection, taken: set[str]) -> tuple[str, dict[str, Any]]:
    """One new record and its map key."""
    rec_schema = col.record_schema
    req = set(rec_schema.get("required") or [])
    rec: dict[str, Any] = {}
    for fname, fs in col.fields.items():
        if fname == col.key_field:
            continue
        if fname in req or ctx.rng.random() < 0.85:
            used = {r.get(fname) for r in (ctx.state.get(col.name) or {}).values() if isinstance(r.get(fname), str)}
            rec[fname] = gen_value(fs or {}, ctx, col.resource, fname, collection=col.name, avoid=used)
    if col.key_field:
        rec[col.key_field] = new_key_value(ctx, col, taken)
    if col.map_keyed:  # named only by the map key: "<prefix><n>" in the environment's key style
        prefix = col.key_prefix or col.resource.replace(" ", "_") + "_"
        n = 1
        while f"{prefix}{n}" in taken:
            n += 1
        return f"{prefix}{n}", rec
    for _ in range(10):
        key = map_key(col, rec)
        if key not in taken:
            return key, rec
        for f in col.composite_key:  # composite keys: redraw one part
            if f in col.fields:
                rec[f] = gen_value(col.fields[f] or {}, ctx, col.resource, f, collection=col.name)
                break
    return map_key(col, rec), rec


def _order(model: EnvModel) -> list[str]:
    """Collections with the ones they point into first."""
    deps = {}
    for name, col in model.collections.items():
        deps[name] = {r for f in col.fields if (r := field_ref(model, name, f)) and r != name}
    out: list[str] = []
    while len(out) < len(deps):
        ready = [n for n in deps if n not in out and deps[n] <= set(out)]
        out.append(ready[0] if ready else next(n for n in deps if n not in out))
    return out


def fill_state(
    model: EnvModel,
    rng: random.Random,
    pool: TextPool,
    min_records: dict[str, int] | None = None,
    low: int = 3,
    high: int = 6,
) -> dict[str, Any]:
    """A schema-valid initial state with `low`..`high` records per collection (at least `min_records`).

    A grounded environment (`--data`) starts from one of the data's own example states instead.
    """
    examples = model.state_schema.get("examples")
    if examples:
        return copy.deepcopy(rng.choice(examples))
    ctx = GenContext(model=model, rng=rng, pool=pool, state={})
    for name in _order(model):
        col = model.collections[name]
        n = max(rng.randint(low, high), (min_records or {}).get(name, 0))
        recs: dict[str, Any] = {}
        ctx.state[name] = recs
        for _ in range(n):
            key, rec = make_record(ctx, col, set(recs))
            recs[key] = rec
    for name, schema in model.scalars.items():
        ctx.state[name] = scalar_value(model, name, schema or {}, ctx)
    return {k: ctx.state[k] for k in sorted(ctx.state)}


def scalar_value(model: EnvModel, name: str, schema: dict[str, Any], ctx: GenContext) -> Any:
    """Counters follow their collection (`next_todo_id` = largest todo key + 1); others are sampled."""
    typ = _schema_type(schema)
    low = name.lower()
    if typ in ("integer", "number") and ("next" in low or "counter" in low or "seq" in low):
        best = 0
        for col in model.collections.values():
            if col.resource in low or col.name in low or len(model.collections) == 1:
                for k in ctx.state.get(col.name) or {}:
                    m = re.search(r"(\d+)$", str(k))
                    if m:
                        best = max(best, int(m.group(1)))
        return best + 1
    return gen_value(schema, ctx, name, name)


def check_state(model: EnvModel, state: dict[str, Any]) -> str | None:
    """None when the state satisfies the state schema, else the first error (path and message)."""
    try:
        jsonschema.validate(state, model.state_schema)
    except jsonschema.ValidationError as err:
        path = "/" + "/".join(str(p) for p in err.absolute_path)
        return f"{path}: {err.message[:200]}"
    return None
