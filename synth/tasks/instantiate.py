"""Instantiation: an initial state for a DAG, then the DAG run in order to get the gold actions.

The state comes from `state_fill` (enough records in every collection the DAG touches, plus
distractors). Calls run in the runner one by one; each call's bound arguments are read from the
outputs of earlier calls (reasoning nodes resolve on the way: which record a pick or compare
selects, what a compute derives), the others are chosen. A failing call is repaired by choosing
its free values again (a few attempts); a failing read that nothing consumes is removed; otherwise
the DAG is dropped with the reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from synth.spec import ToolCall
from synth.tasks.args import (
    NoValue,
    choose_user_value,
    coerce,
    field_sets,
    find_path,
    key_value,
    params_to_fill,
    place_bound,
    records_in,
    whole_object,
)
from synth.tasks.dag import ArgSource, DagNode, TaskDAG
from synth.tasks.envmodel import EnvModel, ToolInfo, json_type, map_key
from synth.tasks.owners import (
    NoOwner,
    finder_args,
    owner_links,
    owner_node,
    resolve_identify,
    slice_state,
    still_fits,
)
from synth.tasks.runner import Runner
from synth.tasks.state_fill import GenContext, check_state, fill_state
from synth.tasks.values import TextPool, field_words

DELTAS = (1, 2, 3, 5, 10)


@dataclass
class Instance:
    """An executed DAG: initial state, gold actions with their outputs, final state."""

    dag: TaskDAG
    initial_state: dict[str, Any]
    gold_actions: list[ToolCall]
    gold_outputs: list[Any]
    final_state: dict[str, Any]
    repairs: list[str] = field(default_factory=list)
    described: dict[str, Any] = field(default_factory=dict)  # record key -> the attribute the request names it by
    refused: list[tuple[DagNode, dict[str, Any], str]] = field(default_factory=list)  # (node, arguments, error)


@dataclass
class Dropped:
    """Why a candidate task was dropped, and at which stage."""

    stage: str
    reason: str


def _min_records(dag: TaskDAG, model: EnvModel) -> dict[str, int]:
    need: dict[str, int] = {}
    for n in dag.calls():
        t = model.tools[n.tool]
        for c in set(t.reads) | set(t.writes) | ({t.collection} if t.collection else set()):
            if c in model.collections:
                need[c] = need.get(c, 3) + 1
    return need


def _values_named(output: Any, name: str, depth: int = 0) -> list[Any]:
    out: list[Any] = []
    if depth > 6:
        return out
    if isinstance(output, dict):
        for k, v in output.items():
            if k == name and not isinstance(v, (dict, list)):
                out.append(v)
            out.extend(_values_named(v, name, depth + 1))
    elif isinstance(output, list):
        for v in output:
            out.extend(_values_named(v, name, depth + 1))
    return out


def _scalars(output: Any, depth: int = 0) -> list[Any]:
    """Scalar leaves of an output that could be record keys (text or integers), in order."""
    if depth > 6:
        return []
    if isinstance(output, dict):
        return [x for v in output.values() for x in _scalars(v, depth + 1)]
    if isinstance(output, list):
        return [x for v in output for x in _scalars(v, depth + 1)]
    return [output] if isinstance(output, (str, int)) and not isinstance(output, bool) else []


def resolve_output(src: ArgSource, output: Any, model: EnvModel, ctx: GenContext) -> Any:
    """The value a data edge carries: a record key (or a same-named field) found in the output."""
    b = src.binding or {}
    values: list[Any] = []
    if b.get("via") == "key" and b.get("collection") in model.collections:
        col = model.collections[b["collection"]]
        values = [key_value(col, r) for r in records_in(output, col)]
        if not values:
            live = {str(k) for k in (ctx.state.get(col.name) or {})}
            for name in filter(None, [col.key_field, "id", "key", "name"]):
                values = [v for v in _values_named(output, name) if str(v) in live]
                if values:
                    break
            if not values:  # a tool that answers with bare keys ("user_17", ["#W1", "#W2"])
                values = [v for v in _scalars(output) if str(v) in live]
    elif b.get("field"):
        values = _values_named(output, b["field"])
    uniq: list[Any] = []
    for v in values:
        if v not in uniq:
            uniq.append(v)
    if not uniq:
        raise NoValue(f"no {b.get('collection') or b.get('field')} value in the output of {src.node}")
    src.binding = {**b, "candidates": len(uniq)}
    return uniq[0] if len(uniq) == 1 else ctx.rng.choice(uniq)


def _name_rank(f: str) -> int:
    w = set(field_words(f))
    return 0 if w & {"title", "name"} else 1 if w & {"description", "text", "content"} else 2


def _current(col: Any, rec: dict[str, Any], state: dict[str, Any]) -> dict[str, Any] | None:
    cur = (state.get(col.name) or {}).get(map_key(col, rec))
    return cur if isinstance(cur, dict) else None


def resolve_select(
    r: DagNode, outputs: dict[str, Any], model: EnvModel, rng: random.Random, state: dict[str, Any] | None = None
) -> Any:
    """A pick (record with a stated attribute) or compare (record with the largest/smallest number).

    The criterion must still hold in `state` (the state when the consumer runs): a listed record
    changed or deleted since the list was read is never selected, and a compare is made only when
    no listed record changed, so the instruction describes the state the agent will see."""
    col = model.collections[r.detail["collection"]]
    listed = records_in(outputs[r.inputs[0]], col)
    state = state if state is not None else {}
    recs = [x for x in listed if _current(col, x, state) == x] if state else listed
    if not recs:
        raise NoValue(f"{r.id}: no unchanged {col.name} record in the output of {r.inputs[0]}")
    if r.op == "compare" and len(recs) >= 2 and len(recs) == len(listed):
        options = []
        for f, fs in sorted(col.fields.items()):
            if json_type(fs) not in ("integer", "number") or f == col.key_field:
                continue
            vals = [x.get(f) for x in recs if isinstance(x.get(f), (int, float)) and not isinstance(x.get(f), bool)]
            if len(vals) < len(recs):
                continue
            for order, best in (("max", max(vals)), ("min", min(vals))):
                if vals.count(best) == 1:
                    options.append((f, order, best))
        if options:
            f, order, best = rng.choice(options)
            target = next(x for x in recs if x.get(f) == best)
            r.detail = {"collection": col.name, "field": f, "order": order, "among": len(recs)}
            r.value = key_value(col, target)
            return r.value
    r.op = "pick"
    target = rng.choice(recs)
    crit = []
    everyone = list((state.get(col.name) or {}).values()) if state else recs
    for f in sorted(field_sets(model, col.name), key=lambda f: (_name_rank(f), f)):
        v = target.get(f)
        if isinstance(v, str) and v and sum(1 for x in everyone if isinstance(x, dict) and str(x.get(f)) == v) == 1:
            crit.append(f)
    f = crit[0] if crit else (col.key_field or col.composite_key[0])
    r.detail = {"collection": col.name, "field": f, "equals": target.get(f), "among": len(recs)}
    r.value = key_value(col, target)
    return r.value


def resolve_compute(
    r: DagNode, outputs: dict[str, Any], key: Any, model: EnvModel, rng: random.Random, schema: dict[str, Any]
) -> Any:
    """A number derived from one a record showed earlier: base + delta (within the parameter's bounds)."""
    col = model.collections[r.detail["collection"]]
    fname = r.detail["field"]
    rec = next((x for x in records_in(outputs[r.inputs[0]], col) if str(key_value(col, x)) == str(key)), None)
    base = rec.get(fname) if rec else None
    if not isinstance(base, (int, float)) or isinstance(base, bool):
        raise NoValue(f"{r.id}: {col.resource} {key} shows no number {fname} in the output of {r.inputs[0]}")
    lo, hi = schema.get("minimum"), schema.get("maximum")
    deltas = [d * s for d in DELTAS for s in (1, -1)]
    rng.shuffle(deltas)
    for d in deltas:
        v = base + d
        if (lo is None or v >= lo) and (hi is None or v <= hi):
            value = int(v) if isinstance(base, int) and (schema.get("type") != "number") else round(float(v), 2)
            r.detail = {"collection": col.name, "field": fname, "record": key, "base": base, "delta": d}
            r.value = value
            return value
    raise NoValue(f"{r.id}: no delta keeps {fname} within its bounds")


def build_call(node: DagNode, tool: ToolInfo, dag: TaskDAG, outputs: dict[str, Any], ctx: GenContext) -> dict[str, Any]:
    """Concrete arguments for a call node (node.args gets every argument's source and value)."""
    model = ctx.model
    node.args = {p: s for p, s in node.args.items() if s.source != "user"}
    args: dict[str, Any] = {}
    first = [p for p, s in node.args.items() if not (s.source == "reason" and dag.node(s.node).op == "compute")]
    computes = [p for p in node.args if p not in first]
    for pname in first:
        src, schema = node.args[pname], tool.props.get(pname, {})
        if src.source == "output":
            value = resolve_output(src, outputs[src.node], model, ctx)
            src.path = find_path(outputs[src.node], value)
        elif dag.node(src.node).op == "identify":
            value = resolve_identify(dag.node(src.node), outputs, model, ctx.rng, ctx.state)
        else:
            value = resolve_select(dag.node(src.node), outputs, model, ctx.rng, ctx.state)
        src.value = value
        place_bound(args, pname, schema, value, src.binding, ctx, tool)
    fill = params_to_fill(tool, model, set(node.args), ctx.rng)
    if computes and tool.key_param in fill:
        r = dag.node(node.args[computes[0]].node)
        col = model.collections[r.detail["collection"]]
        fname = r.detail["field"]
        shown = [
            key_value(col, x) for x in records_in(outputs[r.inputs[0]], col) if isinstance(x.get(fname), (int, float))
        ]
        live = [k for k in shown if str(k) in (ctx.state.get(col.name) or {})]
        if live:
            v = coerce(ctx.rng.choice(live), tool.props.get(tool.key_param))
            args[tool.key_param] = v
            node.args[tool.key_param] = ArgSource(source="user", value=v)
            fill.remove(tool.key_param)
    if tool.key_param in fill:
        v = choose_user_value(tool, tool.key_param, tool.props.get(tool.key_param, {}), ctx, args)
        args[tool.key_param] = v
        node.args[tool.key_param] = ArgSource(source="user", value=v)
        fill.remove(tool.key_param)
    for pname in computes:
        src = node.args[pname]
        value = resolve_compute(
            dag.node(src.node), outputs, args.get(tool.key_param), model, ctx.rng, tool.props.get(pname, {})
        )
        src.value = value
        args[pname] = value
    for pname, v in whole_object(tool, fill, ctx, args).items():  # an address as one real address
        args[pname] = v
        node.args[pname] = ArgSource(source="user", value=v)
        fill.remove(pname)
    for pname in fill:
        v = choose_user_value(tool, pname, tool.props.get(pname, {}), ctx, args)
        args[pname] = v
        node.args[pname] = ArgSource(source="user", value=v)
    return {p: args[p] for p in tool.props if p in args}


def _pick_finder(node: DagNode, link: Any, model: EnvModel, runner: Runner, state: dict, rng: random.Random) -> bool:
    """Make `node` the first finder (its own tool first, then the others, seeded) whose answer shows the
    focus owner's key (a finder that answers with the record alone does not give the key)."""
    others = [f for f in link.finders if f != node.tool]
    rng.shuffle(others)
    focus = node.detail["focus"]
    for name in [node.tool, *others]:
        try:
            args = finder_args(model, name, state[link.owner][focus])
        except NoOwner:
            continue
        runner.reset(state)
        outcome = runner.call(name, args)
        if outcome.ok and focus in [str(x) for x in _scalars(outcome.result)]:
            node.tool = name
            return True
    return False


def instantiate(
    dag: TaskDAG, model: EnvModel, runner: Runner, rng: random.Random, pool: TextPool, attempts: int = 4
) -> Instance | Dropped:
    """Fill a state, run the DAG; an Instance, or Dropped with the reason."""
    finder = owner_node(dag)
    link = next((x for x in owner_links(model) if finder and x.owner == finder.detail["owner_of"]), None)
    if finder is not None and link is not None:
        ident = next((n for n in dag.nodes if n.op == "identify"), None)
        try:
            state, focus = slice_state(
                model,
                link,
                rng,
                (ident.detail.get("wants") if ident else None) or {},
                avoid=(ident.detail.get("avoid") if ident else None) or None,
            )
        except NoOwner as ex:
            return Dropped("state", str(ex))
        finder.detail = {**finder.detail, "focus": focus}
        if not _pick_finder(finder, link, model, runner, state, rng):
            return Dropped("execute", f"no finder of {link.owner} answers with the key {focus}")
    else:
        state = fill_state(model, rng, pool, _min_records(dag, model))
    err = check_state(model, state)
    if err:
        return Dropped("state", f"initial state breaks the state schema at {err}")
    salt = rng.getrandbits(32)
    runner.reset(state)
    outputs: dict[str, Any] = {}
    actions: list[ToolCall] = []
    results: list[Any] = []
    repairs: list[str] = []
    for node in list(dag.nodes):
        if node.kind != "call":
            continue
        tool = model.tools[node.tool]
        last_error = ""
        done = False
        for attempt in range(attempts):
            before = runner.state()
            ctx = GenContext(model=model, rng=random.Random(f"{salt}:{node.id}:{attempt}"), pool=pool, state=before)
            try:
                if node is finder and link is not None:
                    args = finder_args(model, tool.name, before[link.owner][node.detail["focus"]])
                    node.args = {p: ArgSource(source="user", value=v) for p, v in args.items()}
                else:
                    args = build_call(node, tool, dag, outputs, ctx)
            except NoValue as ex:
                last_error = str(ex)
                continue
            if link is not None and tool.is_write and not still_fits(model, link, tool.name, args, before):
                return Dropped(
                    "execute", f"{node.id} {tool.name}: the record no longer has the state its name asks for"
                )
            outcome = runner.call(tool.name, args)
            if outcome.ok:
                outputs[node.id] = outcome.result
                actions.append(ToolCall(name=tool.name, arguments=args))
                results.append(outcome.result)
                if attempt:
                    repairs.append(f"{node.id} {tool.name}: values chosen again {attempt}x ({last_error[:80]})")
                done = True
                break
            last_error = outcome.error
            runner.reset(before)
        if done:
            continue
        if not tool.is_write and not dag.consumers(node.id):
            dag.nodes.remove(node)
            repairs.append(f"removed read {node.id} {tool.name}: {last_error[:120]}")
            continue
        return Dropped("execute", f"{node.id} {tool.name} fails: {last_error[:200]}")
    inst = Instance(
        dag=dag,
        initial_state=state,
        gold_actions=actions,
        gold_outputs=results,
        final_state=runner.state(),
        repairs=repairs,
    )
    ident = next((n for n in dag.nodes if n.op == "identify" and n.detail.get("refused")), None)
    if ident is not None:
        why = refuse(inst, ident, model, runner, outputs, random.Random(f"{salt}:refused"), pool)
        if why:
            return Dropped("refusal", why)
    return inst


def refuse(
    inst: Instance, ident: DagNode, model: EnvModel, runner: Runner, outputs: dict, rng: random.Random, pool: TextPool
) -> str:
    """Build the write the user asks for on the identified record and run it: the environment must refuse
    it and change nothing. Records it in `inst.refused`; returns why not ('' when refused)."""
    tool = model.tools[ident.detail["refused"]]
    reader = next(n for n in inst.dag.calls() if tool.key_param and any(s.node == ident.id for s in n.args.values()))
    binding = {"param": tool.key_param, "via": "key", "collection": tool.collection, "field": None, "item_field": None}
    node = DagNode(
        id="refused", kind="call", tool=tool.name, args={tool.key_param: ArgSource("output", reader.id, binding)}
    )
    before = runner.state()
    ctx = GenContext(model=model, rng=rng, pool=pool, state=before)
    try:
        args = build_call(node, tool, inst.dag, outputs, ctx)
    except NoValue as ex:
        return f"{tool.name}: {ex}"
    outcome = runner.call(tool.name, args)
    after = runner.state()
    runner.reset(before)
    if outcome.ok or after != before:
        return f"{tool.name} is not refused on {args.get(tool.key_param)}"
    inst.refused.append((node, args, outcome.error[:160]))
    return ""
