"""What a create's docs say beyond its parameters: the records its `<noun>_id` parameters name must exist (and
be in a stated state: "the berth must be `free`"), fields start at stated values ("status `moored`", "`receipt`
null", "visits 0", "a history of one entry `{...}`"), a reference the named record holds is copied ("the berth's
harbour as `harbour_id`"), and the named record changes with it ("The berth becomes `taken` and records the new
`mooring_id`", "the skipper's trips_out goes up by 1"; "the car's status becomes `reserved`", another word for the
vehicle booked, names the one record whose field knows the value). Checks on the named record: its state unquoted
too ("must be signed"), an argument between two of its fields (`within`), the most records it may hold (`cap`), and
a balance the new record's amount comes off (`enough`); a list parameter led by another parameter's record (`lead`)."""

from __future__ import annotations

import json
import re
from typing import Any

from synth.envsynth.arg_limits import arg_limits
from synth.envsynth.arg_ranges import argument_checks
from synth.envsynth.bound_checks import bound_checks
from synth.envsynth.business_dates import moment_field
from synth.envsynth.create_sets import CONDITION, _known, aliased_sets, flag_lead, new_key_sets
from synth.envsynth.data_copies import data_copies
from synth.envsynth.docs_appends import element_rule, first_entry, worded_entry
from synth.envsynth.docs_counters import covered, docs_counters
from synth.envsynth.docs_deadlines import deadline_checks
from synth.envsynth.docs_entries import business_date
from synth.envsynth.figure_terms import param_default
from synth.envsynth.lasting_dates import days_later, lasting
from synth.envsynth.linked_logs import linked_entries
from synth.envsynth.made_dates import made_on, stamp_named
from synth.envsynth.overlap_checks import capacity_checks, overlap_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.envsynth.rate_tables import arrow_tables, column_tables, later_tables, rate_tables
from synth.envsynth.refusals import refused_states
from synth.envsynth.type_rows import type_row_checks
from synth.envsynth.vacant_fields import with_vacant
from synth.envsynth.worded_copies import with_worded
from synth.spec import ToolSpec, schema_types
from synth.spec import record_props as _props
from synth.words import plural, singular

MUST_BE = r"\b(?:must|has\s+to|have\s+to|needs?\s+to)\s+(?:exist\s+and\s+)?be"  # "the skipper has to be active"
OWN_EVENT = re.compile(  # "when the <noun> is made", "once booked", "if it succeeds": the call itself, no condition
    r"\b(?:when|whenever|once|if)\s+(?:(?:the|a|an|this|it|its)\s+(?:new\s+)?(?:\w+\s+)?(?:is|was|has\s+been|gets)\s+)?"
    r"(?:made|created|booked|placed|added|opened|filed|submitted|saved|recorded|successful|succeeds?)\b",
    re.IGNORECASE,
)
MUST_EXIST = re.compile(  # "404: Unknown berth or skipper", "`404` - Missing skipper" (not "404: No free berth")
    r"\b(not found|does not exist|no such|must exist|must be an? existing)\b"
    r"|\b`?404`?\s*[:\-\u2013\u2014]\s*(?:unknown|missing|no)\b(?!\s+(?:free|more|space|spare|available)\b)"
    r"|\b404\s+(?:if|when)\b[^.]{0,40}\b(?:unknown|missing)\b",
    re.I,
)
QUOTED = r"`[^`]{1,60}`|(?<![\w])'[^'\n]{1,60}'(?![\w])"  # 'moored', not the one of "the boat's"
STATED = r"(`[^`]{1,80}`|(?<![\w])'[^'\n]{1,60}'(?![\w])|\bnull\b|\btrue\b|\bfalse\b|-?\d+(?:\.\d+)?)"


def link_field(own: dict[str, Any], noun: str) -> str | None:
    """The record's field that names a record of `noun` (`pier_id`, or a field referencing `piers`)."""
    return next(
        (f for f, s in sorted(own.items()) if f == f"{noun}_id" or (s or {}).get("x-references") == plural(noun)), None
    )


