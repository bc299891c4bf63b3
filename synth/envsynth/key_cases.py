"""Cases that name an existing record: generated arguments carry sampled keys that rarely exist, so a keyed
tool's tests may never reach its success path. These cases take a test state with records and put one of its
keys where the plan reads a key (the key parameter, a list of keys, or a key field of batch items); either
outcome is accepted, and the publish gate sees whether any call succeeds."""

from __future__ import annotations

import copy
import re
from datetime import date, timedelta
from typing import Any, Callable

from synth.envsynth.expr_runtime import fg_evaluate, fg_number, fg_value
from synth.envsynth.list_runtime import fg_linked
from synth.envsynth.paired_lists import meet_removals
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.words import plural

KEYED = {
    "get",
    "update",
    "delete",
    "batch_delete",
    "list_append",
    "list_remove",
    "get_many",
    "action",
    "recorded_update",
    "filter",
    "item_add",
    "item_remove",
}


def _matching(plan: ToolPlan, record: dict[str, Any]) -> dict[str, Any] | None:
    """Filter arguments that this record matches: its values of the filtered fields (nested ones included)."""
    args: dict[str, Any] = {}
    for name in plan.filter_params:
        if name in record:
            args[name] = copy.deepcopy(record[name])
    for name, path in sorted(plan.field_paths.items()):
        parent, child = path.split(".", 1)
        holder = record.get(parent)
        if isinstance(holder, dict) and child in holder:
            args[name] = copy.deepcopy(holder[child])
    return args or None


def _typed(old: Any, key: str) -> Any:
    """The key in the type the generated argument had (an integer id stays an integer)."""
    return int(key) if isinstance(old, int) and not isinstance(old, bool) and key.lstrip("-").isdigit() else key


def _with_key(plan: ToolPlan, arguments: dict[str, Any], key: str) -> dict[str, Any] | None:
    args = copy.deepcopy(arguments)
    if plan.batch_param:
        items = args.get(plan.batch_param)
        if not isinstance(items, list) or not items:
            return None
        if plan.item_key:
            if not isinstance(items[0], dict):
                return None
            args[plan.batch_param] = [{**items[0], plan.item_key: _typed(items[0].get(plan.item_key), key)}]
        else:
            args[plan.batch_param] = [_typed(items[0], key)]
        return args
    if plan.key_param:
        args[plan.key_param] = _typed(args.get(plan.key_param), key)
        return args
    return None


def _day_after(day: str, step: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=step)).isoformat()


