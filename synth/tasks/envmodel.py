"""What task synthesis needs to know about an environment: its tools and the layout of its state.

Built from an environment folder's manifest and state schema. The manifest hints of environment
synthesis (`kind`, `reads`, `writes`, `key_param`, `collection`, and the plan fields when present)
are used when they are there; otherwise the same facts are guessed from names and schemas.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synth.errors import InputError
from synth.words import plural, singular, split_words

READ_KINDS = {"get", "get_many", "list", "search", "filter", "dump", "count_by", "singleton_get", "compute"}
WRITE_KINDS = {"create", "batch_create", "update", "delete", "batch_delete", "list_append", "list_remove"}
NON_KEY_KINDS = {"search", "filter", "list", "dump", "count_by"}  # their key_param is a query, not a record key
LIST_KINDS = {"list", "search", "filter", "dump", "get_many"}
_VERB_KIND = {
    "create": "create",
    "add": "create",
    "insert": "create",
    "place": "create",
    "register": "create",
    "new": "create",
    "get": "get",
    "fetch": "get",
    "read": "get",
    "open": "get",
    "show": "get",
    "view": "get",
    "list": "list",
    "search": "search",
    "find": "search",
    "query": "search",
    "filter": "filter",
    "update": "update",
    "edit": "update",
    "set": "update",
    "modify": "update",
    "change": "update",
    "rename": "update",
    "complete": "update",
    "mark": "update",
    "toggle": "update",
    "delete": "delete",
    "remove": "delete",
    "drop": "delete",
    "clear": "delete",
}


@dataclass
class Collection:
    """One collection of the state: records keyed by id."""

    name: str
    record_schema: dict[str, Any]
    key_field: str | None = None
    composite_key: list[str] = field(default_factory=list)
    key_prefix: str = ""  # learned from example states: "t" for keys like "t1", "t2"

    @property
    def map_keyed(self) -> bool:
        """True when records are named only by their map key (no key field inside the record)."""
        return not self.key_field and not self.composite_key

    @property
    def resource(self) -> str:
        return singular(self.name)

    @property
    def fields(self) -> dict[str, dict[str, Any]]:
        return dict(self.record_schema.get("properties") or {})


@dataclass
class ToolInfo:
    """One tool with the facts the walk and the instantiation use."""

    name: str
    description: str
    parameters: dict[str, Any]
    returns: dict[str, Any] | None
    kind: str
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    key_param: str | None = None
    collection: str | None = None
    plan: dict[str, Any] = field(default_factory=dict)
    hinted: bool = False  # True when kind/reads/writes came from the manifest

    @property
    def props(self) -> dict[str, dict[str, Any]]:
        return dict(self.parameters.get("properties") or {})

    @property
    def required(self) -> list[str]:
        return list(self.parameters.get("required") or [])

    @property
    def is_write(self) -> bool:
        return bool(self.writes) or self.kind in WRITE_KINDS

    @property
    def returns_list(self) -> bool:
        if self.kind in LIST_KINDS:
            return True
        return bool(self.returns and self.returns.get("type") == "array")


@dataclass
class EnvModel:
    """An environment's tools and state layout."""

    env_id: str
    tools: dict[str, ToolInfo]
    collections: dict[str, Collection]
    scalars: dict[str, dict[str, Any]]
    state_schema: dict[str, Any]
    title: str = ""
    display: str = ""  # the manifest's display_name, when it has one
    # the manifest's data.references ({collection, field, target}) and the grounding data's collections (--data)
    data_refs: list[dict[str, Any]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def collection_for_param(self, tool: ToolInfo, pname: str) -> str | None:
        """The collection whose record keys parameter `pname` carries, or None."""
        if pname == tool.key_param and tool.collection in self.collections:
            return tool.collection if tool.kind not in NON_KEY_KINDS else None
        if self.is_own_key_field(tool, pname):
            return None
        if tool.plan.get("batch_param") == pname and tool.kind in ("get_many", "batch_delete"):
            return tool.collection
        return ref_collection(pname, self.collections, tool.collection)

    def is_own_key_field(self, tool: ToolInfo, pname: str) -> bool:
        """True for a body parameter repeating the record's own key field (`id` of updateTodo besides
        `todoId`, `id` of createTodo): a create makes it, an update does not change it."""
        col = self.collections.get(tool.collection or "")
        return bool(col and tool.kind in ("create", "update") and pname == col.key_field and pname != tool.key_param)


def ref_collection(name: str, collections: dict[str, Collection], own: str | None = None) -> str | None:
    """Guess which collection a field/parameter name points into ('todo_id' -> todos, 'petId' -> pets)."""
    words = split_words(name)
    if not words:
        return None
    if words[-1] in ("id", "ids", "name", "names", "key") and len(words) >= 2:
        res = singular(words[-2]) if words[-2] != "by" else None
        for col in collections.values():
            if res and singular(col.name) == res:
                return col.name
    flat = "".join(words)
    for col in collections.values():
        kf = (col.key_field or "").lower().replace("_", "")
        if kf and kf not in ("id", "name") and flat in (kf, kf + "s"):
            return col.name
    if (
        own
        and own in collections
        and collections[own].key_field in ("id", "name")
        and flat in (collections[own].key_field, collections[own].key_field + "s")
    ):
        return own
    return None


def _guess_kind(name: str, props: dict[str, Any], mutates: bool | None) -> str:
    words = split_words(name)
    for w in words[:2]:
        if w in _VERB_KIND:
            kind = _VERB_KIND[w]
            if kind == "get" and not props:
                return "list"
            return kind
    if mutates:
        return "update"
    return "list" if not props else "get"


def _guess_collection(name: str, collections: dict[str, Collection]) -> str | None:
    words = [singular(w) for w in split_words(name)]
    for w in reversed(words):
        for col in collections:
            if singular(col) == w:
                return col
    return next(iter(collections), None) if len(collections) == 1 else None


def tool_info(entry: dict[str, Any], collections: dict[str, Collection]) -> ToolInfo:
    """ToolInfo from one manifest tool entry (ToolSpec dict plus optional hints)."""
    props = dict((entry.get("parameters") or {}).get("properties") or {})
    plan = dict(entry.get("plan") or {})
    hinted = "kind" in entry or "writes" in entry
    kind = entry.get("kind") or plan.get("kind") or _guess_kind(entry["name"], props, entry.get("mutates"))
    collection = entry.get("collection") or plan.get("collection") or _guess_collection(entry["name"], collections)
    if "writes" in entry:
        writes = list(entry.get("writes") or [])
    else:
        writes = [collection] if collection and (kind in WRITE_KINDS or entry.get("mutates")) else []
    if "reads" in entry:
        reads = list(entry.get("reads") or [])
    else:
        reads = [collection] if collection else []
    key_param = entry.get("key_param") if "key_param" in entry else plan.get("key_param")
    if key_param is None and "key_param" not in entry and kind in ("get", "update", "delete"):
        key_param = next(
            (p for p in props if collection and ref_collection(p, collections, collection) == collection), None
        )
    if kind in ("batch_create", "batch_delete", "list_append", "list_remove", "get_many"):
        plan = {**infer_batch_plan(props, collections.get(collection or ""), entry["name"]), **plan}
    return ToolInfo(
        name=entry["name"],
        description=entry.get("description", ""),
        parameters=entry.get("parameters") or {},
        returns=entry.get("returns"),
        kind=kind,
        reads=reads,
        writes=writes,
        key_param=key_param,
        collection=collection,
        plan=plan,
        hinted=hinted,
    )


def infer_batch_plan(props: dict[str, Any], col: Collection | None, tool_name: str) -> dict[str, Any]:
    """batch_param / item_key / values_field / list_field of a batch or list tool, from its schema
    (used when the manifest carries no plan): `observations: [{entityName, contents: [...]}]`."""
    arrays = [p for p, s in props.items() if (s or {}).get("type") == "array"]
    if not arrays:
        return {}
    bp = arrays[0]
    items = props[bp].get("items") or {}
    iprops = items.get("properties") or {}
    out: dict[str, Any] = {"batch_param": bp}
    key = next(
        (k for k in iprops if split_words(k)[-1:] in (["name"], ["id"]) and (iprops[k] or {}).get("type") != "array"),
        None,
    )
    values = next((k for k in iprops if (iprops[k] or {}).get("type") == "array"), None)
    if key:
        out["item_key"] = key
    if values:
        out["values_field"] = values
    if col is not None:
        arrays_in_record = [f for f, fs in col.fields.items() if (fs or {}).get("type") == "array"]
        nouns = (
            {singular(w) for w in split_words(tool_name)}
            | {singular(w) for w in split_words(values or "")}
            | {singular(w) for w in split_words(bp)}
        )
        out["list_field"] = next(
            (f for f in arrays_in_record if singular(f.lower()) in nouns),
            arrays_in_record[0] if arrays_in_record else None,
        )
    return out


def model_from_parts(
    env_id: str, tool_entries: list[dict[str, Any]], state_schema: dict[str, Any], title: str = ""
) -> EnvModel:
    """EnvModel from manifest tool entries and the state schema."""
    collections: dict[str, Collection] = {}
    scalars: dict[str, dict[str, Any]] = {}
    for cname, cschema in (state_schema.get("properties") or {}).items():
        rec = cschema.get("additionalProperties") if isinstance(cschema, dict) else None
        if cschema.get("type") == "object" and isinstance(rec, dict) and rec.get("type", "object") == "object":
            key = cschema.get("x-key-field")
            if key is None:
                rprops = rec.get("properties") or {}
                key = next(
                    (
                        k
                        for k in ("id", "name", f"{singular(cname)}_id", f"{singular(cname)}Id", "username", "key")
                        if k in rprops and json_type(rprops[k]) in ("string", "integer", "enum")
                    ),
                    None,
                )
            composite = list(cschema.get("x-composite-key") or []) if key is None else []
            collections[cname] = Collection(name=cname, record_schema=rec, key_field=key, composite_key=composite)
        else:
            scalars[cname] = cschema
    tools = {}
    for entry in tool_entries:
        info = tool_info(entry, collections)
        tools[info.name] = info
    return EnvModel(
        env_id=env_id, tools=tools, collections=collections, scalars=scalars, state_schema=state_schema, title=title
    )


def load_model(env_dir: str | Path) -> EnvModel:
    """EnvModel of an environment folder (manifest.json + state_schema.json)."""
    d = Path(env_dir)
    mpath, spath = d / "manifest.json", d / "state_schema.json"
    try:
        manifest = json.loads(mpath.read_text())
    except FileNotFoundError:
        raise InputError(str(mpath), "(file)", "missing: not an environment folder") from None
    except json.JSONDecodeError as ex:
        raise InputError(str(mpath), f"line {ex.lineno}", f"invalid JSON: {ex.msg}") from None
    if spath.exists():
        try:
            schema = json.loads(spath.read_text())
        except json.JSONDecodeError as ex:
            raise InputError(str(spath), f"line {ex.lineno}", f"invalid JSON: {ex.msg}") from None
    else:
        schema = manifest.get("state_schema")
        if not isinstance(schema, dict):
            raise InputError(str(spath), "(file)", "missing, and manifest.json has no state_schema")
    tools = manifest.get("tools")
    if not isinstance(tools, list) or not tools:
        raise InputError(str(mpath), "tools", "must be a non-empty list of tool entries")
    for i, t in enumerate(tools):
        if not isinstance(t, dict) or "name" not in t:
            raise InputError(str(mpath), f"tools[{i}]", "each tool needs a name")
    env_id = manifest.get("env_id") or d.name
    model = model_from_parts(env_id, tools, schema, manifest.get("title", ""))
    model.display = str(manifest.get("display_name") or "")
    load_data(model, d, manifest)
    learn_key_styles(model, example_states(d))
    return model


def load_data(model: EnvModel, env_dir: Path, manifest: dict[str, Any]) -> None:
    """The grounding data's references and collections (a JSON file of collection -> records), if any."""
    meta = manifest.get("data")
    if not isinstance(meta, dict):
        return
    refs = meta.get("references")
    model.data_refs = [r for r in refs if isinstance(r, dict)] if isinstance(refs, list) else []
    for rel in meta.get("files") or []:
        path = env_dir / str(rel)
        if path.suffix != ".json" or not path.exists():
            continue
        try:
            doc = json.loads(path.read_text())
        except json.JSONDecodeError as ex:
            raise InputError(str(path), f"line {ex.lineno}", f"invalid JSON: {ex.msg}") from None
        if isinstance(doc, dict):
            model.data.update({k: v for k, v in doc.items() if k in model.collections and isinstance(v, dict)})


def example_states(env_dir: Path) -> list[dict[str, Any]]:
    """States from the environment's own test cases (tests.json), if any."""
    path = env_dir / "tests.json"
    try:
        cases = json.loads(path.read_text()) if path.exists() else []
    except json.JSONDecodeError:
        return []
    if isinstance(cases, dict):
        cases = cases.get("cases") or cases.get("tests") or []
    return [c["state"] for c in cases if isinstance(c, dict) and isinstance(c.get("state"), dict)]


def learn_key_styles(model: EnvModel, states: list[dict[str, Any]]) -> None:
    """Set each collection's key prefix when example keys look like <prefix><number> ("t1")."""
    for col in model.collections.values():
        if col.key_field and split_words(col.key_field)[-1:] != ["id"]:
            continue  # names and usernames are text, not numbered ids
        prefixes: dict[str, int] = {}
        for st in states:
            for k in (st.get(col.name) or {}) if isinstance(st.get(col.name), dict) else []:
                m = re.match(r"^([A-Za-z_-]+)(\d+)$", str(k))
                if m:
                    prefixes[m.group(1)] = prefixes.get(m.group(1), 0) + 1
        if prefixes:
            col.key_prefix = max(sorted(prefixes), key=lambda p: prefixes[p])


def map_key(collection: Collection, record: dict[str, Any], state: dict[str, Any] | None = None) -> str:
    """The state map key of a record (str of its key field, or its composite key joined by '|'; for a
    map-keyed collection the key under which `state` holds an equal record, else "")."""
    if collection.map_keyed:
        recs = (state or {}).get(collection.name)
        if isinstance(recs, dict):
            return next((str(k) for k, v in recs.items() if v == record), "")
        return ""
    if collection.key_field:
        return str(record.get(collection.key_field))
    return "|".join(str(record.get(f, "")) for f in collection.composite_key)


LINK_FIELDS = ("from", "to", "source", "target", "parent", "child")


def field_ref(model: "EnvModel", collection: str | None, fname: str) -> str | None:
    """The other collection a record field or parameter points into, if any ('from' -> entities)."""
    ref = ref_collection(fname, model.collections)
    if ref and ref != collection:
        return ref
    if fname.lower() in LINK_FIELDS:
        for col in model.collections.values():
            if col.name != collection and col.key_field in ("name", "id"):
                return col.name
    return None


GENERIC_TITLE_WORDS = {
    "tools",
    "tool",
    "api",
    "apis",
    "mcp",
    "server",
    "openapi",
    "spec",
    "docs",
    "service",
    "functions",
}


def display_name(model: "EnvModel") -> str:
    """The service's name as a user says it: the manifest's display_name, else its title (or env id)
    in words without generic parts ("tau_retail_tools" -> "Tau Retail"); never the folder id itself."""
    if model.display:
        return model.display
    raw = re.sub(r"(?i)\bopen\s?api\b|\bswagger\s?(?=\w)|\bv?\d+(\.\d+)*\b", " ", model.title or model.env_id)
    words = [w for w in split_words(raw) if w not in GENERIC_TITLE_WORDS and not w.isdigit()]
    words = words or split_words(model.env_id) or ["the service"]
    return " ".join(w if any(c.isdigit() for c in w) else w.capitalize() for w in words)


def json_type(schema: dict[str, Any] | None, default: str = "string") -> str:
    """The JSON type of a schema ("enum" when it lists values; the first non-null of a type list)."""
    schema = schema or {}
    if "enum" in schema:
        return "enum"
    typ = schema.get("type", default)
    if isinstance(typ, list):
        typ = next((t for t in typ if t != "null"), default)
    return typ if isinstance(typ, str) else default


def natural_key(key: Any) -> tuple:
    """Sort key that puts "t2" before "t10" and "2" before "10"."""
    m = re.match(r"^(.*?)(\d+)$", str(key))
    return (m.group(1), int(m.group(2)), "") if m else (str(key), -1, str(key))


def key_of(collection: Collection, key: str, record: dict[str, Any]) -> Any:
    """The value a caller passes to name this record (its key field's value, else the map key)."""
    if collection.key_field and isinstance(record, dict) and collection.key_field in record:
        return record[collection.key_field]
    return key


def pluralize(word: str) -> str:
    """Plural of a resource noun (re-exported for prompts)."""
    return plural(word)
