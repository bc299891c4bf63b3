"""The structured route's decisions for one tool (a ToolPlan), from priors checked by LLM votes.

Templates in synth/envsynth/code_templates render a ToolPlan into code, so a weak model only has
to answer small questions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from synth.envsynth.ask import ChatClient, ask_yes_no
from synth.envsynth.collection_pick import named_record_instead, pick_collection
from synth.envsynth.collections import GENERIC_RESOURCES, CollectionDraft, list_field_owner
from synth.envsynth.priors import ToolPriors
from synth.spec import ToolSpec, schema_types
from synth.words import plural, singular, split_words

KINDS = tuple(
    (
        "create batch_create get get_many list search filter update delete batch_delete list_append "
        "list_remove dump count_by singleton_get action tree_list tree_read tree_search tree_make "
        "tree_remove tree_write recorded_update tree_cd tree_pwd tree_move tree_copy compute tree_lines "
        "tree_find tree_total item_add item_remove quote by_mode"
    ).split()
)
WRITE_KINDS = set(
    (
        "create batch_create update delete batch_delete list_append list_remove tree_make tree_remove "
        "tree_write recorded_update tree_move tree_copy item_add item_remove by_mode"
    ).split()
)
QUERY_PARAMS = ("query", "q", "search", "keyword", "text", "term")


@dataclass
class ToolPlan:
    """What a tool does to the state, as decisions a template can render."""

    kind: str
    collection: str | None = None
    key_field: str | None = None  # record field that keys the collection
    composite_key: list[str] = field(default_factory=list)
    key_param: str | None = None  # parameter carrying a record key
    batch_param: str | None = None  # array parameter of batch kinds
    item_key: str | None = None  # field of a batch item holding a record key
    values_field: str | None = None  # field of a batch item holding list values
    list_field: str | None = None  # record field that list_append/list_remove edit
    fields: list[str] = field(default_factory=list)  # parameters copied into records
    payload_param: str | None = None  # object parameter holding the fields (e.g. `body`), else top level
    filter_params: list[str] = field(default_factory=list)
    count_field: str | None = None
    id_type: str = "string"  # "integer" | "string" | "uuid" for generated keys
    singleton: str | None = None
    match_params: list[str] = field(default_factory=list)  # action: params that must equal record fields
    key_format: dict[str, Any] = field(default_factory=dict)  # {prefix, digits}: new keys follow the data's ids
    tree: str | None = None  # tree kinds: the state key of the tree
    tree_info: dict[str, Any] = field(default_factory=dict)  # children, kind_field, branch, leaf, text_field
    node_kind: str | None = None  # tree_make: the kind value of the new node
    field_paths: dict[str, str] = field(
        default_factory=dict
    )  # update: parameter -> `object.field` it sets (filter: matches)
    return_key: bool = False  # filter: the tool returns the key of the one matching record (`find_user_id_by_...`)
    effects: list[dict[str, Any]] = field(default_factory=list)  # recorded_update: set / append rules (trace_learn)
    # recorded_update: field -> values allowing the call
    preconditions: dict[str, list[Any]] = field(default_factory=dict)
    checks: list[dict[str, Any]] = field(default_factory=list)  # recorded_update: learned checks (trace_checks)
    output_key: str | None = None  # the result is returned under this key (the documented response envelope)
    count_key: str | None = None  # the envelope also answers how many records the list holds, under this key
    envelope_extras: dict[str, dict[str, Any]] = field(default_factory=dict)  # envelope key -> rule (trace_envelopes)
    lookup_params: dict[str, dict[str, Any]] = field(default_factory=dict)  # get: other fields it finds a record by
    output_format: list[list[str]] = field(default_factory=list)
    output_fields: list[str] = field(default_factory=list)  # the record fields the docs say the tool answers
    output_map: dict[str, dict[str, Any]] = field(default_factory=dict)  # listed fields from referenced records
    embeds: list[dict[str, Any]] = field(default_factory=list)  # get: other records answered with it (envelope)
    # recorded outputs of one argument value that differ from the rule: [{"arg", "value", "output"}]
    special_outputs: list[dict[str, Any]] = field(default_factory=list)
    text_op: str | None = None  # tree_lines: "sort" | "tail" | "count" | "diff" on a leaf's lines
    op_param: str | None = None  # tree_lines: the parameter of the operation (number of lines, count mode)
    op_default: Any = None  # tree_lines: its documented default
    mode_map: dict[str, str] = field(default_factory=dict)  # tree_lines count: mode value -> lines | words | characters
    # tree_lines count: [number key, mode name key] of the response
    # a learned message: ["text", s] / ["arg", name] pieces
    result_keys: list[str] = field(default_factory=list)
    filter_defaults: dict[str, Any] = field(default_factory=dict)  # filter: a parameter's documented default
    wildcards: dict[str, list[Any]] = field(default_factory=dict)  # filter: values that keep every record ('all')
    one_of: list[str] = field(default_factory=list)  # filter: "at least one filter is required" among these
    param_map: dict[str, dict[str, Any]] = field(default_factory=dict)  # filter: parameter -> mapped field (filter_map)
    partial_params: list[str] = field(default_factory=list)  # filter: matches part of the field, any case
    caseless_params: list[str] = field(default_factory=list)  # filter: equals the field, any case
    ref_checks: dict[str, str] = field(default_factory=dict)  # filter/create: parameter -> collection it names a key of
    ref_optional: list[str] = field(default_factory=list)  # create: checked only when the call passes them
    # create (create_rules): states the named records must be in, changes to them, copied references, start values
    ref_requires: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    ref_sets: list[dict[str, Any]] = field(default_factory=list)
    inherits: dict[str, list[str]] = field(default_factory=dict)
    initial_values: dict[str, Any] = field(default_factory=dict)
    measure: str | None = None  # tree_total: "text_length" | "leaves" | "nodes" below the working node
    number_format: dict[str, Any] = field(default_factory=dict)  # tree_total: {prefix, decimals, suffix} of a text
    list_scope: dict[str, list[Any]] = field(default_factory=dict)  # filter/list: states every answer keeps
    scope_checks: list[dict[str, Any]] = field(default_factory=list)  # filter/list: linked states, date floor
    sort_fields: list[str] = field(default_factory=list)  # filter/list: the documented order of the answer
    flag_filters: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # filter: what a true flag keeps
    flag_counts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # filter: linked records it needs
    flag_inverse: list[str] = field(default_factory=list)  # filter: flags whose `false` keeps what `true` drops
    flag_includes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # filter: what a flag not true drops
    availability: dict[str, Any] = field(default_factory=dict)  # filter: bookings that overlap the dates drop it
    lookup: dict[str, Any] = field(default_factory=dict)  # {owner, field, where}: the record the argument's owns
    quote: dict[str, Any] = field(default_factory=dict)  # quote: named records and figures (formula_rules)
    modes: dict[str, Any] = field(default_factory=dict)  # by_mode: value of `op_param` -> its plan (mode_rules)
    answer_field: str | None = None  # a change answering one field of its record (its updated list)
    evidence: list[str] = field(default_factory=list)
    votes: dict[str, Any] = field(default_factory=dict)

    @property
    def reads(self) -> list[str]:
        if self.kind == "dump":
            return []  # filled by the caller: every collection
        return [c for c in (self.collection, self.singleton) if c]

    @property
    def writes(self) -> list[str]:
        return [self.collection] if self.kind in WRITE_KINDS and self.collection else []

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ToolPlan":
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


@dataclass
class PlanContext:
    """What every plan decision may look at."""

    collections: dict[str, CollectionDraft]
    singletons: dict[str, dict[str, Any]]
    client: ChatClient | None
    votes: int = 3
    trees: dict[str, dict[str, Any]] = field(default_factory=dict)  # grounded trees: name -> tree info
    list_collections: list[str] = field(default_factory=list)  # grounded collections kept as lists of records


def _params(spec: ToolSpec) -> dict[str, Any]:
    return dict(spec.parameters.get("properties") or {})


def decide_mutates(spec: ToolSpec, pri: ToolPriors, ctx: PlanContext) -> tuple[bool, dict[str, Any]]:
    """Doc hints win when present; otherwise the LLM's vote, then the name verb."""
    vote = None
    if ctx.client is not None:  # one question to cross-check a doc hint, a full vote when the docs are silent
        variants = 1 if pri.mutates is not None else ctx.votes
        vote = ask_yes_no(
            ctx.client,
            "envsynth_mutates.j2",
            variants,
            "plan.mutates",
            name=spec.name,
            description=spec.description[:300],
        )
    if pri.mutates is not None:
        return pri.mutates, {"mutates": vote.to_dict() if vote else None, "mutates_source": "docs"}
    if vote is not None and vote.decision is not None:
        return vote.decision, {"mutates": vote.to_dict(), "mutates_source": "llm"}
    return False, {"mutates": vote.to_dict() if vote else None, "mutates_source": "default"}


