"""The answer-shaping function of a rendered tool: shape_<fn>(env_state, record, arguments) builds the documented
answer from the record the call left (codegen renders it after the tool when the plan has an output map)."""

from __future__ import annotations

import json
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.summary_rows import rows_code


def holds(when: dict[str, Any]) -> str:
    """Python for a `when` guard: the record's field, or the call's argument (`{"arg", "default"?}`), in values (or
    the field in none of `not_in`); `all`: each of several guards."""
    if "all" in when:  # each of several guards
        return "(" + " and ".join(holds(part) for part in when["all"]) + ")"
    if "not_in" in when:  # the record's field holds none of these values ("a non-zero fee")
        return f"record.get({json.dumps(when['field'])}) not in {list(when['not_in'])!r}"
    if "arg" in when:
        return f"arguments.get({json.dumps(when['arg'])}, {when.get('default')!r}) in {list(when['in'])!r}"
    return f"record.get({json.dumps(when['field'])}) in {list(when['in'])!r}"


def charges(plan: ToolPlan) -> bool:
    """The answer reports a fee the call charged or a value the record held, which depend on the record as the
    call found it."""
    return any(m.get("op") in ("charged", "before") for m in plan.output_map.values())


def _linked_order(spec: dict[str, Any]) -> str:
    """The records a `linked_one` answer looks through, in order: by key; the latest first ("the most recent ...")
    by the date field it names (then by key), or by key alone."""
    items = f"(env_state.get({spec['collection']!r}) or {{}}).items()"
    latest = spec.get("latest")
    if not latest:
        return f"sorted({items})"
    if latest is True:
        return f"sorted({items}, reverse=True)"
    day = f"str(pair[1].get({latest!r}) or '') if isinstance(pair[1], dict) else ''"
    return f"sorted({items}, key=lambda pair: ({day}, pair[0]), reverse=True)"


