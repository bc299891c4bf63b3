"""Tasks of one owner: the user states who they are, the agent looks up their records.

An owner link is read from the data's references (`manifest.data.references`): collection U holds a
list of keys of collection O (`members.tickets[]` -> tickets), O points back to U, U has a filter tool
that answers with its key (by email, by name and zip) and a get tool, and O has a get tool. A task
then starts with the lookup chain: find the owner -> read the owner -> identify the record (the one
of the owner's records the user describes by what they know: a listed thing's name, its state) -> read it,
and writes the record (or asks about it). The initial state is a coherent slice of the data: a few
owners with all their records and what those records reference.
"""

from __future__ import annotations

import copy
import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from synth.tasks.args import NoValue
from synth.tasks.dag import ArgSource, DagNode, TaskDAG
from synth.tasks.envmodel import EnvModel, natural_key
from synth.tasks.idlists import NAME_WORDS
from synth.tasks.values import field_words


class NoOwner(NoValue):
    """No owner or owned record fits the plan (the message says why)."""


@dataclass
class OwnerLink:
    """U lists keys of O (`list_field`); U is found by `finders`, read by `get_owner`; O read by `get_owned`."""

    owner: str
    owned: str
    list_field: str
    finders: list[str] = field(default_factory=list)
    get_owner: str = ""
    get_owned: str = ""


def _get_tool(model: EnvModel, collection: str) -> str:
    return next(
        (n for n, t in sorted(model.tools.items()) if t.kind == "get" and t.collection == collection and t.key_param),
        "",
    )


def owner_links(model: EnvModel) -> list[OwnerLink]:
    """Owner links the data's references and the tools allow (empty without data references)."""
    out = []
    for ref in model.data_refs:
        src, fld, tgt = ref.get("collection"), str(ref.get("field") or ""), ref.get("target")
        if not fld.endswith("[]") or "/" in fld or src not in model.collections or tgt not in model.collections:
            continue
        if src not in model.data or tgt not in model.data:  # no records to slice a state from
            continue
        finders = sorted(
            n
            for n, t in model.tools.items()
            if not t.is_write and t.kind == "filter" and t.collection == src and t.required
        )
        link = OwnerLink(src, tgt, fld[:-2], finders, _get_tool(model, src), _get_tool(model, tgt))
        if link.finders and link.get_owner and link.get_owned:
            out.append(link)
    return out


def _ref_values(record: Any, path: list[str]) -> list[Any]:
    """Values at a reference path ('lines[]', 'kit_id') inside a record."""
    if not path:
        return [record] if isinstance(record, (str, int)) else []
    head, rest = path[0], path[1:]
    if not isinstance(record, dict):
        return []
    if head.endswith("[]"):
        vals = record.get(head[:-2])
        return [x for v in (vals if isinstance(vals, list) else []) for x in _ref_values(v, rest)]
    return _ref_values(record.get(head), rest)


def write_wants(model: EnvModel, link: OwnerLink, writes: list[str]) -> dict[str, str]:
    """Field values the owned record must have for the writes: a word of a write tool's name that is a
    value of a short text field of the collection ('close_open_ticket' -> status 'open')."""
    recs = [r for r in (model.data.get(link.owned) or {}).values() if isinstance(r, dict)]
    values: dict[str, set[str]] = {}
    for r in recs:
        for f, v in r.items():
            if isinstance(v, str) and " " not in v:
                values.setdefault(f, set()).add(v.lower())
    enumish = {f: vs for f, vs in values.items() if 1 < len(vs) <= 12}
    wants: dict[str, str] = {}
    for name in writes:
        words = set(field_words(name))
        for f, vs in sorted(enumish.items()):
            hit = sorted(vs & words)
            if hit and f not in wants:
                wants[f] = hit[0]
    return wants


def _fits(rec: Any, wants: dict[str, str]) -> bool:
    return isinstance(rec, dict) and all(str(rec.get(f, "")).lower() == v for f, v in wants.items())


def still_fits(model: EnvModel, link: OwnerLink, tool: str, args: dict[str, Any], state: dict[str, Any]) -> bool:
    """False when a write of an owned record finds it no longer in the state its name asks for (an
    earlier write of the task closed it); True for other writes."""
    t = model.tools[tool]
    if t.collection != link.owned or not t.key_param:
        return True
    rec = (state.get(link.owned) or {}).get(str(args.get(t.key_param)))
    return rec is None or _fits(rec, write_wants(model, link, [tool]))


