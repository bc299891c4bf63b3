"""A create whose docs price the new record as a sibling read does: the figures of that read's quote plan
(formula_rules.py) fill the new record's fields.

A sibling is a tool the docs do not make a write (it says it changes nothing, or nothing says it writes) whose
parameters the create has too, under the same names (or reads off a record the create names: a quote's
`vehicle_class` from the vehicle booked), and whose answer the docs define with formulas. The sibling is priced
with the new record's own values for what the call leaves out (the pick-up branch the booking copies). A field of
the new record that no parameter, stated value, copied reference or effect sets takes:
- the sibling's figure of the same name, when the sibling computes it (`fee` from the quote's `fee`);
- else, when the create's docs call the field quoted ("must cover the quoted fee") or name the sibling in the
  sentence that names the field ("the estimated total is priced exactly like `quote_rental`"), the figure its name
  holds (`estimated_total` <- `total`, `deposit_held` <- `deposit_required`), else the figure computed last;
- a list the call gives that the record keeps with more fields (`addons` with each add-on's name and price): the
  sibling's lines of that name, with the record's entry fields.

A list edit whose docs say fields of its record "are recomputed" prices the edited record again: a sibling whose
parameters are all fields of the record is run on the record's own values, and its figures of those names (or that
the field's name holds: `estimated_total` <- `total`) are stored (`recomputed_fields`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.checked_bullets import checked_refusals
from synth.envsynth.count_entries import covered_counts, entry_moves, repeated_entries
from synth.envsynth.create_rules import _props
from synth.envsynth.data_copies import sample_records
from synth.envsynth.formula_rules import _nodes, quote_plan
from synth.envsynth.listed_refusals import listed_refusals
from synth.envsynth.opening_lines import opening_line, solved_fields
from synth.envsynth.plan import ToolPlan
from synth.envsynth.priors import tool_priors
from synth.spec import ToolSpec
from synth.words import plural, singular


def sibling_quotes(
    specs: list[ToolSpec], state_schema: dict[str, Any], sample: dict[str, Any], policy: str = ""
) -> dict[str, Any]:
    """{tool name: its `quote` (named records, steps, fields)} for every read whose docs (and policy) define computed
    figures: those it can compute, when it cannot compute all but one (a name its docs do not say how to write does
    not keep a create from the total; several such names mean the pricing was not understood, and a create priced
    from what was found would publish wrong figures)."""
    from synth.envsynth.envelope import documented_fields

    out: dict[str, Any] = {}
    glossary = "\n".join(one.description for one in specs)  # where a figure another tool remarks on is said
    for spec in specs:
        if tool_priors(spec).mutates:
            continue
        plan = quote_plan(spec, ToolPlan(kind="get"), state_schema, sample, policy, True, glossary)
        if plan.kind == "quote" and len(documented_fields(spec)) - len(plan.quote.get("fields") or []) <= 1:
            out[spec.name] = plan.quote
    return out


ECHO = {"arg", "default", "field", "param", "at"}  # a node that only repeats an argument or a record's value


def _computes(node: dict[str, Any]) -> bool:
    """A figure the sibling works out: not a list or map of lines, nor an echo of an argument or a field."""
    return isinstance(node, dict) and not ({"lines", "groups", "const"} & set(node)) and not set(node) <= ECHO


def fits_parameters(tool: ToolSpec, sibling: ToolSpec, cols: dict[str, Any] | None = None) -> dict[str, str] | None:
    """{sibling's list parameter: the tool's parameter whose one value it takes} when every parameter the sibling
    needs is a parameter of the tool of the same type, or a list of ids (`pier_ids`) the tool names one of
    (`pier_id`), or (with the state's collections `cols`) a field of exactly one record the tool names (a quote's
    `vehicle_class`, read off the vehicle a booking names: `_profile_params`); None when the sibling cannot be
    called with the tool's arguments."""
    mine = tool.parameters.get("properties") or {}
    theirs = sibling.parameters.get("properties") or {}
    needed = list(sibling.parameters.get("required") or theirs)
    if not needed:
        return None
    wrapped = {}
    for p in needed:
        kind = (theirs.get(p) or {}).get("type")
        if p in mine and mine[p].get("type") == kind:
            continue
        one = p[:-1] if p.endswith("_ids") else None
        if kind == "array" and one in mine and (mine[one] or {}).get("type") == "string":
            wrapped[p] = one
            continue
        if cols is not None and p not in mine and len(_holders(mine, cols, p)) == 1:
            continue
        return None
    return wrapped