def _name(field: str) -> str:
    return "(?:" + "|".join(re.escape(n) for n in {field, field.replace("_", " ")}) + ")"


def _value(token: str) -> Any:
    token = token.strip()
    if token[:1] in "`'" and token[-1:] in "`'":
        inner = token[1:-1]
        try:
            return json.loads(inner)
        except ValueError:
            return inner
    return json.loads(token)


def _fits(value: Any, schema: dict[str, Any]) -> bool:
    kind, known = schema.get("type"), _known(schema)
    kinds = kind if isinstance(kind, list) else [kind]
    if value is None and "null" in kinds:
        return True  # a field that may be empty, whatever values it is known to hold otherwise
    if known and value not in known:
        return False
    checks = {
        "string": isinstance(value, str),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "boolean": isinstance(value, bool),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
        "null": value is None,
        None: True,
    }
    return any(checks.get(k, False) for k in kinds) or (value is None and "null" in kinds)


def _stated(text: str, field: str, schema: dict[str, Any], today: str | None = None) -> tuple[bool, Any]:
    """(found, value) the text gives a new record's field ("`created` today" is the business date)."""
    if today and schema.get("type") == "string":
        m = re.search(rf"(?<![\w])`?{_name(field)}`?\s+(?:is\s+|=\s*)?today\b(?!\s+plus|\s+\+)", text, re.IGNORECASE)
        if m:
            return True, today
    if schema.get("type") == "array":  # "`log` of one entry `{...}`", "one `log` entry `{...}`"
        m = re.search(rf"\b{_name(field)}`?\s+of\s+one\s+(?:entry|element|item)\s+`(\{{[^`]{{1,300}}\}})`", text, re.I)
        m = m or re.search(
            rf"\bone\s+`?{_name(field)}`?\s+(?:entry|element|item)\s+`(\{{[^`]{{1,300}}\}})`", text, re.I
        )
        listed = r"(?:`?[\w ]+?`?(?:,\s*|\s+and\s+))*"  # "empty extras and payments"
        if re.search(rf"\b(?:an?\s+)?empty\s+{listed}`?{_name(field)}`?(?:\s+(?:lists?|arrays?))?\b", text, re.I):
            return True, []  # "an empty `notes` list"
        entry = _bracketed_entry(text, field, schema, today)
        if entry is not None:
            return True, [entry]
        if m:
            said = re.sub(r"(?<=:)\s*today\b", f' "{today}"', m.group(1)) if today else m.group(1)
            try:
                return True, [json.loads(said)]
            except ValueError:
                return False, None
    shared = r"(?:\s+and\s+`\w+`)?"  # "`fee` and `paid` 0": both fields take the value
    for m in re.finditer(
        rf"(?<![\w])`?{_name(field)}`?{shared}(?:\s+(?:is\s+|are\s+|of\s+|=\s*)?|:\s*){STATED}", text, re.I
    ):
        if ":" in m.group(0) and re.match(
            r"\s*(?:or\b|/|\||,\s*[`'])", text[m.end() :]
        ):  # "status: 'a' or 'b'": values
            continue
        try:
            value = _value(m.group(1))
        except ValueError:
            continue
        if _fits(value, schema):
            return True, value
    return False, None


