"""Runtime of learned expressions: the functions a generated env.py calls to evaluate them.

This module is both imported (by the learner, synth/envsynth/trace_exprs.py) and copied verbatim below the
`# runtime` line into env.py files whose tools use it (codegen.header_source), so the learner and the
environment evaluate a rule with the same code. Everything below that line must stay sandbox-safe: plain
functions over JSON values, no imports but `copy` (which every env.py imports).

An expression is `{"plus": [operand...], "minus": [operand...], "abs": bool, "digits": int}`; an operand is
`{"term": {"ids": ARG, "scope": ["record", FIELD] | ["state", COLLECTION], "field": NUMBER_FIELD}}` (the sum of
NUMBER_FIELD over the records the ids in argument ARG name, looked up in the scope), `{"path": [...]}` (a
number of the call's record) or `{"sum": {"list", "field"}}` (a number summed over the entries of one of its lists),
among others (fg_operand).
"""

import copy

from synth.envsynth.date_runtime import (  # noqa: F401
    fg_add_days,
    fg_capacity,
    fg_clock,
    fg_dated,
    fg_day_number,
    fg_no_overlap,
)
from synth.envsynth.list_runtime import FG_LIST_RULES, fg_code_part, fg_each_id, fg_list_check, fg_list_rule  # noqa: F401

# runtime


def fg_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def fg_find_by_id(node, ident, depth=0):
    """The first record under node that ident names: a map entry keyed by it, or a list element with a field
    equal to it (depth first, in stored order)."""
    if depth > 4:
        return None
    if isinstance(node, dict):
        hit = node.get(ident)
        if isinstance(hit, dict):
            return hit
        children = list(node.values())
    elif isinstance(node, list):
        for element in node:
            if isinstance(element, dict) and any(v == ident for v in element.values() if isinstance(v, str)):
                return element
        children = node
    else:
        return None
    for child in children:
        if isinstance(child, (dict, list)):
            found = fg_find_by_id(child, ident, depth + 1)
            if found is not None:
                return found
    return None


def fg_scope(scope, record, state):
    source = record if scope[0] == "record" else state
    return source.get(scope[1]) if isinstance(source, dict) else None


def fg_ids(value):
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return value
    return None


def fg_term(term, arguments, record, state):
    ids = fg_ids(arguments.get(term["ids"]))
    node = fg_scope(term["scope"], record, state)
    if ids is None or node is None:
        return None
    total = 0
    for ident in ids:
        found = fg_find_by_id(node, ident)
        value = found.get(term["field"]) if found is not None else None
        if not fg_number(value):
            return None
        total += value
    return total


def fg_dig(node, path):
    for part in path:
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def fg_operand(operand, arguments, record, state):
    if "const" in operand:
        return operand["const"]
    if "arg" in operand:
        value = arguments.get(operand["arg"], operand.get("default"))
        return value if fg_number(value) else None
    if "term" in operand:
        return fg_term(operand["term"], arguments, record, state)
    if "late" in operand:  # whole days a date of the record lies before the business date (0 when not before)
        then, now = fg_day_number(fg_dig(record, operand["late"]["path"])), fg_day_number(operand["late"]["today"])
        return None if then is None or now is None else max(0, now - then)
    if "ahead" in operand:  # whole days a date of the record lies after the business date (negative when before)
        then, now = fg_day_number(fg_dig(record, operand["ahead"]["path"])), fg_day_number(operand["ahead"]["today"])
        return None if then is None or now is None else then - now
    if "band" in operand:  # a figure by bands of whole days between a date of the record and the business date
        return fg_band(operand["band"], record)
    if "sum" in operand:  # the sum of a number over the entries of one of the record's lists (no field: 1 each)
        field, entries = operand["sum"]["field"], fg_dig(record, [operand["sum"]["list"]])
        values = [e.get(field) if field else 1 for e in entries or [] if isinstance(e, dict)]
        return sum([v for v in values if fg_number(v)]) if isinstance(entries, list) else None
    if "linked" in operand:  # a number of the record the record's link names
        link = operand["linked"]
        holder = (
            (state.get(link["collection"]) or {}).get(str(record.get(link["via"])))
            if isinstance(record, dict)
            else None
        )
        value = holder.get(link["field"]) if isinstance(holder, dict) else None
        return value if fg_number(value) else None
    value = fg_dig(record, operand["path"])
    return value if fg_number(value) else None


