"""Concrete arguments for one call: bound values from earlier outputs and reasoning, the rest chosen.

Chosen ("user") values are what the user will say: existing record keys for references, a new key
for a create, a value different from the current one for an update, a word of an existing record
for a search, text from the pool for new text. Values bound to earlier outputs are looked up in
those outputs, so every such value is really there.
"""

from __future__ import annotations

import random
from typing import Any

from synth.tasks.envmodel import Collection, EnvModel, ToolInfo, field_ref, json_type, map_key, natural_key
from synth.tasks.idlists import choose_ids, is_id_param
from synth.tasks.state_fill import GenContext, existing_keys, gen_value, new_key_value
from synth.verify import join_path

QUERY_PARAMS = ("query", "q", "search", "keyword", "text", "term")


class NoValue(Exception):
    """No value could be found for a bound parameter (the message says why)."""


def records_in(output: Any, col: Collection, limit: int = 200) -> list[dict[str, Any]]:
    """Records of `col` found anywhere in an output (dicts carrying its key), first occurrence first."""
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    keys = [col.key_field] if col.key_field else list(col.composite_key)

    def visit(x: Any, depth: int) -> None:
        if len(found) >= limit or depth > 6:
            return
        if isinstance(x, dict):
            if keys and all(k in x for k in keys):
                mk = map_key(col, x)
                if mk not in seen:
                    seen.add(mk)
                    found.append(x)
            for v in x.values():
                visit(v, depth + 1)
        elif isinstance(x, list):
            for v in x:
                visit(v, depth + 1)

    visit(output, 0)
    return found


def find_path(output: Any, value: Any, depth: int = 0) -> str | None:
    """JSON path of the first scalar in `output` equal to `value` (as text), or None."""
    if isinstance(output, dict):
        for k, v in output.items():
            sub = find_path(v, value, depth + 1)
            if sub is not None:
                return join_path([k]) + sub
        return None
    if isinstance(output, list):
        for i, v in enumerate(output):
            sub = find_path(v, value, depth + 1)
            if sub is not None:
                return join_path([i]) + sub
        return None
    if output is None or isinstance(output, (dict, list)):
        return None
    if isinstance(output, bool) or isinstance(value, bool):
        return "" if output is value else None
    return "" if str(output) == str(value) else None


def coerce(value: Any, schema: dict[str, Any] | None) -> Any:
    """A key value in the parameter's type ("3" -> 3 for an integer parameter, 3 -> "3" for a string)."""
    typ = json_type(schema)
    if typ == "integer" and isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    if typ == "string" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


def key_value(col: Collection, record: dict[str, Any], key: Any = None) -> Any:
    """The value naming a record: its key field, else its map key (`key` when the caller knows it)."""
    if col.key_field:
        return record.get(col.key_field)
    return key if key is not None else map_key(col, record)


def _state_records(state: dict[str, Any], col: str) -> list[tuple[str, dict[str, Any]]]:
    recs = state.get(col) or {}
    return [(k, recs[k]) for k in sorted(recs, key=natural_key)]


def update_fields(tool: ToolInfo, model: EnvModel) -> list[str]:
    """Parameters an update may set (the plan's fields, else every non-key parameter)."""
    fields = list(tool.plan.get("fields") or [])
    if not fields:
        fields = [
            p
            for p in tool.props
            if p != tool.key_param and not model.collection_for_param(tool, p) and not model.is_own_key_field(tool, p)
        ]
    return [f for f in fields if f in tool.props]


