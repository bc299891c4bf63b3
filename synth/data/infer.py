"""Infer the state schema from sample states: collections and their keys, record shapes, formats, enums,
required fields, nested objects, maps and lists, trees, and references between collections by value overlap.

The schema keeps the data's layout exactly: the same top-level keys, record shapes and key fields.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from synth.data.formats import id_format, id_pattern, string_format
from synth.errors import InputError

ENUM_MAX = 8  # a string field with at most this many distinct values (each seen twice on average) gets x-enum
EXAMPLES = 5  # example values kept per leaf field (grounded test and task values)
REF_OVERLAP = 0.9  # share of a field's values that must be keys of another collection


@dataclass
class DataLayout:
    """What inference found, beside the JSON Schema itself."""

    state_schema: dict[str, Any]
    collections: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> layout, key_field, key_format
    trees: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> children, kind_field, branch, leaf
    objects: list[str] = field(default_factory=list)
    references: list[dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _is_map(objs: list[dict[str, Any]]) -> bool:
    """Objects keyed by ids (variants keyed by item id), not records with named fields."""
    vals = [v for o in objs for v in o.values()]
    if not vals or not all(isinstance(v, dict) for v in vals):
        return False
    keys = [k for o in objs for k in o]
    distinct = set(keys)
    if id_pattern(list(distinct)) is not None and len(distinct) >= 3:
        return True
    per = max(len(o) for o in objs)
    return len(distinct) >= 4 and len(distinct) >= 3 * per


class _Infer:
    def __init__(self, path: str) -> None:
        self.path = path
        self.defs: dict[str, Any] = {}

    def schema(self, values: list[Any], where: str) -> dict[str, Any]:
        """JSON Schema that every value in `values` satisfies."""
        kinds = Counter(_json_type(v) for v in values)
        nullable = "null" in kinds
        kinds.pop("null", None)
        if not kinds:
            return {"type": "null"}
        if set(kinds) == {"integer", "number"}:
            kinds = Counter({"number": sum(kinds.values())})
        if len(kinds) > 1:
            out: dict[str, Any] = {"type": sorted(kinds) + (["null"] if nullable else [])}
            return out
        kind = next(iter(kinds))
        present = [v for v in values if v is not None]
        if kind == "object":
            out = self._object(present, where)
        elif kind == "array":
            items = [x for v in present for x in v]
            out = {"type": "array", "items": self.schema(items, where + "[]") if items else {}}
        elif kind == "string":
            out = self._string(present)
        else:  # whole numbers in the data may be amounts that tools make fractional: integers are numbers
            out = {"type": "number" if kind == "integer" else kind}
        if nullable:
            out["type"] = [out["type"], "null"]
        return out

    def _string(self, values: list[str]) -> dict[str, Any]:
        distinct = sorted(set(values))
        out: dict[str, Any] = {"type": "string"}
        if len(distinct) <= ENUM_MAX and len(values) >= 2 * len(distinct) and len(distinct) < len(values):
            out["x-enum"] = distinct  # values seen: an open set (tools may write others) until the docs confirm it
            return out
        out.update(string_format(distinct))
        if "pattern" in out or "format" in out:
            step = max(1, len(distinct) // EXAMPLES)
            out["examples"] = distinct[::step][:EXAMPLES]
        return out

    def _object(self, objs: list[dict[str, Any]], where: str) -> dict[str, Any]:
        if _is_map(objs):
            keys = sorted({k for o in objs for k in o})
            out = {
                "type": "object",
                "additionalProperties": self.schema([v for o in objs for v in o.values()], where + "/*"),
            }
            names = _key_schema(keys)
            if names:
                out["propertyNames"] = names
            return out
        names = sorted({k for o in objs for k in o})
        props = {k: self.schema([o[k] for o in objs if k in o], f"{where}/{k}") for k in names}
        required = [k for k in names if all(k in o for o in objs)]
        return {"type": "object", "properties": props, "required": required}


def _key_schema(keys: list[str]) -> dict[str, Any]:
    pattern = id_pattern(keys)
    if not pattern:
        return {}
    step = max(1, len(keys) // EXAMPLES)
    return {"type": "string", "pattern": pattern, "examples": keys[::step][:EXAMPLES]}


def _check_records(path: str, name: str, records: list[tuple[str, Any]]) -> None:
    """A record of another shape (not an object, a field of another type, most usual fields missing) is an error."""
    for loc, rec in records:
        if not isinstance(rec, dict):
            raise InputError(
                path, f"{name}/{loc}", f"a record must be an object like the others, not {_json_type(rec)}"
            )
    if len(records) < 3:
        return
    n = len(records)
    counts = Counter(k for _, r in records for k in r)
    types: dict[str, Counter] = {}
    for _, r in records:
        for k, v in r.items():
            types.setdefault(k, Counter())[_kind(v)] += 1
    for loc, rec in records:  # compared with the other records only
        usual = {k for k, c in counts.items() if c - (k in rec) >= 0.9 * (n - 1)}
        missing = usual - set(rec)
        if usual and len(missing) > len(usual) / 2:
            raise InputError(
                path,
                f"{name}/{loc}",
                f"record of another shape: lacks {sorted(missing)[:6]} that the other records of `{name}` have",
            )
        for k, v in rec.items():
            t = _kind(v)
            others = types[k].copy()
            others[t] -= 1
            common, c = max(others.items(), key=lambda kv: (kv[1], kv[0]))
            if t != common and "null" not in (t, common) and c >= 0.9 * (n - 1) and c >= 2:  # null: not set yet
                raise InputError(
                    path,
                    f"{name}/{loc}/{k}",
                    f"record of another shape: `{k}` is {t} here, {common} in the other records of `{name}`",
                )


def _kind(v: Any) -> str:
    t = _json_type(v)
    return "number" if t == "integer" else t


def _find_tree(values: list[Any]) -> dict[str, Any] | None:
    """{children, kind_field, branch, leaf} when the values are maps of name -> node with nested child maps."""
    if not values or not all(
        isinstance(v, dict) and v and all(isinstance(n, dict) for n in v.values()) for v in values
    ):
        return None
    nodes = [n for v in values for n in v.values()]
    for cand in sorted({k for n in nodes for k, x in n.items() if isinstance(x, dict)}):
        kids = [n[cand] for n in nodes if isinstance(n.get(cand), dict)]
        fields = {k for n in nodes for k in n}
        inner = [c for kid in kids for c in kid.values()]
        if not all(isinstance(c, dict) for c in inner):
            continue
        if inner and not all(set(c) & fields for c in inner):
            continue
        every = _all_nodes(values, cand)
        kind_field = next(
            (
                k
                for k in sorted({k for n in every for k in n})
                if all(isinstance(n.get(k), str) for n in every) and 2 <= len({n[k] for n in every}) <= 4
            ),
            None,
        )
        branch = leaf = None
        if kind_field:
            branch = sorted({n[kind_field] for n in every if cand in n})[:1] or [None]
            leaf = sorted({n[kind_field] for n in every if cand not in n})[:1] or [None]
            branch, leaf = branch[0], leaf[0]
        text_field = next(
            (
                k
                for k in sorted({k for n in every for k in n})
                if k != cand
                and k != kind_field
                and all(isinstance(n.get(k, ""), str) for n in every)
                and not any(k in n for n in every if cand in n)
            ),
            None,
        )
        if inner or kind_field:
            return {
                "children": cand,
                "kind_field": kind_field,
                "branch": branch,
                "leaf": leaf,
                "text_field": text_field,
            }
    return None


def _all_nodes(values: list[dict[str, Any]], children: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    stack = [n for v in values for n in v.values()]
    while stack:
        n = stack.pop()
        out.append(n)
        kids = n.get(children)
        if isinstance(kids, dict):
            stack.extend(c for c in kids.values() if isinstance(c, dict))
    return out


WORKING_SUFFIX = "_cwd"  # state key beside a tree that holds the environment's working node


def _tree_schema(name: str, values: list[dict[str, Any]], info: dict[str, Any], inf: _Infer) -> dict[str, Any]:
    every = _all_nodes(values, info["children"])
    ref = {"$ref": f"#/$defs/{name}_node"}
    names = sorted({k for n in every for k in n if k != info["children"]})
    props = {k: inf.schema([n[k] for n in every if k in n], f"{name}/**/{k}") for k in names}
    kind = props.get(info.get("kind_field") or "")
    if kind and "x-enum" in kind:  # the node kinds are the tree's structure: a closed set
        kind["enum"] = kind.pop("x-enum")
    props[info["children"]] = {"type": "object", "additionalProperties": ref}
    required = [k for k in names if all(k in n for n in every)]
    inf.defs[f"{name}_node"] = {"type": "object", "properties": dict(sorted(props.items())), "required": required}
    return {"type": "object", "additionalProperties": ref, "x-tree": info}


def _collection(name: str, values: list[Any], inf: _Infer) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(schema entry, layout info) when every value is a collection of records (map by key, or list)."""
    if all(isinstance(v, list) and v and all(isinstance(r, dict) for r in v) for v in values):
        recs = [(f"[{i}]", r) for v in values for i, r in enumerate(v)]
        _check_records(inf.path, name, recs)
        key = _list_key(values) or _id_named(values)  # an id-named field that repeats is a duplicate key
        if key:
            for v in values:
                seen: dict[str, int] = {}
                for i, r in enumerate(v):
                    k = str(r.get(key))
                    if k in seen:
                        raise InputError(inf.path, f"{name}/[{i}]", f"duplicate key {key}={k!r} (also at [{seen[k]}])")
                    seen[k] = i
        record = inf.schema([r for _, r in recs], name + "[]")
        _integer_key(record, key, [r for _, r in recs])
        entry: dict[str, Any] = {"type": "array", "items": record}
        if key:
            entry["x-key-field"] = key
        return entry, {"layout": "list", "key_field": key, "key_format": None}
    if not all(isinstance(v, dict) and v and all(isinstance(r, dict) for r in v.values()) for v in values):
        return None
    objs = values
    if not _is_map(objs) and not (len({k for o in objs for k in o}) >= 3 and _keyed_by_field(objs)):
        return None
    recs = [(str(k), r) for v in values for k, r in v.items()]
    _check_records(inf.path, name, recs)
    record = inf.schema([r for _, r in recs], name + "/*")
    keys = sorted({k for v in values for k in v})
    entry = {"type": "object", "additionalProperties": record}
    names = _key_schema(keys)
    if names:
        entry["propertyNames"] = names
    kf = _keyed_by_field(values)
    _integer_key(record, kf, [r for _, r in recs])
    if kf:
        entry["x-key-field"] = kf
    fmt = id_format(keys)
    if fmt:
        entry["x-key-format"] = fmt
    return entry, {"layout": "map", "key_field": kf, "key_format": fmt}


