"""Plan variants learned from a real system's recorded calls of one tool (--traces).

A keyed write (the plan's key parameter names a record of its collection) is read off the recorded changes
of that record: fields set to one constant or to an argument's value, elements appended to a list field whose
values come from arguments, constants or the record itself (the same path in every call), and which values a
field had before the calls that succeeded when failing calls show other values (a status that allows the
call). A tool whose successful recorded calls never change anything gets a read-only variant.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.expr_runtime import fg_evaluate, fg_number
from synth.envsynth.id_series import series_shape
from synth.envsynth.plan import ToolPlan
from synth.envsynth.priors import computes_without_change
from synth.envsynth.series_runtime import fg_next_in_series
from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_answers import answered_write
from synth.envsynth.trace_checks import learn_checks
from synth.envsynth.trace_creates import learned_creates
from synth.envsynth.trace_edit_logs import edit_log_variant
from synth.envsynth.trace_envelopes import recorded_list_envelope
from synth.envsynth.trace_exprs import Sample, expression_for, learn_choice, learn_number, learn_swap, per_entry_move
from synth.envsynth.trace_links import linked_appends, linked_sets
from synth.envsynth.trace_messages import landed_text, recorded_envelope, recorded_message, special_outputs
from synth.envsynth.trace_outputs import answered_fields
from synth.envsynth.trace_quotes import learned_quote
from synth.envsynth.trace_switch import learn_cases, learn_switch
from synth.envsynth.trace_texts import learn_text
from synth.envsynth.traces import apply_changes, parse_pointer, recorded_changes
from synth.spec import ToolSpec

MISSING = object()
MAX_PATH_DEPTH = 4  # record paths searched for a value's source


def _paths(value: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> dict[tuple[Any, ...], Any]:
    """Every scalar of a record at its path (list indexes as ints), up to MAX_PATH_DEPTH."""
    out: dict[tuple[Any, ...], Any] = {}
    if depth > MAX_PATH_DEPTH:
        return out
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(_paths(v, prefix + (k,), depth + 1))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(_paths(v, prefix + (i,), depth + 1))
    else:
        out[prefix] = value
    return out


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _sorted(values: list[Any]) -> list[Any] | None:
    try:
        return sorted(values)
    except TypeError:
        return None


def _source(samples: list[Sample], key_param: str) -> dict[str, Any] | None:
    """One source that gives the value in every sample (value, arguments, record, state): an argument, a record
    path, a constant, else a number computed over referenced records or a word picked by its sign."""
    value0, args0, record0, _ = samples[0]
    for name in sorted(args0):
        if name != key_param and all(_same(args.get(name), value) for value, args, *_ in samples):
            return {"from": "arg", "name": name}
    for name in sorted(args0):  # a list argument the system keeps in sorted order
        if name != key_param and all(
            isinstance(args.get(name), list) and isinstance(value, list) and _sorted(args[name]) == value
            for value, args, *_ in samples
        ):
            return {"from": "arg", "name": name, "sorted": True}
    if (optional := _optional_arg(samples, key_param)) is not None:
        return optional
    for path, v in sorted(_paths(record0).items(), key=lambda kv: (len(kv[0]), str(kv[0]))):
        if _same(v, value0) and all(_same(_paths(rec).get(path, MISSING), value) for value, _, rec, _ in samples):
            return {"from": "record", "path": list(path)}
    series = series_shape(value0)
    if series and all(
        value == fg_next_in_series(state, None, series["prefix"], series["digits"]) for value, _, _, state in samples
    ):  # a fresh id, the next of a series the state holds (a payment's)
        return {"from": "next_in_series", "field": None, **series}
    if all(_same(value, value0) for value, *_ in samples):
        return {"from": "const", "value": value0}
    return learn_number(samples) or learn_choice(samples)


def _object_source(samples: list[Sample], key_param: str, empty: bool = False) -> dict[str, Any] | None:
    """An object the call writes whole (a `cancellation` block of the reason given, a fee and a refund): one source
    per key, when every call writes an object with the same keys and each key has a source."""
    first = samples[0][0]
    if not isinstance(first, dict) or not (first or empty):
        return None
    if any(not isinstance(v, dict) or sorted(v) != sorted(first) for v, *_ in samples):
        return None
    fields = {}
    for sub in sorted(first):
        parts = [(v[sub], a, r, s) for v, a, r, s in samples]
        src = _source(parts, key_param) or _learned(parts, key_param)
        if src is None:
            return None
        fields[sub] = src
    return {"from": "object", "fields": fields}


def _learned(samples: list[Sample], key_param: str) -> dict[str, Any] | None:
    """A value no one source gives: one of two sources by an argument or a field, a text written from them, or one
    source (a text) per value of an argument."""
    return (
        learn_switch(samples, key_param, _source, _fits_all)
        or learn_text(samples, key_param)
        or learn_cases(samples, key_param, _part_source)
    )


def _part_source(samples: list[Sample], key_param: str) -> dict[str, Any] | None:
    """One part's source: a text written from the call's values before the same text taken as fixed (two
    payments of the same amount still say the amount)."""
    if all(isinstance(v, str) for v, *_ in samples):
        found = learn_text(samples, key_param)
        if found is not None:
            return found
    return _source(samples, key_param)


def _any_source(samples: list[Sample], key_param: str) -> dict[str, Any] | None:
    """One source, an object written key by key, or a value chosen or written from them."""
    return _source(samples, key_param) or _object_source(samples, key_param) or _learned(samples, key_param)


def _fits_all(src: dict[str, Any], samples: list[Sample]) -> bool:
    """Whether a plain source (a constant, an argument, a computed number, a record path) gives every value."""
    if src.get("from") not in ("const", "arg", "expr", "record") or src.get("sorted"):
        return False
    return all(_same(_resolve(src, args, record, state), value) for value, args, record, state in samples)


def _optional_arg(samples: list[Sample], key_param: str) -> dict[str, Any] | None:
    """An optional argument: its value where a call gives it, one default where calls leave it out (both seen)."""
    names = sorted({n for _, args, *_ in samples for n in args} - {key_param})
    for name in names:
        given = [(value, args[name]) for value, args, *_ in samples if name in args]
        left = [value for value, args, *_ in samples if name not in args]
        if given and left and all(_same(v, a) for v, a in given) and all(_same(v, left[0]) for v in left):
            return {"from": "arg", "name": name, "default": left[0]}
    return None


def _after(case: TestCase, collection: str, key: str) -> Any:
    return (apply_changes(case.state, recorded_changes(case)).get(collection) or {}).get(key)


def item_rule(samples: list[Sample], key_param: str) -> dict[str, Any] | None:
    """The source of an appended element: one source, or one per field of an object element."""
    first = samples[0][0]
    if isinstance(first, dict):
        whole = _object_source(samples, key_param, empty=True)
        return {"fields": whole["fields"]} if whole is not None else None
    src = _source(samples, key_param)
    return {"value": src} if src is not None else None


def _learn(plan: ToolPlan, recorded: list[TestCase]) -> tuple[list[dict[str, Any]], dict[str, list[Any]], bool] | None:
    col, kp = plan.collection, plan.key_param
    if not col or not kp:
        return None
    sets: dict[str, None] = {}
    appends: dict[str, list[list[Sample]]] = {}
    ok_records: list[dict[str, Any]] = []
    calls: list[Sample] = []  # (record after, arguments, record before, state before) of each successful call
    any_change = False
    for case in recorded:
        if case.expect_error:
            continue
        key = str(case.arguments.get(kp))
        record = (case.state.get(col) or {}).get(key)
        after = _after(case, col, key)
        if not isinstance(record, dict) or not isinstance(after, dict):
            return None  # the call names no record, or removes it: not a keyed update
        ok_records.append(record)
        any_change = any_change or bool(recorded_changes(case))
        for name in sorted(set(record) | set(after)):
            old, new = record.get(name, MISSING), after.get(name, MISSING)
            if new is MISSING or _same(old, new):
                continue
            if isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and new[: len(old)] == old:
                appends.setdefault(name, []).append(
                    [(item, case.arguments, record, case.state) for item in new[len(old) :]]
                )
            else:
                sets.setdefault(name, [])
        calls.append((after, case.arguments, record, case.state))
    if not ok_records:
        return None
    effects: list[dict[str, Any]] = []
    n_ok = len(ok_records)
    for name in sorted(sets):  # a field some call changed: one rule must give its value after every call
        samples = [(after[name], args, rec, state) for after, args, rec, state in calls if name in after]
        if len(samples) != n_ok:
            continue  # removed by some calls: not one rule
        src = _source(samples, kp) or _object_source(samples, kp) or _learned(samples, kp)
        if src is not None:
            effects.append({"op": "set", "field": name, "source": src})
        elif (swap := learn_swap(name, samples)) is not None:
            effects.append(swap)
    for name, per_call in sorted(appends.items()):
        if len(per_call) != n_ok or len({len(items) for items in per_call}) != 1:
            continue  # the same number of new elements in every call
        rules = [item_rule([items[i] for items in per_call], kp) for i in range(len(per_call[0]))]
        if all(r is not None for r in rules):
            effects.append({"op": "append", "field": name, "items": rules})
    preconditions: dict[str, list[Any]] = {}
    failing = [((c.state.get(col) or {}).get(str(c.arguments.get(kp)))) for c in recorded if c.expect_error]
    failing = [r for r in failing if isinstance(r, dict)]
    for eff in effects:
        if eff["op"] != "set" or eff["source"]["from"] != "const":
            continue
        name = eff["field"]
        before = {repr(r.get(name)): r.get(name) for r in ok_records}
        if any(isinstance(v, (dict, list, int, float)) and not isinstance(v, bool) for v in before.values()):
            continue  # a state is a value like `confirmed`, not an amount or an object the call happened to find
        bad = {repr(r.get(name)) for r in failing}
        if before and not (set(before) & bad) and (bad or len(before) == 1):
            preconditions[name] = [before[k] for k in sorted(before)]
    effects += _adjustments(plan, recorded)
    effects += linked_appends(plan, recorded, item_rule)  # "FO-7012; 3 refills remaining" on the prescription
    effects += linked_sets(plan, recorded)  # the berth the mooring names becomes `taken`
    return effects, preconditions, any_change


def _string_source(value: str, args: dict[str, Any], record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every source that gives `value` in this one call: the constant, arguments, record paths."""
    out = [{"from": "const", "value": value}]
    out += [{"from": "arg", "name": n} for n in sorted(args) if _same(args[n], value)]
    out += [
        {"from": "record", "path": list(p)}
        for p, v in sorted(_paths(record).items(), key=lambda kv: (len(kv[0]), str(kv[0])))
        if _same(v, value)
    ]
    return out