def _meet_checks(plan: ToolPlan, state: dict[str, Any], target: dict[str, Any], args: dict[str, Any]) -> None:
    """Make the record and the call meet the plan's checks that a state or an argument can meet: a linked record
    in an allowed state, a date (of the record or a linked one) on the allowed side of a fixed date, the argument a
    linked record holds, two linked records sharing a value."""
    for check in plan.checks:
        op = check.get("op")
        linked = (state.get(check.get("collection") or "") or {}).get(str(target.get(check.get("via") or "")))
        if op == "linked_state" and isinstance(linked, dict) and check.get("allowed"):
            linked[check["field"]] = copy.deepcopy(check["allowed"][0])
        elif op == "matches" and isinstance(linked, dict) and linked.get(check["field"]) is not None:
            args[check["arg"]] = copy.deepcopy(linked[check["field"]])
        elif op == "arg_limit" and check.get("cmp") == ">=" and len((check.get("expr") or {}).get("plus") or []) == 1:
            path = check["expr"]["plus"][0].get("path") or [None]  # "cannot be lower than the last reading": equal it
            held = target.get(path[0]) if len(path) == 1 else None
            if isinstance(held, (int, float)) and not isinstance(held, bool):
                args[check["arg"]] = copy.deepcopy(held)
        elif op == "differs" and check["a"].get("from") == "record" and check["b"].get("from") == "const":
            field = check["a"]["path"][0]  # "refused if `read_on` is already today": a day before
            if target.get(field) == check["b"].get("value") and isinstance(target.get(field), str):
                try:
                    target[field] = _day_after(target[field], -1)
                except ValueError:
                    target[field] = None
        elif op == "cap" and isinstance(state.get(check["collection"]), dict):
            _meet_cap(check, state[check["collection"]], args)
        elif op == "bound" and check.get("from") != "self" and isinstance(linked, dict):
            _meet_bound(check, linked)
        elif op == "list_cap" and check.get("of_holder") and len(check.get("chain") or []) == 1:
            hop = check["chain"][0]
            holder = (state.get(hop["collection"]) or {}).get(str(target.get(hop["via"])))
            cap = holder.get(check["field"]) if isinstance(holder, dict) else None
            if isinstance(cap, int | float) and cap >= 1 and isinstance(holder.get(check["list"]), list):
                holder[check["list"]] = holder[check["list"]][: int(cap) - 1]  # a place left
        elif op == "dated" and isinstance(check.get("value"), str):
            holder = linked if "via" in check else target  # a date of the linked record, or of the record itself
            if not isinstance(holder, dict) or not isinstance(holder.get(check["field"]), str):
                continue
            try:
                step = {">": 1, "<": -1}.get(check["cmp"], 0)
                if "time_field" in check:  # a start ahead of (or behind) the clock: a day later (earlier)
                    step = 1 if check["cmp"] in (">", ">=") else -1
                holder[check["field"]] = _day_after(check["value"][:10], step)
            except ValueError:
                continue
        elif op == "arg_limit" and check.get("cmp") == "<=" and "expr" in check and _owed_cap(check, args):
            _meet_owed(check, state, target, args)
        elif op == "enough" and "most" not in check and _holds(check.get("when"), args):
            _meet_enough(check, state, target, args)
        elif op == "value_is" and (check.get("source") or {}).get("from") == "record" and check.get("in"):
            path = check["source"].get("path") or []  # "club group charters only": the record made one
            if len(path) == 1 and _holds(check.get("when"), args):
                target[path[0]] = copy.deepcopy(check["in"][0])
        elif op == "linked_same":  # the second linked record takes the first one's value
            one, two = (fg_linked(side, "", target, state) for side in (check["first"], check["second"]))
            if isinstance(one, dict) and isinstance(two, dict) and check["field"] in one:
                two[check["field"]] = copy.deepcopy(one[check["field"]])


def _meet_enough(check: dict[str, Any], state: dict[str, Any], target: dict[str, Any], args: dict[str, Any]) -> None:
    """A balance the call draws on raised to cover the amount ("the balance must cover the whole total")."""
    node: Any = state.get(check["collection"])
    for source in check["path"]:
        part = fg_value(source, args, target)
        node = node.get(part) if isinstance(node, dict) and isinstance(part, str) else None
    need = fg_evaluate(check["amount"], args, target, state)
    have = node.get(check["field"]) if isinstance(node, dict) else None
    if fg_number(have) and fg_number(need) and have < need:
        node[check["field"]] = need


def _owed_cap(check: dict[str, Any], args: dict[str, Any]) -> bool:
    """A cap by the call's own record's numbers, under no guard or an argument's guard that holds (a guard on the
    record's state, or a cap by another record, is met elsewhere)."""
    when = check.get("when") or {}
    if check.get("via_arg") or check.get("while_named") or (when and "arg" not in when):
        return False
    return _holds(when or None, args)


def _meet_owed(check: dict[str, Any], state: dict[str, Any], target: dict[str, Any], args: dict[str, Any]) -> None:
    """An amount within what the record leaves outstanding (`total - amount_paid`): nothing paid yet when nothing
    is left, and the amount at most what is left."""
    if not fg_number(args.get(check["arg"])):
        return
    left = fg_evaluate(check["expr"], args, target, state)
    for operand in (check["expr"].get("minus") or []) if fg_number(left) and left <= 0 else []:
        path = operand.get("path") if isinstance(operand, dict) else None
        if path and len(path) == 1 and fg_number(target.get(path[0])):
            target[path[0]] = type(target[path[0]])(0)
    left = fg_evaluate(check["expr"], args, target, state)
    if fg_number(left) and left > 0:
        args[check["arg"]] = min(args[check["arg"]], left)