def slice_state(
    model: EnvModel,
    link: OwnerLink,
    rng: random.Random,
    wants: dict[str, str],
    owners: int = 2,
    avoid: dict[str, str] | None = None,
) -> tuple[dict[str, Any], str]:
    """(state, focus owner key): `owners` owners of the data with all their records and every record
    those reference; the focus owner (the task's user) has a record that fits `wants`."""
    data = model.data
    owners_, owned = data.get(link.owner) or {}, data.get(link.owned) or {}

    def listed(k: str) -> list[str]:
        v = (owners_.get(k) or {}).get(link.list_field)
        return [x for x in v if x in owned] if isinstance(v, list) else []

    keys = sorted(owners_, key=natural_key)
    focusable = [
        k
        for k in keys
        if any(_fits(owned[x], wants) and not (avoid and _fits(owned[x], avoid)) for x in listed(k))
        and len(listed(k)) >= 2
    ]
    if not focusable:
        raise NoOwner(f"no {link.owner} record owns two {link.owned} records, one with {wants}")
    focus = rng.choice(focusable)
    pool = [k for k in keys if k != focus and listed(k)]
    others = rng.sample(pool, k=max(0, min(len(pool), owners - 1)))
    state: dict[str, Any] = {name: {} for name in model.collections}
    for k in [focus, *others]:
        state[link.owner][k] = owners_[k]
        for x in listed(k):
            state[link.owned][x] = owned[x]
    changed = True
    while changed:  # records the included ones reference (the kits of the tickets' lines)
        changed = False
        for ref in model.data_refs:
            src, tgt = ref.get("collection"), ref.get("target")
            if src not in state or tgt not in state or tgt == link.owner:
                continue
            for rec in list(state[src].values()):
                for v in _ref_values(rec, str(ref.get("field") or "").split("/")):
                    if str(v) in (data.get(tgt) or {}) and str(v) not in state[tgt]:
                        state[tgt][str(v)] = data[tgt][str(v)]
                        changed = True
    out = {name: {k: copy.deepcopy(recs[k]) for k in sorted(recs, key=natural_key)} for name, recs in state.items()}
    return {k: out[k] for k in sorted(out)}, focus


def leaf_named(record: Any, name: str, depth: int = 0) -> Any:
    """The first scalar under key `name` anywhere in a record (nested objects first-level first)."""
    if not isinstance(record, dict) or depth > 4:
        return None
    if name in record and isinstance(record[name], (str, int, float)):
        return record[name]
    for v in record.values():
        found = leaf_named(v, name, depth + 1)
        if found is not None:
            return found
    return None


def finder_args(model: EnvModel, tool: str, owner: dict[str, Any]) -> dict[str, Any]:
    """The finder's arguments from the owner record's own values (an email; a name and a zip code)."""
    t = model.tools[tool]
    args = {}
    for p in t.props:
        v = leaf_named(owner, p)
        if v is None and p in t.required:
            raise NoOwner(f"{tool}: the owner record has no {p}")
        if v is not None:
            args[p] = v
    return args


def _descriptors(rec: dict[str, Any], key_field: str | None, refs: set[str]) -> list[tuple[str, str, str]]:
    """(kind, label, value) a user knows about a record: names of its listed things, short text fields."""
    out: list[tuple[str, str, str]] = []
    for f, v in sorted(rec.items()):
        if isinstance(v, list):
            for item in v:
                if isinstance(item, dict):
                    for k, x in sorted(item.items()):
                        if isinstance(x, str) and set(field_words(k)) & NAME_WORDS:
                            out.append(("includes", k, x))
    for f, v in sorted(rec.items()):
        if f != key_field and f not in refs and isinstance(v, str) and 3 <= len(v) <= 24 and " " not in v:
            if not any(c.isdigit() for c in v):
                out.append(("field", f, v))
    seen: set[tuple[str, str, str]] = set()
    return [d for d in out if not (d in seen or seen.add(d))]


def _matches(rec: dict[str, Any], d: tuple[str, str, str]) -> bool:
    kind, label, value = d
    if kind == "field":
        return str(rec.get(label)) == value
    return any(
        isinstance(item, dict) and item.get(label) == value for v in rec.values() if isinstance(v, list) for item in v
    )


def resolve_identify(r: DagNode, outputs: dict[str, Any], model: EnvModel, rng: random.Random, state: dict) -> Any:
    """The owned record the user means: one of the owner's listed records that fits the writes, named by
    the fewest descriptors (one or two) no other record of the owner matches."""
    col = model.collections[r.detail["collection"]]
    listed = outputs[r.inputs[0]].get(r.detail["list_field"]) if isinstance(outputs[r.inputs[0]], dict) else None
    live = state.get(col.name) or {}
    mine = [str(k) for k in (listed or []) if str(k) in live]
    fits = [k for k in mine if _fits(live[k], r.detail.get("wants") or {})]
    avoid = r.detail.get("avoid") or {}
    if avoid:
        fits = [k for k in fits if not _fits(live[k], avoid)]
    if not fits:
        raise NoOwner(f"{r.id}: no listed {col.name} record fits {r.detail.get('wants')}")
    refs = {f for f in col.fields if model.collections and _is_ref(model, col.name, f)}
    order = list(fits)
    rng.shuffle(order)
    for k in order:
        rec = live[k]
        descs = _descriptors(rec, col.key_field, refs)
        others = [live[o] for o in mine if o != k]
        for size in (1, 2):
            for combo in itertools.combinations(descs, size):
                if not any(all(_matches(o, d) for d in combo) for o in others):
                    r.detail = {
                        **r.detail,
                        "criteria": [list(d) for d in combo],
                        "equals": [d[2] for d in combo],
                        "among": len(mine),
                    }
                    r.value = rec.get(col.key_field) if col.key_field else k
                    return r.value
    raise NoOwner(f"{r.id}: no {col.name} record of the owner can be told apart from the others")


