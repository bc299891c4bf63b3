"""Computed answers read from the docs: a read whose documented answer is an object of figures ("Returns
{account_id, metres, price_per_metre, rebate_percent, total}") computes each one as the docs say.

Every answer field is one of:
- a parameter, echoed (`nights`, with its documented default);
- a field of the record a parameter names (`nightly_rate` of the berth `berth_id` names), or of the element of
  one of its lists that another parameter picks (`price` of the berth's `rates` entry whose `season` is given;
  `season_price` -> `price`);
- a table the docs give in brackets, keyed by a field of a named record ("the account's grade rebate (visitor
  0%, joiner 25%, builder 35%)" -> by the account's `grade`);
- a formula: "subtotal (price per metre x metres)", "total = subtotal + cutting - rebate", "cutting (0.40 per
  board)", "rebate (grade percent of the price, rounded to cents)", "(places - filled)" in the field's own
  description, or one formula no field name opens ("...: price_per_metre x metres, less the account's grade
  rebate (...), rounded to 2 decimals"), for the one figure left;
- a list of lines, a map of groups, or a sum over one (quote_lines.py, quote_groups.py); lines over another
  collection's records that name the quoted record (related_lines.py); numbered price lines (numbered_lines.py); a
  line per day of a stay, priced by the record covering the day (dated_lines.py);
- a percent the prose applies to an earlier figure ("... (gold 5%) is taken off the subtotal", "tax (..., 12%) is
  charged on the discounted total"), the figure after it, and a total the docs leave unsaid (applied_shares.py).

The plan is made only when every answer field is found; a formula node is {"num"} | {"arg", "default"} | {"val":
earlier answer field} | {"field", "param"} | {"table", "param", "values"} | {"op", "args"} (+ - * /, `pct_off` = a *
(1 - b / 100), min, max; an `uncapped` min ignores a cap the record leaves empty) | {"round": node, "digits"} |
{"const": documented value} | {"differ": [a, b]} (1 when both are given and differ) | {"when": {"arg", "default",
"in"}, "then", "else"} | {"sum": lines or map figure, "of": its field} | {"group_sum": number field, "group"} |
{"field", "param", "at": group} (a keyed field read at the group's key), field and table nodes with `absent` (the
value a record the call leaves out reads as; keyed_tables.py), evaluated by formula_runtime.fg_formula; {"lines": ...}
and {"groups": ...} nodes are rendered as loops (code_templates/_blocks.j2 `lines`, `groups`; quote_lines.py,
quote_groups.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from synth.envsynth.figure_rounding import every_rounded
from synth.envsynth.figure_terms import ROUNDED, SPLIT, alike, definitions, loose_formulas, param_default
from synth.envsynth.keyed_tables import differ_fee_node, documented_constant, share_node, waived_node
from synth.envsynth.lead_conditions import lead_condition, stated_date
from synth.envsynth.line_checks import whole_call_caps
from synth.envsynth.numbered_lines import numbered_lines, numbered_names, numbered_node, rounded_lines
from synth.envsynth.percent_terms import floor_node, is_percent, share_of_node, unread
from synth.envsynth.plan import WRITE_KINDS, ToolPlan
from synth.envsynth.quote_deadlines import deadline_refusals
from synth.envsynth.quote_scope import STOP_WORDS, _meant, _record_default, _Scope, _scope, _words
from synth.envsynth.returns_shape import ReturnedField, returned_fields, top_level_parts
from synth.spec import ToolSpec
from synth.words import singular

NUMBER = r"-?\d+(?:\.\d+)?"
OPS = {"x": "*", "×": "*", "*": "*", "times": "*", "multiplied by": "*", "divided by": "/", "/": "/"}
OPS.update({"plus": "+", "+": "+", "minus": "-", "-": "-", "\u2212": "-", "less": "-"})
ARTICLES = ("the ", "a ", "an ", "its ", "their ")
ENTRY_FIELDS = re.compile(r"`([A-Za-z_]\w*)`")  # "For each board: `wood`, `metres`, `subtotal`"
BOLD = re.compile(r"\*\*|__")  # markdown emphasis around a figure's name
NEVER_MORE = re.compile(
    r"^(.+?),?\s+but\s+(?:never|not|no)\s+more\s+than\s+(.+?)(?:\s+(?:for|over)\s+the\s+whole\s+[\w-]+)?"
    r"(?:,\s*(times|multiplied\s+by)\s+(.+))?$",
    re.I,
)
PER_UNIT = re.compile(r"\s+(?:per|a|each)\s+(?:unit|item|piece)$", re.I)
TABLE_TOKEN = "fgtable"  # stands for a bracketed table inside a formula's text


def _table_node(t: dict[str, Any]) -> dict[str, Any]:
    """A table's node: keyed by a named record's field, or by an argument's value (`arg`)."""
    if "arg" in t:
        return {"table_arg": t["arg"], "values": t["values"]}
    return {"table": t["field"], "param": t["param"], "values": t["values"]}


