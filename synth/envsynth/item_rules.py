"""What a one-value list edit's docs say beyond the edit: the record must be in a stated state ("The voyage may
only be 'planned' or 'boarding'"), the record the value names must exist and be in a stated state ("the sailor
must exist and be fit"), and an entry is appended to another list ("... and {"stage": "crew_signed", "sailor_id":
sailor_id} to the log"); and a merged number that must stay within the limit the record its element names holds
("the combined quantity must stay within the add-on's maximum per rental": `merged_cap`)."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.card_prices import card_prices
from synth.envsynth.conditional_refusals import while_entries
from synth.envsynth.create_rules import MUST_EXIST, QUOTED, _known, _props, _value
from synth.envsynth.docs_appends import docs_appends, is_number
from synth.envsynth.docs_conditions import conditional_sets
from synth.envsynth.docs_counters import covered, docs_counters
from synth.envsynth.docs_entries import named_entries
from synth.envsynth.entry_copies import entry_copies
from synth.envsynth.entry_figures import entry_caps, entry_figures
from synth.envsynth.entry_logs import data_logged
from synth.envsynth.figure_terms import param_default
from synth.envsynth.fit_rules import fit_rules
from synth.envsynth.keyed_tables import sample_states
from synth.envsynth.linked_logs import linked_entries
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.envsynth.quote_reuse import recomputed_names
from synth.envsynth.refusals import error_states, refused_entries, refused_for, refused_states
from synth.envsynth.stored_refusals import stored_refusals
from synth.envsynth.value_needs import value_needs
from synth.spec import ToolSpec
from synth.words import plural, singular

RULE = re.compile(r"\b(must|only|while|still\s+in\s+(?:status|state))\b", re.IGNORECASE)  # "that is still in status"
LIKEWISE = re.compile(r"\((?:\s*likewise\b|\s*the\s+same\s+(?:for|with)\b|[^()]*\blikewise\s*\))[^()]*\)?", re.I)
KEEPS = re.compile(
    r"\b(?:must|has\s+to|should)\s+(?:always\s+)?(?:keep|have|retain|hold)\s+at\s+least\s+(?P<n>one|\d+)\b"
    r"|\bthe\s+(?:last|only)\s+(?:remaining\s+)?\w+\s+(?:cannot|can't|may\s+not)\s+be\s+removed\b",  # keeps one
    re.I,
)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+|\n", unwrap(text)) if s.strip()]


NOT_A_NEED = re.compile(  # an opening sentence that refuses, conditions, negates or answers
    r"\b(?:not|never|cannot|can't|refused|rejected|error|fails?|if|when|unless|once|returns?|see\s+also)\b", re.I
)
OWN_WORD = re.compile(r"\bthe\s+([a-z]+)\s+is\s+(?:still\s+|already\s+)?[`'\"]", re.I)


def stated_states(
    text: str, noun: str, props: dict[str, Any], others: frozenset[str] | None = None
) -> dict[str, list[Any]]:
    """{field: values} a record named `noun` must hold, from sentences naming it with must / only / while and
    values of one of its closed fields (quoted, or bare words after the rule word). With `others` (the nouns of the
    other collections), "the <word> is (still) `<value>`" names it by any other word: the docs' own word for the
    record ("while the agreement is still `reserved`" of a rental)."""
    out: dict[str, list[Any]] = {}
    for sentence in _sentences(text):
        named = re.search(rf"\b{re.escape(noun)}s?\b", sentence, re.IGNORECASE)
        if not named and others is not None:
            named = next((m for m in OWN_WORD.finditer(sentence) if singular(m.group(1).lower()) not in others), None)
        rule = RULE.search(sentence)
        if not named or not rule:
            continue
        tail = re.sub(LIKEWISE, " ", sentence[rule.end() :].split(";")[0])  # an error's variants, not states
        if re.match(r"\s*(?:not|never)\b", tail, re.I):  # "must not be `sunk`": a state refused, not needed
            continue
        tail = re.sub(r"^(\s*(?:be|in)?)\s*:", r"\1", tail)  # "must be: booked or docked"
        quoted = [_value(q) for q in re.findall(QUOTED, tail)]
        clause = re.split(r"\bnot\b|:", tail)[0]  # "must exist and be fit, not yet ..."; "only on ...: <why>"
        for field, schema in sorted(props.items()):
            known = [str(v) for v in _known(schema) if str(v).strip()]  # a blank is no state
            found = [v for v in quoted if v in known] or _bare_values(clause, known)
            if found and field not in out:
                out[field] = list(dict.fromkeys(found))
    return out or _named_before(text, noun, props)


def named_states(
    description: str, named: dict[str, str], params: dict[str, Any], cols: dict[str, Any], sample: dict[str, Any]
) -> dict[str, dict[str, list[Any]]]:
    """{parameter: {field: values}} a read's named records must hold: stated in the description, else in the
    parameter's own ("must be the open or an upcoming season", with the states the sample records hold when the
    schema knows none), else an error naming the one state refused ("'Error: bay <id> is closed'", "Refused for
    `x`"); parameters with none left out."""
    out = {}
    for p, col in named.items():
        noun, props = singular(col), _props(cols, col)
        said = str((params.get(p) or {}).get("description") or "")
        found = stated_states(description, noun, props) or stated_states(said, noun, sample_states(cols, col, sample))
        found = found or error_states(description, noun, props) or refused_for(description, noun, props)
        if found:
            out[p] = found
    return out


def _bare_values(clause: str, known: list[str]) -> list[str]:
    """The known values a clause names unquoted, in order; `checked_in` also as "checked in" or "checked-in". An
    aside in brackets names none ("... berthings (<id> is left)": the state an example was in)."""
    at = {}
    clause = re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), clause)
    for v in known:
        forms = "|".join(re.escape(w) for w in dict.fromkeys((v, v.replace("_", " "), v.replace("_", "-"))))
        m = re.search(rf"(?<![\w-])(?:{forms})(?![\w-])", clause)
        if m:
            at[v] = m.start()
    return sorted(at, key=lambda v: at[v])