def _integer_key(record: dict[str, Any], key: str | None, recs: list[dict[str, Any]]) -> None:
    """A key field whose values are all integers stays an integer (new keys are the next integer)."""
    fs = (record.get("properties") or {}).get(key or "")
    if fs is not None and fs.get("type") == "number" and all(type(r.get(key)) is int for r in recs):
        fs["type"] = "integer"


def _keyed_by_field(maps: list[dict[str, Any]]) -> str | None:
    """The record field whose value equals the record's key in every record."""
    recs = [(k, r) for m in maps for k, r in m.items()]
    fields = set.intersection(*(set(r) for _, r in recs)) if recs else set()
    for f in sorted(fields, key=lambda f: (not f.endswith(("id", "Id", "ID")), f)):
        if all(str(r.get(f)) == k and isinstance(r.get(f), (str, int)) for k, r in recs):
            return f
    return None


def _list_key(lists: list[list[dict[str, Any]]]) -> str | None:
    """A scalar field, present and unique in every record of every list (id-like names first)."""
    recs = [r for v in lists for r in v]
    common = set.intersection(*(set(r) for r in recs))
    order = sorted(common, key=lambda f: (not f.lower().endswith(("id", "key")), f != "name", f))
    for f in order:
        if all(isinstance(r[f], (str, int)) and not isinstance(r[f], bool) for r in recs):
            if all(len({str(r[f]) for r in v}) == len(v) for v in lists):
                return f
    return None