def _holds(when: dict[str, Any] | None, args: dict[str, Any]) -> bool:
    """Whether a check's argument guard holds for the call (no guard: always)."""
    return not when or args.get(when["arg"], when.get("default")) in when["in"]


def _meet_cap(check: dict[str, Any], counted: dict[str, Any], args: dict[str, Any]) -> None:
    """Below the cap: the records naming the argument's record in the counted states move to another state the
    collection's records hold (dropped when none holds another)."""
    where = check.get("where") or {}
    naming = [
        k
        for k, r in sorted(counted.items())
        if isinstance(r, dict)
        and str(r.get(check["field"])) == str(args.get(check["arg"]))
        and all(r.get(f) in vs for f, vs in where.items())
    ]
    if len(naming) < check.get("max", 1):
        return
    for key in naming:
        for field, states in sorted(where.items()):
            other = [r.get(field) for r in counted.values() if isinstance(r, dict) and r.get(field) not in states]
            if not other:
                counted.pop(key, None)
                break
            counted[key][field] = copy.deepcopy(other[0])


def _meet_bound(check: dict[str, Any], linked: dict[str, Any]) -> None:
    """The linked record's number on the allowed side of a fixed limit (the limit itself where that is allowed)."""
    value, limit = linked.get(check["field"]), check.get("value")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (value, limit)):
        return
    from synth.envsynth.expr_runtime import fg_check

    if not fg_check({**check, "from": "self"}, {}, linked, {}):
        step = {">": 1, "<": -1}.get(check["cmp"], 0)
        linked[check["field"]] = limit + step


def _meet_dates(plan: ToolPlan, args: dict[str, Any]) -> None:
    """Put in each date argument the plan's `arg_date` checks hold the first day from the business date on that
    meets them all (a weekday after today, at most 30 days ahead)."""
    from synth.envsynth.expr_runtime import fg_check

    dated: dict[str, list[dict[str, Any]]] = {}
    for check in plan.checks:
        if check.get("op") == "arg_date" and check.get("today"):
            dated.setdefault(check["arg"], []).append(check)
    for arg, checks in sorted(dated.items()):
        for step in range(0, 61):
            day = _day_after(checks[0]["today"], step)
            if all(fg_check(c, {**args, arg: day}, {}, {}) for c in checks):
                args[arg] = day
                break


def _meet_later(plan: ToolPlan, target: Any, args: dict[str, Any]) -> None:
    """A date argument the day after the value the keyed entry it must come after holds (keyed_entries.py)."""
    for check in plan.checks if isinstance(target, dict) else []:
        if check.get("op") != "entry_later":
            continue
        entry = (target.get(check["field"]) or {}).get(str(args.get(check["key_arg"])))
        held = entry.get(check["sub"]) if isinstance(entry, dict) else None
        try:
            later = _day_after(str(held), 1)
        except ValueError:
            continue  # no date held: any argument comes after it
        if str(args.get(check["arg"])) <= str(held):
            args[check["arg"]] = later


def _meet_ranges(plan: ToolPlan, state: dict[str, Any] | None, args: dict[str, Any]) -> None:
    """Hold a number argument within the bounds its `arg_limit` checks give: at least a fixed low bound, at most
    the number of the record another argument names (`via_arg`)."""
    for check in plan.checks if isinstance(state, dict) else []:
        if check.get("op") != "arg_limit" or not isinstance(args.get(check["arg"]), (int, float)):
            continue
        if check.get("cmp") == ">=" and isinstance(check.get("value"), (int, float)):
            args[check["arg"]] = max(args[check["arg"]], check["value"])
        elif check.get("cmp") == "<=" and check.get("via_arg") and len(check["expr"].get("plus") or []) == 1:
            holder = (state.get(check["collection"]) or {}).get(str(args.get(check["via_arg"])))
            path = check["expr"]["plus"][0].get("path") or [None]
            held = holder.get(path[0]) if isinstance(holder, dict) else None
            if isinstance(held, (int, float)) and not isinstance(held, bool):
                args[check["arg"]] = min(args[check["arg"]], held)