def choose_user_value(tool: ToolInfo, pname: str, schema: dict[str, Any], ctx: GenContext, args: dict[str, Any]) -> Any:
    """A value for a parameter nothing feeds: what the user will state."""
    model, rng, state = ctx.model, ctx.rng, ctx.state
    col = model.collections.get(tool.collection or "")
    plan = tool.plan
    resource = col.resource if col else (tool.collection or "item")
    field_schema = (col.fields.get(pname) or {}) if col else {}
    if "enum" in field_schema and json_type(schema) == "string":
        schema = {**schema, "enum": list(field_schema["enum"])}  # the record's allowed values bind the parameter too
    if tool.kind == "update" and json_type(schema) == "object" and (schema or {}).get("properties"):
        return _partial_body(tool, schema, ctx, args)
    if tool.is_write and tool.kind not in ("update", "create", "batch_create") and col and is_id_param(pname):
        target = (state.get(col.name) or {}).get(str(args.get(tool.key_param)))
        if isinstance(target, dict) and pname != tool.key_param:
            ids = choose_ids(pname, schema, target, state, args, rng)
            if ids is not None:
                return ids
    ref = model.collection_for_param(tool, pname)
    if tool.kind in ("create", "batch_create") and col and (pname == tool.key_param or pname == col.key_field):
        return coerce(new_key_value(ctx, col, set(state.get(col.name) or {})), schema)
    if ref and ref == tool.collection and tool.kind in ("create", "batch_create"):
        ref = None
    ptype = json_type(schema)
    if ref and state.get(ref) and ptype in ("string", "integer"):
        return coerce(rng.choice(existing_keys(ctx, ref)), schema)
    if (
        ref
        and state.get(ref)
        and ptype == "array"
        and ((schema.get("items") or {}).get("type", "string") in ("string", "integer"))
    ):
        keys = existing_keys(ctx, ref)
        picked = rng.sample(keys, k=min(len(keys), rng.randint(1, 2)))
        return [coerce(k, schema.get("items")) for k in picked]
    if pname.lower() in QUERY_PARAMS and col and state.get(col.name):
        _k, rec = rng.choice(_state_records(state, col.name))
        words = [w.strip(".,!?'\"()") for v in rec.values() if isinstance(v, str) for w in v.split()]
        words = [w for w in words if len(w) >= 4 and w.isalpha()]
        if words:
            return rng.choice(words).lower()
    # batch kinds whose items must match existing records
    if (
        plan.get("batch_param") == pname
        and col
        and state.get(col.name)
        and tool.kind in ("batch_delete", "list_remove")
    ):
        mk, rec = rng.choice(_state_records(state, col.name))
        if tool.kind == "list_remove":
            lf, ik, vf = plan.get("list_field"), plan.get("item_key"), plan.get("values_field")
            values = list(rec.get(lf) or []) if lf else []
            if ik and vf and values:
                return [{ik: key_value(col, rec, mk), vf: [rng.choice(values)]}]
        items = schema.get("items") or {}
        if items.get("type") == "object":
            return [{k: rec[k] for k in (items.get("properties") or {}) if k in rec}]
        return [coerce(key_value(col, rec, mk), items)]
    if (
        plan.get("batch_param") == pname
        and col
        and tool.kind == "batch_create"
        and json_type(schema.get("items")) == "object"
    ):
        return _new_items(tool, schema, ctx, col)
    if plan.get("batch_param") == pname and col and tool.kind == "list_append":
        ik, vf, lf = plan.get("item_key"), plan.get("values_field"), plan.get("list_field")
        if ik and vf and state.get(col.name):
            mk, rec = rng.choice(_state_records(state, col.name))
            return [
                {ik: key_value(col, rec, mk), vf: [ctx.pool.get(col.resource, lf or vf, rng, set(rec.get(lf) or []))]}
            ]
    # reads and actions: a value some record really has, so the call finds something
    if not tool.is_write and col and state.get(col.name):
        holders = [
            (k, rec)
            for k, rec in _state_records(state, col.name)
            if pname in rec and not isinstance(rec[pname], (dict, list))
        ]
        if holders:
            base = rng.choice(holders)[1]
            if tool.key_param and tool.key_param in args:
                same = [r for k, r in holders if str(key_value(col, r, k)) == str(args[tool.key_param])]
                base = same[0] if same else base
            return base[pname]
    used = (
        {r.get(pname) for _k, r in _state_records(state, col.name) if isinstance(r.get(pname), str)} if col else set()
    )
    value = gen_value(schema or {}, ctx, resource, pname, collection=tool.collection, avoid=used)
    if tool.kind == "update" and col and tool.key_param in args:
        current = (state.get(col.name) or {}).get(str(args[tool.key_param]), {})
        for _ in range(6):
            if not isinstance(current, dict) or current.get(pname) != value:
                break
            value = gen_value(schema or {}, ctx, resource, pname, collection=tool.collection)
    return value