def _is_ref(model: EnvModel, collection: str, fname: str) -> bool:
    from synth.tasks.envmodel import field_ref

    return bool(field_ref(model, collection, fname)) or any(
        ref.get("collection") == collection and str(ref.get("field")) == fname for ref in model.data_refs
    )


def _binding(param: str, collection: str) -> dict[str, Any]:
    return {"param": param, "via": "key", "collection": collection, "field": None, "item_field": None}


def plan_owner_dag(
    model: EnvModel, link: OwnerLink, rng: random.Random, question: bool, refusal: bool = False
) -> tuple[TaskDAG, dict]:
    """find owner -> read owner -> identify -> read record -> one or two writes (none for a question).
    A refusal reads a record that lacks the state a write's name asks for; the write (`refused` in the
    identify step's detail) is what the user asks and the environment must refuse."""
    if refusal:
        choices = sorted(
            n
            for n, t in model.tools.items()
            if t.is_write and t.collection == link.owned and t.key_param and write_wants(model, link, [n])
        )
        if not choices:  # nothing the environment would refuse by the record's state: a plain question
            return plan_owner_dag(model, link, rng, True)
        w = rng.choice(choices)
        dag, prov = plan_owner_dag(model, link, rng, True)
        ident = next(n for n in dag.nodes if n.op == "identify")
        ident.detail = {**ident.detail, "avoid": write_wants(model, link, [w]), "refused": w}
        return dag, {**prov, "refused": w}
    owned_writes = sorted(
        n for n, t in model.tools.items() if t.is_write and t.collection == link.owned and t.key_param
    )
    owner_writes = sorted(
        n for n, t in model.tools.items() if t.is_write and t.collection == link.owner and t.key_param
    )
    writes: list[str] = []
    if not question:
        first = rng.choice(owned_writes) if owned_writes and (rng.random() < 0.85 or not owner_writes) else None
        writes = [first] if first else [rng.choice(owner_writes)] if owner_writes else []
        if writes and rng.random() < 0.3:
            wanted = write_wants(model, link, writes)
            pool = [
                w
                for w in owned_writes + owner_writes
                if w not in writes and all(wanted.get(f, v) == v for f, v in write_wants(model, link, [w]).items())
            ]
            if pool:
                writes.append(rng.choice(pool))
    finder = rng.choice(link.finders)
    nodes = [DagNode(id="f", kind="call", tool=finder, detail={"owner_of": link.owner})]
    needs_owned = question or any(model.tools[w].collection == link.owned for w in writes)
    if needs_owned:
        go, gr = model.tools[link.get_owner], model.tools[link.get_owned]
        nodes.append(
            DagNode(
                id="u",
                kind="call",
                tool=link.get_owner,
                args={go.key_param: ArgSource("output", node="f", binding=_binding(go.key_param, link.owner))},
            )
        )
        wants = write_wants(model, link, [w for w in writes if model.tools[w].collection == link.owned])
        nodes.append(
            DagNode(
                id="i",
                kind="reason",
                op="identify",
                inputs=["u"],
                detail={"collection": link.owned, "list_field": link.list_field, "wants": wants},
            )
        )
        nodes.append(
            DagNode(
                id="o",
                kind="call",
                tool=link.get_owned,
                args={gr.key_param: ArgSource("reason", node="i", binding=_binding(gr.key_param, link.owned))},
            )
        )
    for j, w in enumerate(writes):
        t = model.tools[w]
        src = "o" if t.collection == link.owned else "f"
        nodes.append(
            DagNode(
                id=f"w{j}",
                kind="call",
                tool=w,
                args={t.key_param: ArgSource("output", node=src, binding=_binding(t.key_param, t.collection))},
            )
        )
    dag = TaskDAG(nodes=nodes).renumber()
    return dag, {"walks": [dag.signature()], "merged": False, "removed_redundant": [], "owner": link.owner}


def owner_node(dag: TaskDAG) -> DagNode | None:
    """The finder call of an owner plan, if the DAG has one."""
    return next((n for n in dag.nodes if n.kind == "call" and n.detail.get("owner_of")), None)