def _resolve(src: dict[str, Any], args: dict[str, Any], record: dict[str, Any], state: dict[str, Any]) -> Any:
    if src["from"] == "const":
        return src["value"]
    if src["from"] == "arg":
        return args.get(src["name"], src.get("default", MISSING))
    if src["from"] == "expr":
        value = fg_evaluate(src["expr"], args, record, state)
        return MISSING if value is None else value
    if src["from"] == "next_in_series":
        return fg_next_in_series(state, src["field"], src["prefix"], src["digits"])
    return _paths(record).get(tuple(src["path"]), MISSING)


def _leaf(state: dict[str, Any], path: list[Any]) -> Any:
    node: Any = state
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return MISSING
        node = node[part]
    return node


def _moves(case: TestCase, col: str) -> list[tuple[list[Any], float]]:
    """(path, delta) of every number the call moved outside its own collection."""
    out = []
    for row in recorded_changes(case):
        parts = parse_pointer(row["path"])
        old, new = _leaf(case.state, parts), row.get("value")
        if row.get("deleted") or len(parts) < 3 or parts[0] == col or not fg_number(new) or not fg_number(old):
            continue
        out.append((parts, round(new - old, 6)))
    return out


def _adjust_rule(case: TestCase, col: str, kp: str, explained: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Candidate sources for the first move of this call that no rule in `explained` makes."""
    record = (case.state.get(col) or {}).get(str(case.arguments.get(kp))) or {}
    done = {tuple(p) for p in _targets(explained, case, col, kp)}
    for parts, delta in _moves(case, col):
        if tuple(parts) in done:
            continue
        segs = [_string_source(p, case.arguments, record) for p in parts[1:]]
        deltas = [
            {"from": "record", "path": list(p)}
            for p, v in sorted(_paths(record).items(), key=lambda kv: (len(kv[0]), str(kv[0])))
            if fg_number(v) and round(v, 6) == delta
        ]
        deltas += [
            {"from": "arg", "name": n}
            for n in sorted(case.arguments)
            if fg_number(case.arguments[n]) and round(case.arguments[n], 6) == delta
        ]
        if abs(delta) == 1:  # one up or down: a count, not a field that happens to hold 1
            deltas.insert(0, {"from": "const", "value": delta})
        if not deltas:  # a number computed over referenced records (a price difference)
            deltas = expression_for(delta, (delta, case.arguments, record, case.state))[:3]
        if deltas:
            return {"collection": parts[0], "segments": segs, "deltas": deltas}
    return None


def _targets(rules: list[dict[str, Any]], case: TestCase, col: str, kp: str) -> list[list[Any]]:
    """The paths the adjust rules move in this call."""
    record = (case.state.get(col) or {}).get(str(case.arguments.get(kp))) or {}
    out = []
    for rule in rules:
        parts = [_resolve(s, case.arguments, record, case.state) for s in rule["path"]]
        if all(isinstance(p, str) for p in parts):
            out.append([rule["collection"]] + parts)
    return out


def _adjustments(plan: ToolPlan, recorded: list[TestCase]) -> list[dict[str, Any]]:
    """Numbers on other records moved by a value of the call (a balance refunded or charged), at most two rules,
    each kept when every successful call either shows its move or has no number at the resolved place; a rule that
    fits only the calls giving one value of a text argument (paid from `credit`) moves only for that value."""
    col, kp = plan.collection, plan.key_param
    ok = [c for c in recorded if not c.expect_error]
    rules: list[dict[str, Any]] = []
    for _ in range(2):
        found = None
        for case in ok:
            rule = _adjust_rule(case, col, kp, rules)
            if rule is None:
                continue
            for path_src, delta_src in _choices(rule):
                cand = {"op": "adjust", "collection": rule["collection"], "path": path_src, "delta": delta_src}
                if all(_fits(cand, rules, c, col, kp) for c in ok):
                    found = cand
                    break
            for path_src, delta_src in _choices(rule) if found is None else ():  # made for one value of an argument
                for guard in _guards(case, kp):
                    cand = {"op": "adjust", "collection": rule["collection"], "path": path_src, "delta": delta_src}
                    cand["when"] = guard
                    if all(_fits(cand, rules, c, col, kp) for c in ok):
                        found = cand
                        break
                if found:
                    break
            if found:
                break
        if found is None:
            break
        rules.append(found)
    return [per_entry_move(r) or r for r in rules]  # a move learned on the first line is made for every line


def _guards(case: TestCase, kp: str) -> list[dict[str, Any]]:
    """`when` guards naming the value of one text argument this call gives (a payment method), key aside."""
    return [
        {"arg": name, "in": [value]}
        for name, value in sorted(case.arguments.items())
        if name != kp and isinstance(value, str)
    ]


def _choices(rule: dict[str, Any]) -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """Candidate (path sources, delta source) pairs, argument and record sources before constants."""

    def rank(src: dict[str, Any]) -> int:
        return {"arg": 0, "record": 1, "const": 2}[src["from"]]

    first = [sorted(options, key=rank) for options in rule["segments"]]
    out = []
    # a segment a value of the call can give never takes a constant (which would hold one record's key)
    narrowed = [[o for o in options if o["from"] != "const"][:3] or options[:1] for options in first]
    combos: list[list[dict[str, Any]]] = [[]]
    for options in narrowed:
        combos = [c + [o] for c in combos for o in options][:64]
    out = [(c, d) for c in combos for d in rule["deltas"][:6]]
    return out[:256]


def _fits(rule: dict[str, Any], others: list[dict[str, Any]], case: TestCase, col: str, kp: str) -> bool:
    """The rule explains this call: the resolved number moved by the delta, or there is no number to move
    (changes that the other rules make are theirs)."""
    record = (case.state.get(col) or {}).get(str(case.arguments.get(kp))) or {}
    theirs = {tuple(p) for p in _targets(others, case, col, kp)}
    changes = {
        tuple(parse_pointer(r["path"])): r.get("value")
        for r in recorded_changes(case)
        if not r.get("deleted") and tuple(parse_pointer(r["path"])) not in theirs
    }
    target = rule["collection"]
    parts = [_resolve(s, case.arguments, record, case.state) for s in rule["path"]]
    when = rule.get("when")
    if when and case.arguments.get(when["arg"]) not in when["in"]:  # not made for this call: nothing it moves moves
        return any(p is MISSING or not isinstance(p, str) for p in parts) or tuple([target] + parts) not in changes
    if any(p is MISSING or not isinstance(p, str) for p in parts):
        return not any(path[0] == target and len(path) > 2 and fg_number(v) for path, v in changes.items())
    path = tuple([target] + parts)
    old = _leaf(case.state, list(path))
    if not fg_number(old):
        return path not in changes
    delta = _resolve(rule["delta"], case.arguments, record, case.state)
    if not fg_number(delta):
        return False
    if round(delta, 6) == 0:  # moved by nothing: no change to record
        return path not in changes
    return path in changes and round(changes[path] - old, 6) == round(delta, 6)


def learned_variants(
    spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase], partial: ToolPlan | None = None
) -> list[ToolPlan]:
    """Plans learned from the recorded calls (none when they show no rule these variants express); `partial`: the
    docs' quote with the figures they give, the others to be learned."""
    out = []
    key = recorded_envelope(recorded)
    if key != plan.output_key and plan.kind != "recorded_update":
        out.append(ToolPlan.from_dict({**plan.to_dict(), "output_key": key}))
    message = recorded_message(recorded)
    if plan.kind in ("tree_move", "tree_copy"):  # where the node lands: tried first, as it explains both forms
        landed = recorded_message(recorded, lambda text, args: landed_text(text, args, plan))
        if landed is not None and landed != message and any(kind == "landed" for kind, _ in landed[1]):
            out.append(ToolPlan.from_dict({**plan.to_dict(), "output_key": landed[0], "output_format": landed[1]}))
    if message is not None and plan.kind != "recorded_update":
        out.append(ToolPlan.from_dict({**plan.to_dict(), "output_key": message[0], "output_format": message[1]}))
    wrapped = recorded_list_envelope(plan, recorded, spec.description)  # inside an object: {"pier_id", "berths"}
    out += [wrapped] if wrapped is not None else []
    answered = answered_fields(plan, recorded)  # the fields the recorded answers hold, some from linked records
    if answered is not None:
        out.append(answered)
    elif plan.kind in ("get", "quote", "compute") or computes_without_change(spec):  # figures over named records
        quoted = learned_quote(spec, plan, recorded, partial)
        out += [quoted] if quoted is not None else []
    if plan.kind == "create":  # the new record's fields as the real system writes them
        out += learned_creates(plan, recorded, _any_source)
    answer = answered_write(plan.collection, plan.key_param, recorded)  # what a write answers, when not the record
    if answer is not None and plan.writes and not plan.output_fields:  # the docs' change answering as recorded
        out.append(ToolPlan.from_dict({**plan.to_dict(), "output_fields": answer[0], "output_map": answer[1]}))
    logged = edit_log_variant(plan, recorded)  # one log entry per value a paired edit removes or adds
    out += [logged] if logged is not None else []
    special = special_outputs(recorded)
    if special:
        out += [ToolPlan.from_dict({**v.to_dict(), "special_outputs": special}) for v in [plan] + out]
    return out + _learned_updates(spec, plan, recorded, answer)


def _entry_there(plan: ToolPlan) -> list[dict[str, Any]]:
    """The docs' entry removal as a check a recorded change keeps: the entry the argument names is on the list."""
    if plan.kind != "item_remove" or not (plan.list_field and plan.item_key and plan.op_param and plan.key_param):
        return []
    check = {"op": "entry_named", "collection": plan.collection, "via_arg": plan.key_param, "list": plan.list_field}
    return [{**check, "field": plan.item_key, "arg": plan.op_param}]


def _learned_updates(
    spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase], answer: tuple[list[str], dict[str, Any]] | None
) -> list[ToolPlan]:
    """The keyed updates the recorded changes show; `answer`: what the recorded calls answer (answered_write)."""
    learned = _learn(plan, recorded)
    if learned is None:
        return []
    effects, preconditions, any_change = learned
    base = {**plan.to_dict(), "evidence": plan.evidence + ["learned from recorded calls"]}
    if not any_change:
        return [ToolPlan.from_dict({**base, "kind": "get"})]
    if not effects:
        return []
    update = {**base, "kind": "recorded_update", "effects": effects}
    checks = learn_checks(ToolPlan.from_dict({**update, "preconditions": preconditions}), recorded)
    out = []
    if checks:
        out.append(ToolPlan.from_dict({**update, "preconditions": preconditions, "checks": checks}))
    out.append(ToolPlan.from_dict({**update, "preconditions": preconditions}))
    if preconditions:
        out.append(ToolPlan.from_dict({**update, "preconditions": {}}))
    # the docs' rules kept with the recorded states (checks read from a few failures come last: they may fit those
    # alone); an entry the docs' plan removes must be on the list
    if plan.preconditions or plan.checks or _entry_there(plan):
        kept = {**plan.preconditions, **preconditions}
        ruled = plan.checks + [c for c in _entry_there(plan) if c not in plan.checks]
        out.insert(0, ToolPlan.from_dict({**update, "preconditions": kept, "checks": ruled}))
        if checks:
            out.append(ToolPlan.from_dict({**update, "preconditions": kept, "checks": ruled + checks}))
    if answer is not None:  # what the write answers, when not the record
        shaped = {"output_fields": answer[0], "output_map": answer[1]}
        out = out + [ToolPlan.from_dict({**v.to_dict(), **shaped}) for v in out]  # chosen only when it does better
    return out


__all__ = ["learned_variants"]