def _partial_body(tool: ToolInfo, schema: dict[str, Any], ctx: GenContext, args: dict[str, Any]) -> dict[str, Any]:
    """An update's body object: its required fields plus one or two others (keys kept as they are)."""
    model, rng = ctx.model, ctx.rng
    col = model.collections.get(tool.collection or "")
    props = schema["properties"]
    key_names = {tool.key_param, "id"} | ({col.key_field} if col else set())
    current = (ctx.state.get(col.name) or {}).get(str(args.get(tool.key_param))) if col else None
    free = [k for k in props if k not in key_names]
    chosen = set(schema.get("required") or []) | set(rng.sample(free, k=min(len(free), rng.randint(1, 2))))
    body: dict[str, Any] = {}
    for k in props:
        if k not in chosen:
            continue
        if k in key_names and isinstance(current, dict) and k in current:
            body[k] = current[k]
            continue
        used = {r.get(k) for r in (ctx.state.get(col.name) or {}).values()} if col else set()
        v = gen_value(
            props[k] or {},
            ctx,
            col.resource if col else "item",
            k,
            collection=tool.collection,
            avoid={u for u in used if isinstance(u, str)},
        )
        for _ in range(5):
            if not isinstance(current, dict) or current.get(k) != v:
                break
            v = gen_value(props[k] or {}, ctx, col.resource if col else "item", k, collection=tool.collection)
        body[k] = v
    return body


def _new_items(tool: ToolInfo, schema: dict[str, Any], ctx: GenContext, col: Collection) -> list[dict[str, Any]]:
    """Items of a batch create whose keys are new (an existing key would make the create a no-op)."""
    items_schema = schema.get("items") or {}
    taken = set(ctx.state.get(col.name) or {})
    out = []
    for _ in range(ctx.rng.randint(1, 2)):
        for _attempt in range(10):
            item = gen_value(
                items_schema, ctx, col.resource, tool.plan.get("batch_param") or "items", collection=col.name
            )
            if not isinstance(item, dict):
                break
            kschema = (items_schema.get("properties") or {}).get(col.key_field or "")
            if col.key_field and kschema is not None and (col.key_field not in item or map_key(col, item) in taken):
                item[col.key_field] = coerce(new_key_value(ctx, col, taken), kschema)
            key = map_key(col, item)
            if key not in taken:
                taken.add(key)
                out.append(item)
                break
    if not out:
        raise NoValue(f"no new {col.resource} key for {tool.name}")
    return out


def params_to_fill(tool: ToolInfo, model: EnvModel, bound: set[str], rng: random.Random) -> list[str]:
    """Which unbound parameters get a value: the required ones, the key, some optional ones;
    an update always sets at least one field."""
    props = tool.props
    req = set(tool.required)
    chosen = [p for p in props if p not in bound and (p in req or p == tool.key_param)]
    optional = [p for p in props if p not in bound and p not in chosen and not model.is_own_key_field(tool, p)]
    if tool.kind == "update":
        fields = [f for f in update_fields(tool, model) if f not in bound]
        already = [f for f in update_fields(tool, model) if f in bound or f in chosen]
        if fields and not already:
            k = 1 if len(fields) == 1 or rng.random() < 0.6 else 2
            chosen += [f for f in rng.sample(fields, k) if f not in chosen]
        optional = [p for p in optional if p not in chosen and p not in fields]
    p_opt = 0.5 if tool.kind in ("create", "batch_create") else 0.15
    for p in optional:
        if p not in chosen and rng.random() < p_opt:
            chosen.append(p)
    return [p for p in props if p in chosen]


