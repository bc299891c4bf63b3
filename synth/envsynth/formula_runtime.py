"""Runtime of quote formulas (formula_rules.py, trace_quotes.py): the functions a generated env.py calls to compute a
quote's figures, copied verbatim below the `# runtime` line into env.py files whose tools use them
(codegen.header_source), after expr_runtime.py's, whose `fg_number` they call. Sandbox-safe like that module: plain
functions over JSON values, no imports but `copy`."""

import copy  # noqa: F401  (every env.py imports it)

from synth.envsynth.date_runtime import fg_add_days, fg_day_number  # noqa: F401  (copied in before)
from synth.envsynth.expr_runtime import fg_number  # noqa: F401  (copied in before)

# runtime


def fg_formula(node, arguments, named, values):
    """The value of a documented figure (formula_rules.py): numbers, the call's arguments, earlier figures,
    fields of the records the arguments name or those link (0 for an optional record not given, None for a link
    to nothing), a keyed field at a group's key, tables, arithmetic, min and max, sums over lines or groups."""
    if "num" in node or "const" in node:  # a number, or a documented constant ("USD")
        return node.get("num", node.get("const"))
    if "arg" in node:
        if arguments.get(node["arg"]) is None and "default_field" in node:  # "defaults to the job's hours"
            holder, field = node["default_field"]
            return (named.get(holder) or {}).get(field)
        return arguments.get(node["arg"], node.get("default"))
    if "val" in node:
        return values.get(node["val"])
    if "when" in node:  # {"when": {"arg", "default", "in"}, "then", "else"}: by the value of an argument
        held = arguments.get(node["when"]["arg"], node["when"].get("default"))
        return fg_formula(node["then"] if held in node["when"]["in"] else node["else"], arguments, named, values)
    if "test" in node:  # {"test": node, "in": values}: whether the figure holds one of them (yes/no)
        return fg_formula(node["test"], arguments, named, values) in node["in"]
    if "set" in node:  # {"set": node}: whether the figure holds a value at all
        return fg_formula(node["set"], arguments, named, values) not in (None, "", [], {})
    if "all" in node:  # {"all": [yes/no nodes]}: every one holds
        return all(fg_formula(one, arguments, named, values) is True for one in node["all"])
    if "not" in node:  # {"not": yes/no node}
        return fg_formula(node["not"], arguments, named, values) is not True
    if "any" in node:  # {"any": [yes/no nodes]}: one of them holds
        return any(fg_formula(one, arguments, named, values) is True for one in node["any"])
    if "member" in node:  # {"member": node, "of": list node}: the value is an entry of the list
        held = fg_formula(node["of"], arguments, named, values)
        return isinstance(held, list) and fg_formula(node["member"], arguments, named, values) in held
    if "join" in node:  # {"join": [nodes], "sep"}: the values as text, those left empty skipped
        held = [fg_formula(one, arguments, named, values) for one in node["join"]]
        return node["sep"].join(str(one) for one in held if one not in (None, ""))
    if "if" in node:  # {"if": yes/no node, "then", "else"}
        held = fg_formula(node["if"], arguments, named, values) is True
        return fg_formula(node["then"] if held else node["else"], arguments, named, values)
    if "group_sum" in node:  # {"group_sum": number field, "group"}: the total over a map group's entries
        items = (named.get(node["group"]) or {}).get("items") or []
        terms = [item.get(node["group_sum"]) for item in items if isinstance(item, dict)]
        return round(sum(terms), 6) if all(fg_number(t) for t in terms) else None
    if "count" in node:  # {"count": list figure}: how many entries it holds
        held = values.get(node["count"])
        return len(held) if isinstance(held, (list, dict)) else 0
    if "sum" in node:  # {"sum": lines figure, "of": line field}: the total over the lines
        lines = values.get(node["sum"])
        lines = list(lines.values()) if isinstance(lines, dict) else lines or []  # a map's groups, or lines
        terms = [line.get(node["of"]) for line in lines if isinstance(line, dict)]
        if not all(fg_number(t) for t in terms):
            return None
        return round(sum(terms), 6)
    if "table_arg" in node:  # a documented table keyed by an argument's value
        return node["values"].get(str(arguments.get(node["table_arg"])))
    if "differ" in node:  # 1 when both figures are given and differ ("both branches are given and differ")
        a, b = [fg_formula(n, arguments, named, values) for n in node["differ"]]
        return int(a is not None and b is not None and a != b)
    if "days_between" in node:  # whole days from one date figure to another (nights of a stay)
        start, end = [fg_day_number(fg_formula(n, arguments, named, values)) for n in node["days_between"]]
        return None if start is None or end is None else end - start
    if "calendar" in node:  # a rate per day in [from, to), by the day's month or weekday, of a figure
        return fg_calendar(node["calendar"], arguments, named, values)
    if "if_cmp" in node:  # {"if_cmp": {"a", "op", "b"}, "then", "else"}: by how two figures compare
        a, b = [fg_formula(node["if_cmp"][k], arguments, named, values) for k in ("a", "b")]
        if not fg_number(a) or not fg_number(b):
            return None
        held = {">": a > b, ">=": a >= b, "<": a < b, "<=": a <= b}[node["if_cmp"]["op"]]
        return fg_formula(node["then"] if held else node["else"], arguments, named, values)
    if "if_field" in node:  # {"if_field": {"param", "field", "in"}, "then", "else"}: by a named record's field
        held = (named.get(node["if_field"]["param"]) or {}).get(node["if_field"]["field"])
        return fg_formula(node["then"] if held in node["if_field"]["in"] else node["else"], arguments, named, values)
    if "band" in node:  # {"band": {"of", "limits", "values"}}: the value of the first band the amount does not pass
        amount = fg_formula(node["band"]["of"], arguments, named, values)
        if not fg_number(amount):
            return None
        return next((v for limit, v in zip(node["band"]["limits"], node["band"]["values"]) if amount <= limit), None)
    if "tiers" in node:  # {"tiers": {"param", "field", "limit", "rate"}, "of"}: an amount billed band by band
        return fg_tiers(node["tiers"], fg_formula(node["of"], arguments, named, values), named)
    if "pick" in node:  # an entry of a record's list picked by how one of its numbers compares (line_pricing.py)
        return fg_pick(node["pick"], fg_formula(node["pick"]["at"], arguments, named, values), named)
    if "across" in node:  # the sum of a number over the call's list elements naming the same record
        spec, element = node["across"], named.get(node["across"]["at"]) or {}
        same = [
            e
            for e in arguments.get(spec["param"]) or []
            if isinstance(e, dict) and e.get(spec["key"]) == element.get(spec["key"])
        ]
        return sum(e.get(spec["of"]) or 0 for e in same if fg_number(e.get(spec["of"]) or 0))
    if "path" in node:  # a number inside an object a named record keeps ({"path": [object, key], "param"})
        held = named.get(node["param"])
        for step in node["path"]:
            held = held.get(step) if isinstance(held, dict) else None
        return node["default"] if held is None and "default" in node else held  # 0 when it keeps no such object
    if "some" in node:  # whether a line of a lines figure holds one of these values in a field
        lines = values.get(node["some"]) or []
        return any([isinstance(line, dict) and line.get(node["field"]) in node["in"] for line in lines])
    if "total_of" in node:  # the sum of a number over the elements of the call's list
        listed = [
            e.get(node["total_of"]["of"]) for e in arguments.get(node["total_of"]["param"]) or [] if isinstance(e, dict)
        ]
        return sum(one for one in listed if fg_number(one))
    if "days_after" in node:  # {"days_after": node, "today"}: the date that many days after the business date
        return fg_add_days(node["today"], fg_formula(node["days_after"], arguments, named, values))
    if "days_since" in node:  # whole days from a record's date to the business date
        start = fg_day_number((named.get(node["param"]) or {}).get(node["days_since"]))
        end = fg_day_number(node["today"])
        return None if start is None or end is None else end - start
    if "field" in node or "table" in node:
        record = named.get(node["param"])
        if record is None and "absent" in node and node["param"] not in arguments:  # "priced at the standard tier"
            return node["values"].get(node["absent"]) if "table" in node else node["absent"]
        if record is None:  # an optional record the call leaves out counts as 0; a record it names must exist
            return 0 if node["param"] not in arguments and node["param"] not in named else None
        if "field" in node and "at_field" in node:  # a map's entry at another record's field (dated_lines.py)
            keyed, (holder, key) = record.get(node["field"]), node["at_field"]
            return keyed.get(str((named.get(holder) or {}).get(key))) if isinstance(keyed, dict) else None
        if "field" in node and "at" in node:  # a keyed field's entry for the group's key (quote_groups.py)
            keyed = record.get(node["field"])
            return keyed.get((named.get(node["at"]) or {}).get("key")) if isinstance(keyed, dict) else None
        if "field" in node:
            return record.get(node["field"])
        return node["values"].get(str(record.get(node["table"])), node.get("else"))  # `else`: for a key not listed
    if "round" in node:
        inner = fg_formula(node["round"], arguments, named, values)
        if not fg_number(inner):
            return None
        if node.get("way") in ("down", "up"):  # toward zero / away from it, at the digits
            scale = 10 ** node["digits"]
            whole = int(inner * scale)
            if node["way"] == "up" and whole != inner * scale:
                whole += 1 if inner > 0 else -1
            return whole / scale
        if node.get("way") in ("half_up", "half_down"):  # a half goes away from zero (up) or toward it (down)
            scale = 10 ** node["digits"]
            shifted = round(abs(inner) * scale, 6)
            whole = int(shifted)
            if shifted - whole > 0.5 or (shifted - whole == 0.5 and node["way"] == "half_up"):
                whole += 1
            return (whole if inner >= 0 else -whole) / scale
        return round(inner, node["digits"])
    left, right = [fg_formula(arg, arguments, named, values) for arg in node["args"]]
    if node.get("uncapped") and fg_number(left) and right is None:  # a cap the record leaves empty: none
        return left
    if not (fg_number(left) and fg_number(right)):
        return node.get("none")  # a comparison with an empty figure: its `none` value (does not hold), else None
    if node["op"] in ("<=", ">=", "<", ">"):  # a yes/no figure (figure_words.py)
        return {"<=": left <= right, ">=": left >= right, "<": left < right, ">": left > right}[node["op"]]
    if node["op"] in ("min", "max"):
        return min(left, right) if node["op"] == "min" else max(left, right)
    if node["op"] == "/" and not right:
        return None
    worked = {
        "+": lambda: left + right,
        "-": lambda: left - right,
        "*": lambda: left * right,
        "pct_off": lambda: left * (1 - right / 100),
        "/": lambda: left / right,
    }[node["op"]]()
    return round(worked, 9) if isinstance(worked, float) else worked  # 31 x 0.3 is 9.3, not 9.299999999999999


