"""List checks of the learned expressions' runtime: a named record's list against a value or another list.

Copied below the `# runtime` line into env.py files after expr_runtime.py's and date_runtime.py's functions
(codegen.header_source), so the same rules hold as for those modules: plain functions over JSON values,
sandbox-safe, no imports.
"""

# runtime

FG_LIST_RULES = (
    "arg_subset",
    "named_holds",
    "arg_by_field",
    "nested_not",
    "each_named",
    "entry_named",
    "flag_needs",
    "named_not_listed",
    "queue_head",
    "none_alike",
    "none_stored",
    "some_stored",
    "named_nested",
    "sum_within",
    "value_is",
    "given_with",
    "linked_lists_arg",
    "entry_later",
    "day_cap",
    "refused_for",
)


def fg_linked(check, prefix, record, state):
    """The record the record's link names (`<prefix>via` into `<prefix>collection`), or None."""
    return (state.get(check[prefix + "collection"]) or {}).get(str(record.get(check[prefix + "via"])))


def fg_list_check(check, record, state, arguments=None):
    """`lacks`, `holds_all` (below), `table_cap` (the linked record's number plus the record's stays within the
    limit a table gives for the linked record's value: "credits_enrolled plus the course credits would exceed the
    term limit (18 for undergraduates, 12 for graduates)") and `element_left` (the entry of the linked record's list
    that the argument of the entry's name picks has its count below its cap: "the tier must have a ticket left") and
    `linked_same` (two records the record links to hold the same value of a field: "the berth must serve the
    skipper's harbour")."""
    if check["op"] == "linked_same":
        one, two = (fg_linked(side, "", record, state) for side in (check["first"], check["second"]))
        return not (isinstance(one, dict) and isinstance(two, dict)) or one.get(check["field"]) == two.get(
            check["field"]
        )
    if check["op"] == "element_left":
        holder = fg_linked(check, "", record, state)
        wanted = (arguments or {}).get(check["by"])
        for entry in (holder or {}).get(check["list"]) or [] if isinstance(holder, dict) else []:
            if isinstance(entry, dict) and entry.get(check["by"]) == wanted:
                count, cap = entry.get(check["count"]), entry.get(check["cap"])
                numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (count, cap))
                return not numbers or count < cap
        return True
    if check["op"] == "table_cap":
        holder = fg_linked(check, "", record, state)
        limit = check["table"].get(str(holder.get(check["key"]))) if isinstance(holder, dict) else None
        held, more = (holder or {}).get(check["field"]), record.get(check["plus"])
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (limit, held, more)):
            return True
        return held + more <= limit
    return fg_list_entries(check, record, state)


def fg_list_entries(check, record, state):
    """`lacks` (the linked record's list does not hold the record's value: "has already completed the course") and
    `holds_all` (every entry of one linked record's list is in another's: "a prerequisite is missing from
    completed_courses"); True when a record or list is not there to say otherwise."""
    holder = fg_linked(check, "", record, state)
    held = holder.get(check["field"]) if isinstance(holder, dict) else None
    if not isinstance(held, list):
        return True
    if check["op"] == "lacks":
        return record.get(check["value_field"]) not in held
    other = fg_linked(check, "by_", record, state)
    have = other.get(check["by_field"]) if isinstance(other, dict) else None
    return not isinstance(have, list) or all(entry in have for entry in held)


def fg_allocate(rule, amount, owner_key, state):
    """An amount spread over the records of `rule["collection"]` that name the owner and hold one of the states
    `rule["in"]`, by date (oldest first unless `newest`), then key: [(record key, record, part taken, new state)].
    Nothing is changed here; each part is at most what the record still lacks of its `total`."""
    if not isinstance(amount, (int, float)) or isinstance(amount, bool) or amount <= 0:
        return []
    records = state.get(rule["collection"]) or {}
    chosen = [
        (str(r.get(rule["order"]) or ""), k)
        for k, r in records.items()
        if isinstance(r, dict) and str(r.get(rule["ref"])) == str(owner_key) and r.get(rule["field"]) in rule["in"]
    ]
    chosen.sort(reverse=bool(rule.get("newest")))
    left, out = amount, []
    for _, key in chosen:
        record = records[key]
        paid, total = record.get(rule["paid"]), record.get(rule["total"])
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (paid, total))
        if left <= 0 or not numbers:
            continue
        taken = round(min(left, round(total - paid, 2)), 2)
        if taken <= 0:
            continue
        left = round(left - taken, 2)
        covered = round(paid + taken, 2) >= total
        out.append(
            (key, record, taken, rule["covered"] if covered else (rule.get("partial") or record.get(rule["field"])))
        )
    return out