def place_bound(
    args: dict[str, Any],
    pname: str,
    schema: dict[str, Any],
    value: Any,
    binding: dict[str, Any] | None,
    ctx: GenContext,
    tool: ToolInfo,
) -> None:
    """Put a bound value into the arguments (inside one array item for item-field bindings)."""
    item_field = (binding or {}).get("item_field")
    ptype = json_type(schema)
    if item_field:
        items = (schema or {}).get("items") or {}
        item = args.get(pname, [None])[0] if isinstance(args.get(pname), list) and args.get(pname) else None
        if not isinstance(item, dict):
            item = gen_value(items, ctx, tool.collection or "item", pname, collection=tool.collection)
            item = item if isinstance(item, dict) else {}
        item[item_field] = coerce(value, (items.get("properties") or {}).get(item_field))
        _list_values(item, tool, value, ctx)
        args[pname] = [item]
    elif ptype == "array":
        args[pname] = [coerce(value, (schema or {}).get("items"))]
    else:
        args[pname] = coerce(value, schema)


def _list_values(item: dict[str, Any], tool: ToolInfo, key: Any, ctx: GenContext) -> None:
    """For list_append/list_remove items: values the record lacks / has (so the call does something)."""
    plan, col = tool.plan, ctx.model.collections.get(tool.collection or "")
    vf, lf = plan.get("values_field"), plan.get("list_field")
    if tool.kind not in ("list_append", "list_remove") or not (col and vf and lf):
        return
    rec = (ctx.state.get(col.name) or {}).get(str(key))
    have = list(rec.get(lf) or []) if isinstance(rec, dict) else []
    if tool.kind == "list_remove":
        if not have:
            raise NoValue(f"{col.resource} {key} has no {lf} to remove")
        item[vf] = [ctx.rng.choice(have)]
    else:
        item[vf] = [ctx.pool.get(col.resource, lf, ctx.rng, set(have))]


def field_sets(model: EnvModel, collection: str | None) -> list[str]:
    """Record fields of a collection usable as a pick criterion (text or enum, not the key)."""
    col = model.collections.get(collection or "")
    if not col:
        return []
    out = []
    for f, fs in col.fields.items():
        fs = fs or {}
        if f == col.key_field or json_type(fs) not in ("string", "enum"):
            continue
        if field_ref(model, col.name, f):
            continue
        out.append(f)
    return out


def _objects_named(x: Any, name: str, out: list[dict[str, Any]], limit: int = 300, depth: int = 0) -> None:
    if len(out) >= limit or depth > 5:
        return
    if isinstance(x, dict):
        for k, v in x.items():
            if k == name and isinstance(v, dict) and all(not isinstance(y, (dict, list)) for y in v.values()):
                out.append(v)
            else:
                _objects_named(v, name, out, limit, depth + 1)
    elif isinstance(x, list):
        for v in x:
            _objects_named(v, name, out, limit, depth + 1)


def whole_object(tool: ToolInfo, fill: list[str], ctx: GenContext, args: dict[str, Any]) -> dict[str, Any]:
    """Values for parameters that are the parts of one object field of the written record (an address's
    lines, city, state, zip): another object of that name from the data (else the state), taken whole,
    so the parts fit together; {} when no two parameters are parts of one object field."""
    col = ctx.model.collections.get(tool.collection or "")
    if not col or not tool.is_write or tool.key_param not in args:
        return {}
    target = (ctx.state.get(col.name) or {}).get(str(args[tool.key_param]))
    if not isinstance(target, dict):
        return {}
    for fname, current in sorted(target.items()):
        if not isinstance(current, dict):
            continue
        group = [p for p in fill if p in current and p != tool.key_param]
        if len(group) < 2:
            continue
        found: list[dict[str, Any]] = []
        _objects_named(ctx.model.data or ctx.state, fname, found)
        donors = [d for d in found if all(p in d for p in group) and any(d[p] != current[p] for p in group)]
        if donors:
            donor = ctx.rng.choice(donors)
            return {p: donor[p] for p in group}
    return {}