def _operand(phrase: str, scope: _Scope, whole: bool = False) -> dict[str, Any] | None:
    """The node of one operand phrase, or None when it names nothing known."""
    phrase = phrase.strip().strip(",").strip()
    if re.fullmatch(NUMBER, phrase):
        return {"num": float(phrase) if "." in phrase else int(phrase)}
    per = re.fullmatch(rf"\$?({NUMBER})\s+(?:per|each|for each|a)\s+([\w-]+)", phrase)
    if per:  # "4.50 per night": times the count parameter whose name or docs say nights
        counted = [p for p, words in scope.counts.items() if singular(per.group(2).lower()) in words]
        if len(counted) != 1:
            return None
        count = {"arg": counted[0], "default": param_default(scope.params[counted[0]])}
        return {"op": "*", "args": [_operand(per.group(1), scope), count]}
    inline = re.search(rf"\b{TABLE_TOKEN}(\d+)$", phrase)
    if inline:  # a table the formula gives in brackets, where it gives it
        return _table_node(scope.tables[int(inline.group(1))])
    low = phrase.lower()
    while low.startswith(ARTICLES):
        low = low.split(" ", 1)[1]
    owner = re.match(r"((?:[\w-]+\s+){0,2}?[\w-]+)['\u2019]s\s+(.+)", low)  # "the site type's fee"
    owner_words = set(_words(owner.group(1))) | {singular(owner.group(1).replace("-", ""))} if owner else set()
    low = owner.group(2) if owner else low
    name = "_".join(low.split())
    if "-" in name and name.replace("-", "") in scope.defined:  # "add-ons" for `addons`
        name = name.replace("-", "")
    if name in scope.lists:  # "+ add-ons" in a formula: the total of the `addons` lines
        name = next((t for t in (f"{name}_total", f"total_{name}") if t in scope.defined), name)
    if name in scope.defined:
        return {"val": name}
    if name in scope.params:
        return {"arg": name, "default": param_default(scope.params[name])}
    each = re.search(r"\s+for\s+(?:it|each|that\s+\w+)$", low) if scope.group else None
    named = [p for p in scope.fields if p not in scope.linked]
    if each:  # "the pier's levy table for it": the entry of a keyed field for the group's key
        for holders in (named, list(scope.linked)):
            found, several = _field_node(low[: each.start()], owner_words, scope, holders, (0, 1, 2, 3), keyed=True)
            if found is not None or several:
                return {**found, "at": scope.group} if found else None
        return None
    found, several = _field_node(low, owner_words, scope, named, (0, 1, 2), whole=whole)
    if found is not None or several:
        return found
    words = set(_words(low))
    tables = [t for t in scope.tables if words & t["words"] - STOP_WORDS]
    if len(tables) == 1:
        return _table_node(tables[0])
    found, several = _field_node(low, owner_words, scope, list(scope.linked), (0, 1, 2), whole=whole)  # they link
    if found is not None or several:
        return found
    for holders in (named, list(scope.linked)) if owner_words else ():
        found, several = _field_node(low, owner_words, scope, holders, (3, 4, 5))
        if found is not None or several:
            return found
    near = [d for d in scope.defined if words and (words <= set(_words(d)) or set(_words(d)) <= words)]
    near = [d for d in near if d == f"{name}_total"] or near  # "labour" is `labour_total` beside `labour_hours`
    squashed = [d for d in scope.defined if "_" in d and re.sub(r"\W|_", "", d) in re.sub(r"\W|_", "", low)]
    squashed += [d for k, d in scope.phrases.items() if d in scope.defined and k in re.sub(r"\W|_", "", low)]
    near = near if len(near) == 1 else sorted(set(squashed))  # "a 15 flat call-out fee for raku firings"
    if len(near) == 1:
        return {"val": near[0]}
    about = [t for t in scope.tables if words & t.get("about", set()) - STOP_WORDS]  # "A deposit is ... : <table>"
    return _table_node(about[0]) if len(about) == 1 and not near else None