def _id_named(lists: list[list[dict[str, Any]]]) -> str | None:
    recs = [r for v in lists for r in v]
    common = set.intersection(*(set(r) for r in recs))
    return next((f for f in sorted(common) if f.lower() == "id" or f.lower().endswith(("_id", "key"))), None)


def _leaf_values(node: Any, path: str, out: dict[str, set[str]]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _leaf_values(v, f"{path}/{k}", out)
    elif isinstance(node, list):
        for v in node:
            _leaf_values(v, path + "[]", out)
    elif isinstance(node, (str, int)) and not isinstance(node, bool):
        out.setdefault(path, set()).add(str(node))


def find_references(states: list[dict[str, Any]], layout: DataLayout) -> list[dict[str, str]]:
    """(collection, field path) -> target collection, where nearly every value of the field is a target key."""
    keys: dict[str, set[str]] = {}
    for name, info in layout.collections.items():
        ks: set[str] = set()
        for s in states:
            col = s.get(name)
            if info["layout"] == "map":
                ks |= set(col)
            elif info["key_field"]:
                ks |= {str(r.get(info["key_field"])) for r in col}
        keys[name] = ks
    refs = []
    for name, info in layout.collections.items():
        leaves: dict[str, set[str]] = {}
        for s in states:
            col = s.get(name)
            for rec in col.values() if info["layout"] == "map" else col:
                for k, v in rec.items():
                    if k != info["key_field"]:
                        _leaf_values(v, k, leaves)
        for fpath, vals in sorted(leaves.items()):
            if len(vals) < 2:
                continue
            for target, ks in sorted(keys.items()):
                if target != name and len(vals & ks) >= REF_OVERLAP * len(vals):
                    refs.append({"collection": name, "field": fpath, "target": target})
    return refs


def infer_layout(states: list[dict[str, Any]], path: str) -> DataLayout:
    """The state schema and layout of sample states that share their top-level keys."""
    inf = _Infer(path)
    props: dict[str, Any] = {}
    layout = DataLayout(state_schema={})
    for name in sorted(states[0]):
        values = [s[name] for s in states]
        tree = _find_tree(values)
        if tree:
            props[name] = _tree_schema(name, values, tree, inf)
            layout.trees[name] = tree
            continue
        col = _collection(name, values, inf)
        if col:
            props[name], layout.collections[name] = col
            continue
        props[name] = inf.schema(values, name)
        layout.objects.append(name)
    layout.references = find_references(states, layout)
    for ref in layout.references:
        _mark_reference(props[ref["collection"]], ref["field"], ref["target"])
    schema: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": sorted(props),
        "additionalProperties": False,
    }
    for name in sorted(layout.trees):  # the environment's own working node (names below the top); not in the data
        key = f"{name}{WORKING_SUFFIX}"
        if key not in props:
            props[key] = {"type": "array", "items": {"type": "string"}, "x-working-node-of": name}
    if inf.defs:
        schema["$defs"] = dict(sorted(inf.defs.items()))
    layout.state_schema = schema
    return layout


def _mark_reference(entry: dict[str, Any], fpath: str, target: str) -> None:
    node = entry.get("additionalProperties") or entry.get("items") or {}
    parts = fpath.replace("[]", "/[]").split("/")
    for part in parts:
        if part == "[]":
            node = node.get("items") or {}
        else:
            node = (node.get("properties") or {}).get(part) or node.get("additionalProperties") or {}
        if not isinstance(node, dict):
            return
    if node:
        node["x-references"] = target


__all__ = ["DataLayout", "find_references", "infer_layout"]