def fg_band(band, record):
    """The value of the band the day count falls in (docs_bands.py): a share of a number of the record less a fee,
    never below 0, or a fixed amount; 0 when no band holds the count, None when a date or the base is missing."""
    then, now = fg_day_number(fg_dig(record, band["date"])), fg_day_number(band["today"])
    if then is None or now is None:
        return None
    days = now - then if band["since"] else then - now
    base = fg_dig(record, band["of"]) if band.get("of") else 0
    if not fg_number(base):
        return None
    for step in band["steps"]:
        if step["lo"] <= days and (step["hi"] is None or days <= step["hi"]):
            if "amount" in step:
                return step["amount"]
            return max(0.0, base * step["share"] - step["minus"])
    return 0


def fg_evaluate(expr, arguments, record, state):
    """The expression's value rounded to its digits, or None when an operand is missing."""
    total = 0
    for sign, operands in ((1, expr.get("plus", [])), (-1, expr.get("minus", []))):
        for operand in operands:
            value = fg_operand(operand, arguments, record, state)
            if value is None:
                return None
            total += sign * value
    if expr.get("abs"):
        total = abs(total)
    if expr.get("floor"):  # whole units only ("per whole euro"), counted before the rate
        total = int(total // 1)
    if expr.get("times") is not None:  # a rate per unit ("two points per euro")
        total = total * expr["times"]
    if expr.get("most") is not None:  # a cap ("12 at most")
        total = min(total, expr["most"])
    return round(total, expr.get("digits", 6))


def fg_choice(rule, arguments, record, state):
    """One of two words by the sign of an expression."""
    value = fg_evaluate(rule["expr"], arguments, record, state)
    if value is None:
        return None
    if value == 0:
        return rule["zero"]
    return rule["positive"] if value > 0 else rule["negative"]


def fg_swap(rule, items, arguments, record, state):
    """The list after each element an `old` id names takes the fields of the record the `new` id names."""
    old, new = fg_ids(arguments.get(rule["old"])), fg_ids(arguments.get(rule["new"]))
    if not isinstance(items, list) or old is None or new is None:
        return None
    out = copy.deepcopy(items)
    done = set()
    node = fg_scope(rule["scope"], record, state)
    for a, b in zip(old, new):
        index = None
        for i, element in enumerate(out):
            fresh = i not in done or rule.get("again")  # `again`: a replaced element can be named again
            if fresh and isinstance(element, dict) and element.get(rule["match"]) == a:
                index = i
                break
        looked = fg_find_by_id(node, b)
        if index is None or looked is None:
            return None
        done.add(index)
        for key in out[index]:
            if key in looked:
                out[index][key] = copy.deepcopy(looked[key])
    return out


def fg_value(source, arguments, record):
    """A learned value source: an argument, a path of the record, or a constant."""
    if source["from"] == "arg":
        return arguments.get(source["name"], source.get("default"))
    if source["from"] == "record":
        return fg_dig(record, source["path"])
    return source.get("value")


def fg_check(check, arguments, record, state):
    """A learned precondition: `exists` (the path these sources give is in the state), `differs` (an argument is
    not the record's value), `enough` (a number at a path covers an amount), `flag` (every record an argument's ids
    name has a true flag field), `within` (an argument between two fields of the record another one names), `cap`
    (fewer than a number of records in some states name the argument's record), `filled` (a list field of the
    record is not empty), `deadline` (the business date on the right side of a calendar's date), `linked_state`
    (the record its link names holds an allowed value), `capacity` (each day of the record's span has a unit
    left), `bound` (a number of the record, or of the one an argument names, within a limit), `empty` (a list of
    the record its link names is empty), `dated` (a date of the record on one side of a date), `overlap` (no
    stored record of the same kind clashes with the record's span), `needs` (the value an argument names needs a
    value of the record's linked record), `matches` (an argument is what a field of the record's linked record
    holds, case aside when so said), `list_cap` (a list of the record holds fewer entries than the limit the record
    or one it links to holds), `arg_date` (a date argument after, or within days of, the business date, or on a
    weekday), `arg_clock` (a time argument HH:MM), `refused_if` (not these argument values with a linked record
    so), `kind_needs` (some kinds of a named entry need a holder whose list holds a value), `given` (an argument is
    passed),
    `entry_absent` / `list_room` (no entry of a list holds the argument; the list is below its cap), `entry_refused`
    (an entry an argument names holds none of some values of a field), `arg_limit` (an
    amount argument above 0, or at most a sum of numbers of the record or the one another argument names),
    `transition` (the argument's state is one the record's current state may move to), `same` (an argument is the
    record's value), `named_state` / `named_same` / `named_less` / `named_cmp` (the record an argument names holds an
    allowed value, or the call's record's value, or one number below another, or one the call's record's number is
    compared with), `named_kind_cap` (a record of some kind takes the call's record up to a size only), `owned` (the
    record one argument names belongs to the one another argument names), `linked_same` (list_runtime.py)."""
    if check["op"] == "exists":
        node = state.get(check["collection"])
        for source in check["path"]:
            part = fg_value(source, arguments, record)
            if not isinstance(node, dict) or not isinstance(part, str) or part not in node:
                return False
            node = node[part]
        return True
    if check["op"] == "transition":  # the new state is one the current one may move to
        return str(arguments.get(check["arg"])) in check["map"].get(str(record.get(check["field"])), [])
    if check["op"] == "arg_limit":  # an amount argument within a bound: a number, or a record's numbers' sum
        value = arguments.get(check["arg"])
        holder = record
        if check.get("via_arg"):
            holder = (state.get(check["collection"]) or {}).get(str(arguments.get(check["via_arg"])))
        if "while_named" in check:  # only while the record another argument names holds one of these values
            cond = check["while_named"]
            named = (state.get(cond["collection"]) or {}).get(str(arguments.get(cond["arg"])))
            if not isinstance(named, dict) or named.get(cond["field"]) not in cond["in"]:
                return True
        limit = check["value"] if "value" in check else fg_evaluate(check["expr"], arguments, holder or {}, state)
        if not fg_number(value) or not fg_number(limit):
            return True
        if check["cmp"] == ">=":  # "cannot be lower than the last reading"
            return value >= limit - 1e-9
        return value > limit if check["cmp"] == ">" else value <= limit + 1e-9
    if check["op"] == "arg_clock":  # a time of day HH:MM, when given
        return arguments.get(check["arg"]) is None or fg_clock(arguments.get(check["arg"]))
    if check["op"] == "arg_date":  # a date argument against the business date ("is not after today", "a weekday")
        day, today = fg_day_number(arguments.get(check["arg"])), fg_day_number(check["today"])
        if day is None or today is None:
            return True
        if check["cmp"] == "weekday":
            return (day + 2) % 7 < 5  # 0 Monday .. 6 Sunday
        ahead = day - today - check.get("days", 0)
        return {">": ahead > 0, ">=": ahead >= 0, "<=": ahead <= 0}[check["cmp"]]
    if check["op"] == "kind_needs":  # an entry of these kinds needs a holder whose list holds the value
        kind, need = check["element"], check["holder"]
        owner = (state.get(kind["collection"]) or {}).get(str(record.get(kind["via"])))
        entries = owner.get(kind["list"]) if isinstance(owner, dict) else None
        picked = [e for e in entries or [] if isinstance(e, dict) and e.get(kind["match"]) == record.get(kind["by"])]
        if not picked or picked[0].get(kind["field"]) not in kind["in"]:
            return True
        holder = (state.get(need["collection"]) or {}).get(str(record.get(need["via"])))
        held = holder.get(need["field"]) if isinstance(holder, dict) else None
        return isinstance(held, list) and need["value"] in held
    if check["op"] == "refused_if":  # refused for these argument values when the linked record is as said
        cond = check["if"]
        holder = (state.get(cond["collection"]) or {}).get(str(record.get(cond["via"]))) if "via" in cond else record
        if arguments.get(check["arg"]) not in check["in"] or not isinstance(holder, dict):
            return True
        if "equals" in cond:  # while its field holds one value (certified_args)
            return holder.get(cond["field"]) != cond["equals"]
        if "list" in cond:  # while an entry of its list holds one of these values
            return not any(
                [isinstance(e, dict) and e.get(cond["field"]) in cond["held"] for e in holder.get(cond["list"]) or []]
            )
        if "prefix" in cond:
            return not (isinstance(holder.get(cond["field"]), str) and holder[cond["field"]].startswith(cond["prefix"]))
        if "not_all" in cond:
            return all([holder.get(f) == v for f, v in cond["not_all"].items()])
        if "unless" in cond:  # these values only while its field holds the value ("only for boats flagged")
            return holder.get(cond["field"]) == cond["unless"]
        return holder.get(cond["field"]) is not True
    if check["op"] == "entry_absent":  # no entry of the record's list holds the argument (any case, if so said)
        wanted = arguments.get(check["arg"])
        fold = (lambda v: v.strip().lower() if isinstance(v, str) else v) if check.get("caseless") else (lambda v: v)
        entries = record.get(check["list"]) if isinstance(record.get(check["list"]), list) else []
        return not any([isinstance(e, dict) and fold(e.get(check["field"])) == fold(wanted) for e in entries])
    if check["op"] == "entry_refused":  # an entry of the record's list the argument names holds no refused value
        entries = record.get(check["list"]) if isinstance(record.get(check["list"]), list) else []
        wanted = arguments.get(check["arg"])
        picked = [e for e in entries if isinstance(e, dict) and e.get(check["match"]) == wanted]
        return not picked or any([e.get(check["field"]) not in check["in"] for e in picked])
    if check["op"] == "list_room":  # the record's list holds fewer entries than the cap
        entries = record.get(check["list"])
        return len(entries if isinstance(entries, list) else []) < check["most"]
    if check["op"] == "given":  # an argument the call must pass (with another argument's value, under `when`)
        return arguments.get(check["arg"]) not in (None, "")
    if check["op"] == "same":  # an argument is the record's value ("must equal the mooring's gate code")
        a, b = fg_value(check["a"], arguments, record), fg_value(check["b"], arguments, record)
        if check.get("caseless") and isinstance(a, str) and isinstance(b, str):
            return a.casefold() == b.casefold()
        return a == b
    if check["op"] == "differs":
        return fg_value(check["a"], arguments, record) != fg_value(check["b"], arguments, record)
    if check["op"] == "enough":
        return fg_enough(check, arguments, record, state)
    if check["op"] == "list_cap":  # fewer entries in a list than the limit the record or a linked one holds
        holder = record
        for hop in check["chain"]:
            holder = (state.get(hop["collection"]) or {}).get(str((holder or {}).get(hop["via"])))
        limit = (holder or {}).get(check["field"]) if isinstance(holder, dict) else None
        entries = (holder if check.get("of_holder") and isinstance(holder, dict) else record).get(check["list"])
        return not fg_number(limit) or len(entries if isinstance(entries, list) else []) < limit
    if check["op"] == "cap":  # fewer than `max` records of the collection name the argument's record in those states
        wanted = str(arguments.get(check["arg"]))
        held = [
            r
            for r in (state.get(check["collection"]) or {}).values()
            if isinstance(r, dict)
            and str(r.get(check["field"])) == wanted
            and all([r.get(f) in v for f, v in check["where"].items()])
            and all([str(r.get(p)) == str(arguments.get(p)) for p in check.get("same", [])])
        ]
        return len(held) < check["max"]
    if check["op"] == "within":  # an argument between two fields of the record another argument names
        named = (state.get(check["collection"]) or {}).get(str(arguments.get(check["via_arg"])))
        value = arguments.get(check["arg"])
        if not isinstance(named, dict) or value is None:
            return True
        low, high = named.get(check["low"]), named.get(check["high"])
        if all(isinstance(v, str) for v in (low, value, high)) or all(fg_number(v) for v in (low, value, high)):
            return low <= value <= high
        return True
    if check["op"] == "flag":
        ids = fg_ids(arguments.get(check["ids"]))
        node = fg_scope(check["scope"], record, state)
        if ids is None:
            return True
        for ident in ids:
            found = fg_find_by_id(node, ident)
            if found is None or found.get(check["field"]) is not True:
                return False
        return True
    if check["op"] == "deadline":  # today stands to the date a calendar gives the record's key as `cmp` says
        holder = record
        if check["collection"] is not None:
            ident = record.get(check["via"]) if check["from"] == "record" else arguments.get(check["via"])
            holder = (state.get(check["collection"]) or {}).get(str(ident))
        date = check["dates"].get(str(holder.get(check["field"]))) if isinstance(holder, dict) else None
        if date is None:
            return True
        return check["today"] <= date if check["cmp"] == "<=" else check["today"] > date
    if check["op"] == "bound":  # a number of the record (or of the one an argument names) stays within a limit
        if check.get("from") == "self":
            holder = record
        else:
            holder = (state.get(check["collection"]) or {}).get(str(arguments.get(check["via"])))
        value = holder.get(check["field"]) if isinstance(holder, dict) else None
        if not fg_number(value):
            return True
        limit, cmp = check["value"], check["cmp"]
        if isinstance(limit, dict):  # a cap the record holds itself
            limit = holder.get(limit.get("field"))
            if not fg_number(limit):
                return True
        if cmp == "==":  # "dues settled (`dues_paid` equals `dues_owed`)"
            return abs(value - limit) < 1e-9
        return {"<": value < limit, "<=": value <= limit, ">": value > limit, ">=": value >= limit}[cmp]
    if check["op"] == "needs":  # the value an argument names needs a value of the record's linked record
        need = check["table"].get(str(arguments.get(check["param"])))
        holder = (state.get(check["collection"]) or {}).get(str(record.get(check["via"])))
        if need is None or not isinstance(holder, dict):
            return True
        have = holder.get(check["field"])
        return need in have if isinstance(have, list) else have == need
    if check["op"] in ("named_state", "named_same", "named_less", "named_cmp", "named_kind_cap"):  # named by an arg
        named = (state.get(check["collection"]) or {}).get(str(arguments.get(check["arg"])))
        if not isinstance(named, dict):
            return True  # whether it exists is another check's
        if check["op"] == "named_kind_cap":  # a record of this kind takes the call's record up to a size only
            size = record.get(check["own"])
            return named.get(check["field"]) not in check["in"] or not fg_number(size) or size <= check["most"]
        if check["op"] == "named_cmp":  # a number of the call's record against one of the named record
            mine, theirs = record.get(check["own"]), named.get(check["theirs"])
            if not (fg_number(mine) and fg_number(theirs)):
                return True
            return {"<=": mine <= theirs, "<": mine < theirs, ">=": mine >= theirs, ">": mine > theirs}[check["cmp"]]
        if check["op"] == "named_less":
            low, high = named.get(check["a"]), named.get(check["b"])
            return not (fg_number(low) and fg_number(high)) or low < high
        if check["op"] == "named_state":
            return named.get(check["field"]) in check["allowed"]
        return named.get(check["field"]) == record.get(check["field"])
    if check["op"] == "capacity":  # fewer stored records in these states cover each day than the class has units
        return fg_capacity(check, record, state)
    if check["op"] == "overlap":  # no stored record sharing these fields, in these states, overlaps the span
        return fg_no_overlap(check, record, state)
    if check["op"] == "ordered":  # one value of the record comes after another ("departure is after arrival")
        first, then = record.get(check["first"]), record.get(check["then"])
        return not (isinstance(first, str) and isinstance(then, str)) or then > first
    if check["op"] == "not_held":  # an argument is not the value the record's linked record holds (case, spaces aside)
        holder = (state.get(check["collection"]) or {}).get(str(record.get(check["via"])))
        held = holder.get(check["field"]) if isinstance(holder, dict) else None
        given = str(arguments.get(check["arg"])).casefold().replace(" ", "")
        return held is None or given != str(held).casefold().replace(" ", "")
    if check["op"] == "capped":  # a number of the record stays within a cap its linked record holds
        holder = (state.get(check["collection"]) or {}).get(str(record.get(check["via"])))
        value, cap = record.get(check["field"]), (holder or {}).get(check["cap"])
        return not (fg_number(value) and fg_number(cap)) or value <= cap
    if check["op"] == "matches":  # an argument is the value a field of the record's linked record holds
        holder = (state.get(check["collection"]) or {}).get(str(record.get(check["via"])))
        given, held = arguments.get(check["arg"]), (holder or {}).get(check["field"])
        if not isinstance(holder, dict) or given is None:
            return True
        if check.get("caseless") and isinstance(given, str) and isinstance(held, str):
            return given.casefold() == held.casefold()
        return given == held
    if check["op"] in ("lacks", "holds_all", "table_cap", "element_left", "linked_same"):  # list_runtime.py
        return fg_list_check(check, record, state, arguments)
    if check["op"] == "empty":  # a list of the record the record's link names holds nothing
        holder = (state.get(check["collection"]) or {}).get(str(record.get(check["via"])))
        return not isinstance(holder, dict) or not holder.get(check["field"])
    if check["op"] == "any_of":  # one of the checks holds ("paid up, or on an active plan")
        return any([fg_check(one, arguments, record, state) for one in check["checks"]])
    if check["op"] in FG_LIST_RULES:
        return fg_list_rule(check, arguments, record, state)
    if check["op"] in ("named_part", "part_in"):  # the leading part of a code (code_parts.py)
        return fg_code_part(check, arguments, record, state)
    if check["op"] == "dated":  # a date of the record (or of the one its `via` names) on the stated side of a date
        return fg_dated(check, record, state)
    if check["op"] == "owned":  # the record one argument names belongs to the one another argument names
        held = (state.get(check["collection"]) or {}).get(str(arguments.get(check["arg"])))
        owner = (state.get(check["owner"]) or {}).get(str(arguments.get(check["owner_arg"])))
        if not isinstance(held, dict) or not isinstance(owner, dict):
            return True
        if "field" in check:
            return str(held.get(check["field"])) == str(arguments.get(check["owner_arg"]))
        return arguments.get(check["arg"]) in (owner.get(check["list"]) or [])
    if check["op"] == "linked_state":  # the record the record's link names holds an allowed value
        holder = (state.get(check["collection"]) or {}).get(str(record.get(check["via"])))
        if isinstance(holder, dict) and "only_if" in check:  # a state only records of one kind must hold
            holder = holder if holder.get(check["only_if"]["field"]) in check["only_if"]["in"] else None
        return not isinstance(holder, dict) or holder.get(check["field"]) in check["allowed"]
    if check["op"] == "filled":  # a list field of the record holds at least one entry
        return isinstance(record.get(check["field"]), list) and len(record[check["field"]]) > 0
    raise ValueError("unknown check op %r" % check["op"])  # a rule no runtime reads must not pass silently


def fg_compare(value, op, bound):
    """Whether a number stands to a bound as `op` says (> >= < <=); a missing number never does."""
    if not fg_number(value):
        return False
    return {">": value > bound, ">=": value >= bound, "<": value < bound, "<=": value <= bound}[op]


def fg_fixed(value, decimals):
    """A number as text with a fixed number of decimals, halves rounded away from zero; no number is no text."""
    if value is None:
        return ""
    if not fg_number(value):
        return value
    whole = int(abs(value) * 10**decimals + 0.5 + 1e-9)
    digits = str(whole).rjust(decimals + 1, "0")
    sign = "-" if value < 0 and whole else ""
    return sign + (digits[:-decimals] + "." + digits[-decimals:] if decimals else digits)


def fg_whole(obj):
    """The object, or None when one of its values is missing (an object the docs write out is all there or not)."""
    return None if any(v is None for v in obj.values()) else obj


def fg_text(parts):
    """Parts joined into one text (numbers as written, a missing value as nothing)."""
    return "".join("" if p is None else p if isinstance(p, str) else str(p) for p in parts)


def fg_enough(check, arguments, record, state):
    """A learned precondition: the number at a path (a balance) covers an amount, when both are there; with `most`,
    the number plus the amount stays within it (only when the call passes the `when` argument value, if any)."""
    when = check.get("when")
    if when and arguments.get(when["arg"], when.get("default")) not in when["in"]:
        return True
    node = state.get(check["collection"])
    for source in check["path"]:
        part = fg_value(source, arguments, record)
        if not isinstance(node, dict) or not isinstance(part, str) or part not in node:
            return True
        node = node[part]
    have = node.get(check["field"]) if isinstance(node, dict) else None
    need = fg_evaluate(check["amount"], arguments, record, state)
    if not fg_number(have) or need is None:
        return True
    return round(have + need, 6) <= check["most"] if "most" in check else have >= need