def _field_node(
    low: str,
    owner_words: set[str],
    scope: _Scope,
    holders: list[str],
    tiers: tuple[int, ...],
    keyed: bool = False,
    whole: bool = False,
) -> tuple[dict[str, Any] | None, bool]:
    """(the one field of these holders' records a phrase names, whether it names several): by its name (tier 0), by
    its noun and field words (1), by its last word (2), or with an owner ("the pier's levy table") the one field
    whose words the phrase holds (3). An object or a list is no operand: only a `whole` answer field may be one,
    by its own name; `keyed` asks for an object (a table read at a key)."""
    name, words, last = "_".join(low.split()), set(_words(low)), _words(low)[-1:] if low else []
    hits: dict[int, list[dict[str, Any]]] = {t: [] for t in tiers}
    for p in holders:
        noun = set(_words(p[:-3] if p.endswith("_id") else p))
        if owner_words and not owner_words & noun:
            continue
        for f, schema in scope.fields[p].items():
            kind = schema.get("type") if isinstance(schema, dict) else None
            tier = (
                0
                if f == name
                else 1
                if words & noun and words - noun and set(_words(f)) >= words - noun
                else 2
                if last and _words(f) == last
                else 3
                if owner_words and set(_words(f)) <= words
                else 4  # "the add-on's per-unit cap": `max_charge_per_unit`
                if owner_words and words - STOP_WORDS and _meant(words) <= _meant(set(_words(f)))
                else 5  # "the service's per-night rate": `price_per_night`, when no plainer reading names one
                if owner_words and words - STOP_WORDS and _meant(words, True) <= _meant(set(_words(f)), True)
                else -1
            )
            nested = kind in ("object", "array")
            if tier in hits and (kind == "object" if keyed else not nested or (whole and tier == 0)):
                hits[tier].append({"field": f, "param": p})
    for t in tiers:
        if hits[t]:
            return (hits[t][0], False) if len(hits[t]) == 1 else (None, True)
    return None, False