def _key_param(spec: ToolSpec, pri: ToolPriors, col: CollectionDraft | None) -> str | None:
    props = _params(spec)
    if not props:
        return None
    if pri.path_params:
        return pri.path_params[0]
    res = (col.resource if col else pri.resource) or ""
    for cand in (f"{res}Id", f"{res}_id", f"{res}Name", f"{res}_name", "id", "name", "username"):
        if cand in props:
            return cand
    if col and col.key_field and col.key_field in props:
        return col.key_field
    for name in props:  # `owner_id` of boatowners keyed by `id`: the noun ends the resource's name
        noun = name[:-3] if name.endswith("_id") else name[:-2] if name.endswith("Id") else ""
        if len(noun) >= 3 and res.lower().endswith(noun.lower()):
            return name
    return None


def _array_items(spec: ToolSpec, pname: str) -> dict[str, Any]:
    return _params(spec)[pname].get("items") or {}


def _batch_fields(items: dict[str, Any], ctx: PlanContext, col_name: str | None) -> tuple[str | None, str | None]:
    """(item_key, values_field) of a list_append/list_remove item such as {entityName, contents}."""
    iprops = items.get("properties") or {}
    key = next((k for k in iprops if k.lower().endswith(("name", "id")) and iprops[k].get("type") != "array"), None)
    values = next((k for k in iprops if iprops[k].get("type") == "array"), None)
    return key, values