def _meet_parts(plan: ToolPlan, state: dict[str, Any] | None, target: Any, args: dict[str, Any]) -> None:
    """Give a code argument a leading part the `part_in` range holds, and the record a `named_part` check names the
    part of the changed record's code (code_parts.py)."""
    for check in plan.checks if isinstance(state, dict) else []:
        if check.get("op") == "part_in" and isinstance(args.get(check["own"]), str):
            tail = args[check["own"]].split(check["sep"], 1)[1:] or ["1"]
            args[check["own"]] = f"{check['in'][0]}{check['sep']}{tail[0]}"
        elif check.get("op") == "named_part" and isinstance(target, dict) and isinstance(target.get(check["own"]), str):
            if _name_record(plan, state, args, check["param"], check["collection"]):
                named = state[check["collection"]][str(args[check["param"]])]
                named[check["field"]] = target[check["own"]].split(check["sep"])[0]


def _meet_entries(plan: ToolPlan, state: dict[str, Any] | None, args: dict[str, Any]) -> None:
    """Name an entry the record an `entry_named` check reads holds (the first of its list)."""
    for check in plan.checks if isinstance(state, dict) else []:
        if check.get("op") != "entry_named":
            continue
        holder = (state.get(check["collection"]) or {}).get(str(args.get(check["via_arg"])))
        entries = holder.get(check["list"]) if isinstance(holder, dict) else None
        if isinstance(entries, list) and entries and isinstance(entries[0], dict) and check["field"] in entries[0]:
            args[check["arg"]] = copy.deepcopy(entries[0][check["field"]])


def _meet_owned(plan: ToolPlan, state: dict[str, Any] | None, args: dict[str, Any]) -> None:
    """Make the record one argument names belong to the one another names, as an `owned` check wants."""
    for check in plan.checks if isinstance(state, dict) else []:
        if check.get("op") != "owned":
            continue
        held = (state.get(check["collection"]) or {}).get(str(args.get(check["arg"])))
        owner = (state.get(check["owner"]) or {}).get(str(args.get(check["owner_arg"])))
        if not isinstance(held, dict) or not isinstance(owner, dict):
            continue
        if "field" in check:
            held[check["field"]] = copy.deepcopy(args.get(check["owner_arg"]))
        elif args.get(check["arg"]) not in (owner.get(check["list"]) or []):
            owner[check["list"]] = list(owner.get(check["list"]) or []) + [copy.deepcopy(args.get(check["arg"]))]


def _name_record(plan: ToolPlan, state: dict[str, Any], args: dict[str, Any], param: str, other: str) -> bool:
    """Point `param` at the first record of `other` in `state`, put in the state the docs require (False when there
    is no such record)."""
    records = state.get(other)
    if not isinstance(records, dict) or not records or not isinstance(records[min(records)], dict):
        return False
    args[param] = _typed(args.get(param), min(records))
    for field, allowed in sorted((plan.ref_requires.get(param) or {}).items()):
        records[min(records)][field] = copy.deepcopy(allowed[0])
    return True


def _naming_cases(
    plan: ToolPlan,
    cases: list[TestCase],
    refs: dict[str, str],
    limit: int,
    more: Callable[[dict[str, Any], dict[str, Any]], bool] | None = None,
) -> list[TestCase]:
    """Cases whose parameters in `refs` name the first record of their collection in the test state (and `more`
    names what else it must); either outcome is accepted, the publish gate sees whether any call succeeds."""
    out: list[TestCase] = []
    for case in cases:
        state = copy.deepcopy(case.state) if isinstance(case.state, dict) else None
        args = copy.deepcopy(case.arguments)
        for param, other in sorted(refs.items()):
            if state is None or not _name_record(plan, state, args, param, other):
                state = None
                break
        if state is not None and more is not None and not more(state, args):
            state = None
        for param in sorted(args) if state is not None and any(c.get("op") == "owned" for c in plan.checks) else []:
            other = plural(param[:-3]) if param.endswith("_id") and param not in refs else None
            records = state.get(other) if other else None  # another id the call gives: a record that exists
            if isinstance(records, dict) and records and str(args[param]) not in records:
                _name_record(plan, state, args, param, other)
        if state is not None:  # the new record is the call's: its links are the arguments
            _meet_checks(plan, state, args, args)
        _meet_dates(plan, args)
        _meet_owned(plan, state, args)
        _meet_ranges(plan, state, args)
        _meet_parts(plan, state, None, args)
        _meet_entries(plan, state, args)
        if state is None or args == case.arguments:
            continue
        out.append(TestCase(tool=case.tool, origin="existing-key", state=state, arguments=args, why="names records"))
        if len(out) >= limit:
            break
    return out