def parse_formula(text: str, scope: _Scope) -> dict[str, Any] | None:
    """The node of a prose formula, or None when any part of it is unknown."""
    text = " ".join(text.split()).rstrip(".")
    for i, t in enumerate(scope.tables):  # "the owner's club discount (none 0%, ...)" -> its phrase, then the table
        if t.get("listed") and not t.get("arg") and t["text"] in text:  # "the rate of the tech's level: a 20, b 30"
            text = text.replace(t["text"], f"{TABLE_TOKEN}{i}")
        if "arg" in t or t.get("listed"):
            continue  # a listed table is its own sentence, not part of a formula
        text = text.replace(t["text"], re.sub(r"\s*\(.*", "", t["text"]) + f" {TABLE_TOKEN}{i}")
    rounded = ROUNDED.search(text)
    if rounded:
        inner = parse_formula(text[: rounded.start()] + text[rounded.end() :], scope)
        digits = int(rounded.group(2)) if rounded.group(2) else 2
        way = (rounded.group(1) or "").strip().lower()  # "rounded down to the cent": toward zero
        return {"round": inner, "digits": digits, "way": way or "nearest"} if inner else None
    extreme = re.fullmatch(r"(min|max)\s*\((.+)\)", text.strip(), re.I)
    if extreme:  # "max(dues - rebate, 0)", "min(metres, the pier's cap)"
        parts = [parse_formula(part, scope) for part in top_level_parts(extreme.group(2))]
        if len(parts) != 2 or any(n is None for n in parts):
            return None
        return {"op": extreme.group(1).lower(), "args": parts}
    capped = NEVER_MORE.match(text)
    if capped:  # "daily price x days per unit, but never more than the add-on's per-unit cap, times quantity"
        most = [parse_formula(PER_UNIT.sub("", capped.group(i)), scope) for i in (1, 2)]
        times = parse_formula(capped.group(4), scope) if capped.group(4) else {"num": 1}
        if any(n is None for n in [*most, times]):
            return None
        return {"op": "*", "args": [{"op": "min", "args": most, "uncapped": True}, times]}
    shared = floor_node(text, lambda t: parse_formula(t, scope))  # "12% of the subtotal, at least 20.00"
    shared = shared or share_of_node(text, lambda t: parse_formula(t, scope), lambda t: _operand(t, scope))
    if shared is not None or unread(text):  # "bonus_pct% of ..." with no such figure: unknown, not the base
        return shared
    less = re.match(r"(.+?),?\s+(?:less|minus)\s+(.+)$", text)
    if less:
        right = _operand(less.group(2), scope)
        if right is not None and is_percent(right, scope.tables):
            left = parse_formula(less.group(1), scope)
            return {"op": "pct_off", "args": [left, right]} if left else None
    share = re.match(r"(.+?\bpercent)\s+of\s+(.+)$", text)
    if share:
        pct, base = _operand(share.group(1), scope), parse_formula(share.group(2), scope)
        return {"op": "*", "args": [{"op": "/", "args": [pct, {"num": 100}]}, base]} if pct and base else None
    bare = re.sub(r"\s*\([^()]*\)", "", text)  # "parts (unit price x quantity ...) + labour (...)": the terms
    text = bare if bare != text and SPLIT.search(bare) else text
    parts = SPLIT.split(text)
    if len(parts) == 1:
        return _operand(text, scope)
    nodes = [_operand(x, scope) for x in parts[0::2]]
    if any(n is None for n in nodes):
        return None
    ops = [OPS[o.lower()] for o in parts[1::2]]
    terms: list[tuple[str, dict[str, Any]]] = [("+", nodes[0])]  # * and / bind first
    for op, node in zip(ops, nodes[1:]):
        if op in "*/":
            sign, last = terms[-1]
            if op == "*" and "val" in node and is_percent(node, scope.tables) and not is_percent(last, scope.tables):
                node = {"op": "/", "args": [node, {"num": 100}]}  # "base x cover_percent": a share of the base
            terms[-1] = (sign, {"op": op, "args": [last, node]})
        else:
            terms.append((op, node))
    out = terms[0][1]
    for op, node in terms[1:]:
        out = {"op": op, "args": [out, node]}
    return out


def _nodes(nodes: list[Any]) -> list[dict[str, Any]]:
    """Every node under these (formula nodes, lines and their steps), for what they read."""
    out: list[dict[str, Any]] = []
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            out.append(node)
            todo += list(node.values())
        elif isinstance(node, list):
            todo += node
    return out


def _computes(node: dict[str, Any]) -> bool:
    return "op" in node or "round" in node


