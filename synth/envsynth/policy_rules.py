"""Status transitions read from the docs and the policy text (no recorded calls needed).

The text of a tool is its description plus the policy sections whose headings it matches (every heading word,
and every word of the headings above it, is a word of the tool's name), each with the text of the sections
above it. For a string field of the tool's record (e.g. a status), a sentence naming the field with
"to 'X'" (or a setting verb, the field, then a value the data knows: "Sets status `X`") sets it to X, and a
sentence with "only ... if/from/when/with ... <field> is 'A' or 'B'" allows the call from those values only; so do
"only active loans" (bare known values) and an `Errors:` list's "is not A or B"; values of the field named in the
tool's own name (`..._pending_...`) also allow it, unless it is the value the call sets. Entries the docs write out
are appended (docs_appends) and numbers they say move are moved (docs_counters). The other parameters
are kept on the record: a field they name is set, else `<verb>_<parameter>` (`cancel_reason`, `return_items`). A
sentence naming no field may still say the change by its verb and states ("moves a `held` charter to `confirmed`",
verb_moves).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.act_items import act_items
from synth.envsynth.allocations import allocations
from synth.envsynth.allowed_states import (
    allowed_from,
    described_states,
    not_from,
    only_before,
    quoted,
    refused_from,
)
from synth.envsynth.cancel_returns import cancel_returns
from synth.envsynth.cleared_fields import cleared_fields
from synth.envsynth.create_rules import _known, stated_today
from synth.envsynth.docs_appends import appended_params, docs_appends, object_sets
from synth.envsynth.docs_bands import banded_figures
from synth.envsynth.docs_conditions import conditional_sets
from synth.envsynth.docs_counters import covered, docs_counters, refund_records
from synth.envsynth.docs_dates import date_extensions, late_fees
from synth.envsynth.docs_deadlines import deadline_checks
from synth.envsynth.docs_entries import business_date, named_entries, seen_entries, state_entries
from synth.envsynth.docs_linked import copied_sets, linked_fields, linked_sets, own_cleared, record_links
from synth.envsynth.docs_moves import docs_moves
from synth.envsynth.docs_thresholds import thresholds
from synth.envsynth.entry_logs import data_appends, name_logged
from synth.envsynth.entry_moves import each_entry_moves
from synth.envsynth.entry_texts import with_argument_keys, with_new_values
from synth.envsynth.held_places import held_places
from synth.envsynth.linked_extras import linked_extras
from synth.envsynth.linked_logs import linked_entries
from synth.envsynth.listed_entries import listed_entries
from synth.envsynth.logged_updates import arg_entries, logged_checks, updated_fields
from synth.envsynth.matched_params import matching_checks
from synth.envsynth.only_kinds import only_kinds
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.envsynth.refusals import refused_kinds
from synth.envsynth.returned_states import returned_state
from synth.envsynth.stage_guards import kind_refusals, kind_sets, stage_guards, stage_split
from synth.envsynth.state_moves import arrow_moves
from synth.envsynth.stated_fields import dropped_counts, flag_sets, recorded_params, stamped_dates
from synth.envsynth.transition_copies import number_copies, transition_copies
from synth.envsynth.value_bullets import value_bullet_checks
from synth.envsynth.verb_moves import verb_move
from synth.spec import ToolSpec
from synth.words import singular, split_words

HEADING = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")
SETTING = re.compile(r"\b(sets?|becomes?|marks?|changes?|moves?|records?)\b", re.IGNORECASE)
CONDITION = re.compile(r"\b(if|from|when|while|with)\b", re.IGNORECASE)
GETS_BARE = re.compile(
    r"\b(?:gets?|takes?|receives?|is\s+given|moves?\s+to|goes\s+to|enters?)\s+(?:the\s+)?(\w+)\s+[`'\"]?([\w-]+)", re.I
)
NOUN_BECOMES = re.compile(
    r"\bthe\s+(?:\w+['\u2019]s\s+[\w-]+\s+)?\w+\s+(?:becomes|is\s+marked|is\s+set\s+to|changes\s+to|moves\s+to|goes\s+back\s+to|returns\s+to|reverts\s+to)\s+"
    r"([`'\"])([^`'\"]{1,60})\1",
    re.I,
)
NOUN_BECOMES_BARE = re.compile(
    r"\bthe\s+(?:\w+['\u2019]s\s+[\w-]+\s+)?\w+\s+(?:becomes|is\s+marked(?:\s+as)?|is\s+set\s+to|changes\s+to|moves\s+to|goes\s+back\s+to|returns\s+to|reverts\s+to)\s+"
    r"([\w-]+)\b(?![`'\"])",
    re.I,
)
# "... is unlocked and the plan marked paid_off.": "is" left out after "and", the value ending the clause
MARKED_AFTER_AND = re.compile(r"\band\s+the\s+\w+\s+marked\s+(?:as\s+)?([\w-]+)\b(?![`'\"])(?=\s*(?:[.;,]|$))", re.I)
LATER = re.compile(r"^[^,;.]*?\b(?:when|after|once|until|later)\b", re.I)


def _now(m: re.Match[str], sentence: str) -> bool:
    """Whether a "returns to / goes back to / reverts to `x`" match is what the call does, not a later event ("the
    boat returns to `afloat` when it is launched")."""
    return not re.search(r"returns|goes\s+back|reverts", m.group(0), re.I) or not LATER.match(sentence[m.end() :])


EFFECTS = re.compile(r"^\W*(?:side\s+)?effects?\s*:", re.I)  # a list of what the call changes
WHEN = re.compile(r"^\W*(when|whenever|if|once|unless|in case)\b", re.IGNORECASE)  # a change made on a condition


def _stems(words: list[str]) -> set[str]:
    return {singular(w.lower()) for w in words if w}


def _sections(policy: str) -> list[tuple[list[set[str]], str]]:
    """(heading word sets from the top down to this section, own text) per section."""
    out: list[tuple[list[set[str]], str]] = []
    path: list[tuple[int, set[str]]] = []
    body: list[str] = []

    def close() -> None:
        if path:
            out.append(([words for _, words in path], "\n".join(body)))

    for line in policy.splitlines():
        m = HEADING.match(line)
        if m:
            close()
            level = len(m.group(1))
            path = [p for p in path if p[0] < level] + [(level, _stems(re.findall(r"[A-Za-z]+", m.group(2))))]
            body = []
        else:
            body.append(line)
    close()
    return out


def tool_text(spec: ToolSpec, policy: str) -> str:
    """The description plus the policy sections for this tool (most specific first), with their parents' text."""
    name_words = _stems(split_words(spec.name))
    sections = _sections(policy or "")
    best, best_score = -1, 0
    for i, (heads, _) in enumerate(sections):
        own = heads[-1]
        if own and own <= name_words and all(h <= name_words or not h & name_words for h in heads[:-1]):
            score = sum(len(h & name_words) for h in heads)
            if score > best_score:
                best, best_score = i, score
    if best < 0:  # no heading within the name: the one heading holding every word of it ("Prepaid top-ups")
        plain = [heads[-1] | {w[:-1] for w in heads[-1] if w.endswith("s") and len(w) > 2} for heads, _ in sections]
        holding = [i for i, words in enumerate(plain) if words and name_words <= words]  # "ups": up
        best = holding[0] if len(holding) == 1 else -1
    if best < 0:  # nor that: the items naming the act in the one section of a heading on the name's nouns
        return "\n".join([spec.description] + act_items(split_words(spec.name), sections))
    texts = [spec.description]
    if best >= 0:
        heads = sections[best][0]
        texts.append(sections[best][1])
        for j in range(best - 1, -1, -1):  # the sections above it (a prefix of its heading path)
            other = sections[j][0]
            if len(other) < len(heads) and other == heads[: len(other)]:
                texts.append(sections[j][1])
                heads = other
    return "\n".join(texts)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n", unwrap(text)) if s.strip()]


def transition_rules(
    spec: ToolSpec, record_schema: dict[str, Any], policy: str
) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """({field: new value}, {field: values allowing the call}) for string fields the docs talk about."""
    props = (record_schema or {}).get("properties") or {}
    text = tool_text(spec, policy)
    name_words = {w.lower() for w in split_words(spec.name)}
    sets: dict[str, Any] = {}
    allowed: dict[str, list[Any]] = {}
    closed = [
        [str(v) for v in (s.get("enum") or s.get("x-enum") or [])]
        for s in props.values()
        if isinstance(s, dict) and s.get("type") == "string"
    ]
    for field, sub in sorted(props.items()):
        if not isinstance(sub, dict) or sub.get("type") != "string" or not (sub.get("enum") or sub.get("x-enum")):
            continue
        words = re.compile(rf"\b{re.escape(field.replace('_', ' '))}\b", re.IGNORECASE)
        known = [str(v) for v in (sub.get("enum") or sub.get("x-enum") or [])]
        for sentence in _sentences(text):
            if not words.search(sentence):
                # "the order becomes `paid`": the one closed field (of the changes listed, the one it knows)
                value = next(
                    (m.group(2) for m in NOUN_BECOMES.finditer(sentence) if m.group(2) in known and _now(m, sentence)),
                    None,
                )
                if value is None:  # "the order becomes picked_up": a known value, unquoted
                    value = next(
                        (
                            m.group(1)
                            for m in [*NOUN_BECOMES_BARE.finditer(sentence), *MARKED_AFTER_AND.finditer(sentence)]
                            if m.group(1) in known and _now(m, sentence)
                        ),
                        None,
                    )
                if value in known and sum(value in k for k in closed) == 1 and field not in sets:
                    if not WHEN.match(sentence) and not re.search(r"\bonly\b", sentence, re.I):
                        sets[field] = value
                continue
            target = re.search(r"\bto\s+['\"`]([^'\"`]{1,60})['\"`]", sentence)
            condition = re.search(r"\bonly\b", sentence, re.IGNORECASE) and CONDITION.search(sentence)
            # "Once the crew is full, its status changes to `manned`": not on every call (its condition still counts)
            clause = sentence.split(",")[0]  # "If the booking is pending, ...": a state, so a precondition instead
            conditional = (
                bool(WHEN.match(sentence))
                and not re.search(r"\bonly\b", sentence, re.I)
                and not any(re.search(rf"\b{re.escape(v)}\b", clause) for v in known)
            )
            listed = EFFECTS.search(sentence)  # "Effects: status `cancelled`, a `cancellation` block, ..."
            if listed and field not in sets and not condition and not conditional:
                said = re.search(rf"{words.pattern}\s+[`'\"]([^`'\"]{{1,60}})[`'\"]", sentence[listed.end() :], re.I)
                if said and said.group(1) in known:
                    sets[field] = said.group(1)
            # "... to 'x'": a value the field knows, or one for the field named in the same clause
            named_here = target and words.search(sentence[: target.start()].split(",")[-1])
            if target and (target.group(1) in known or named_here) and field not in sets:
                if not condition and not conditional:
                    sets[field] = target.group(1)
            verb = SETTING.search(sentence)
            if verb and field not in sets and not condition and not conditional:  # "sets status `confirmed`"
                after = sentence[verb.end() :]
                found = words.search(after)
                values = [v for v in quoted(after[found.end() :]) if v in known] if found else []
                if not values and words.search(sentence[: verb.start()].rstrip()[-len(field) - 1 :]):
                    # "status becomes 'x'": the field named right before, so a value the data has not shown yet
                    values = [
                        v for v in quoted(after.split(" and ")[0]) if v in known or re.fullmatch(r"[a-z][a-z_]*", v)
                    ][:1]
                bare = re.match(r"\s*(?:to\s+)?([\w-]+)", after)  # "the order's status becomes cancelled"
                if not values and bare and bare.group(1) in known and words.search(sentence[: verb.start()]):
                    values = [bare.group(1)]
                if values:
                    sets[field] = values[0]
            gets = GETS_BARE.search(sentence)  # "the order gets status filled": a known value, unquoted
            if gets and field not in sets and not condition and not conditional and words.fullmatch(gets.group(1)):
                if gets.group(2) in known:
                    sets[field] = gets.group(2)
            answered = returned_state(sentence, words, known, name_words)  # "Returns the pier (status 'open')"
            if answered and field not in sets and not condition and not conditional:
                sets[field] = answered
            if condition:
                after = sentence[words.search(sentence).end() :]
                values = [v for v in quoted(after) if v in known]
                if values and field not in allowed:
                    allowed[field] = values
        moved = verb_move(_sentences(text), known) if field not in sets else None
        if moved and sum(moved[0] in k for k in closed) == 1:  # "moves a `held` charter to `confirmed`"
            sets[field] = moved[0]
            allowed.setdefault(field, moved[1])
        if field not in allowed and field in sets:
            said_from = allowed_from(text, known)  # "Allowed from `a`, `b` and `c`."
            if said_from:
                allowed[field] = said_from
        if field not in allowed and field in sets:
            refused = refused_from(text, known)
            if refused:
                allowed[field] = refused
        if field not in allowed and field in sets:
            described = described_states(text, known, sets[field])
            if described:
                allowed[field] = described
        if field not in allowed and field in sets:
            kept = not_from(text, known)  # "Picked-up and already cancelled orders cannot be cancelled."
            if kept:
                allowed[field] = kept
        if field not in allowed and field in sets:
            bare = only_before(text, known)
            if bare:
                allowed[field] = bare
        if field not in allowed:  # a state the name holds, unless it is where the call leads (`report_lost`)
            named = [v for v in known if v.lower() in name_words and v != sets.get(field)]
            if named and field in sets:
                allowed[field] = named
    return sets, {f: v for f, v in allowed.items() if f in sets}


def name_guard(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan | None:
    """A plain update whose tool name holds a value of a closed text field of its records (`..._pending_...`)
    applies to records in that state only: the update with that precondition, or None."""
    if plan.kind != "update" or not plan.collection or not plan.key_param or plan.preconditions:
        return None
    col = (state_schema.get("properties") or {}).get(plan.collection) or {}
    props = ((col.get("additionalProperties") if isinstance(col, dict) else None) or {}).get("properties") or {}
    name_words = {w.lower() for w in split_words(spec.name)}
    guard = {}
    for field, sub in sorted(props.items()):
        if isinstance(sub, dict) and sub.get("type") == "string" and field not in plan.fields:
            named = [str(v) for v in (sub.get("enum") or sub.get("x-enum") or []) if str(v).lower() in name_words]
            if named:
                guard[field] = named
    if not guard:
        return None
    evidence = plan.evidence + ["the tool's name names the state it applies to"]
    return ToolPlan.from_dict({**plan.to_dict(), "preconditions": guard, "evidence": evidence})


def docs_transition(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    policy: str,
    records: list[dict[str, Any]] | None = None,
    sample: dict[str, Any] | None = None,
    given: dict[str, Any] | None = None,
) -> ToolPlan | None:
    """A keyed update that sets a documented status from documented states, or None when the docs say none.

    `records`: the collection's records in the sample data, read for what the transition appends; `sample`: the
    whole sample state, read for the numbers an appended amount moves (docs_moves); `given`: field values the
    call sets whatever the text says (the value of a mode parameter naming the field, mode_rules.py)."""
    if plan.kind not in ("update", "delete") or not plan.collection or not plan.key_param:
        return None
    col = (state_schema.get("properties") or {}).get(plan.collection) or {}
    record = col.get("additionalProperties") if isinstance(col, dict) else None
    sets, allowed = transition_rules(spec, record or {}, policy)
    sets = {**sets, **(given or {})}
    for name in sorted(given or {}):  # a value the call is given: the states it may leave, as the errors say
        sub = ((record or {}).get("properties") or {}).get(name) or {}
        known = [str(v) for v in _known(sub)] if isinstance(sub, dict) else []
        said = tool_text(spec, policy)
        found = refused_from(said, known) or not_from(said, known) or only_before(said, known)
        if name not in allowed and found:
            allowed[name] = found
    if sets and not allowed:  # "The berth must be 'free' or 'held'": the states of its own noun it acts on
        from synth.envsynth.item_rules import stated_states

        stated = stated_states(spec.description, singular(plan.collection), (record or {}).get("properties") or {})
        allowed = {f: v for f, v in stated.items() if f in sets}
    own_props = (record or {}).get("properties") or {}
    for name, kept in refused_kinds(tool_text(spec, policy), singular(plan.collection), own_props, spec.name).items():
        allowed.setdefault(name, kept)  # "Sunk boats do not take payments"
    if plan.kind == "delete" and not sets:  # a delete stays a delete unless the docs give the state it moves to
        return None
    params = spec.parameters.get("properties") or {}
    words = [w.lower() for w in split_words(spec.name)]
    text = tool_text(spec, policy)
    counters = docs_counters(text, plan.collection, plan.key_param, state_schema, params, words, allowed)
    props = (record or {}).get("properties") or {}
    moved = None if sets else arrow_moves(text, props, params)  # "`open` → `scheduled` or `cancelled`; ..."
    today = business_date(text + "\n" + policy)
    links = record_links(props, state_schema.get("properties") or {}, plan.collection)
    theirs = linked_fields(links, state_schema.get("properties") or {}, props, params)  # "<pier_id>" of its berth
    logged = [] if sets or counters or moved else arg_entries(docs_appends(text, props, params, theirs, today=today))
    if not sets and not counters and not moved and not logged:
        return None
    if logged and not allowed:  # "the buoy must be `moored`": the states of its own noun a logged call needs
        from synth.envsynth.item_rules import stated_states

        allowed = stated_states(spec.description, singular(plan.collection), props)
    effects = [{"op": "set", "field": f, "source": {"from": "const", "value": v}} for f, v in sorted(sets.items())]
    if moved:  # the argument is the new state, along the moves drawn; "Docking sets `docked_on`"
        from synth.envsynth.target_effects import target_effects

        effects.append({"op": "set", "field": moved["field"], "source": {"from": "arg", "name": moved["arg"]}})
        effects += target_effects(text, props, state_schema.get("properties") or {}, params, moved, today)
    if sets and today:  # "... is set to 'closed' and ended_at = today": a date the transition stamps
        effects += [
            {"op": "set", "field": f, "source": {"from": "const", "value": today}}
            for f, sub in sorted(props.items())
            if f not in sets and isinstance(sub, dict) and stated_today(text, f, sub, today)
        ]
        from synth.envsynth.stated_fields import later_dates

        effects += later_dates(text, props, today, set(sets) | {e["field"] for e in effects})  # "today plus 9 days"
    cleared = own_cleared(text, props, singular(plan.collection), links, state_schema.get("properties") or {})
    effects += [  # "its `berth_id` is cleared to null"
        {"op": "set", "field": f, "source": {"from": "const", "value": None}}
        for f in cleared
        if (sets or moved) and f not in sets and not any(e.get("field") == f for e in effects)
    ]
    effects += transition_copies(text, plan.collection, props, links, sample or {}, sets)  # "recorded as `x_out`"
    written = docs_appends(text, props, params, theirs, today=today) if sets or moved else logged  # as spelt out
    effects += written + (updated_fields(text, props, logged, params) if logged else [])  # "`last_x` is updated"
    effects += [e for e in object_sets(text, props, params, today) if e["field"] not in sets] if sets else []
    effects += flag_sets(text, props, set(sets) | {e["field"] for e in effects if "field" in e}) if sets else []
    stated = recorded_params(text, props, params, plan.key_param, list(records or [])) + dropped_counts(text, props)
    stated += stamped_dates(props, list(records or []), sets, allowed, today)  # `approved_on` of approved records
    stated = [e for e in stated if not any(x.get("field") == e["field"] for x in effects)] if sets else []
    effects += stated  # "transferred_to records the pharmacy", "(the local count drops to 0)"
    if sets or counters:  # entries named by their kind ("a `hauled` entry is appended to the voyage's log")
        named = listed_entries(text, props, spec.parameters, list(records or []), today)  # "... records the reason"
        named += named_entries(text, singular(plan.collection), props, spec.parameters, list(records or []), today)
        named += (
            []
            if named
            else name_logged(spec.name, singular(plan.collection), props, spec.parameters, records, today, text, sample)
        )
        named += state_entries(text, props, spec.parameters, list(records or []), today, sets)  # "appends a log entry"
        fresh = [e for i, e in enumerate(named) if not any(w["field"] == e["field"] for w in written + named[:i])]
        written += fresh
        effects += fresh
    for name, value in sorted(sets.items()):
        effects += [
            e
            for e in data_appends(list(records or []), name, value, allowed.get(name) or [])
            if not any(w["field"] == e["field"] for w in written)
        ]
    filled = {e["field"] for e in effects if e.get("op") == "append"}  # else as the data logs the new state:
    effects += cleared_fields(list(records or []), sets, allowed, {e.get("field") for e in effects})  # data: null
    effects += seen_entries(props, spec.parameters, list(records or []), today, sets, filled) if sets else []
    effects += docs_moves(text, effects, sample, plan.collection)
    effects += cancel_returns(text, plan.collection, state_schema, sample, params, effects, today) if sets else []
    late = late_fees(text, plan.collection, state_schema, today)  # "penalty = 2 per overdue day ..."
    late += banded_figures(text, plan.collection, state_schema, today)  # "refund: 14 days or more: ...; 3 to 13 ..."
    effects += late
    counters = [c for c in counters if not any(e.get("path") == c["path"] for e in late)]
    effects += counters
    moved_paths = {repr(e.get("path")) for e in effects if e.get("op") == "adjust"}
    effects += [  # "releases its places": the count of the record they were on drops by them (held_places.py)
        e for e in held_places(text, plan.collection, state_schema, False) if repr(e["path"]) not in moved_paths
    ]
    effects += [e for e in number_copies(text, props) if e["field"] not in sets]  # "`fee` is set to `paid`"
    effects += allocations(text, plan.collection, state_schema, params)  # "applied to ... oldest due date first"
    effects += [  # "the full hull fee is paid back and recorded in hull_refund"
        e
        for e in refund_records(text, plan.collection, state_schema, allowed)
        if e["field"] not in sets and not any(d.get("field") == e["field"] for d in late)
    ]
    effects += conditional_sets(text, props, singular(plan.collection))  # "if the pier is `crowded`, ..."
    effects += each_entry_moves(text, plan.collection, state_schema, allowed)  # "each line's quantity ... stock"
    effects += date_extensions(text, plan.collection, state_schema)  # "extends ... by the pier's stay_days"
    if sets:  # "reopens the berth (`status` `free`)"
        effects += linked_sets(text, plan.collection, state_schema)
        effects += linked_extras(text, plan.collection, state_schema, params, today)  # "... at that bay"
        effects += [  # "its fee is the pier's berth_rate"
            e for e in copied_sets(text, plan.collection, state_schema) if e["field"] not in sets
        ]
    if sets or counters:  # "a 'freed' event is added to the berth's log"
        effects += linked_entries(text, plan.collection, state_schema, spec.parameters, sample or {}, today)
        effects += thresholds(text, plan.collection, state_schema, sample or {}, today)  # "if owed climbs to 50 ..."
    stage = stage_split(text, moved)  # "Completing an order also ...": the moves said from there on, for that state
    early = []
    if stage is not None:
        early = docs_counters(stage[0], plan.collection, plan.key_param, state_schema, params, words, allowed)
        early += linked_entries(stage[0], plan.collection, state_schema, spec.parameters, sample or {}, today)
    effects = stage_guards(text, effects, early, stage[1] if stage else None, props)  # and "a non-zero `fee`"
    effects += kind_sets(text, props, state_schema.get("properties") or {}, stage)  # "- `haul`: the crane turns ..."
    used = appended_params(written) | {
        o["arg"]
        for e in counters
        for o in e["delta"]["expr"].get("plus", []) + e["delta"]["expr"].get("minus", [])
        if "arg" in o
    }
    # a parameter the docs put in an object or placeholder ("berth = {pier, fee}", "'<fee> at <pier>'") goes
    # there, even when that form is not read: it is not also kept on the record
    used |= {p for p in params if re.search(rf"[<{{][^<>{{}}]*\b{re.escape(p)}\b[^<>{{}}]*[>}}]", text)}
    matched, checked = matching_checks(text, params, plan.collection, state_schema)  # "matches the one on file"
    used |= checked
    from synth.envsynth.kept_params import kept_params
    from synth.envsynth.stated_fields import reference_args

    effects += kept_params(spec, plan, props, records or [], sets, allowed, stated, used, text, effects)
    from synth.envsynth.after_values import after_values, moved_counts

    effects = after_values(text, effects, plan.key_param)  # "'try <n> failed' (n = the new `tries`)"
    effects = moved_counts(text, effects)  # "2 berths moved to ..." while `spare_berths` moves away: the count
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "kind": "recorded_update",
            "effects": with_argument_keys(with_new_values(effects), params),
            "checks": list(plan.checks)
            + (
                [{"op": "transition", "field": moved["field"], "arg": moved["arg"], "map": moved["map"]}]
                if moved
                else []
            )
            + matched
            + logged_checks(text, props, params, plan.collection, today)  # "cannot be lower than the buoy's ..."
            + value_bullet_checks(text, props, state_schema.get("properties") or {}, params)  # '- "x": Only for ...'
            + only_kinds(text, plan.collection, props, params)  # "club group charters only"
            + kind_refusals(text, props, state_schema.get("properties") or {}, moved)  # "A haul cannot be ..."
            + covered(counters, text)
            + deadline_checks(
                spec.description, spec.description + "\n" + policy, plan.collection, state_schema, sample or {}, today
            ),
            "preconditions": allowed,
            "ref_checks": {**plan.ref_checks, **reference_args(props, spec.parameters, state_schema, effects)},
            "evidence": plan.evidence
            + [
                "status transition read from the docs and policy"
                if sets
                else "number moves read from the docs"
                if counters or moved
                else "a logged entry read from the docs"
            ],
        }
    )


__all__ = ["docs_transition", "name_guard", "tool_text", "transition_rules"]