def _bracketed_entry(text: str, field: str, schema: dict[str, Any], today: str | None) -> dict[str, Any] | None:
    """ "a first `log` entry (`from` null, `to` `open`, dated the business date)": that entry; "dated" sets the
    entry's one date field (named `date`, or ending `_date` / `_on`) to the business date."""
    m = re.search(
        rf"\b(?:a|one)\s+(?:first\s+|single\s+)?`?{_name(field)}`?\s+(?:entry|item)\s*\(([^()]+)\)", text, re.I
    )
    keys = ((schema.get("items") or {}).get("properties") or {}) if m else {}
    entry: dict[str, Any] = {}
    for part in re.split(r",\s*", m.group(1)) if m else ():
        dated = re.fullmatch(r"dated\s+(?:the\s+business\s+date|today)", part.strip(), re.I)
        days = [k for k in keys if k == "date" or k.endswith(("_date", "_on"))]
        pair = re.fullmatch(rf"`(\w+)`\s*(?:=\s*|:\s*)?{STATED}", part.strip())
        if dated and today and len(days) == 1:
            entry[days[0]] = today
        elif pair and pair.group(1) in keys:
            entry[pair.group(1)] = _value(pair.group(2))
        else:
            return None
    return entry if entry and set(entry) == set(keys) else None


WITHIN = re.compile(r"\b(?:within|between|inside|during)\b", re.IGNORECASE)


def within_checks(
    sentences: list[str], refs: dict[str, str], cols: dict[str, Any], params: dict[str, Any]
) -> list[dict[str, Any]]:
    """`within` checks: "sail_date has to fall within the charter's dates (opens_on to closes_on)": a parameter
    between two fields of the record another parameter names, in the order the sentence names them."""
    out: list[dict[str, Any]] = []
    clauses = [c for s in sentences for c in re.split(r"[;,]\s+(?![^()]*\))", s)]  # not inside brackets
    for sentence in clauses:
        if not WITHIN.search(sentence):
            continue
        args = [p for p in params if p not in refs and re.search(rf"\b{_name(p)}\b", sentence, re.IGNORECASE)]
        for param, col in sorted(refs.items()):
            theirs = _props(cols, col)
            named = sorted(
                (m.start(), f) for f in theirs for m in [re.search(rf"\b{_name(f)}\b", sentence)] if m is not None
            )
            if len(args) == 1 and len(named) == 2 and not re.search(r"\bnot\b", sentence, re.IGNORECASE):
                low, high = named[0][1], named[1][1]
                out.append(
                    {"op": "within", "arg": args[0], "collection": col, "via_arg": param, "low": low, "high": high}
                )
    return out


def stated_today(text: str, field: str, schema: dict[str, Any], today: str) -> bool:
    """The text stamps this string field with the business date ("`ended_at` today", "ended_at = today", "with
    ended_at today"), not merely next to the word ("a mooring created today")."""
    if "string" not in schema_types(schema):
        return False
    name = _name(field)  # "`ended_at` today", "ended_at = today", "with ended_at today", "ended_at is set to today"
    today_word = r"(?:today|the\s+business\s+date)"  # "records ..., ended_at the business date, ..."
    return bool(
        re.search(
            rf"(?:`{name}`\s+(?:is\s+)?{today_word}\b|\b{name}\s*=\s*{today_word}\b|\bwith\s+`?{name}`?\s+{today_word}\b"
            rf"|\b{name}`?\s+is\s+set\s+to\s+{today_word}\b|\brecords?\b[^.]*?,\s*`?{name}`?\s+{today_word}\b)"
            r"(?!\s*(?:plus|\+))",  # not "today plus 14 days"
            text,
            re.IGNORECASE,
        )
    )


FIRST = re.compile(
    r"\bthe\s+(?P<noun>\w+)\s+(?:\([^()]{1,40}\)\s+)?(?:first\b|(?:goes|comes|stands)\s+first\b"
    r"|is\s+always\s+(?:added\s+|listed\s+|put\s+)?first\b|is\s+always\s+the\s+first\s+(?P<item>\w+))",
    re.IGNORECASE,
)
UNIQUE = re.compile(
    r"\b(?:duplicates?|repeats?|repeated\s+\w+)\s+(?:are\s+)?(?:ignored|dropped|removed|skipped)\b"
    r"|\bwithout\s+duplicates\b|\beach\s+\w+\s+(?:at\s+most\s+)?once\b",
    re.IGNORECASE,
)