def decide_plan(spec: ToolSpec, pri: ToolPriors, ctx: PlanContext) -> ToolPlan:
    """Decide the ToolPlan of one tool."""
    mutates, votes = decide_mutates(spec, pri, ctx)
    props = _params(spec)
    words = pri.words
    evidence = list(pri.evidence)
    if any(w in ("inventory", "count", "stats", "summary") for w in words) and not mutates:
        col, v = (
            pick_collection(spec, pri, ctx)
            if plural(pri.resource or "") not in ctx.collections
            else (plural(pri.resource), {})
        )
        if pri.resource in GENERIC_RESOURCES or plural(pri.resource or "") not in ctx.collections:
            col, v = _collection_with_enum(ctx) or pick_collection(spec, pri, ctx)
        votes.update(v)
        cdraft = ctx.collections.get(col or "")
        field_ = next((f for f, s in (cdraft.fields.items() if cdraft else []) if "enum" in s), None) or "status"
        return ToolPlan(
            kind="count_by", collection=col, count_field=field_, evidence=evidence + ["count-ish name"], votes=votes
        )
    for sname in ctx.singletons:
        if not mutates and not props and sname.startswith((pri.resource or "?") + "_"):
            return ToolPlan(
                kind="singleton_get",
                singleton=sname,
                evidence=evidence + ["GET of one object without keys"],
                votes=votes,
            )
    from synth.envsynth.item_plan import item_edit_plan
    from synth.envsynth.paired_lists import adds_and_removes

    item = item_edit_plan(spec, pri, ctx, mutates)
    if item is not None:  # one value added to or removed from a record's list (add_service(visit_id, service))
        return ToolPlan.from_dict({**item.to_dict(), "votes": votes})
    # list operations on an array field of another collection (e.g. add_observations)
    noun = next((w for w in words[1:] if w not in ("by", "id")), "")
    owner = list_field_owner(ctx.collections, noun) if noun else None
    if owner and plural(noun) not in ctx.collections and pri.array_params and not adds_and_removes(spec):
        bp = pri.array_params[0]
        item_key, values = _batch_fields(_array_items(spec, bp), ctx, owner[0])
        kind = "list_remove" if pri.verb_kind == "delete" else "list_append"
        col = ctx.collections[owner[0]]
        return ToolPlan(
            kind=kind,
            collection=owner[0],
            key_field=col.key_field,
            batch_param=bp,
            item_key=item_key,
            values_field=values,
            list_field=owner[1],
            evidence=evidence + [f"`{noun}` is an array field of {owner[0]}"],
            votes=votes,
        )
    from synth.envsynth.link_plan import write_target

    col_name, v, made = write_target(spec, pri, ctx) if mutates else (None, {}, False)
    if col_name is None:
        col_name, v = pick_collection(spec, pri, ctx) if ctx.collections or not ctx.trees else (None, {})
        if mutates and col_name is not None and pri.kind_guess != "create":  # a new record names others freely
            col_name, v = named_record_instead(spec, ctx, col_name, v)
    votes.update(v)
    if col_name is None and ctx.trees:
        from synth.envsynth.tree_plan import decide_tree_plan

        return decide_tree_plan(spec, pri, ctx, mutates, votes, evidence)
    if col_name in ctx.list_collections:
        return ToolPlan(
            kind="unsupported",
            evidence=evidence
            + [f"`{col_name}` is a list of records in the data; the templates address records by map key only"],
            votes=votes,
        )
    if col_name is None and not (pri.resource in GENERIC_RESOURCES and not props):
        return ToolPlan(
            kind="unsupported", evidence=evidence + [v.get("collection_source", "no collection")], votes=votes
        )
    col = ctx.collections.get(col_name or "")
    base = dict(
        collection=col_name,
        key_field=col.key_field if col else None,
        composite_key=list(col.composite_key) if col else [],
        evidence=evidence,
        votes=votes,
    )
    payload = "body" if isinstance(props.get("body"), dict) and props["body"].get("type") == "object" else None
    field_source = (props["body"].get("properties") or {}) if payload else props
    fields = [p for p in field_source if col and p in col.fields]
    key_param = _key_param(spec, pri, col)
    base["payload_param"] = payload
    if not mutates:
        if pri.verb_kind == "action" and not props:
            return ToolPlan(kind="action", **base)
        if not props:
            if pri.resource in GENERIC_RESOURCES or pri.resource is None:
                return ToolPlan(kind="dump", **{**base, "collection": None})
            return ToolPlan(kind="list", **base)
        arr = [p for p in pri.array_params if (_array_items(spec, p).get("type") in ("string", "integer"))]
        if arr and pri.verb_kind in ("get", "list", None) and not pri.path_params:
            return ToolPlan(kind="get_many", batch_param=arr[0], **base)
        qp = next((p for p in props if p.lower() in QUERY_PARAMS), None)
        if qp:
            return ToolPlan(kind="search", key_param=qp, **base)
        lists_by_field = (  # `GET /customers/{customer_id}/orders`: the orders whose customer_id is the one named
            pri.verb_kind == "list" and col is not None and key_param in col.fields and key_param != col.key_field
        )
        if key_param and (pri.path_params or pri.verb_kind == "get") and not lists_by_field:
            if pri.verb_kind == "action" or (pri.resource and words and words[0] in ("login", "logout")):
                return ToolPlan(
                    kind="action", key_param=key_param, match_params=[p for p in props if p != key_param], **base
                )
            return ToolPlan(kind="get", key_param=key_param, **base)
        if pri.verb_kind == "action" or any(w in ("login", "logout") for w in words):
            return ToolPlan(
                kind="action", key_param=key_param, match_params=[p for p in props if p != key_param], **base
            )
        returns_key = bool(col and pri.resource and {singular(pri.resource), "id"} <= set(words))  # find_x_id_by_
        if fields:
            return ToolPlan(kind="filter", filter_params=fields, return_key=returns_key, **base)
        nested = _nested_fields([p for p in props if p != key_param], col)
        if nested and len(nested) == len(props):  # every parameter names a field of a nested object: a filter
            return ToolPlan(
                kind="filter",
                field_paths=nested,
                return_key=returns_key,
                **{**base, "evidence": evidence + ["parameters name nested fields of the records"]},
            )
        if key_param:
            return ToolPlan(kind="get", key_param=key_param, **base)
        return ToolPlan(kind="list", **base)
    # writes
    payload_arrays = [p for p in pri.array_params if p == "body" or len(props) == 1]
    if payload_arrays and pri.verb_kind in ("create", None) and (pri.kind_guess in ("create", None)):
        bp = payload_arrays[0]
        return ToolPlan(kind="batch_create", batch_param=bp, id_type=_id_type(col), key_format=_key_format(col), **base)
    if payload_arrays and pri.verb_kind == "delete":
        return ToolPlan(kind="batch_delete", batch_param=pri.array_params[0], **base)
    kind = pri.kind_guess if pri.kind_guess in ("create", "update", "delete") else None
    if kind is None:
        kind = pri.verb_kind if pri.verb_kind in ("create", "update", "delete") else "update"
    if made:
        kind = "create"
    if kind == "create":
        return ToolPlan(kind="create", fields=fields, id_type=_id_type(col), key_format=_key_format(col), **base)
    if kind == "update":
        kp = (
            key_param
            if (key_param and key_param not in fields) or pri.path_params
            else (col.key_field if col else None)
        )
        return ToolPlan(
            kind="update",
            key_param=kp,
            fields=[f for f in fields if f != (col.key_field if col else None)],
            field_paths=_nested_fields([p for p in field_source if p != kp], col),
            **base,
        )
    return ToolPlan(kind="delete", key_param=key_param, **base)