def referenced_cases(plan: ToolPlan, cases: list[TestCase], limit: int = 2) -> list[TestCase]:
    """A create that checks the records its parameters name: cases whose parameters name existing records, put in
    the states the docs require."""
    return _naming_cases(plan, cases, plan.ref_checks, limit)


def quote_cases(plan: ToolPlan, cases: list[TestCase], limit: int = 2) -> list[TestCase]:
    """A quote: cases whose parameters name the first records of the test state (the records its figures read,
    and one line of each list its lines come from)."""
    quote = plan.quote or {}

    def lines_named(state: dict[str, Any], args: dict[str, Any]) -> bool:
        for _, node in quote.get("steps") or []:
            lines = node.get("lines") if isinstance(node, dict) else None
            if not lines or not lines.get("collection"):
                continue
            records = state.get(lines["collection"])
            if not isinstance(records, dict) or not records:
                return False
            first = args.get(lines["param"]) if isinstance(args.get(lines["param"]), list) else []
            element = first[0] if first and isinstance(first[0], dict) else {}
            key = min(records)
            if lines.get("key"):
                args[lines["param"]] = [{**element, lines["key"]: _typed(element.get(lines["key"]), key)}]
            else:
                args[lines["param"]] = [_typed(first[0] if first else None, key)]
        return True

    return _naming_cases(plan, cases, quote.get("named") or {}, limit, lines_named)


def _some_entry(records: dict[str, Any], list_field: str, item_key: str) -> dict[str, Any] | None:
    """A copy of the first entry (holding `item_key`) of `list_field` across the records, in key order."""
    for key in sorted(records):
        values = records[key].get(list_field) if isinstance(records[key], dict) else None
        for entry in values if isinstance(values, list) else []:
            if isinstance(entry, dict) and item_key in entry:
                return copy.deepcopy(entry)
    return None


def _keeps(check: dict[str, Any], record: dict[str, Any]) -> bool:
    """A `keeps` check that holds for this record (one of some kind only: `when_field` / `when_in`)."""
    if check.get("op") != "keeps":
        return False
    return "when_field" not in check or record.get(check["when_field"]) in check.get("when_in", [])


def _another_key(entries: list[Any], key: str) -> Any:
    """A key no entry holds: one past the highest for whole numbers (or for keys of one prefix and a number: "A3"
    after "A1", "A2"), else the last key with a suffix."""
    held = [e.get(key) for e in entries if isinstance(e, dict)]
    numbers = [k for k in held if isinstance(k, int) and not isinstance(k, bool)]
    if numbers and len(numbers) == len(held):
        return max(numbers) + 1
    split = [re.fullmatch(r"(\D*?)(\d+)", k) if isinstance(k, str) else None for k in held]
    if held and all(split) and len({m.group(1) for m in split if m}) == 1:  # "A2" after "A1", "A2"
        top = max(int(m.group(2)) for m in split if m)
        return f"{split[0].group(1) if split[0] else ''}{top + 1}"
    return f"{held[-1]}-{len(held) + 1}"