def _named_before(
    text: str, noun: str, props: dict[str, Any], others: frozenset[str] | None = None
) -> dict[str, list[Any]]:
    """{field: values} quoted straight before the record's noun ("adds a line to a `draft` or `held` invoice"):
    the first such phrase whose values all belong to one closed field, with those of "a `<value>` one" later in the
    sentence ("..., or to a `closed` one that still owes"). With `others` (the nouns of the other
    collections), any noun but those will do: the docs' own word for the record ("a `reserved` or `active`
    agreement" of a rental)."""
    word = r"([a-z]+)" if others is not None else rf"{re.escape(noun)}s?"
    aside = r"(?:\s*\([^()]{0,40}\))?"  # "a `confirmed` (pre-paid) or `checked_in` reservation"
    phrase = rf"\b(?:an?|the|its)\s+((?:`[^`]+`{aside}(?:\s*,\s*|\s+or\s+)?)+)\s*{word}\b"
    for m in re.finditer(phrase, text, re.I):
        if others is not None and singular(m.group(2).lower()) in others:
            continue
        quoted = [_value(q) for q in re.findall(QUOTED, m.group(1))]
        for field, schema in sorted(props.items()):
            known = [str(v) for v in _known(schema)]
            if quoted and all(str(v) in known for v in quoted):
                rest = re.split(r"(?<=[.;])\s", text[m.end() :])[0]  # "..., or to a `checked_out` one that ..."
                for more in re.finditer(r"\b(?:an?|the)\s+((?:`[^`]+`(?:\s*,\s*|\s+or\s+)?)+)\s*ones?\b", rest):
                    also = [_value(q) for q in re.findall(QUOTED, more.group(1))]
                    quoted += [v for v in also if str(v) in known]
                return {field: list(dict.fromkeys(quoted))}
    return _bare_before(text, noun, props) if others is None else {}