def _nested_fields(params: list[str], col: CollectionDraft | None) -> dict[str, str]:
    """Parameters that name a field of exactly one nested object field of the records (`zip` -> `address.zip`)."""
    if col is None:
        return {}
    out: dict[str, str] = {}
    for p in params:
        if p in col.fields:
            continue
        owners = [  # a nullable object too (`["object", "null"]`)
            f for f, s in sorted(col.fields.items()) if "object" in schema_types(s) and p in (s.get("properties") or {})
        ]
        if len(owners) == 1:
            out[p] = f"{owners[0]}.{p}"
    return out


def _key_format(col: CollectionDraft | None) -> dict[str, Any]:
    return dict(col.key_format) if col and col.key_format else {}


def _id_type(col: CollectionDraft | None) -> str:
    if col and col.key_format and (col.fields.get(col.key_field or "", {}).get("type") != "integer"):
        return "pattern"
    if not col or not col.key_field:
        return "string"
    fs = col.fields.get(col.key_field, {})
    if fs.get("format") == "uuid":
        return "uuid"
    return "integer" if fs.get("type") == "integer" else "string"


def _collection_with_enum(ctx: PlanContext) -> tuple[str, dict[str, Any]] | None:
    for name, col in ctx.collections.items():
        if any("enum" in s for s in col.fields.values()):
            return name, {"collection_source": "has-enum-field"}
    return None


def describe_plan(plan: ToolPlan) -> str:
    """One line for reports."""
    bits = [plan.kind]
    if plan.collection:
        bits.append(f"on {plan.collection}")
    if plan.key_param:
        bits.append(f"key={plan.key_param}")
    if plan.batch_param:
        bits.append(f"batch={plan.batch_param}")
    return " ".join(bits)


__all__ = ["KINDS", "PlanContext", "ToolPlan", "WRITE_KINDS", "decide_plan", "describe_plan", "split_words"]