def leading(spec: ToolSpec, own: dict[str, Any], text: str) -> list[dict[str, Any]]:
    """`lead` effects: a list parameter kept on the new record that the docs say starts with the record another
    parameter names ("Crew: the skipper first", "the skipper goes first" in the list's own description, "the
    skipper (skipper_id) is always the first crew member"); the skipper is the parameter of that name, of
    `<noun>_id`, or the one the docs gloss ("the skipper (sailor_id)"). "duplicates ignored" keeps each id once."""
    params = spec.parameters.get("properties") or {}
    lists = [p for p, s in params.items() if isinstance(s, dict) and s.get("type") == "array" and p in own]
    out: list[dict[str, Any]] = []
    for field in lists:
        own_text = str(params[field].get("description") or "")
        sentences = [own_text] + [s for s in re.split(r"(?<=[.;!?])\s+|\n", text) if s.strip()]
        for i, sentence in enumerate(sentences):
            m = FIRST.search(sentence)
            if m is None:
                continue
            item = (m.group("item") or "").lower()
            about = (
                i == 0
                or re.search(rf"\b{re.escape(field)}\b", sentence, re.IGNORECASE)
                or (item and singular(field) == item)
            )
            noun = m.group("noun").lower()
            gloss = re.search(rf"\bthe\s+{re.escape(noun)}\s*\(`?(\w+)`?\)", text, re.IGNORECASE)
            named = [p for p in (noun, f"{noun}_id", gloss.group(1) if gloss else "") if p in params and p != field]
            if about and named:
                out.append({"op": "lead", "field": field, "param": named[0], "unique": bool(UNIQUE.search(text))})
                break
    return out