def fg_like(old, new):
    """`new`, as a float when `old` was one and `new` is a whole number (a figure recomputed to 0 stays 0.0)."""
    if isinstance(old, float) and isinstance(new, int) and not isinstance(new, bool):
        return float(new)
    return new


def fg_given(source, arguments, record, state):
    """The value a source gives: an argument, a field of the call's record, or of the record an argument names."""
    if "arg" in source:
        return arguments.get(source["arg"])
    if "own" in source:
        return record.get(source["own"])
    named = (state.get(source["collection"]) or {}).get(str(arguments.get(source["named"])))
    return named.get(source["field"]) if isinstance(named, dict) else None


def fg_list_rule(check, arguments, record, state):
    """`arg_subset`: every id the argument lists is in the record's list; `named_holds`: the record the argument names
    holds the record's field value in its list (a record whose field is empty passes); `arg_by_field`: a number
    argument within the range the record's field value selects; `nested_not`: a value inside an object of the record
    is none of these ("already has an open plan"); `each_named`: every id a list argument names is a record in one
    of the states; `flag_needs`: an argument given (or true) when an entry names a flagged record;
    `named_not_listed`: a value of the record an argument names is not on the list of the record the call's record
    links; `queue_head` / `none_alike`: queue_rules.py; `none_stored`: stored_refusals.py, with `some_stored` and
    `named_nested` (a value inside an object of the record an argument names): type_rows.py; `named_holds` may read
    its value on the record the call's record links (`through`) and pass an empty list (`empty_passes`):
    fit_rules.py; `sum_within`: numbers of the linked record and of the record (a nested one by its path) add up to
    at most the linked record's limit (value_bullets.py); `value_is`, `given_with` and `linked_lists_arg`: rules for
    optional arguments, each holding only while one of its `given` arguments is (given_rules.py); `entry_later`: an
    argument after the value of the keyed entry another argument names (keyed_entries.py); `day_cap`: the amounts of
    today's entries of one kind plus the argument within a daily cap (daily_caps.py); `refused_for`: no linked
    record of a kind in a condition (a number below a bound, or a record of another collection naming it in a state:
    refused_for.py)."""
    if "given" in check and not any([arguments.get(a) not in (None, "") for a in check["given"]["any_given"]]):
        return True  # a rule for optional arguments holds only while one of them is given (given_rules.py)
    if check["op"] == "refused_for":  # a linked record of this kind in this condition refuses the call
        holder = fg_linked(check, "", record, state) if check["via"] else record
        if not isinstance(holder, dict) or holder.get(check["field"]) != check["value"]:
            return True
        cond = check["cond"]
        if "below" in cond:
            held = holder.get(cond["field"])
            return not isinstance(held, (int, float)) or isinstance(held, bool) or held >= cond["below"]
        named = record.get(check["via"])
        others = state.get(cond["collection"]) if isinstance(state.get(cond["collection"]), dict) else {}
        return not any(
            [
                isinstance(r, dict) and r.get(cond["by"]) == named and r.get(cond["field"]) == cond["value"]
                for r in others.values()
            ]
        )
    if check["op"] == "day_cap":  # what today's entries of this kind add up to, with the argument, within a cap
        entries = record.get(check["list"]) if isinstance(record.get(check["list"]), list) else []
        alike = [
            e
            for e in entries
            if isinstance(e, dict)
            and e.get(check["date_field"]) == check["today"]
            and all([e.get(f) == v for f, v in check["kind"].items()])
        ]
        amount = arguments.get(check["arg"])
        if not isinstance(amount, (int, float)) or isinstance(amount, bool):
            return True
        held = [e.get(check["field"]) for e in alike]
        done = sum([v for v in held if isinstance(v, (int, float)) and not isinstance(v, bool)])
        return done + amount <= check["most"] + 1e-9
    if check["op"] == "entry_later":  # an argument after the value the keyed entry it names holds (keyed_entries)
        holder = record.get(check["field"])
        entry = holder.get(str(arguments.get(check["key_arg"]))) if isinstance(holder, dict) else None
        held = entry.get(check["sub"]) if isinstance(entry, dict) else None
        return held in (None, "") or str(arguments.get(check["arg"])) > str(held)
    if check["op"] == "given_with":  # an argument given together with another
        return arguments.get(check["arg"]) not in (None, "")
    if check["op"] == "value_is":  # an argument's or the record's value is one of these, or within bounds
        held = arguments.get(check["source"]["name"]) if check["source"]["from"] == "arg" else record
        for part in check["source"].get("path") or []:
            held = held.get(part) if isinstance(held, dict) else None
        if "in" in check:
            return held in check["in"]
        numeric = isinstance(held, (int, float)) and not isinstance(held, bool)
        return not numeric or (held > check.get("above", held - 1) and held <= check.get("most", held))
    if check["op"] == "linked_lists_arg":  # the record the call's record links lists the argument
        holder = fg_linked(check, "", record, state)
        listed = holder.get(check["list"]) if isinstance(holder, dict) else None
        return not isinstance(listed, list) or arguments.get(check["arg"]) in listed
    if check["op"] == "sum_within":  # numbers of the linked record and of the record add up to at most its limit
        holder = fg_linked(check, "", record, state)
        terms = []
        for term in check["add"]:
            if "count" in term:  # how many places the record's list holds (held_places.py)
                listed = record.get(term["count"]) if isinstance(record, dict) else None
                held = [e.get(term["field"]) if term["field"] else 1 for e in listed or [] if isinstance(e, dict)]
                terms.append(sum(held) if all([isinstance(v, (int, float)) for v in held]) else None)
                continue
            node = holder if "linked" in term else record
            for part in [term["linked"]] if "linked" in term else term["own"]:
                node = node.get(part) if isinstance(node, dict) else None
            terms.append(node)
        limit = holder.get(check["limit"]) if isinstance(holder, dict) else None
        numbers = all([isinstance(v, (int, float)) and not isinstance(v, bool) for v in terms + [limit]])
        return not numbers or round(sum(terms), 6) <= limit
    if check["op"] == "queue_head":  # the linked record's queue is empty or led by the record's own value
        holder = (state.get(check["collection"]) or {}).get(str(record.get(check["via"])))
        queue = holder.get(check["list"]) if isinstance(holder, dict) else None
        return not isinstance(queue, list) or not queue or queue[0] == record.get(check["field"])
    if check["op"] == "none_alike":  # no stored record of the kind holds the same values in the states
        if any([record.get(f) in (None, "") for f in check["fields"]]):
            return True  # no linked record (an optional link left out): nothing it could share
        return not any(
            [
                isinstance(other, dict)
                and other is not record
                and all([other.get(f) == record.get(f) for f in check["fields"]])
                and all([other.get(f) in v for f, v in check["where"].items()])
                for other in (state.get(check["collection"]) or {}).values()
            ]
        )
    if check["op"] == "named_nested":  # a value inside an object of the record an argument names is (not) one of these
        held = (state.get(check["collection"]) or {}).get(str(arguments.get(check["arg"])))
        for part in check["path"]:
            held = held.get(part) if isinstance(held, dict) else None
        return (held in check["in"]) != bool(check.get("not"))
    if check["op"] in ("none_stored", "some_stored"):  # no (some) stored record of the kind matches, in the states
        wanted = {f: fg_given(src, arguments, record, state) for f, src in check["match"].items()}
        if any([v is None for v in wanted.values()]):
            return check["op"] == "none_stored"
        found = any(
            [
                isinstance(other, dict)
                and all([other.get(f) == v for f, v in wanted.items()])
                and all([other.get(f) in v for f, v in check["where"].items()])
                for other in (state.get(check["collection"]) or {}).values()
            ]
        )
        return found if check["op"] == "some_stored" else not found
    if check["op"] == "named_not_listed":  # a value of the record an argument names is not on a linked list
        named = (state.get(check["collection"]) or {}).get(str(arguments.get(check["arg"])))
        holder = (state.get(check["holder"]) or {}).get(str(record.get(check["via"])))
        listed = holder.get(check["list"]) if isinstance(holder, dict) else None
        return not isinstance(named, dict) or not isinstance(listed, list) or named.get(check["field"]) not in listed
    if check["op"] == "flag_needs":  # an entry names a flagged record: the argument must be given (or true)
        held = state.get(check["collection"]) or {}
        entries = record.get(check["list"]) if isinstance(record.get(check["list"]), list) else []
        named = [held.get(str(e.get(check["via"]))) for e in entries if isinstance(e, dict)]
        value = arguments.get(check["arg"])
        flagged = any([isinstance(n, dict) and n.get(check["flag"]) is True for n in named])
        return not flagged or (value is True if check["need"] == "true" else value not in (None, ""))
    if check["op"] == "arg_by_field":
        low_high = check["ranges"].get(str(record.get(check["field"])))
        value = arguments.get(check["arg"])
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return not low_high or not number or low_high[0] <= value <= low_high[1]
    if check["op"] == "nested_not":
        node = record
        for part in check["path"]:
            node = node.get(part) if isinstance(node, dict) else None
        return node not in check["values"]
    if check["op"] == "entry_named":  # the record an argument names lists an entry of the name another gives
        holder = (state.get(check["collection"]) or {}).get(str(arguments.get(check["via_arg"])))
        entries = holder.get(check["list"]) if isinstance(holder, dict) else None
        if not isinstance(entries, list):
            return True
        return any([isinstance(e, dict) and e.get(check["field"]) == arguments.get(check["arg"]) for e in entries])
    if check["op"] == "each_named":  # every id the list argument names is a record in one of these states
        named = state.get(check["collection"]) or {}
        listed = arguments.get(check["arg"])
        return not isinstance(listed, list) or all(
            [isinstance(named.get(str(i)), dict) and named[str(i)].get(check["field"]) in check["in"] for i in listed]
        )
    if check["op"] == "arg_subset":
        listed = arguments.get(check["arg"])
        held = record.get(check["list"])
        return not isinstance(listed, list) or all([i in (held if isinstance(held, list) else []) for i in listed])
    link = check.get("through")  # the value sits on the record the call's record links
    holder = fg_linked({"collection": link["collection"], "via": link["field"]}, "", record, state) if link else record
    wanted = holder.get(check["field"]) if isinstance(holder, dict) else None  # the call's record's, or its link's
    named = (state.get(check["collection"]) or {}).get(str(arguments.get(check["param"])))
    if wanted in (None, "") or not isinstance(named, dict):
        return True
    held = named.get(check["list"])
    if check.get("empty_passes") and held in (None, []):  # a catalogue record that fits every kind
        return True
    return isinstance(held, list) and wanted in held