def _holders(mine: dict[str, Any], cols: dict[str, Any], field: str) -> list[list[str]]:
    """[[the tool's parameter, collection, field]] for each record a `<noun>_id` parameter names holding `field`."""
    return [
        [p, c, field]
        for p in sorted(mine)
        if p.endswith("_id")
        for c in [plural(p[:-3])]
        if c in cols and field in _props(cols, c)
    ]


def _named_with(field: str, sibling: str, text: str) -> bool:
    """The docs call the field quoted, or name the sibling in a sentence that names the field."""
    said = dict.fromkeys([field, singular(field)])  # `fees`: "... a controlled fee" names it too
    spoken = "|".join(rf"{re.escape(f)}|{re.escape(f.replace('_', ' '))}" for f in said)
    if re.search(rf"\bquoted\s+`?(?:{spoken})\b", text, re.IGNORECASE):
        return True
    sentences = re.split(r"(?<=[.;!?])\s+|\n", re.sub(r"(?<=\S)[ \t]*\n[ \t]*(?=[a-z`(])", " ", text))  # wrapped lines
    return any(re.search(rf"\b(?:{spoken})\b", s, re.I) and sibling in s for s in sentences)


def _own_guards(spec: ToolSpec, quote: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """The limits the create's own description puts on the figures it is priced with ("at most 14 nights") and on
    its date parameters ("the arrival date must not be before the business date")."""
    from synth.envsynth.quote_effects import spec_guards

    params = spec.parameters.get("properties") or {}
    return spec_guards(spec, [n for n, _ in quote["steps"] if n not in params], today)


GENERIC = {"total", "subtotal", "amount", "sum", "grand"}  # words any total's name may hold


def _meant_figure(field: str, computed: list[str]) -> str:
    """The figure a field priced as the sibling computes takes: the one whose words are all the field's
    (`estimated_total` <- `total`), else the one sharing a word with it (`deposit_held` <- `deposit_required`),
    else the figure computed last; words compared in the singular, and a figure named only by a word any total has
    (`total`) gives way to a named one (`tax_total` <- `tax`, not `total`)."""
    words = {singular(w) for w in field.split("_")} - {"id"}
    inside = [f for f in computed if {singular(w) for w in f.split("_")} <= words]
    inside = [f for f in inside if not set(f.split("_")) <= GENERIC] if len(inside) > 1 else inside
    sharing = [f for f in computed if {singular(w) for w in f.split("_")} & words]
    return (inside if len(inside) == 1 else sharing if len(sharing) == 1 else computed)[-1]


def priced_fields(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    specs: list[ToolSpec],
    quotes: dict[str, Any],
    text: str,
    sample: dict[str, Any] | None = None,
    today: str | None = None,
) -> ToolPlan:
    """The create plan with `quote` set ({named, select, steps, fields: [], assign: {record field: figure}}) when a
    sibling's figures price fields of the new record, and the entries it makes by count and the numbers it moves
    on what the quote reads (count_entries.py); the plan unchanged otherwise."""
    if plan.kind != "create" or not plan.collection or not quotes:
        return plan
    col = (state_schema.get("properties") or {}).get(plan.collection) or {}
    own = ((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {}
    given = set(spec.parameters.get("properties") or {}) | set(plan.initial_values) | set(plan.inherits)
    given |= {e.get("field") for e in plan.effects} | {plan.key_field}
    open_fields = [f for f, s in own.items() if f not in given and (s or {}).get("type") in ("number", "integer")]
    by_name = {s.name: s for s in specs}
    for name in sorted(quotes):
        sibling = by_name.get(name)
        cols = state_schema.get("properties") or {}
        wrapped = fits_parameters(spec, sibling, cols) if sibling is not None and name != spec.name else None
        if wrapped is None:
            continue
        quote = quotes[name]
        computed = [n for n, node in quote["steps"] if n in quote["fields"] and _computes(node)]  # in order of use
        assign: dict[str, Any] = {}
        for field in open_fields:
            if field in computed:
                assign[field] = field
            elif computed and _named_with(field, name, text):
                assign[field] = _meant_figure(field, computed)
        assign.update(_grouped(own, given | set(assign), computed, quote["fields"]))  # `charges`: {base, ...}
        params = spec.parameters.get("properties") or {}
        dated = [n for n, node in quote["steps"] if n in own and n not in params and "days_after" in (node or {})]
        assign.update({n: n for n in dated if n in quote["fields"]})  # `due_on`: the quote's date, not a guess
        flags = _flags(own, given | set(assign), computed)  # `senior_discount` (yes/no): that figure is above 0
        numbering = line_numbering(sample or {}, plan.collection)
        lined = _priced_lines(own, quote, spec, numbering)  # `addons` kept with each add-on's name and price
        if assign:
            profile = _profile_params(spec, sibling, quote, state_schema)  # `senior_pass` from the camper named
            priced = {**quote, "fields": [], "states": {}, "assign": assign, "wrap": wrapped}
            priced.update(
                guards=_own_guards(spec, quote, today)
            )  # "(at most 14 nights)", its own words, not the quote's
            refusals = listed_refusals(spec.description, quote, cols, plan.collection, today)  # "refused when: - ..."
            refusals += checked_refusals(spec.description, quote, cols, sample or {})  # "Checks ...: - ..."
            named = re.search(rf"\b{re.escape(name)}\b", spec.description) is not None  # "as `quote_x` does"
            refusals += [r for r in quote.get("refusals") or [] if named and r not in refusals]
            priced.update({"refusals": refusals} if refusals else {})
            priced.update({"flags": flags} if flags else {})
            priced.update({"lined": lined} if lined else {})
            numbered = {f: keys for f, keys in numbering.items() if f in lined}
            priced.update({"numbered": numbered} if numbered else {})  # `line_id` L1, L2, ... in the order given
            own_values = _from_new(spec, sibling, own)
            renamed = _renamed(spec, sibling, own, cols)
            priced.update({"renamed": renamed} if renamed else {})  # the quote's `account_id` is the `sender_id`
            priced.update({"from_new": own_values} if own_values else {})  # `pickup_branch_id`: the booking's own
            priced.update({"profile": profile} if profile else {})
            evidence = plan.evidence + [f"priced as `{name}` computes: " + ", ".join(sorted(assign))]
            for field, node in solved_fields("\n".join(one.description for one in specs), assign, open_fields).items():
                priced["steps"] = [*priced["steps"], [f"{field}~solved", node]]  # "x = subtotal - discount + fees"
                assign[field] = f"{field}~solved"
            params = spec.parameters.get("properties") or {}
            line = opening_line(text, plan.collection, own, priced, sample or {})  # "with one charter line"
            made = [line] if line else []
            made += repeated_entries(text, plan.collection, state_schema, params, priced, sample or {})
            made += entry_moves(text, state_schema, params, priced) + covered_counts(text, params, priced)
            effects = list(plan.effects) + made
            return ToolPlan.from_dict({**plan.to_dict(), "quote": priced, "effects": effects, "evidence": evidence})
    return plan


def _grouped(
    own: dict[str, Any], given: set[str], computed: list[str], figures: list[str]
) -> dict[str, dict[str, str]]:
    """{object field: {its key: figure}} for each unset object field of the new record whose every key is a figure
    of the sibling, two of them computed (`charges` {base, peak_surcharge, senior_discount, vehicle_fees}; a rate
    echoed beside them)."""
    out = {}
    for field, schema in sorted(own.items()):
        keys = list(((schema or {}).get("properties") or {}) if (schema or {}).get("type") == "object" else [])
        if (
            field not in given
            and len(keys) >= 2
            and all(k in figures for k in keys)
            and len(set(keys) & set(computed)) >= 2
        ):
            out[field] = {k: k for k in keys}
    return out


def _renamed(spec: ToolSpec, sibling: ToolSpec, own: dict[str, Any], cols: dict[str, Any]) -> dict[str, str]:
    """{sibling's `<noun>_id` parameter: the tool's parameter naming a record of the same collection under another
    name} (a quote's `account_id` is the booking's `sender_id`, a field of the new record referencing accounts)."""
    mine = spec.parameters.get("properties") or {}
    out = {}
    for q in sorted(sibling.parameters.get("properties") or {}):
        col = plural(q[:-3]) if q.endswith("_id") else None
        if q in mine or col not in cols:
            continue
        same = [p for p in sorted(mine) if isinstance(own.get(p), dict) and own[p].get("x-references") == col]
        if len(same) == 1:
            out[q] = same[0]
    return out


def _from_new(spec: ToolSpec, sibling: ToolSpec, own: dict[str, Any]) -> list[str]:
    """The sibling's parameters the new record's own values give when the call leaves them out: those the tool
    does not take (the pick-up branch the booking copies from its car), and those whose default is another field
    of the record (`record_default`), of the same type on both sides."""
    from synth.envsynth.create_profile import record_defaults

    mine = spec.parameters.get("properties") or {}
    defaulted = {e["field"] for e in record_defaults(spec, own)}
    theirs = sibling.parameters.get("properties") or {}
    return [
        q
        for q in sorted(theirs)
        if q in own
        and (q not in mine or q in defaulted)
        and (theirs[q] or {}).get("type") == (own[q] or {}).get("type")
    ]


def _priced_lines(
    own: dict[str, Any], quote: dict[str, Any], spec: ToolSpec, numbering: dict[str, dict[str, str]] | None = None
) -> dict[str, list[str]]:
    """{list field: its entries' fields} for each list the call gives that the new record keeps with more fields
    than the call's entries hold, all of them fields of the sibling's lines of that name: the record keeps the
    lines (`addons` with each add-on's `name` and `daily_price` beside the call's `addon_id` and `quantity`)."""
    params = spec.parameters.get("properties") or {}
    out = {}
    for name, node in quote["steps"]:
        lines = node.get("lines") if isinstance(node, dict) else None
        items = ((own.get(name) or {}).get("items") or {}).get("properties") or {}
        given = ((params.get(name) or {}).get("items") or {}).get("properties") or {}
        kept = set(items) - set((numbering or {}).get(name) or {})  # `line_id` L1, L2, ...: numbered, not priced
        if lines and name in params and items and set(items) - set(given) and kept <= set(lines["fields"]):
            out[name] = list(items)
    return out


def line_numbering(sample: dict[str, Any], collection: str) -> dict[str, dict[str, str]]:
    """{list field: {entry field: prefix}} for entry ids every sample record numbers by position (`L1`, `L2`, ...):
    three records' lists at least, each entry's value the one prefix and its place from 1."""
    found: dict[str, dict[str, str]] = {}
    records = sample_records(sample, collection)
    for field in sorted({f for r in records for f, v in r.items() if isinstance(v, list)}):
        lists = [r[field] for r in records if isinstance(r.get(field), list) and r[field]]
        entries = [e for one in lists for e in one if isinstance(e, dict)]
        for key in sorted({k for e in entries for k, v in e.items() if isinstance(v, str)}):
            prefixes = {re.sub(r"\d+$", "", str(e.get(key))) for e in entries}
            prefix = next(iter(prefixes)) if len(prefixes) == 1 else ""
            placed = all(
                isinstance(e, dict) and e.get(key) == f"{prefix}{i + 1}" for one in lists for i, e in enumerate(one)
            )
            if prefix and len(lists) >= 3 and placed:
                found.setdefault(field, {})[key] = prefix
    return found


def _flags(own: dict[str, Any], given: set[str], computed: list[str]) -> dict[str, str]:
    """{yes/no field: figure} for each unset boolean field of the new record named as a figure the sibling
    computes: whether that figure is above 0 (a `senior_discount` flag beside the discount's amount)."""
    return {
        f: f
        for f, schema in sorted(own.items())
        if f not in given and (schema or {}).get("type") == "boolean" and f in computed
    }


def _profile_params(spec: ToolSpec, sibling: ToolSpec, quote: dict[str, Any], state_schema: dict[str, Any]) -> dict:
    """{sibling parameter: [the tool's parameter, collection, field]} for each parameter the sibling takes and the
    tool does not, when exactly one record the tool's parameters name holds a field of that name (a quote's
    `senior_pass` switch, read from the profile of the camper a booking names)."""
    mine = spec.parameters.get("properties") or {}
    cols = state_schema.get("properties") or {}
    out = {}
    for param in sorted(sibling.parameters.get("properties") or {}):
        if param in mine or not any(n.get("arg") == param for n in _nodes([node for _, node in quote["steps"]])):
            continue
        holders = _holders(mine, cols, param)
        if len(holders) == 1:
            out[param] = holders[0]
    return out


RECOMPUTED = re.compile(  # "are recomputed", "is then refreshed"
    r"\b(?:are|is)\s+(?:(?:then|also|always|immediately)\s+)?(?:re-?computed|re-?calculated|refreshed|updated\s+to\s+match)\b",
    re.I,
)


AMOUNTS = re.compile(r"\b(?:amounts|figures|totals|sums|prices)\s*$", re.I)  # "the amounts" / "Order totals" are ...


def recomputed_names(text: str, own: dict[str, Any]) -> list[str]:
    """The record's fields a sentence saying they "are recomputed" names, by name or spaced; every number field
    when it says "the amounts are recomputed"."""
    said = [  # what comes before the verb, asides left out ("discount (the promo code's percent)")
        re.sub(r"\([^()]*\)", " ", s[: m.start()])
        for s in re.split(r"(?<=[.;!?])\s+|\n", text)
        if (m := RECOMPUTED.search(s))
    ]
    named = [
        f
        for f in own
        if any(re.search(rf"(?<![\w]){re.escape(f)}(?![\w])|\b{re.escape(f.replace('_', ' '))}\b", s) for s in said)
    ]
    if any(AMOUNTS.search(s) for s in said):  # "the amounts are recomputed": every number it has
        named = [f for f, s in own.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")]
    return named


def recomputed_fields(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    specs: list[ToolSpec],
    quotes: dict[str, Any],
    text: str,
) -> ToolPlan:
    """A list edit's plan with `quote` set ({..., fields: [], assign, from_record}) when its docs say fields of the
    record "are recomputed" and a sibling read computes figures of those names from parameters that are all fields
    of the record (`from_record`: they are read off the edited record); the plan unchanged otherwise."""
    if plan.kind not in ("item_add", "item_remove") or not plan.collection or plan.quote or not quotes:
        return plan
    own = _props(state_schema.get("properties") or {}, plan.collection)
    named = recomputed_names(text, own)
    by_name = {s.name: s for s in specs}
    for name in sorted(quotes):
        sibling = by_name.get(name)
        needs = list((sibling.parameters.get("properties") or {}) if sibling is not None else [])
        quote = quotes[name]
        computed = [n for n, node in quote["steps"] if n in quote["fields"] and _computes(node)]
        assign = {f: f if f in computed else _meant_figure(f, computed) for f in named if computed}
        assign = {
            f: figure for f, figure in assign.items() if f == figure or set(figure.split("_")) <= set(f.split("_"))
        }
        if name != spec.name and needs and all(p in own for p in needs) and assign:
            priced = {**quote, "fields": [], "states": {}, "assign": assign, "from_record": needs}
            evidence = plan.evidence + [f"recomputed as `{name}` computes: " + ", ".join(sorted(assign))]
            return ToolPlan.from_dict({**plan.to_dict(), "quote": priced, "evidence": evidence})
    return plan


__all__ = ["fits_parameters", "priced_fields", "recomputed_fields", "recomputed_names", "sibling_quotes"]