def existing_key_cases(plan: ToolPlan, cases: list[TestCase], limit: int = 2) -> list[TestCase]:
    """Up to `limit` cases on distinct test states, each naming the state's first record of the plan's collection."""
    if plan.kind == "create" and plan.ref_checks:
        return referenced_cases(plan, cases, limit)
    if plan.kind == "quote":
        return quote_cases(plan, cases, limit)
    if plan.kind not in KEYED or not plan.collection:
        return []
    out: list[TestCase] = []
    seen: set[int] = set()
    for case in cases:
        records = case.state.get(plan.collection) if isinstance(case.state, dict) else None
        if not isinstance(records, dict) or not records or id(case.state) in seen:
            continue
        first = records[min(records)]
        if plan.kind == "filter":
            args = _matching(plan, first) if isinstance(first, dict) else None
        else:
            args = _with_key(plan, case.arguments, min(records))
        if args is None or args == case.arguments:
            continue
        seen.add(id(case.state))
        state = copy.deepcopy(case.state)
        target = state[plan.collection][min(records)]
        for field, allowed in sorted(plan.preconditions.items()) if isinstance(target, dict) else []:
            if allowed and target.get(field) not in allowed:  # a record in a state the docs allow
                target[field] = copy.deepcopy(allowed[0])
        if isinstance(target, dict):
            _meet_checks(plan, state, target, args)
        _meet_dates(plan, args)
        _meet_later(plan, target, args)
        for param, other in sorted(plan.ref_checks.items()) if plan.kind.startswith("item_") else []:
            _name_record(plan, state, args, param, other)
        _meet_owned(plan, state, args)
        _meet_ranges(plan, state, args)
        _meet_parts(plan, state, target, args)
        _meet_entries(plan, state, args)
        meet_removals(plan, target, args)  # names the record holds, as many as its cap leaves room for
        if plan.kind == "item_remove" and plan.op_param and plan.list_field and isinstance(first, dict):
            values = state[plan.collection][min(records)].get(plan.list_field)
            if isinstance(values, list) and values and plan.item_key and isinstance(values[0], dict):
                free = [v for v in values if not _refused_entry(plan, v)] or values  # "system lines cannot be ..."
                args[plan.op_param] = copy.deepcopy(free[0].get(plan.item_key))  # an element the record holds
                target = state[plan.collection][min(records)]
                least = max([c.get("least", 0) for c in plan.checks if _keeps(c, target)] or [0])
                for _ in range(least - len(values) + 1):  # "the last line cannot be removed": one more to keep
                    values.append({**copy.deepcopy(values[-1]), plan.item_key: _another_key(values, plan.item_key)})
            elif isinstance(values, list) and values:  # remove a value the record holds (one it may lose)
                kept = [
                    state[plan.collection][min(records)].get(c["b"]["path"][0])
                    for c in plan.checks
                    if c.get("op") == "differs"
                    and c["a"].get("name") == plan.op_param
                    and c["b"].get("from") == "record"
                ]
                args[plan.op_param] = copy.deepcopy(([v for v in values if v not in kept] or values)[0])
            elif plan.item_key:  # an empty list of entries: one another record holds, moved over
                donor = _some_entry(state[plan.collection], plan.list_field, plan.item_key)
                if donor is not None:
                    state[plan.collection][min(records)][plan.list_field] = [donor]
                    args[plan.op_param] = copy.deepcopy(donor.get(plan.item_key))
            elif plan.op_param in args:
                state[plan.collection][min(records)][plan.list_field] = [copy.deepcopy(args[plan.op_param])]
            if plan.count_field and args.get(plan.count_field) is not None:  # units the element holds
                args[plan.count_field] = 1
            held = state[plan.collection][min(records)].get(plan.list_field)
            for rule in [e for e in plan.effects if e.get("op") == "element_state"]:  # "removes the pending one"
                for entry in held if isinstance(held, list) else []:
                    if isinstance(entry, dict) and entry.get(plan.item_key) == args.get(plan.op_param):
                        entry[rule["field"]] = copy.deepcopy(rule["in"][0])
                        break
        out.append(
            TestCase(
                tool=case.tool,
                origin="existing-key",
                state=state,
                arguments=args,
                why="names an existing record",
            )
        )
        if len(out) >= limit:
            break
    return out


def _refused_entry(plan: ToolPlan, entry: Any) -> bool:
    """An entry the plan's `entry_refused` checks refuse to act on."""
    return isinstance(entry, dict) and any(
        c.get("op") == "entry_refused" and entry.get(c["field"]) in c["in"] for c in plan.checks
    )


__all__ = ["existing_key_cases"]