def fg_each_id(rule, arguments, record, state):
    """(record, amount) for each id of the record's list (less those a list argument names) or of a list argument,
    whose record of the collection holds a number `field`: the record's number `by`, else `step`."""
    ids = record.get(rule["ids"]["list"]) if "list" in rule["ids"] else arguments.get(rule["ids"]["arg"])
    dropped = arguments.get(rule["ids"]["minus_arg"]) if "minus_arg" in rule["ids"] else None
    dropped = dropped if isinstance(dropped, list) else []
    amount = record.get(rule["by"]) if "by" in rule else rule.get("step", 1)
    out = []
    for each in ids if isinstance(ids, list) else []:
        held = (state.get(rule["collection"]) or {}).get(str(each))
        number = held.get(rule["field"]) if isinstance(held, dict) else None
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (number, amount))
        if each not in dropped and numbers:
            out.append((held, amount))
    return out


def fg_code_part(check, arguments, record, state):
    """The part of the record's code before the separator: one of `in` (`part_in`), or the value the record the
    call names holds (`named_part`); a record without such a code passes."""
    code = record.get(check["own"])
    if not isinstance(code, str):
        return True
    part = code.split(check["sep"])[0]
    if check["op"] == "part_in":
        return part in check["in"]
    named = (state.get(check["collection"]) or {}).get(str(arguments.get(check["param"])))
    return not isinstance(named, dict) or named.get(check["field"]) == part
