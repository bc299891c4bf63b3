"""The conditions of a create's "Checks, in order: a; b; c" list, each clause read against the new record (its
fields as the call sets them, and the records they name):

- "the camper's account is active", "the site is open": a known value of a field of the record a link names
  (`camper_id` -> campers, or the collection its `x-references` gives); "the site is not closed": any other known
  value of that field;
- "departure is after arrival": one of the record's fields after another;
- "the stay is 14 nights or fewer" (or less, at most): the record's number named by the unit (`nights`);
- "arrival is not before today's business date and not more than 180 days ahead": a date of the record against the
  business date, and against the business date plus the days;
- "the party fits the site's max_occupancy": the record's number named by the noun (`party_size`) is at most the
  linked record's number.

Each becomes a check expr_runtime.fg_check evaluates: `linked_state`, `ordered`, `bound` (from self), `dated`,
`capped`. Clashes with stored records ("no confirmed reservation on the site overlaps ...") are overlap_checks.py's.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.code_parts import part_checks
from synth.envsynth.create_rules import _known, _props
from synth.envsynth.date_runtime import fg_add_days
from synth.envsynth.docs_appends import is_number
from synth.envsynth.docs_linked import record_links
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import ToolSpec
from synth.words import plural

LISTED = re.compile(r"\bChecks?(?:,\s*in\s+(?:(?:this|that|the\s+following)\s+)?order)?\s*:", re.I)
AND = re.compile(r"\s+and\s+(?=(?:the|its|no)\s|[a-z]\w*\s+is\b)", re.I)  # "a is after b and the stay is ..."
LEAD = r"^(?:and\s+)?(?:the\s+|its\s+)?"
STATE = re.compile(
    LEAD + r"(?P<noun>[a-z]\w*)(?:['\u2019]s\s+(?:account|profile|record|status))?\s+is\s+(?P<not>not\s+)?"
    r"(?:still\s+)?[`'\"]?(?P<value>[a-z][\w-]*)[`'\"]?$",
    re.I,
)
AFTER = re.compile(
    LEAD + r"(?P<then>[a-z]\w*)\s+is\s+(?:strictly\s+)?after\s+(?:the\s+|its\s+)?(?P<first>[a-z]\w*)$", re.I
)
AT_MOST = re.compile(
    LEAD + r"[a-z]\w*\s+is\s+(?:(?:at\s+most|no\s+more\s+than)\s+(?P<n1>\d+)\s+(?P<u1>[a-z]+)"
    r"|(?P<n2>\d+)\s+(?P<u2>[a-z]+)\s+or\s+(?:fewer|less))$",
    re.I,
)
NOT_BEFORE = re.compile(
    LEAD + r"(?P<field>[a-z]\w*)\s+is\s+not\s+before\s+(?:today(?:['\u2019]s\s+business\s+date)?|the\s+business\s+date)"
    r"(?:\s+and\s+not\s+more\s+than\s+(?P<days>\d+)\s+days\s+ahead)?$",
    re.I,
)
FITS = re.compile(
    LEAD
    + r"(?P<what>[a-z]\w*)\s+fits?\s+(?:in\s+|within\s+)?(?:the\s+)?(?P<noun>[a-z]\w*)['\u2019]s\s+`?(?P<cap>\w+)`?$",
    re.I,
)


def noun_link(noun: str, own: dict[str, Any], cols: dict[str, Any]) -> tuple[str, str] | None:
    """(the record's field naming a record of `noun`, that collection): `<noun>_id`, else the one link whose
    collection is the noun's ("the campsite" -> `site_id`, which references campsites; docs_linked.record_links)."""
    links = record_links(own, cols, "")
    if f"{noun.lower()}_id" in links:
        return f"{noun.lower()}_id", links[f"{noun.lower()}_id"]
    refs = [f for f, col in links.items() if col == plural(noun.lower())]
    return (refs[0], links[refs[0]]) if len(refs) == 1 else None


def _clause(clause: str, own: dict[str, Any], cols: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    if m := STATE.match(clause):
        link = noun_link(m.group("noun"), own, cols)
        theirs = _props(cols, link[1]) if link else {}
        holders = [f for f, s in theirs.items() if m.group("value") in [str(v) for v in _known(s or {})]]
        if link and len(holders) == 1:
            known = [str(v) for v in _known(theirs[holders[0]])]
            allowed = [v for v in known if v != m.group("value")] if m.group("not") else [m.group("value")]
            return [
                {"op": "linked_state", "collection": link[1], "via": link[0], "field": holders[0], "allowed": allowed}
            ]
    if (m := AFTER.match(clause)) and m.group("then") in own and m.group("first") in own:
        return [{"op": "ordered", "first": m.group("first"), "then": m.group("then")}]
    if m := AT_MOST.match(clause):
        unit = (m.group("u1") or m.group("u2")).lower()
        if is_number(own.get(unit)):
            return [
                {
                    "op": "bound",
                    "from": "self",
                    "field": unit,
                    "cmp": "<=",
                    "value": int(m.group("n1") or m.group("n2")),
                }
            ]
    if (m := NOT_BEFORE.match(clause)) and m.group("field") in own and today:
        out = [{"op": "dated", "field": m.group("field"), "cmp": ">=", "value": today}]
        ahead = fg_add_days(today, int(m.group("days"))) if m.group("days") else None
        return out + ([{"op": "dated", "field": m.group("field"), "cmp": "<=", "value": ahead}] if ahead else [])
    if m := FITS.match(clause):
        link = noun_link(m.group("noun"), own, cols)
        fields = [f for f, s in own.items() if is_number(s) and m.group("what").lower() in f.lower().split("_")]
        if link and len(fields) == 1 and is_number(_props(cols, link[1]).get(m.group("cap"))):
            return [{"op": "capped", "field": fields[0], "collection": link[1], "via": link[0], "cap": m.group("cap")}]
    return []


def clause_checks(clause: str, own: dict[str, Any], cols: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """The checks one clause of a conditions list gives (the forms above), [] when it gives none."""
    return _clause(clause, own, cols, today)


def create_checks(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    today: str | None,
    sample: dict[str, Any] | None = None,
    policy: str = "",
) -> ToolPlan:
    """The create plan with the checks of its "Checks: ...; ..." list, its refusal lists and the limits it states by
    a table (`sample`: the sample state, for the values a table is keyed by; `policy`: the whole policy, where a
    word for some states may be defined)."""
    if plan.kind != "create" or not plan.collection:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    found: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", unwrap(text)):
        listed = LISTED.search(sentence)
        if listed is None:
            continue
        for part in re.split(r"\s*;\s*", sentence[listed.end() :].strip().rstrip(".")):
            for clause in AND.split(re.sub(r"\s*\([^()]*\)", "", part).strip()):
                found += [c for c in _clause(clause, own, cols, today) if c not in found and c not in plan.checks]
                found += [c for c in part_checks(clause, plan.collection, own, cols, sample or {}) if c not in found]
    from synth.envsynth.refused_lists import refusal_checks, table_caps

    found += [c for c in refusal_checks(text, own, cols) if c not in found and c not in plan.checks]  # "refused when:"
    from synth.envsynth.must_clauses import must_checks

    must = [c for c in must_checks(text, own, cols, today) if c not in found and c not in plan.checks]  # "must be"
    found += must
    named = {  # "the berth must be open": the records a must sentence reads must exist
        side["via"]: side["collection"]
        for c in must
        for side in ([c["first"], c["second"]] if c["op"] == "linked_same" else [c])
        if side["via"] in (spec.parameters.get("properties") or {})
    }
    from synth.envsynth.conditional_refusals import conditional_refusals

    params = spec.parameters.get("properties") or {}
    from synth.envsynth.kind_needs import kind_needs

    found += [c for c in kind_needs(text, own, cols) if c not in found and c not in plan.checks]  # "only with a ..."
    found += [  # "the berth type is `fuel` and the marina's district is residential (starts with `R-`)"
        c for c in conditional_refusals(text, own, cols, params) if c not in found and c not in plan.checks
    ]
    found += [c for c in table_caps(text, own, cols, sample or {}) if c not in found and c not in plan.checks]
    from synth.envsynth.linked_errors import linked_errors
    from synth.envsynth.list_sizes import list_sizes

    found += [  # "Private charters take 1 to 8 passengers"
        c for c in list_sizes(text, plan.collection, own) if c not in found and c not in plan.checks
    ]
    found += [  # "Errors: 422: ... e.g. closed pier, past trip"
        c for c in linked_errors(text, own, cols, sample or {}, today) if c not in found and c not in plan.checks
    ]
    from synth.envsynth.one_per import one_per
    from synth.envsynth.param_members import param_members

    found += [  # "must be a current crew member of the boat"; "Only allowed for boats with no crew"
        c for c in param_members(params, own, cols) if c not in found and c not in plan.checks
    ]
    found += [  # "a pier can have only one unresolved (`open` or `scheduled`) charter per berth"
        c for c in one_per(text, plan.collection, own, cols, policy) if c not in found and c not in plan.checks
    ]
    from synth.envsynth.kind_refusals_of import kind_refusals_of

    found += [  # "Cadets cannot request T1 tows"
        c for c in kind_refusals_of(text, params, own, cols) if c not in found and c not in plan.checks
    ]
    from synth.envsynth.queue_rules import queue_rules

    queued, popped = queue_rules(unwrap(text), plan, own, cols)  # "only the skipper first in the list may book it"
    found += [c for c in queued if c not in found and c not in plan.checks]
    from synth.envsynth.held_places import held_places

    placed = held_places(unwrap(text), plan.collection, state_schema, True)  # "reserves its places in the pier"
    moved = {repr(e["path"]) for e in plan.effects if e.get("op") == "adjust"}
    popped += [e for e in placed if e["op"] == "adjust" and repr(e["path"]) not in moved]
    found += [c for c in placed if c["op"] != "adjust" and c not in found and c not in plan.checks]
    if not found and not popped:
        return plan
    evidence = plan.evidence + [f"{len(found)} checks read from a 'Checks:' or 'refused when:' list"]
    effects = list(plan.effects) + [e for e in popped if e not in plan.effects]
    refs = {**named, **plan.ref_checks}
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "checks": list(plan.checks) + found,
            "effects": effects,
            "evidence": evidence,
            "ref_checks": refs,
        }
    )


__all__ = ["clause_checks", "create_checks", "noun_link"]