def _bare_before(text: str, noun: str, props: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: values} written unquoted straight before the record's noun in the description's opening sentence
    ("Board a docked boat", "a docked or checked-in boat", "a docked boat or a moored boat"), when one closed field
    knows them all; an opening that refuses, conditions, negates or answers ("A sunk boat is refused", "If ...",
    "(not a sunk boat)", "Returns the docked boat") names no state the call needs."""
    first = _sentences(text)[:1]
    if not first or NOT_A_NEED.search(first[0]):
        return {}
    spelt = {}
    for field, schema in sorted(props.items()):
        for v in (str(v) for v in _known(schema) if re.fullmatch(r"[a-z][a-z_]*", str(v))):
            forms = "|".join(re.escape(w) for w in dict.fromkeys((v, v.replace("_", " "), v.replace("_", "-"))))
            spelt.setdefault(v, []).append((field, forms))
    anyone = "|".join(forms for pairs in spelt.values() for _, forms in pairs)
    hits = []
    for v, pairs in spelt.items():
        for field, forms in pairs:
            lead = rf"(?:\b(?:an?|the|its)\s+|,\s*|\bor\s+)(?:{forms})"
            chain = rf"(?=(?:\s*(?:,|\bor\b)\s*(?:an?\s+)?(?:{anyone}))*\s+{re.escape(noun)}s?\b)"
            m = re.search(lead + chain, first[0], re.I)
            hits += [(m.start(), field, v)] if m else []
    if not hits or len({f for _, f, _ in hits}) != 1 or len({v for _, _, v in hits}) != len(hits):
        return {}
    return {hits[0][1]: [v for _, _, v in sorted(hits)]}


def refine_item(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    sample: dict[str, Any] | None = None,
    today: str | None = None,
) -> ToolPlan:
    """The item_add / item_remove plan with the states, the named record's checks and the appends its docs give
    (written out, or named by kind and read off the `sample` state's entries: docs_entries)."""
    if plan.kind not in ("item_add", "item_remove") or not plan.collection:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    params = spec.parameters.get("properties") or {}
    others = frozenset(singular(c) for c in cols if c != plan.collection)
    preconditions = (
        stated_states(text, singular(plan.collection), own)
        or _named_before(text, "", own, others)
        or stated_states(text, singular(plan.collection), own, others)
    )
    checks: dict[str, str] = {}
    requires: dict[str, dict[str, list[Any]]] = {}
    value = plan.op_param or ""
    other = plural(value[:-3]) if value.endswith("_id") else ""
    if other in cols and other != plan.collection and MUST_EXIST.search(text):
        checks[value] = other
        theirs = stated_states(text, value[:-3].replace("_", " "), _props(cols, other))
        if theirs:
            requires[value] = theirs
    adds_object = plan.kind == "item_add" and plan.item_key and plan.fields  # only then is there a new element
    added = {plan.item_key: {"from": "new_element", "field": plan.item_key}} if adds_object else {}
    appends = [e for e in docs_appends(text, own, params, added, today) if e["field"] != plan.list_field]
    records = (sample or {}).get(plan.collection) or {}
    records = [r for r in records.values() if isinstance(r, dict)] if isinstance(records, dict) else []
    logged = plan.list_field if adds_object or (plan.kind == "item_add" and plan.fields) else None
    removed = plan.kind == "item_remove" and bool(plan.list_field)
    logged = plan.list_field if removed else logged
    named = named_entries(text, singular(plan.collection), own, spec.parameters, records, today, logged, removed)
    if not named and adds_object and logged:  # a log entry the data shows for every element (entry_logs.py)
        named = data_logged(singular(plan.collection), own, spec.parameters, records, today, logged, plan.item_key)
    appends += [e for e in named if e["field"] != plan.list_field and all(a["field"] != e["field"] for a in appends)]
    appends += linked_entries(text, plan.collection, state_schema, spec.parameters, sample or {}, today)
    appends += conditional_sets(
        text, own, singular(plan.collection)
    )  # "if the pier is `crowded`, its status becomes `calm`"
    appends += _merge(text, plan, own) + _linked_moves(text, plan, state_schema, params)
    appends += _element_moves(text, plan, state_schema, sample or {})
    appends += [e for e in _put_back(text, plan, state_schema) if not any(a.get("path") == e["path"] for a in appends)]
    appends += _removed_states(text, plan, own)  # "Removes the pending (`pending`) survey of this type"
    if plan.kind == "item_add" and plan.fields:  # the new entry's other fields, as the sample entries copy them
        copied = entry_copies(
            sample or {}, plan.collection, plan.list_field or "", list(plan.fields), sorted(_entry_props(plan, own))
        )
        known = list(plan.fields) + [e["field"] for e in copied] + ([plan.item_key] if plan.item_key else [])
        items = sorted(_entry_props(plan, own))
        priced = card_prices(sample or {}, plan.collection, plan.list_field or "", list(plan.fields), items, text)
        priced = [e for e in priced if e["field"] not in known]  # a flat price, else a rate card (card_prices.py)
        known += [e["field"] for e in priced]
        appends += copied + priced + entry_figures(sample or {}, plan.collection, plan.list_field or "", known, items)
        appends += _merged_caps(text, appends, state_schema.get("properties") or {})
    keeps = KEEPS.search(text) if plan.kind == "item_remove" else None  # "has to retain at least one <entry>"
    least = (
        []
        if keeps is None
        else [{"op": "keeps", "least": int(keeps.group("n")) if (keeps.group("n") or "one").isdigit() else 1}]
    )
    least += _linked_states(text, plan, cols, own)
    if plan.kind == "item_remove":  # "charter moorings cannot go below four boats", "allowed until two days before"
        from synth.envsynth.removal_limits import removal_limits, tool_words

        least += removal_limits(text, tool_words(spec.name), plan.collection, own, today)
    if plan.kind == "item_remove" and plan.item_key and plan.op_param:  # "system lines cannot be voided"
        least += refused_entries(text, _entry_props(plan, own), plan.list_field or "", plan.item_key, plan.op_param)
    if plan.kind == "item_add" and plan.fields and plan.list_field:  # "at most 2": the limit the data holds
        least += entry_caps(sample or {}, plan.collection, plan.list_field)
    if plan.kind == "item_add":  # "the type is `final` while any other survey on the boat is still `booked`"
        least += [c for c in while_entries(text, own, params) if c not in plan.checks]
    if plan.kind == "item_add" and plan.op_param:  # "`spinnaker`: racing" of the skipper's skills
        least += value_needs(text, plan.op_param, plan.collection, cols)
    if plan.kind == "item_add":  # "must not have the boat on charter": stored records of another kind
        least += [
            c
            for c in stored_refusals(text, plan.collection, plan.key_field or "", params, cols)
            if c not in least + list(plan.checks)
        ]
    if plan.kind == "item_add":  # "the roof rack only fits cruiser and ketch classes"
        least += [c for c in fit_rules(text, plan.collection, plan.key_param or "", params, cols) if c not in least]
    if plan.kind == "item_add":  # "Error: not enough stock for <part>": what it takes must be there
        taken = [e for e in appends if e.get("op") == "adjust" and e.get("collection") != plan.collection]
        least += [c for c in covered(taken, text) if c.get("op") == "enough"]
    defaults = {  # "quantity (default 1)": a new entry left without it holds the documented default
        f: d
        for f in (plan.fields if plan.kind == "item_add" else [])
        if f in _entry_props(plan, own)
        and f not in plan.initial_values
        and (d := param_default(params[f]) if isinstance(params.get(f), dict) else None) is not None
    }
    if not (preconditions or checks or appends or least or defaults):
        return plan
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "initial_values": {**plan.initial_values, **defaults},
            "preconditions": preconditions,
            "ref_checks": checks,
            "ref_requires": requires,
            "effects": appends,
            "checks": list(plan.checks) + least,
            "evidence": plan.evidence + ["states, checks and appends read from the docs"],
        }
    )