def _figure(
    name: str,
    own: str,
    spec: ToolSpec,
    scope: _Scope,
    cols: dict[str, Any],
    shape: dict[str, ReturnedField],
    steps: dict[str, dict[str, Any]],
) -> dict[str, Any] | None:
    """The node of one answer figure, or None for now: its lines (quote_lines.py), the formula the docs give for it,
    a sum over lines built already (a total waits for its lines), or the one thing its name names."""
    from synth.envsynth.answer_extras import null_wrapped
    from synth.envsynth.applied_shares import after_taken_node, charged_on_node, implied_total, taken_off_node
    from synth.envsynth.band_prices import band_node
    from synth.envsynth.cover_shares import share_figure
    from synth.envsynth.date_spans import calendar_node, span_node
    from synth.envsynth.dated_lines import dated_line_node, dated_total
    from synth.envsynth.figure_words import after_removal, by_value, capped, comparison, described, remainder
    from synth.envsynth.quote_groups import group_node
    from synth.envsynth.quote_lines import line_node, lines_total, sum_node
    from synth.envsynth.record_lines import record_line_node
    from synth.envsynth.related_lines import related_node
    from synth.envsynth.switched_figures import given_share_node, switched_node, value_fee_node

    shared = share_figure(name, scope, steps)  # "Racing hulls add a $3.00 `racing_fee`", a cover table, ...
    if shared is not None:
        return shared
    if name in shape:
        made = (group_node if shape[name].keyed_by else line_node)(shape[name], spec, scope, cols)
        made = made or (related_node(shape[name], spec, scope, cols) if shape[name].is_list else None)
        made = made or (record_line_node(shape[name], spec, scope) if shape[name].is_list else None)
        made = made or (dated_line_node(shape[name], spec, scope, cols) if shape[name].is_list else None)
        if made is not None:
            return made
    numbered, node = numbered_node(name, spec.description, scope, lambda text: parse_formula(text, scope))
    if numbered:  # "2. `energy_levy`: 2% of the first 1,000 of ...": its own text says, or nothing does
        return node
    spanned = span_node(name, scope.params, scope.docs)  # `nights`: the days between the two dates
    spanned = spanned or calendar_node(name, scope.docs, scope.params, lambda phrase: _operand(phrase, scope))
    spanned = spanned or switched_node(  # "with a Senior Pass, 50% off the base"
        name, scope.docs, scope.params, scope.named, scope.fields, scope.sample, lambda phrase: _operand(phrase, scope)
    )
    spanned = spanned or given_share_node(name, scope.docs, scope, lambda text: parse_formula(text, scope))
    spanned = spanned or band_node(name, scope.docs, scope.params)  # "the weight band sets the base price: ..."
    read = lambda phrase: _operand(phrase, scope)  # noqa: E731
    spanned = spanned or taken_off_node(name, scope, read) or after_taken_node(name, scope, read)  # "(gold 5%) is
    spanned = spanned or charged_on_node(name, scope, read) or implied_total(name, scope, read)  # taken off the ..."
    spanned = spanned or share_node(name, scope.docs, scope.tables, lambda text: parse_formula(text, scope))
    spanned = spanned or differ_fee_node(name, scope.docs, scope.params)  # "of 45.00 when both branches ... differ"
    if spanned is not None:
        return spanned
    dated = stated_date(name, spec.description, scope)  # "due_on is 5 days after today for day sails and ..."
    if dated is not None:
        return dated
    texts = definitions(name, spec, own)
    bare = [re.sub(r"\([^()]*\)", "", t) for t in texts]  # a figure named in a remark is no term
    if scope.waiting and any(re.search(rf"\b{o}\b", t) for t in bare for o in scope.pending - {name}):
        return None  # "rebate_pct% of the subtotal": the subtotal is found first
    for text in texts:
        node = parse_formula(text, scope)
        if node is not None:  # "(null for walk-up skippers)": none for those; "Storm cover: ..." only then
            return lead_condition(name, null_wrapped(text, node, scope.fields), spec.description, scope)
    fee = value_fee_node(name, spec.description, scope) if not texts else None
    if fee is not None:  # "a 15 flat call-out fee for raku jobs", for a figure the docs give no formula
        return fee
    worded = by_value(own, scope, _operand) or comparison(own, scope, _operand)
    worded = worded or after_removal(own, scope, spec.description)
    worded = worded or next((n for t in described(name, spec.description) if (n := capped(t, scope, _operand))), None)
    worded = worded or remainder(name, scope)
    if worded is not None:
        return worded
    planned = {k: [e.name for e in f.entries] for k, f in shape.items()}
    summed = sum_node(name, own, planned, spec.description) or lines_total(name, steps) or dated_total(name, steps)
    listed = [(k, n["record_lines"]["number"]) for k, n in steps.items() if "record_lines" in n]
    if summed is None and re.fullmatch(r"(?:sub)?total", name) and len(listed) == 1:  # the lines' one number
        summed = {"sum": listed[0][0], "of": listed[0][1]}
    if summed is not None and texts and not scope.final:
        return None  # "total = parts + labour + a call-out fee": its terms may be found later
    if summed is not None:
        built = steps.get(summed["sum"], {})
        return summed if {"lines", "groups", "related", "record_lines", "dated_lines"} & set(built) else None
    node = _operand(name.replace("_", " "), scope, whole=True)
    return node if node is not None and "val" not in node else None