def fg_calendar(spec, arguments, named, values):
    """The sum over the days from `from` up to (not including) `to` of each day's rate: a percent of the `of`
    figure (or an amount when `amount`), by the day's month (1-12) or weekday (0 Monday .. 6 Sunday)."""
    first = fg_formula(spec["from"], arguments, named, values)
    start, end = fg_day_number(first), fg_day_number(fg_formula(spec["to"], arguments, named, values))
    base = fg_formula(spec["of"], arguments, named, values) if "of" in spec else 1
    if start is None or end is None or not fg_number(base) or end - start > 3660:
        return None  # not dates, or a span of more than ten years: no stay is priced day by day over that
    total = 0
    for offset in range(max(0, end - start)):
        day = fg_add_days(first, offset)
        rate = spec.get("months", {}).get(str(int(day[5:7])))
        if rate is None:
            rate = spec.get("weekdays", {}).get(str((start + offset + 2) % 7))
        if rate:
            total += rate if spec.get("amount") else base * rate / 100
    return round(total, 9)


def fg_tiers(spec, amount, named):
    """An amount billed over the bands of a record's list in order: each band's part of the amount above the last
    band's limit, up to its own (cumulative; an empty limit: everything left), at the band's rate."""
    bands = (named.get(spec["param"]) or {}).get(spec["field"])
    if not fg_number(amount) or not isinstance(bands, list):
        return None
    total, floor = 0, 0
    for band in bands:
        limit, rate = (band.get(spec["limit"]), band.get(spec["rate"])) if isinstance(band, dict) else (None, None)
        if not fg_number(rate) or (limit is not None and not fg_number(limit)):
            return None
        top = amount if limit is None else min(amount, limit)
        total += max(0, top - floor) * rate
        if limit is None or amount <= limit:
            break
        floor = limit
    return round(total, 9)


def fg_pick(spec, point, named):
    """The `value` of the entry of a record's list whose `by` number compares to the point as `cmp` says, the highest
    (`most`) or lowest such; None when no entry does."""
    entries = (named.get(spec["param"]) or {}).get(spec["list"])
    if not fg_number(point) or not isinstance(entries, list):
        return None
    fits = [e for e in entries if isinstance(e, dict) and fg_number(e.get(spec["by"]))]
    fits = [e for e in fits if (e[spec["by"]] <= point if spec["cmp"] == "<=" else e[spec["by"]] >= point)]
    if not fits:
        return None
    return (max if spec["most"] else min)(fits, key=lambda e: e[spec["by"]]).get(spec["value"])