def shape_code(fn: str, plan: ToolPlan) -> str:
    """shape_<fn>(env_state, record, arguments): the listed fields, those of a referenced record looked up through
    it, derived figures and arguments answered back."""
    before = ", before=None" if charges(plan) else ""
    lines = [
        f"\n\ndef shape_{fn}(env_state, record, arguments{before}):\n",
        "    if not isinstance(record, dict):\n        return record\n",
        "    out = {}\n",
    ]
    for name in plan.output_fields:
        spec = plan.output_map.get(name)
        if spec is None:
            lines.append(f"    if {name!r} in record:\n        out[{name!r}] = record[{name!r}]\n")
            continue
        if spec["op"] == "ids":  # the keys of another collection's records that name this one
            where = "".join(  # only those holding one of these values (learned from recorded answers)
                f"        and r.get({field!r}) in {list(values)!r}\n"
                for field, values in sorted((spec.get("where") or {}).items())
            )
            lines.append(
                f"    out[{name!r}] = sorted(\n"
                f"        k for k, r in collection(env_state, {spec['collection']!r}).items()\n"
                f"        if isinstance(r, dict) and record.get({plan.key_field!r}) is not None\n"
                f"        and str(r.get({spec['ref']!r})) == str(record.get({plan.key_field!r}))\n"
                f"{where}"
                f"    )\n"
            )
            if spec.get("one"):  # the one such key, or None
                lines.append(f"    out[{name!r}] = out[{name!r}][0] if out[{name!r}] else None\n")
            continue
        if spec["op"] == "rows":  # the records of another collection it lists or that name it, cut to some fields
            lines.append(rows_code(name, spec, plan.key_field))
            continue
        if spec["op"] == "join":  # several fields of the referenced record, joined ("name and strength")
            lines.append(
                f"    node = collection(env_state, {spec['collection']!r}).get(str(record.get({spec['via']!r})))\n"
                f"    parts = [node.get(p[0]) if isinstance(node, dict) else None for p in {spec['paths']!r}]\n"
                f"    out[{name!r}] = {spec['sep']!r}.join(str(p) for p in parts if p not in (None, ''))"
                f" if isinstance(node, dict) else None\n"
            )
            continue
        if spec["op"] == "count":  # how many records of another collection name this one (with the values given)
            ref, key = spec["ref"], plan.key_field
            lines.append(
                f"    out[{name!r}] = len([\n"
                f"        r for r in collection(env_state, {spec['collection']!r}).values()\n"
                f"        if isinstance(r, dict) and record.get({key!r}) is not None\n"
                f"        and str(r.get({ref!r})) == str(record.get({key!r}))\n"
                f"        and all([r.get(f) == v for f, v in {spec['where']!r}.items()])\n"
                + (
                    f"        and all([arguments.get(a) is None or r.get(f) == arguments.get(a)"
                    f" for f, a in {spec['where_args']!r}.items()])\n"
                    if spec.get("where_args")
                    else ""
                )
                + "    ])\n"
            )
            continue
        if spec["op"] == "arg":  # the call's argument, answered back ("paid": the amount paid), or its default
            default = f", {spec['default']!r}" if spec.get("default") is not None else ""
            lines.append(f"    out[{name!r}] = copy.deepcopy(arguments.get({spec['name']!r}{default}))\n")
            continue
        if spec["op"] == "figure":  # an amount the change computed first (defined_amounts), kept beside the record
            lines.append(
                f"    out[{name!r}] = copy.deepcopy((record.get('__figures__') or {{}}).get({spec['name']!r}))\n"
            )
            continue
        if spec["op"] == "answer_calc":  # two numbers answered before it, combined ("change": depth - previous)
            lines.append(
                f"    left, right = out.get({spec['left']!r}), out.get({spec['right']!r})\n"
                f"    both = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))\n"
                f"    out[{name!r}] = left {spec['operator']} right if both else None\n"
            )
            continue
        if spec["op"] == "place":  # where the argument stands in one of the record's lists, from 1
            lines.append(
                f"    listed = record.get({spec['path'][0]!r}) or []\n"
                f"    wanted = arguments.get({spec['arg']!r})\n"
                f"    out[{name!r}] = listed.index(wanted) + 1 if wanted in listed else None\n"
            )
            continue
        if spec["op"] == "own":  # a field of the record under another name ("boat_status": its `status`)
            lines.append(f"    out[{name!r}] = copy.deepcopy(record.get({spec['field']!r}))\n")
            continue
        if spec["op"] == "entry":  # a field of the entry the call appended last to one of the record's lists
            lines.append(
                f"    listed = record.get({spec['list']!r}) or [None]\n"
                f"    out[{name!r}] = copy.deepcopy(listed[-1].get({spec['field']!r})) if isinstance(listed[-1], dict)"
                f" else None\n"
            )
            continue
        if spec["op"] == "allocated":  # what an amount spread over other records put where (allocations.py)
            lines.append(
                f"    out[{name!r}] = [{{f: part[k] for f, k in {spec['fields']!r}.items()}}"
                f" for part in record.get('__allocated__') or []]\n"
            )
            continue
        if spec["op"] == "above":  # a count of the record above a bound ("true while ... visits left")
            held = "record" + "".join(f".get({p!r}, {{}})" for p in spec["path"][:-1])
            lines.append(
                f"    count = {held}.get({spec['path'][-1]!r}) if isinstance({held}, dict) else None\n"
                f"    out[{name!r}] = number_or_zero(count) > {spec['value']!r}\n"
            )
            continue
        if spec["op"] == "linked_one":  # the one record of another collection naming this one, or null
            named = f"str(other.get({spec['ref']!r})) == str(arguments.get({spec['arg']!r}))"
            kept = f"{{f: copy.deepcopy(other.get(s)) for f, s in {spec['fields']!r}.items()}}"
            lines.append(
                f"    out[{name!r}] = None\n"
                f"    for other_key, other in {_linked_order(spec)}:\n"
                f"        if isinstance(other, dict) and {named}"
                f" and all([other.get(f) in v for f, v in {spec['where']!r}.items()]):\n"
                f"            out[{name!r}] = {kept}\n"
            )
            if spec.get("key_name"):
                lines.append(f"            out[{name!r}][{spec['key_name']!r}] = other_key\n")
            lines.append("            break\n")
            continue
        if spec["op"] in ("embed_one", "embed_rows"):  # records its example embeds (example_embeds.py)
            rule = {k: v for k, v in spec.items() if k not in ("op", "today")}
            call = (
                f"fg_embed_one(env_state, record, {rule!r}, {spec['today']!r})"
                if spec["op"] == "embed_one"
                else f"fg_embed_rows(env_state, record, record.get({plan.key_field!r}), {rule!r}, {spec['today']!r})"
            )
            lines.append(f"    out[{name!r}] = {call}\n")
            continue
        if spec["op"] == "passed":  # in some states with a date that has passed (passed_flags.py)
            states, dated = spec["conditions"]
            day = f"record.get({dated['before']!r})"
            cut = f"[: {dated['cut']}]" if dated["cut"] else ""
            lines.append(
                f"    out[{name!r}] = record.get({states['field']!r}) in {list(states['in'])!r}"
                f" and isinstance({day}, str) and {day}{cut} < {dated['value']!r}\n"
            )
            continue
        if spec["op"] == "map_key":  # the key the state keeps the record under (keyed_views.py)
            kept = f"(env_state.get({spec['collection']!r}) or {{}})"
            lines.append(f"    out[{name!r}] = next((k for k, r in sorted({kept}.items()) if r == record), None)\n")
            continue
        if spec["op"] == "own_join":  # a text the record keeps in parts (`first_name`, `last_name`)
            parts = f"[record.get(p) for p in {list(spec['paths'])!r}]"
            lines.append(
                f"    out[{name!r}] = {spec['sep']!r}.join([str(p) for p in {parts} if p not in (None, '')])\n"
            )
            continue
        if spec["op"] == "is_set":  # whether the record holds a value in a field
            lines.append(f"    out[{name!r}] = record.get({spec['path'][0]!r}) not in (None, '', [], {{}})\n")
            continue
        if spec["op"] == "changed_keys":  # filled by the tool once the call is done (codegen: moved_code)
            lines.append(f"    out[{name!r}] = []\n")
            continue
        if spec["op"] == "edited":  # the values a paired edit was given to add or remove (paired_lists.py)
            lines.append(
                f"    out[{name!r}] = [g.get({spec['match']!r}) if isinstance(g, dict) else g"
                f" for g in (arguments.get({spec['arg']!r}) or [])]\n"
            )
            continue
        if spec["op"] == "self":  # the record itself, under its noun
            lines.append(f"    out[{name!r}] = copy.deepcopy(record)\n")
            continue
        if spec["op"] == "charged":  # the fee the call charged: none when its starting state did not call for it
            zero = 0.0 if isinstance(spec["amount"], float) else 0
            when = spec.get("when")
            held = (
                "True"
                if not when
                else holds(when)
                if "arg" in when
                else f"isinstance(before, dict) and before.get({when['field']!r}) in {when['in']!r}"
            )
            lines.append(f"    out[{name!r}] = {spec['amount']!r} if {held} else {zero!r}\n")
            continue
        if spec["op"] == "before":  # a field of the record as the call found it (a count it then moved)
            lines.append(
                f"    out[{name!r}] = copy.deepcopy(before.get({spec['path'][0]!r}))"
                f" if isinstance(before, dict) else None\n"
            )
            continue
        if spec["op"] == "const":  # one value every recorded answer held (the business date)
            lines.append(f"    out[{name!r}] = copy.deepcopy({spec['value']!r})\n")
            continue
        if spec["op"] == "renamed":  # one of its own fields, answered under another name (trace_answers.py)
            lines.append(f"    out[{name!r}] = copy.deepcopy(record.get({spec['path'][0]!r}))\n")
            continue
        if spec["op"] == "last_entry":  # the entry the call appended to one of its lists, whole
            lines.append(
                f"    entries = record.get({spec['path'][0]!r}) or []\n"
                f"    out[{name!r}] = copy.deepcopy(entries[-1]) if isinstance(entries, list) and entries else None\n"
            )
            continue
        if spec["op"] == "end_entry":  # a field of a list's first (or last) entry: "the price of the lowest tier"
            lines.append(
                f"    entries = [e for e in (record.get({spec['path'][0]!r}) or []) if isinstance(e, dict)]\n"
                f"    out[{name!r}] = copy.deepcopy(entries[{-1 if spec['last'] else 0}].get({spec['path'][1]!r}))"
                f" if entries else None\n"
            )
            continue
        if spec["op"] in ("len", "nested"):  # a list's length, or a key of one of its objects (`city` of `address`)
            head = f"record.get({spec['path'][0]!r})"
            value = f"len({head} or [])" if spec["op"] == "len" else f"copy.deepcopy({head}.get({spec['path'][-1]!r}))"
            guard = "" if spec["op"] == "len" else f" if isinstance({head}, dict) else None"
            lines.append(f"    out[{name!r}] = {value}{guard}\n")
            continue
        if spec["op"] == "sum":  # a number summed over the objects of one of the record's lists
            lines.append(
                f"    out[{name!r}] = sum([number_or_zero(e.get({spec['path'][1]!r})) for e in"
                f" (record.get({spec['path'][0]!r}) or []) if isinstance(e, dict)])\n"
            )
            continue
        if spec["op"] == "date_state":  # "computed from valid_until and today": one value once the date is past
            lines.append(
                f"    dated = record.get({spec['path'][0]!r})\n"
                f"    out[{name!r}] = {spec['passed']!r} if dated and str(dated) < {spec['today']!r}"
                f" else {spec['else']!r}\n"
            )
            continue
        if spec["op"] == "all_current":  # "true when every permit is valid today" (current_flags.py)
            lines.append(
                f"    held = record.get({spec['path'][0]!r})\n"
                "    entries = held if isinstance(held, list) else"
                " list(held.values()) if isinstance(held, dict) else []\n"
                f"    out[{name!r}] = all([isinstance(e, dict) and str(e.get({spec['date']!r}) or '')"
                f" >= {spec['today']!r} for e in entries])\n"
            )
            continue
        if spec["op"] == "calc":  # a figure from two of the record's numbers
            floor = (
                ""
                if spec.get("floor") is None
                else f"\n    value = value if value is None else max({spec['floor']!r}, value)"
            )
            lines.append(
                f"    left = number_or_zero(record.get({spec['left']!r}))\n"
                f"    right = number_or_zero(record.get({spec['right']!r}))\n"
                f"    value = left {spec['operator']} right if {spec['operator']!r} != '/' or right else None{floor}\n"
                f"    out[{name!r}] = value\n"
            )
            if spec.get("null_when"):  # "(null for closed piers)"
                lines.append(f"    out[{name!r}] = None if {holds(spec['null_when'])} else out[{name!r}]\n")
            continue
        lines.append(
            f"    node = collection(env_state, {spec['collection']!r}).get(str(record.get({spec['via']!r})))\n"
            f"    for step in {list(spec['path'])!r}:\n"
            f"        node = node.get(step) if isinstance(node, dict) else None\n"
            f"    out[{name!r}] = copy.deepcopy(node)\n"
        )
        if spec.get("null_when"):  # "or null for cash refunds": none while the record holds that value
            lines.append(f"    out[{name!r}] = None if {holds(spec['null_when'])} else out[{name!r}]\n")
    return "".join(lines) + "    return out\n"


def moved_code(plan: ToolPlan) -> tuple[str, str]:
    """(before, after) lines of a tool whose answer lists the keys of another collection's records the call
    changed (trace_answers.py `changed_keys`): a copy of that collection taken first, the keys filled in last."""
    moved = [(n, m["collection"]) for n, m in plan.output_map.items() if m.get("op") == "changed_keys"]
    first = "".join(f"    was_{i} = copy.deepcopy(collection(env_state, {c!r}))\n" for i, (_, c) in enumerate(moved))
    last = "".join(
        f"    result[{n!r}] = sorted(\n"
        f"        str(k) for k, r in collection(env_state, {c!r}).items() if r != was_{i}.get(k)\n"
        f"    )\n"
        for i, (n, c) in enumerate(moved)
    )
    return first, last


__all__ = ["charges", "holds", "moved_code", "shape_code"]
