"""Conditions a change of an existing record is allowed under, read from an "allowed only when ..." sentence ("only
if", "only while" too). Each clause of its list becomes a check:

- "it was <verb>ed fewer than N times" (has been, had been): a number of the record whose name starts like the
  verb (`<verb>ions`);
- "the <noun> is '<value>'" (or "'<a>', '<b>' or '<c>'"): the states of a record the record links (`<noun>_id`),
  or of the record itself;
- "the <noun>'s <list words> is empty" (or "no one is ... in the <noun>'s <list words>"): a list of a linked record
  whose name ends in those words (`<list>`, `<x>_<list>`) that is empty;
- "its `<field>` no earlier than <date>" (no later than, not before, not after; in brackets or not): a date of the
  record on the stated side of a date.

An "unless its <noun> is `<value>`" clause in any sentence allows every other known state of that record (the
record itself, or the one it links); after a refusal ("fails unless ...") it names the states required instead.

Checks are `bound`, `linked_state`, `empty` and `dated` (expr_runtime.fg_check); a state of the record itself joins
the plan's preconditions. A "must" sentence's number limits on named records (bound_checks.py) apply too.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.arg_limits import arg_limits
from synth.envsynth.arg_ranges import argument_checks
from synth.envsynth.bound_checks import bound_checks
from synth.envsynth.code_parts import part_checks
from synth.envsynth.create_checks import clause_checks
from synth.envsynth.dated_only import day_checks
from synth.envsynth.docs_appends import is_number
from synth.envsynth.docs_linked import record_links
from synth.envsynth.error_checks import error_checks
from synth.envsynth.named_args import named_arg_checks, possessive_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.envsynth.refused_lists import cap_checks, refused_bullets
from synth.envsynth.value_limits import own_limits, value_limits
from synth.spec import ToolSpec, field_by_words
from synth.spec import record_props as _props
from synth.words import plural, singular, split_words

OPEN = re.compile(r"\b(?:(?:allowed|possible|permitted)\s+)?only\s+(?:when|if|while)\b|\bRules\s*:", re.I)
# a comma ends a clause unless a list of quoted values goes on after it ("`a`, `b` or `c`")
CLAUSES = re.compile(
    r",(?!\s*(?:[`'][\w-]+[`']\s*(?:,|\bor\b)|or\b))\s*(?:and\s+)?"
    r"|\s+and\s+(?=(?:the|nobody|no\s+one|has|is|it|not)\b)",
    re.I,
)
TIMES = re.compile(
    r"^(?:it\s+)?(?:has\s+been|was|had\s+been)\s+([a-z]+)\s+(fewer|less|more)\s+than\s+(\d+)\s+times?\b", re.I
)
HAD = re.compile(r"^(?:it|the\s+\w+)\s+has\s+had\s+(fewer|less|more)\s+than\s+(\d+)\s+([a-z][a-z ]{1,40}?)\s*$", re.I)
STATE = re.compile(  # "the <noun> is `a`", "... is `a`, `b` or `c`": every value listed
    r"^the\s+([a-z][\w ]{0,30}?)\s+is\s+(?:still\s+)?(?:in\s+)?"
    r"([`'][\w-]+[`'](?:(?:\s*,\s*(?:or\s+)?|\s+or\s+)[`'][\w-]+[`'])*)",
    re.I,
)
EMPTY = re.compile(
    r"^(?:nobody|no\s+one|nothing)\s+is\s+(?:[a-z]+\s+)?(?:in|on)\s+(?:the\s+)?([a-z]+)['\u2019]s\s+([a-z][\w ]{1,30})",
    re.I,
)
# "<the list> is empty" after its holder: "the <noun>'s <list> is (stays, remains) empty"
EMPTY_SAID = re.compile(
    r"^(?:the\s+)?([a-z]+)['\u2019]s\s+([a-z][\w ]{1,30}?)\s+(?:is|stays|remains)\s+(?:still\s+)?empty\b", re.I
)
# a date field on one side of a date, in brackets or not: "its `<field>` no earlier than <date>" (SIDES' words)
SIDES = {
    **dict.fromkeys(("on or after", "no earlier than", "not before"), ">="),
    **dict.fromkeys(("on or before", "no later than", "not after"), "<="),
}
DATED = re.compile(
    r"`?([a-z][\w ]{1,30}?)`?\s+(?:is\s+)?(on\s+or\s+after|on\s+or\s+before|no\s+earlier\s+than|no\s+later\s+than|"
    r"not\s+before|not\s+after)\s+(\d{4}-\d{2}-\d{2})\b",
    re.I,
)
CMP = {"fewer": "<", "less": "<", "more": ">"}
CHECKS_OPEN = re.compile(r"\bChecks?(?:,\s*in\s+(?:this|that|the\s+following)\s+order)?\s*:", re.I)  # "Checks: a; b"
ARRIVED = re.compile(  # "its start date has arrived": the date is today or earlier
    r"^(?:and\s+)?(?:its|the|their)\s+([a-z]\w*(?:\s[a-z]\w*)?)\s+(?:has\s+(?:arrived|come|been\s+reached)|is\s+reached)\b",
    re.I,
)
TODAY_SIDE = re.compile(  # "its end date is still after the business date"
    r"^(?:and\s+)?(?:its|the|their)\s+([a-z]\w*(?:\s[a-z]\w*)?)\s+is\s+(?:still\s+)?"
    r"(on\s+or\s+after|on\s+or\s+before|after|before|later\s+than|earlier\s+than)\s+"
    r"(?:the\s+business\s+date|today|the\s+current\s+date)\b",
    re.I,
)
TODAY_CMP = {
    "after": ">",
    "later than": ">",
    "before": "<",
    "earlier than": "<",
    "on or after": ">=",
    "on or before": "<=",
}
PASSED = re.compile(  # "neither can one whose arrival date has already passed": the date is today or later
    r"\bwhose\s+([a-z]\w*(?:\s[a-z]\w*)?)\s+(?:has\s+(?:already\s+)?passed|is\s+(?:already\s+)?(?:past|in\s+the\s+past))",
    re.I,
)
NEITHER = re.compile(r"\b(?:cannot|can't|can\s+not|neither\s+can|nor\s+can|not\s+allowed|refused)\b", re.I)
TODAY_MUST = re.compile(r"\b(?:today|the\s+business\s+date)\b[^.]*?\bmust\b", re.I)  # "today ... must fall within"
TODAY_SIDES = re.compile(
    r"\b(on\s+or\s+after|on\s+or\s+before|after|before)\s+(?:the|its)\s+([a-z]\w*(?:\s[a-z]\w*)?)", re.I
)
ALLOWED_SPAN = re.compile(  # "Allowed from the arrival date (inclusive) until the day before departure"
    r"\ballowed\s+from\s+the\s+([a-z]\w*(?:\s[a-z]\w*)?)\s*(?:\(inclusive\)\s*)?until\s+the\s+day\s+before\s+"
    r"(?:the\s+)?([a-z]\w*(?:\s[a-z]\w*)?)",
    re.I,
)
FLIPPED = {
    "on or after": "<=",
    "after": "<",
    "on or before": ">=",
    "before": ">",
}  # today <side> date: date <cmp> today
MUST_NOT_BE = re.compile(r"\bthe\s+([a-z]\w*)\s+must\s+not\s+be\s+[`'\"]?([a-z][\w-]*)[`'\"]?", re.I)
NOT_ADDED = re.compile(  # "The camper's primary vehicle_plate is already included and cannot be added"
    r"\bthe\s+(?P<noun>[a-z]\w*)['\u2019]s\s+(?:\w+\s+)?`?(?P<field>[a-z]\w*)`?\s+[^.;]{0,40}?\bcannot\s+be\s+"
    r"(?:added|registered|used|booked|given)\b",
    re.I,
)
STATE_BARE = re.compile(r"^(?:and\s+)?the\s+([a-z][\w ]{0,30}?)\s+is\s+(?:still\s+)?([a-z][\w-]*)\s*$", re.I)


def _known(schema: Any) -> list[Any]:
    return list((schema.get("enum") or schema.get("x-enum") or []) if isinstance(schema, dict) else [])


def _link(noun: str, own: dict[str, Any], cols: dict[str, Any]) -> tuple[str, str] | None:
    """(link field, collection) of the record the noun names through the record's `<noun>_id`; a noun of several
    words ("customer account") also by its first word."""
    words = noun.lower().split()
    for name in dict.fromkeys(["_".join(words), words[0]] if words else []):
        field = name + "_id"
        col = next((c for c in (plural(name), name) if c in cols), None)
        if field in own and col:
            return field, col
    return None


def _link_by_values(values: list[str], links: dict[str, str], cols: dict[str, Any]) -> tuple[str, str] | None:
    """(link field, collection) of the one record the record links (`links`, docs_linked.record_links) whose fields
    know all these values: "the car is still in `reserved` status" when no collection is called "cars"."""
    found = [
        (field, col)
        for field, col in links.items()
        if any(set(values) <= {str(v) for v in _known(s)} for s in _props(cols, col).values())
    ]
    return found[0] if len(found) == 1 else None


EXPIRED = re.compile(r"\b(?:has\s+not|hasn't|is\s+not|isn't)\s+(?:yet\s+)?expired\b", re.I)


def _expiry_checks(
    clause: str, own: dict[str, Any], cols: dict[str, Any], links: dict[str, str], today: str | None
) -> list[dict]:
    """A `dated` check from "the licence number presented ... has not expired": the date field, of the record or
    of one it links, named by the clause's first noun and an expiry word (`licence_expiry`), is not before the
    business date."""
    lead = re.match(r"^(?:and\s+)?(?:the|its|their)\s+([a-z]+)", clause, re.I)
    if not today or not lead or not EXPIRED.search(clause):
        return []
    noun = lead.group(1).lower()

    def expiry(props: dict[str, Any]) -> list[str]:
        return [f for f in props if noun in f.lower().split("_") and re.search(r"expir", f, re.I)]

    if len(expiry(own)) == 1:
        return [{"op": "dated", "field": expiry(own)[0], "cmp": ">=", "value": today}]
    held = [(f, col, expiry(_props(cols, col))) for f, col in links.items()]
    held = [(f, col, e[0]) for f, col, e in held if len(e) == 1]
    if len(held) != 1:
        return []
    via, col, field = held[0]
    return [{"op": "dated", "field": field, "cmp": ">=", "value": today, "via": via, "collection": col}]


def _span_end(words: str, own: dict[str, Any]) -> str | None:
    """The date field "the arrival date" or "departure" names (`arrival`, `departure_date`)."""
    bare = re.sub(r"\s+date$", "", words)
    return field_by_words(words, own) or field_by_words(bare, own) or field_by_words(bare + " date", own)


def _today_checks(clause: str, own: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """`dated` checks against the business date: "its start date has arrived", "its end date is still after the
    business date"."""
    if not today:
        return []
    arrived, side = ARRIVED.match(clause), TODAY_SIDE.match(clause)
    field = field_by_words((arrived or side).group(1), own) if (arrived or side) else None
    if field is None:
        return []
    cmp = "<=" if arrived else TODAY_CMP[" ".join(side.group(2).lower().split())] if side else "<="
    return [{"op": "dated", "field": field, "cmp": cmp, "value": today}]