# "the <number> is summed into the same <entry>", "has the <number> merged into its current <entry>"
# or "if the order already carries that product the quantity is increased instead of adding a second line", "if the
# part is already on the ticket its quantity is increased"
EXISTING = re.compile(
    r"\b(?:added\s+to|summed\s+into|merged\s+into)\s+(?:the\s+|its\s+|that\s+)?(?:existing|same|current)\s+\w+"
    r"|\balready\s+(?:carries|has|holds|contains|includes|lists|on|in)\b[^.;]*?\b(?:is|are)\s+"
    r"(?:increased|raised|incremented|added\s+up|summed)\b",
    re.I,
)


def _entry_props(plan: ToolPlan, own: dict[str, Any]) -> dict[str, Any]:
    """The properties of the entries of the plan's list field, as the state schema gives them."""
    items = ((own.get(plan.list_field or "") or {}).get("items") or {}) if plan.list_field else {}
    return (items.get("properties") or {}) if isinstance(items, dict) else {}


def _element_numbers(plan: ToolPlan, own: dict[str, Any]) -> dict[str, Any]:
    return {f: sch for f, sch in _entry_props(plan, own).items() if is_number(sch)}


def _merge(text: str, plan: ToolPlan, own: dict[str, Any]) -> list[dict[str, Any]]:
    """A `merge` effect when the docs say an added element whose other fields match one already in the list adds
    its numbers to that one ("a colour the batch already holds has the new kilos merged into its current entry"): the
    numbers it names are summed, the other fields it names (else all the others) must match."""
    if plan.kind != "item_add" or plan.item_key or not plan.fields:
        return []
    numbers = _element_numbers(plan, own)
    for sentence in _sentences(text):
        if not EXISTING.search(sentence):
            continue
        said = [f for f in plan.fields if re.search(rf"\b{re.escape(f.replace('_', ' '))}\b", sentence, re.I)]
        summed = [f for f in said if f in numbers]
        match = [f for f in said if f not in numbers] or [f for f in plan.fields if f not in numbers]
        if summed and match:
            return [{"op": "merge", "match": match, "sum": summed}]
    return []