def stated_states(text: str, noun: str, props: dict[str, Any]) -> dict[str, list[Any]]:
    from synth.envsynth.item_rules import stated_states as states_of

    return states_of(text, noun, props)


def quote_plan(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    sample: dict[str, Any],
    policy: str = "",
    partial: bool = False,
    glossary: str = "",
) -> ToolPlan:
    """A `quote` plan computing every field of the documented answer object, or the plan unchanged (`policy`: the
    policy text, read for price lists and the numbers of values). With `partial` (a sibling a create prices with,
    quote_reuse.py), the figures found are kept when some are not: `fields` then lists the found ones only."""
    from synth.envsynth.envelope import documented_fields

    if plan.kind in WRITE_KINDS or plan.kind in ("compute", "unsupported"):
        return plan
    spec = replace(spec, description=BOLD.sub("", spec.description))  # "**Base charge** = ..." reads as prose
    policy = BOLD.sub("", policy)
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    if returns.get("type") == "array" or re.search(r"\bReturns?\s+(?:a\s+)?list\b", spec.description, re.I):
        return plan  # a list of figures is no one answer object
    listed = documented_fields(spec)
    cols = state_schema.get("properties") or {}
    scope = _scope(spec, cols, sample, policy)
    if len(listed) < 2 or not scope.named:
        return plan
    described = returns.get("properties") or {}
    returned = returned_fields(spec.description)
    shape = {one.name: one for one in returned if one.entries and (one.is_list or one.keyed_by)}
    for name, schema in described.items():  # `lines: {type: array, items: {properties: ...}}` in the answer schema
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        if isinstance(items, dict) and isinstance(items.get("properties"), dict) and name not in shape:
            shape[name] = ReturnedField(name, entries=[ReturnedField(n) for n in items["properties"]], is_list=True)
        said = ENTRY_FIELDS.findall(str(schema.get("description") or "")) if isinstance(schema, dict) else []
        if len(said) >= 2 and name not in shape and schema.get("type") == "array" and not items:
            shape[name] = ReturnedField(name, entries=[ReturnedField(n) for n in said], is_list=True)
    scope.lists = set(shape)
    from synth.envsynth.linked_answers import joined_node
    from synth.envsynth.substitutes import read_swap, swapped_steps

    steps: dict[str, dict[str, Any]] = {}
    for name in [n for n in listed if n not in shape]:  # echoes and fields of the named records first
        node = {"arg": name, "default": param_default(scope.params[name])} if name in scope.params else None
        node = {**node, **_record_default(name, scope)} if node else None  # "Defaults to the job's hours"
        direct = [p for p, fs in scope.fields.items() if name in fs and p not in scope.linked]
        direct = direct or [p for p, fs in scope.fields.items() if name in fs]  # else a record they link
        if node is None and len(direct) == 1:
            node = {"field": name, "param": direct[0]}
        twins = [(p, f) for p, fs in scope.fields.items() for f in fs if not direct and alike(name, f)]
        if node is None and len(twins) == 1:  # `previous_reading` answers the meter's `last_reading`
            node = {"field": twins[0][1], "param": twins[0][0]}
        node = node or joined_node(name, scope.fields, glossary)  # "boat_name (name and length)", said anywhere
        if node is not None:
            steps[name] = node

    swap = read_swap(scope, cols, steps, listed)  # "when ..., the twin is priced instead (`swapped` = true)"
    steps.update(swapped_steps(swap, scope, cols, steps, listed) if swap else {})
    scope.defined = list(steps)
    scope.echoes = [n for n, node in steps.items() if "field" in node]
    left = [n for n in listed if n not in steps]
    left += [n for n in sorted(numbered_names(spec.description)) if n not in listed]  # `subtotal = a + b`, unshown
    for attempt in range(2 * len(left) + 1):
        scope.final = attempt >= len(left)  # a sum over lines waits while the docs' own formula may still parse
        found = len(steps)
        for name in [n for n in left if n not in steps]:
            scope.pending = {n for n in left if n not in steps}
            node = _figure(
                name, str((described.get(name) or {}).get("description") or ""), spec, scope, cols, shape, steps
            )
            if node is not None:
                steps[name] = node
                scope.defined.append(name)
        scope.waiting = scope.waiting and len(steps) > found  # a pass that found nothing: wait no longer
        if all(n in steps for n in left) or (scope.final and len(steps) == found):
            break
    for name in [n for n in listed if n not in steps]:  # `currency` (example "USD"), when the docs say USD
        const = documented_constant(described.get(name), scope.docs)
        steps.update({name: {"const": const}} if const is not None else {})
    rest = [n for n in listed if n not in steps]
    if len(rest) == 1 and rest[0] not in numbered_names(spec.description):  # a numbered line's text said no formula
        for text in loose_formulas(spec):
            node = parse_formula(text, scope)
            if node is not None and _computes(node):
                steps[rest[0]] = node
                break
    from synth.envsynth.cover_shares import payer_figure

    payer_figure(steps, scope)  # "pay at least a $5.00 minimum ...; the club pays the rest"
    rounded_lines(spec.description, steps)  # "the sum of five lines, each rounded to the cent"
    every_rounded(spec.description, steps)  # "Every figure is rounded to the cent (half up)"
    if (any(n not in steps for n in listed) and not partial) or all("arg" in n or "field" in n for n in steps.values()):
        return plan
    listed = [n for n in listed if n in steps]
    amounts = [n for n in steps if n not in scope.params and not {"lines", "dated_lines"} & set(steps[n])]
    for name in [n for n in amounts if (described.get(n) or {}).get("type") in (None, "number")]:  # "(waived for gold)"
        steps[name] = waived_node(name, steps[name], scope.docs, scope.named, scope.fields, scope.sample)
    for node in _nodes(list(steps.values())):  # "without `customer_id` ... at the standard tier"
        held = scope.absent.get(node.get("param"), {}) if isinstance(node.get("param"), str) else {}
        if (node.get("field") or node.get("table")) in held:
            node["absent"] = held[node.get("field") or node.get("table")]
    used = {n.get(k) for n in _nodes(list(steps.values())) for k in ("param", "holder")}
    linked = {k: v for k, v in scope.linked.items() if k in used}
    from synth.envsynth.band_prices import band_guards
    from synth.envsynth.docs_entries import business_date
    from synth.envsynth.item_rules import named_states
    from synth.envsynth.quote_effects import spec_guards

    lined = {n["lines"]["param"] for n in steps.values() if "lines" in n}  # a list parameter the lines read
    quote = {
        "named": {p: c for p, c in scope.named.items() if p not in lined},
        "select": scope.select,
        "steps": [[n, steps[n]] for n in steps],
        "fields": listed,
    }
    guards = spec_guards(spec, [n for n in steps if n not in scope.params], business_date(scope.docs))
    guards += [g for g in band_guards(steps, spec.description) if g not in guards]  # "boats over 30 t are not taken"
    quote.update({"guards": guards} if guards else {})
    quote.update({"linked": linked} if linked else {})
    quote.update({"swap": {swap["link"]: swap}} if swap else {})
    from synth.envsynth.listed_refusals import bound_refusals

    bounds = bound_refusals(spec.description, quote, cols)  # "quantity must be between 1 and <n> (the ... )"
    said = numbered_lines(spec.description)  # "... Only available up to the season's deadline"
    bounds += deadline_refusals([t for _, _, _, t in said.items] if said else [], scope, business_date(scope.docs))
    bounds += [c for p in sorted(lined) for c in whole_call_caps(spec, scope.params, p)]  # "at most N across all"
    quote.update({"refusals": bounds} if bounds else {})
    states = named_states(spec.description, scope.named, scope.params, cols, scope.sample)
    quote.update({"states": states} if states else {})
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "kind": "quote",
            "quote": quote,
            "evidence": plan.evidence + ["figures computed as documented"],
        }
    )


_definition = definitions  # (quote_lines.py and tests read it here)
operand = _operand  # the node of one operand phrase (quote_lines.py reads line terms with it)

__all__ = ["operand", "parse_formula", "quote_plan"]