def refine_create(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    today: str | None = None,
    sample: dict[str, Any] | None = None,
    policy: str = "",
    clock: str | None = None,
) -> ToolPlan:
    """The create plan with the checks, starting values, copied references and referenced changes its docs give
    (`today`: the business date the docs state, for fields that start "today"; `sample`: the sample state, read
    for the entries the call adds to the records it names and the fields it copies; `policy`: the whole policy,
    read for calendar tables; `clock`: the time of day the docs' clock stands at, for timestamp fields)."""
    if plan.kind != "create" or not plan.collection:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    params = spec.parameters.get("properties") or {}
    refs = {p: plural(p[:-3]) for p in params if p.endswith("_id") and plural(p[:-3]) in cols}
    refs |= {  # a required `sender_id` whose field references customers
        p: (own.get(p) or {}).get("x-references")
        for p in spec.parameters.get("required") or []
        if p.endswith("_id") and p not in refs and (own.get(p) or {}).get("x-references") in cols
    }
    refs = {p: c for p, c in refs.items() if c != plan.collection}
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n", unwrap(text)) if s.strip()]
    checks = dict(refs) if MUST_EXIST.search(text) else {}
    requires: dict[str, dict[str, list[Any]]] = {}
    sets: list[dict[str, Any]] = []
    for param, col in sorted(refs.items()):
        noun = param[:-3].replace("_", " ")
        theirs = _props(cols, col)
        only = rf"\bonly\s+{re.escape(noun)}s?\s+(?:with|whose|in)\b"  # "Only berths with status 'free' ..."
        for sentence in sentences:
            if not re.search(rf"\b{re.escape(noun)}s?\b", sentence, re.IGNORECASE):
                continue
            lead = flag_lead(sentence, params)  # "With `urgent`, the pier's status becomes `closed`"
            if lead is None:
                continue  # led by an argument that is no yes/no one: a condition it cannot read
            flag, rest = lead
            pieces = [  # "...; the boat becomes ...", with whether a condition leads up to it or sits in it
                (clause, bool(CONDITION.search(OWN_EVENT.sub(" ", " ".join(clauses[: i + 1])))))
                for part in re.split(r";\s+", rest)
                for clauses in [re.split(r",\s+(?=(?:and\s+)?(?:the|a|an)\b)", part)]
                for i, clause in enumerate(clauses)
            ]
            for whole, conditional in pieces:
                clause = re.split(r"\b(?:otherwise|else)\b", whole)[0]  # "..., otherwise it stays `open`"
                if not re.search(rf"\b{re.escape(noun)}s?\b", clause, re.IGNORECASE):
                    continue
                said = re.search(rf"\b{re.escape(noun)}['\u2019]s\s+`?(\w+)`?", clause, re.I)  # "the pier's status"
                named = said.group(1) if said and said.group(1) in theirs else None
                quoted = [_value(q) for q in re.findall(QUOTED, clause)]
                quoted += re.findall(rf"{MUST_BE}\s+(?:an?\s+)?([\w-]+)\b", clause, re.I)  # unquoted
                for field, schema in sorted(theirs.items()):
                    values = [v for v in quoted if v in _known(schema)]
                    if not values or named not in (None, field):
                        continue
                    required = re.search(rf"{MUST_BE}\b", clause, re.I) or re.search(only, clause, re.I)
                    if required:  # a state it must be in:
                        checks.setdefault(param, col)  # so it must exist too
                        requires.setdefault(param, {})[field] = values
                    elif re.search(r"\b(becomes?|is\s+marked|is\s+set\s+to)\b", clause, re.I) and not conditional:
                        # not "once every <noun> is <state>, the <record> becomes `<value>`": a condition it cannot read
                        change = {"param": param, "collection": col, "field": field, "value": values[-1]}
                        sets.append({**change, "when": flag} if flag else change)
            if (
                plan.key_field
                and plan.key_field in theirs
                and re.search(rf"\b(records?|stores?|keeps?)\b[^.]*{_name(plan.key_field)}", sentence, re.I)
            ):
                sets.append({"param": param, "collection": col, "field": plan.key_field, "new_key": True})
    sets += aliased_sets(sentences, refs, cols, sets)  # "the car's status becomes `reserved`" for a vehicle
    sets += new_key_sets(sentences, refs, cols, singular(plan.collection), sets)  # "its `job` is set to the new job"
    for param, col in sorted(refs.items()):  # "`<noun> <id> is <value> and cannot <verb>`"
        nouns = [param[:-3].replace("_", " ")]  # the collection's noun too when no other argument names it
        nouns += [singular(col).replace("_", " ")] if list(refs.values()).count(col) == 1 else []
        for noun in dict.fromkeys(nouns):
            for field, allowed in refused_states(text, noun, _props(cols, col)).items():
                if field not in requires.get(param, {}):
                    checks.setdefault(param, col)
                    requires.setdefault(param, {})[field] = allowed
    with_vacant(text, refs, cols, checks, requires)  # "boat <id> already has open charter <x>"
    from synth.envsynth.refused_lists import cap_checks

    checks_within = within_checks(sentences, refs, cols, params) + cap_checks(text, plan.collection, own, refs, params)
    checks_within += bound_checks(text, refs, cols)  # "the <noun> must ... less than N <field words>"
    checks_within += type_row_checks(spec.description, params, cols)  # "`haul` | boat `afloat`, crane `free` | ..."
    checks_within += arg_limits(text, params, {}, refs, cols)  # "the amount must be at most the balance (`a - b`)"
    checks_within += overlap_checks(text, plan.collection, own)  # a span overlapping a stored one on the same <noun>
    checks_within += capacity_checks(text, plan.collection, own, cols)  # "available when ... exceeds the number of"
    checks_within += argument_checks(text, params, cols, today or business_date(text + "\n" + policy))  # "a weekday"
    checks_within += deadline_checks(  # a calendar table's date for the named record's key (docs_deadlines)
        spec.description,
        text + "\n" + policy,
        plan.collection,
        state_schema,
        sample or {},
        today or business_date(text + "\n" + policy),
        params,
    )
    inherits = {
        f: [p, c, f]
        for p, c in sorted(refs.items())
        for f in sorted(_props(cols, c))
        if f in own and f.endswith("_id") and f not in params and f != plan.key_field and re.search(_name(f), text)
    }
    for param, col in sorted(refs.items()):  # "the skipper (sailor_id)": the one field naming such a record
        if param in own or param not in _props(cols, col):
            continue
        naming = [
            f
            for f, fs in sorted(own.items())
            if isinstance(fs, dict) and fs.get("x-references") == col and f not in params and f not in inherits
        ]
        if len(naming) == 1 and naming[0] != plan.key_field:
            inherits[naming[0]] = [param, col, param]
    initial, effects = {}, []
    for field, schema in sorted(own.items()):
        if field in params or field == plan.key_field or field in inherits or not isinstance(schema, dict):
            continue
        found, value = _stated(text, field, schema, today or business_date(text))
        if found:
            initial[field] = value
            continue
        starts = _starts_in(text, field, schema)
        if starts is not None:  # "the order starts in status queued"
            initial[field] = starts
            continue
        later = days_later(text, field, own, cols, today or business_date(text))
        if later is not None:  # "return_by today plus the boat's hire_days"
            effects.append(later)
            continue
        written = re.search(rf"\b{_name(field)}`?\s*\[\s*(\{{[^\[\]{{}}]{{1,300}}\}})\s*\]", text, re.IGNORECASE)
        rule = (
            element_rule(written.group(1), own, params, today=today or business_date(text))
            if written and schema.get("type") == "array"
            else None
        )
        if rule is not None:  # "log [{kind: 'opened', note: <reason>}]": one entry built from the call
            initial[field] = []
            effects.append({"op": "append", "field": field, "items": [rule]})
    for field, schema in sorted(own.items()):  # the entry the docs write for the new record's list to start with
        if not isinstance(schema, dict) or schema.get("type") != "array" or field in params or field in initial:
            continue
        body = first_entry(text, field, list(initial.values()))
        body = body or worded_entry(text, field, schema, params, today or business_date(text))
        if body is None:
            continue
        rule = element_rule(body, own, params, today=today or business_date(text))
        if rule is not None:
            initial[field] = []
            effects.append({"op": "append", "field": field, "items": [rule]})
    defaults = [  # "'daily' (default)": a field the call leaves out takes its parameter's documented default
        {"op": "param_default", "field": p, "value": param_default(params[p])}
        for p in sorted(params)
        if p in own and p in plan.fields and isinstance(params[p], dict) and param_default(params[p]) is not None
    ]
    effects += defaults
    effects += leading(spec, own, text)
    links = {f: plural(f[:-3]) for f in inherits if f.endswith("_id") and plural(f[:-3]) in cols}
    links.update({p: c for p, c in refs.items() if p in own})
    day = today or business_date(text)
    made = made_on(own, initial, params, plan, inherits, effects, day, clock)
    made = {f: d for f, d in made.items() if stamp_named(f)}
    initial.update(made)  # `created_on`: the day the record is made, whatever the data's records copy
    set_here = set(initial) | {e["field"] for e in effects if "field" in e}
    skip = set(params) | {plan.key_field or ""} | set(inherits) | set_here
    copies = data_copies(sample or {}, plan.collection, own, links, skip)  # a stay's pier_code is its berth's
    copies = with_worded(text, own, cols, skip, copies, today or business_date(text), initial)
    effects += copies
    set_here |= {e["field"] for e in copies}
    lasted = [lasting(text, f, own, day) for f in sorted(own) if f not in skip and f not in set_here]
    lasted = [e for e in lasted if e is not None]  # "A hold lasts two days": after the data's copies
    effects += lasted
    set_here |= {e["field"] for e in lasted}
    stamped = made_on(own, initial, params, plan, inherits, effects, day, clock)  # else today
    held = ((cols.get(plan.collection or "") or {}).get("additionalProperties") or {}).get("required")
    if isinstance(held, list):  # not a date only some of the data's records hold (a `cancelled_on`)
        stamped = {f: d for f, d in stamped.items() if f in held}
    initial.update(stamped)  # after the data's copies: a `visit_date` the data shows is its slot's `date` is copied
    set_here |= set(stamped)
    unset = [f for f in own if f not in params and f != plan.key_field and f not in inherits and f not in set_here]
    tabled = rate_tables(text, own, links, cols, unset)  # "12 tokens for bronze clubs, 8 for silver, ..."
    tabled += column_tables(spec.description, params, own, [f for f in unset if f not in {e["field"] for e in tabled}])
    left = [f for f in unset if f not in {e["field"] for e in tabled}]  # "`hull` and `rig` -> `yard`, `sail` -> ..."
    tabled += arrow_tables(text + "\n" + policy, params, own, left)
    made_at = next((f for f in sorted(initial) if stamp_named(f) and moment_field(own.get(f))), None)  # `opened_at`
    left = [f for f in unset if f not in {e["field"] for e in tabled}]  # "| `T1` | 1 h | 8 h |": due times
    tabled += later_tables(text + "\n" + policy, params, own, left, made_at)
    effects += tabled
    from synth.envsynth.list_totals import create_sums  # "total": the entries' prices added up, as the data shows

    summed = create_sums(
        sample or {}, plan.collection, own, [f for f in unset if f not in {e["field"] for e in tabled}]
    )
    effects += summed
    linked_here = set(inherits) | {e["field"] for e in copies}  # links the new record holds once built
    moves = [  # "the skipper's trips_out goes up by 1": numbers of the records the call names (or it inherits)
        e
        for e in docs_counters(text, plan.collection, plan.key_field or "", state_schema, params)
        if e["collection"] != plan.collection
        and (e["path"][0]["from"] == "arg" or e["path"][0].get("path", [""])[0] in linked_here)
    ]
    effects += moves
    checks_moves = covered(moves, text)  # "the balance must cover the cost"
    linked = linked_entries(text, plan.collection, state_schema, spec.parameters, sample or {}, today)
    effects += linked
    if not (
        checks
        or requires
        or sets
        or inherits
        or initial
        or moves
        or linked
        or checks_within
        or tabled
        or copies
        or summed
        or lasted
        or any(e.get("op") == "days_later" for e in effects)
    ):
        if defaults:
            return ToolPlan.from_dict({**plan.to_dict(), "effects": list(plan.effects) + defaults})
        return plan
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "ref_checks": checks,
            "ref_optional": sorted(set(checks) - set(spec.parameters.get("required") or [])),
            "ref_requires": requires,
            "ref_sets": sets,
            "inherits": inherits,
            "initial_values": initial,
            "effects": effects,
            "checks": list(plan.checks) + checks_within + checks_moves,
            "evidence": plan.evidence + ["checks and starting values read from the docs"],
        }
    )


def _starts_in(text: str, field: str, schema: Any) -> Any:
    """The known value of `field` a new record starts in ("starts in status queued", "is created as `draft`",
    "is stored with status "open""), or None."""
    known = [str(v) for v in _known(schema)] if isinstance(schema, dict) else []
    pattern = (
        r"\b(?:creates?|opens?|makes?|adds?)\s+an?\s+(?:new\s+)?[`'\"]([\w-]+)[`'\"]\s+\w"  # "creates an `active` stay"
        rf"|\b(?:starts?|begins?|opens?|is\s+(?:created|stored|saved|opened|filed|recorded))\s+(?:out\s+)?(?:in|as|with)\s+"
        rf"(?:the\s+)?"
        rf"(?:{_name(field)}\s+|status\s+|state\s+)?[`'\"]?([\w-]+)"
    )
    for m in re.finditer(pattern, text, re.IGNORECASE):
        if (m.group(1) or m.group(2)) in known:
            return m.group(1) or m.group(2)
    return None


__all__ = ["leading", "refine_create", "stated_today"]