def _passed_checks(sentence: str, own: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """`dated` checks from a refusal of records "whose arrival date has already passed": the date is not before
    the business date; and those of "only possible on the <date>" or "whose hold has not lapsed" (dated_only.py)."""
    if not today:
        return []
    out = []
    for m in PASSED.finditer(sentence) if NEITHER.search(sentence) else ():
        words = m.group(1).lower().split()
        field = field_by_words(m.group(1), own) or (
            field_by_words(" ".join(words[:-1]), own) if words[-1] == "date" else None
        )
        check = {"op": "dated", "field": field, "cmp": ">=", "value": today}
        if field and check not in out:
            out.append(check)
    return out + [c for c in day_checks(sentence, own, today) if c not in out]  # "only on the <date>", "not lapsed"


def _within_checks(sentence: str, own: dict[str, Any], cols: dict[str, Any], today: str | None) -> list[dict]:
    """`dated` checks from "today's business date must fall within the stay: on or after the arrival date and
    before the departure date" or "allowed from the arrival date (inclusive) until the day before departure", and
    linked-state checks from "The campsite must not be closed"."""
    out = []
    if today and TODAY_MUST.search(sentence):
        for m in TODAY_SIDES.finditer(sentence[TODAY_MUST.search(sentence).end() :]):
            words = m.group(2).lower().split()
            field = field_by_words(m.group(2), own) or (
                field_by_words(" ".join(words[:-1]), own) if words[-1] == "date" else None
            )
            if field:
                out.append(
                    {
                        "op": "dated",
                        "field": field,
                        "cmp": FLIPPED[" ".join(m.group(1).lower().split())],
                        "value": today,
                    }
                )
    for m in ALLOWED_SPAN.finditer(sentence) if today else ():  # from the first day, before the last one
        first, last = (_span_end(m.group(1), own), _span_end(m.group(2), own))
        if first and last:
            out += [{"op": "dated", "field": first, "cmp": "<=", "value": today}]
            out += [{"op": "dated", "field": last, "cmp": ">", "value": today}]
    for m in MUST_NOT_BE.finditer(sentence):
        out += clause_checks(f"the {m.group(1)} is not {m.group(2)}", own, cols, today)
    return out


def _not_held_checks(sentence: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict]:
    """`not_held` checks from "the camper's primary vehicle_plate ... cannot be added": the argument named like the
    linked record's field (`plate`) may not be the value that record holds."""
    out = []
    for m in NOT_ADDED.finditer(sentence):
        link = _link(m.group("noun"), own, cols)
        field = m.group("field")
        named = [p for p in params if p == field or p == field.split("_")[-1]]
        if link and len(named) == 1 and field in _props(cols, link[1]):
            out.append({"op": "not_held", "arg": named[0], "collection": link[1], "via": link[0], "field": field})
    return out


def _clause_checks(
    clause: str,
    resource: str,
    own: dict[str, Any],
    cols: dict[str, Any],
    states: dict[str, list[Any]],
    by_value: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The checks of one clause; `by_value`: the record's links, through which a noun no link names may name the
    one linked record whose fields know the quoted values (in a "Checks:" list, whose clauses are all conditions of
    the call)."""
    out: list[dict[str, Any]] = []
    times = TIMES.match(clause)
    if times:
        stem = times.group(1).lower()[:5]
        fields = [f for f, s in own.items() if is_number(s) and f.lower().startswith(stem)]
        if len(fields) == 1:
            value = int(times.group(3))
            out.append(
                {"op": "bound", "from": "self", "field": fields[0], "cmp": CMP[times.group(2).lower()], "value": value}
            )
    had = HAD.match(clause)  # "it has had fewer than 2 failed haul attempts": a count the record keeps
    if had:
        words = {singular(w) for w in had.group(3).lower().split()}
        fields = [f for f, s in own.items() if is_number(s) and {singular(w) for w in f.lower().split("_")} <= words]
        if len(fields) == 1:
            cmp, value = CMP[had.group(1).lower()], int(had.group(2))
            out.append({"op": "bound", "from": "self", "field": fields[0], "cmp": cmp, "value": value})
    state = STATE.match(clause)
    if state:
        noun, values = state.group(1).lower(), re.findall(r"[`']([\w-]+)[`']", state.group(2))
        if singular(noun) == resource:
            holders = [f for f, s in own.items() if set(values) <= {str(v) for v in _known(s)}]
            if len(holders) == 1:
                states.setdefault(holders[0], []).extend(v for v in values if v not in states.get(holders[0], []))
        elif (
            link := _link(noun, own, cols) or (_link_by_values(values, by_value, cols) if by_value else None)
        ) is not None:
            theirs = _props(cols, link[1])
            holders = [f for f, s in theirs.items() if set(values) <= {str(v) for v in _known(s)}]
            if len(holders) == 1:
                check = {"op": "linked_state", "collection": link[1], "via": link[0], "field": holders[0]}
                out.append({**check, "allowed": values})
    bare = STATE_BARE.match(clause) if not state else None  # "the customer account is active": a known value
    if bare and singular(bare.group(1).lower()) != resource and (link := _link(bare.group(1), own, cols)):
        theirs = _props(cols, link[1])
        holders = [f for f, s in theirs.items() if bare.group(2) in {str(v) for v in _known(s)}]
        if len(holders) == 1:
            out.append(
                {
                    "op": "linked_state",
                    "collection": link[1],
                    "via": link[0],
                    "field": holders[0],
                    "allowed": [bare.group(2)],
                }
            )
    empty = EMPTY.match(clause) or EMPTY_SAID.match(clause)
    if empty and (link := _link(empty.group(1), own, cols)) is not None:
        words = [singular(w) for w in split_words(empty.group(2))]
        lists = [
            f
            for f, s in _props(cols, link[1]).items()
            if isinstance(s, dict)
            and s.get("type") == "array"
            and [singular(w) for w in split_words(f)][-len(words) :] == words
        ]
        if len(lists) == 1:
            out.append({"op": "empty", "collection": link[1], "via": link[0], "field": lists[0]})
    for dated in DATED.finditer(clause):
        words = dated.group(1).lower().split()  # the field's words, after any leading ones ("with its", "the")
        field = next((f for f in ("_".join(words[i:]) for i in range(len(words))) if f in own), None)
        if field:
            cmp = SIDES[" ".join(dated.group(2).lower().split())]
            out.append({"op": "dated", "field": field, "cmp": cmp, "value": dated.group(3)})
    return out


EQUALS = re.compile(  # "whose dues are settled (`dues_paid` equals `dues_owed`)", "`a` must equal `b`"
    r"`(?P<a>\w+)`\s+(?:must\s+)?(?P<verb>equals?|matches|match|is\s+equal\s+to|be\s+equal\s+to|is\s+at\s+least|"
    r"be\s+at\s+least)\s+(?:its\s+|the\s+)?`(?P<b>\w+)`",
    re.I,
)


def _equal_checks(sentence: str, own: dict[str, Any]) -> list[dict[str, Any]]:
    """`bound` checks of one number of the record against another, where the docs require it (a condition, not
    a change: the sentence says "must", "only", "whose" or puts it in brackets after the record's noun)."""
    out = []
    for m in EQUALS.finditer(sentence):
        a, b = m.group("a"), m.group("b")
        if not (is_number(own.get(a)) and is_number(own.get(b))) or a == b:
            continue
        said = "must" in m.group(0).lower() or re.search(r"\b(?:only|whose|must)\b", sentence[: m.start()], re.I)
        if not said and not sentence[: m.start()].rstrip().endswith("("):
            continue
        cmp = ">=" if "least" in m.group("verb").lower() else "=="
        out.append({"op": "bound", "from": "self", "field": a, "cmp": cmp, "value": {"field": b}})
    return out


DATE_FORMS = (  # what a refused date argument does, and the check that keeps it out
    (re.compile(r"\bis\s+not\s+after\s+today\b", re.I), lambda m: {"cmp": ">"}),
    (re.compile(r"\bis\s+(?:before\s+today|in\s+the\s+past)\b", re.I), lambda m: {"cmp": ">="}),
    (
        re.compile(r"\bis\s+(?:more|later)\s+than\s+(\d+)\s+days\s+(?:after\s+today|ahead)\b", re.I),
        lambda m: {"cmp": "<=", "days": int(m.group(1))},
    ),
    (
        re.compile(r"\bfalls\s+on\s+a\s+(?:Saturday\s+or\s+Sunday|Sunday\s+or\s+Saturday|weekend)\b", re.I),
        lambda m: {"cmp": "weekday"},
    ),
)


def _refused_dates(text: str, params: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """`arg_date` checks from a "Refused when:" list whose clause names a date parameter: "`date` is not after
    today, is more than 60 days after today, or falls on a Saturday or Sunday"."""
    dates = [p for p, s in params.items() if isinstance(s, dict) and (s.get("format") == "date" or p.endswith("date"))]
    if not dates or not today:
        return []
    out: list[dict[str, Any]] = []
    for clause in refused_bullets(text):
        named = [p for p in dates if re.match(rf"\s*(?:the\s+)?`?{re.escape(p)}`?\s", clause)]
        if len(named) != 1:
            continue
        for form, made in DATE_FORMS:
            for m in form.finditer(clause):
                check = {"op": "arg_date", "arg": named[0], "today": today, **made(m)}
                out += [check] if check not in out else []
    return out


REFUSED = re.compile(r"\b(?:refus|fail|error|reject|denied|cannot|can't|not\s+allowed)", re.I)
UNLESS = re.compile(r"\bunless\s+(?:its|their|the)\s+([a-z][\w ]{0,30}?\s+is\s+[^.;]{1,120})", re.I)


def _unless_checks(
    said: str, resource: str, own: dict[str, Any], cols: dict[str, Any], states: dict[str, list[Any]]
) -> list[dict[str, Any]]:
    """ "..., unless its <noun> is `x`": the record (or the one it links) may hold any other known state."""
    refused: dict[str, list[Any]] = {}
    found = _clause_checks("the " + said, resource, own, cols, refused)
    out = []
    for check in found:
        if check["op"] == "linked_state":
            known = [
                v for v in _known(_props(cols, check["collection"]).get(check["field"])) if v not in check["allowed"]
            ]
            out += [{**check, "allowed": known}] if known else []
    for field, values in refused.items():
        kept = [v for v in _known(own.get(field)) if v not in values]
        if kept and field not in states:
            states[field] = kept
    return out


def allowed_checks(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    today: str | None = None,
    sample: Any = None,
) -> ToolPlan:
    """The change's plan with the checks (and own states) its "allowed only when ...", "Checks: ...; ..." and
    "unless ..." clauses give (`today`: the business date the docs state, for "its start date has arrived";
    `sample`: the sample state, for the parts of codes)."""
    if plan.kind not in ("recorded_update", "item_add", "item_remove") or not plan.collection:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    resource = singular(plan.collection)
    checks: list[dict[str, Any]] = []
    states: dict[str, list[Any]] = {}
    params = spec.parameters.get("properties") or {}
    links = record_links(own, cols, plan.collection)
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", unwrap(text)):
        for m in UNLESS.finditer(sentence):
            parts = re.split(r"\s+or\s+(?:its|their|the)\s+(?=[a-z][\w ]{0,30}?\s+is\b)", m.group(1))
            for said in parts:
                if REFUSED.search(sentence[: m.start()]):  # "fails unless ...": what it says is required
                    # (of alternatives, "fails unless A or B", any one would do: not read)
                    found = _clause_checks("the " + said, resource, own, cols, states) if len(parts) == 1 else []
                else:  # "does <x>, unless ... or ...": what it says is refused
                    found = _unless_checks(said, resource, own, cols, states)
                checks += [c for c in found if c not in checks]
        checks += [c for c in _passed_checks(sentence, own, today) if c not in checks]
        checks += [c for c in _within_checks(sentence, own, cols, today) if c not in checks]
        checks += [c for c in _not_held_checks(sentence, params, own, cols) if c not in checks]
        checks += [c for c in named_arg_checks(sentence, params, own, cols, plan.collection) if c not in checks]
        checks += [c for c in value_limits(sentence, resource, own, params) if c not in checks]
        checks += [c for c in own_limits(sentence, own) if c not in checks]
        checks += [c for c in _equal_checks(sentence, own) if c not in checks]
        listed = CHECKS_OPEN.search(sentence)
        if listed is not None:  # "Checks, in this order: the agreement is `reserved`; its start date has arrived; ..."
            body = sentence[listed.end() :]
            while re.search(r"\([^()]*\)", body):  # "(... 'Error: ... kg; ... (<n> boats)')": asides, inner first
                body = re.sub(r"\s*\([^()]*\)", "", body)
            for clause in re.split(r"\s*;\s*", body.strip().rstrip(".")):
                clause = re.sub(r"^and\s+", "", clause.strip(), flags=re.I)
                found = _clause_checks(clause, resource, own, cols, states, links) + _today_checks(clause, own, today)
                found += _expiry_checks(clause, own, cols, links, today)
                found += possessive_checks(clause, params, own, cols, resource)  # "the bay's `status` is 'free'"
                found += part_checks(clause, plan.collection, own, cols, sample or {})  # "the pilot's area equals ..."
                checks += [c for c in found if c not in checks]
        opened = OPEN.search(sentence)
        if opened is None:
            continue
        for clause in CLAUSES.split(sentence[opened.end() :].strip().rstrip(".")):
            clause = re.sub(r"\s+must\s+be\s+", " is ", clause)  # "Rules: the buoy must be `set` or `lit`"
            found = _clause_checks(clause.strip(), resource, own, cols, states) + _today_checks(
                clause.strip(), own, today
            )
            checks += [c for c in found if c not in checks]
    params = spec.parameters.get("properties") or {}
    checks += [c for c in _refused_dates(text, params, today) if c not in checks]  # "Refused when: ..."
    for check in argument_checks(text, params, cols, today, own):  # "a weekday after today", "must be a buoy of ..."
        checks += [check] if check not in checks else []
    checks += [c for c in arg_limits(text, params, own, {}, cols) if c not in checks]  # "at most its `a - b`"
    refs = {p: c for p in params if p.endswith("_id") for c in (plural(p[:-3]),) if c in cols and c != plan.collection}
    checks += [c for c in bound_checks(text, refs, cols) if c not in checks]  # "the <noun> must stay under max_<x>"
    if plan.kind == "recorded_update":  # "a skipper keeps at most 2 moorings (`booked` or `moored`)"
        checks += [c for c in cap_checks(text, plan.collection, own, refs, params) if c not in checks]
    listed, held = error_checks(text, plan.collection, plan.key_param, state_schema, today, params)  # "Errors: ..."
    checks += [c for c in listed if c not in checks]
    states.update({f: v for f, v in held.items() if f not in states})
    checks = [c for c in checks if c not in plan.checks]
    states = {f: v for f, v in states.items() if f not in plan.preconditions}
    if not checks and not states:
        return plan
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "checks": list(plan.checks) + checks,
            "preconditions": {**plan.preconditions, **states},
            "evidence": plan.evidence + ["conditions read from an 'allowed only when' sentence"],
        }
    )


__all__ = ["allowed_checks"]