COMBINED = re.compile(  # "the combined quantity must stay within the add-on's maximum per rental"
    r"\b(?:combined|total|resulting)\s+`?(\w+)`?\s+(?:must|has\s+to)\s+(?:stay|be|remain)\s+(?:within|at\s+most)\s+"
    r"(?:the\s+)?([\w-]+)['\u2019]s\s+(?:maximum|max|limit|cap)\s+per\s+(\w+)",
    re.I,
)


def _merged_caps(text: str, effects: list[dict[str, Any]], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """A `merged_cap` effect: a number a merge sums must stay within the limit the record the element names holds
    (`max_per_rental` of the add-on `addon_id` names); the call is refused past it."""
    summed = {f for e in effects if e["op"] == "merge" for f in e["sum"]}
    named = [e for e in effects if e["op"] == "entry_copied" and e.get("from") == "record"]
    for m in COMBINED.finditer(unwrap(text)):
        sources = {
            (e["collection"], e["by"]) for e in named if singular(m.group(2).replace("-", "")) in e["collection"]
        }
        if m.group(1) not in summed or len(sources) != 1:
            continue
        col, by = sources.pop()
        caps = [f for f in _props(cols, col) if {"max", singular(m.group(3).lower())} <= set(f.split("_"))]
        if len(caps) == 1:
            return [{"op": "merged_cap", "field": m.group(1), "collection": col, "by": by, "cap": caps[0]}]
    return []


def _linked_moves(text: str, plan: ToolPlan, state_schema: dict[str, Any], params: dict[str, Any]) -> list[dict]:
    """The numbers a list edit moves on its record ("`total` grows by the fee") or on a record its record links
    ("the weaver's `kilos_allowed` drops by the kilos dyed"); the added or removed element's numbers count as
    given ("... rises by the kilos that skein held"): the templates pass them with the call's arguments."""
    own = _props(state_schema.get("properties") or {}, plan.collection or "")
    given = dict(params)
    given.update({f: sch for f, sch in _element_numbers(plan, own).items() if f not in given})
    moves = docs_counters(text, plan.collection or "", plan.key_param or "", state_schema, given)
    again = set(recomputed_names(text, own))  # "subtotal and total are recomputed": worked out, not moved
    return [
        e
        for e in moves
        if (e["collection"] != plan.collection and e["path"][0]["from"] == "record")
        or (  # "the part's `stock` drops by the quantity": the record the call's `part_id` names
            e["collection"] != plan.collection
            and e["path"][0].get("from") == "arg"
            and plural(str(e["path"][0].get("name"))[:-3]) == e["collection"]
        )
        or (
            e["collection"] == plan.collection
            and e["path"][0] == {"from": "arg", "name": plan.key_param}
            and e["path"][1]["value"] not in again
        )
    ]


BACK_INTO = re.compile(  # "the line is removed and its units go back into stock"
    r"\b(?:its|their)\s+(?P<what>\w+)\s+(?:goes|go|is\s+put|are\s+put|is\s+returned|are\s+returned)\s+(?:back\s+)?"
    r"(?:in|into|to|on)\s+(?:the\s+(?P<owner>\w+)['\u2019]s\s+)?`?(?P<field>\w+)`?",
    re.I,
)


def _put_back(text: str, plan: ToolPlan, state_schema: dict[str, Any]) -> list[dict[str, Any]]:
    """`adjust` effects of a removed entry's number going back to the record the entry names ("its units go back
    into stock": the `stock` of the spool its `spool_id` names grows by its one number, or the one the words
    name)."""
    if plan.kind != "item_remove" or not plan.list_field:
        return []
    cols = state_schema.get("properties") or {}
    entry = _entry_props(plan, _props(cols, plan.collection or ""))
    numbers = sorted(f for f, sch in entry.items() if is_number(sch))
    out = []
    for m in BACK_INTO.finditer(unwrap(text)):
        what = [f for f in numbers if singular(m.group("what").lower()) in (f, singular(f))]
        amount = what[0] if len(what) == 1 else numbers[0] if len(numbers) == 1 else None
        owner = singular((m.group("owner") or "").lower())
        targets = [
            (link, other)
            for link in sorted(entry)
            if link.endswith("_id")
            and (other := plural(link[:-3])) in cols
            and other != plan.collection
            and is_number(_props(cols, other).get(m.group("field")))
            and owner in ("", singular(other), link[:-3])
        ]
        if amount is None or len(targets) != 1:
            continue
        link, other = targets[0]
        out.append(
            {
                "op": "adjust",
                "collection": other,
                "path": [{"from": "arg", "name": link}, {"from": "const", "value": m.group("field")}],
                "delta": {"from": "expr", "expr": {"plus": [{"arg": amount}]}},
            }
        )
    return out


REMOVES_THE = re.compile(r"\bremoves?\s+the\s+(?:\w+\s+)?\(?[`'\"]([\w-]+)[`'\"]\)?\s+\w+", re.I)


def _removed_states(text: str, plan: ToolPlan, own: dict[str, Any]) -> list[dict[str, Any]]:
    """An `element_state` effect: a removal takes only the entry in the state the docs name ("Removes the pending
    (`pending`) survey"), refusing when the entries it names are all in other states."""
    if plan.kind != "item_remove" or not plan.list_field or not plan.item_key:
        return []
    entry = _entry_props(plan, own)
    for m in REMOVES_THE.finditer(unwrap(text)):
        holders = [f for f, sch in sorted(entry.items()) if m.group(1) in map(str, _known(sch))]
        if len(holders) == 1 and holders[0] != plan.item_key:
            return [{"op": "element_state", "field": holders[0], "in": [m.group(1)]}]
    return []


ELEMENT_MOVED = re.compile(  # "The tier's `sold` grows by 1", "goes back to its tier (`sold` decreases; ...)"
    r"\b(?:the|its|that)\s+(?P<owner>\w+)['\u2019]s\s+`?(?P<field>\w+)`?\s+(?P<verb>grows|increases|rises|goes\s+up|"
    r"decreases|drops|falls|goes\s+down)\b(?:\s+by\s+(?:1|one)\b)?"
    r"|\b(?:to|from)\s+its\s+(?P<owner2>\w+)\s*\(\s*`?(?P<field2>\w+)`?\s+(?P<verb2>grows|increases|rises|goes\s+up|"
    r"decreases|drops|falls|goes\s+down)\b",
    re.I,
)


def _element_moves(
    text: str, plan: ToolPlan, state_schema: dict[str, Any], sample: dict[str, Any]
) -> list[dict[str, Any]]:
    """`element_adjust` effects: a count on the element of a linked record's list that the added or removed
    entry matches moves by one ("The tier's `sold` grows by 1": the entry's `tier` picks the element of its
    event's tiers, as the sample entries' copied prices show)."""
    if plan.kind not in ("item_add", "item_remove") or not plan.list_field or not plan.collection:
        return []
    props = _entry_props(plan, _props(state_schema.get("properties") or {}, plan.collection))
    given = sorted(f for f, s in props.items() if isinstance(s, dict) and s.get("type") == "string")
    links = [
        e
        for e in entry_copies(sample, plan.collection, plan.list_field, given, sorted(props))
        if e.get("from") == "linked_element"
    ]
    out = []
    for m in ELEMENT_MOVED.finditer(unwrap(text)):
        owner = singular((m.group("owner") or m.group("owner2")).lower())
        field, verb = m.group("field") or m.group("field2"), (m.group("verb") or m.group("verb2")).lower()
        for link in links:
            if singular(link["by"].lower()) != owner or any(e["field"] == field for e in out):
                continue
            held = _props(state_schema.get("properties") or {}, link["collection"]).get(link["list"]) or {}
            if ((held.get("items") or {}).get("properties") or {}).get(field, {}).get("type") not in (
                "integer",
                "number",
            ):
                continue
            sign = -1 if verb.split()[0] in ("decreases", "drops", "falls") or verb.endswith("down") else 1
            out.append(
                {
                    "op": "element_adjust",
                    **{k: link[k] for k in ("via", "collection", "list", "by")},
                    "field": field,
                    "sign": sign,
                }
            )
    return out


def _linked_states(text: str, plan: ToolPlan, cols: dict[str, Any], own: dict[str, Any]) -> list[dict[str, Any]]:
    """`linked_state` checks: a record the edited record links must not be in a state a listed refusal names
    ("`skipper <id> is barred, and barred skippers may not sign crew`": refusals.py)."""
    out = []
    for link in sorted(f for f in own if f.endswith("_id") and f != plan.key_field):
        col = next((c for c in (plural(link[:-3]), link[:-3]) if c in cols and c != plan.collection), None)
        for field, allowed in (
            refused_states(text, link[:-3].replace("_", " "), _props(cols, col)).items() if col else ()
        ):
            out.append({"op": "linked_state", "collection": col, "via": link, "field": field, "allowed": allowed})
    return out


__all__ = ["refine_item", "stated_states"]
