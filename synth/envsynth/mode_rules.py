"""One tool, several documented behaviours: a parameter whose values the docs describe one by one
("hoist: ...; lower: a crane must be named and the yard's free_cranes drops by 1", or a bullet per value) makes a
`by_mode` plan, a docs transition (policy_rules.docs_transition) per value, dispatched on the parameter's value.

Each value's transition is read from the text every value shares plus that value's own segment; in the shared
text, the other values are read as this one ("Moves it to `moored` or `hauled`" is "to `hauled`" for `hauled`).
A value's segment that says "<parameter> is required" refuses the call without it; a value the docs do not
describe is refused.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from synth.envsynth.mode_objects import mode_object, mode_path, mode_records
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec

CLOSE = re.compile(r"\n\s*\n|(?<=[.;])\s+(?=(?:Returns|Errors?|Fails)\b)")


def _values(schema: dict[str, Any]) -> list[str]:
    """The values a parameter takes: its enum, else the backticked values its description lists."""
    enum = [v for v in schema.get("enum") or [] if isinstance(v, str)]
    return enum or re.findall(r"`([^`\s]{1,40})`", str(schema.get("description") or ""))


def mode_segments(spec: ToolSpec) -> tuple[str, dict[str, str], str] | None:
    """(parameter, {value: its segment}, the shared text) when the description describes each value of one
    parameter in a segment of its own ("accept: ..."), else None."""
    text = spec.description
    for param, schema in (spec.parameters.get("properties") or {}).items():
        values = _values(schema) if isinstance(schema, dict) else []
        if len(values) < 2:
            continue
        starts = {}
        for value in values:
            label = re.search(rf"(?:^|\n|(?<=[.;])\s)\s*(?:[-*]\s+)?[`'\"]?{re.escape(value)}[`'\"]?\s*:\s", text)
            label = label or re.search(  # "- `add` appends ...": a bullet led by the quoted value and its verb
                rf"(?:^|\n|(?<=[.;])\s)\s*[-*]\s+`{re.escape(value)}`\s+(?=[a-z]+s\b)", text
            )
            label = label or re.search(  # "... `done` adds one to ...; `lost` keeps ...": a sentence led so
                rf"(?:^|\n|(?<=[.;])\s)\s*`{re.escape(value)}`\s+(?=(?!is\b)[a-z]+s\b)", text
            )
            label = label or re.search(  # 'action "add" (requires x and y): appends ...': named, then its needs
                rf"(?:^|\n|(?<=[.;])\s)\s*(?:[-*]\s+)?{re.escape(param)}\s+[`'\"]{re.escape(value)}[`'\"]\s*(?=\([^()]*\)\s*:)",
                text,
            )
            label = label or re.search(  # "**Rules for `add`**: ...": a heading naming the value
                rf"(?:^|\n|(?<=[.;])\s)\s*(?:\*\*)?(?:Rules|Checks|Conditions)\s+for\s+[`'\"]{re.escape(value)}[`'\"](?:\*\*)?\s*:(?:\*\*)?\s",
                text,
            )
            label = label or re.search(  # 'decision = "accept": ...': the parameter set to the value, then a colon
                rf"(?:^|\n)\s*(?:[-*]\s+)?`?{re.escape(param)}`?\s*(?:=|==|is)\s*[`'\"]{re.escape(value)}[`'\"]\s*:\s",
                text,
            )
            label = label or _bare_label(text, value, values)
            if label:
                starts[value] = (label.start(), label.end())
        if len(starts) != len(values):
            continue
        order = sorted(starts, key=lambda v: starts[v][0])
        segments, shared, cursor = {}, [], 0
        for i, value in enumerate(order):
            begin, body = starts[value]
            later = [starts[v][0] for v in order[i + 1 :] if starts[v][0] > begin]  # "a / b switch ...": one shared
            end = later[0] if later else len(text)
            closed = CLOSE.search(text, body, end)
            stop = closed.start() if closed else end
            segments[value] = text[body:stop].strip()
            shared.append(text[cursor:begin])
            cursor = stop
        shared.append(text[cursor:])
        return param, segments, " ".join(s.strip() for s in shared if s.strip())
    return None


def _bare_label(text: str, value: str, values: list[str]) -> re.Match[str] | None:
    """A clause led by the value unquoted, then an aside and its verb ("...; reactivate brings ...", "suspend
    (reason ...) stops ..."), or by it and another value it shares the clause with ("lights_on / lights_off
    switch the berth lights: ..."): only for values spelt as one lower-case word (a verb, `snake_case`)."""
    if not re.fullmatch(r"[a-z]+(?:_[a-z]+)*", value):
        return None
    lead = r"(?:^|\n|(?<=[.;])\s)\s*"
    pair = "|".join(re.escape(v) for v in values if v != value)
    verb = r"(?=(?:\s*\([^()]*\))?\s+(?!(?:is|are|was|and|or)\b)[a-z]+\b)"  # the aside stays in the segment
    return re.search(rf"{lead}{re.escape(value)}{verb}", text) or re.search(
        rf"{lead}(?:{re.escape(value)}\s*/\s*(?:{pair})|(?:{pair})\s*/\s*{re.escape(value)}){verb}", text
    )


def value_text(shared: str, value: str, values: list[str]) -> str:
    """The text every value shares, read as this value's ("to `moored` or `hauled`" is "to `hauled`")."""
    return _as_value(shared, value, [v for v in values if v != value])


def _as_value(shared: str, value: str, others: list[str]) -> str:
    for other in others:
        shared = re.sub(rf"([`'\"]){re.escape(other)}\1", rf"\g<1>{value}\g<1>", shared)
    return shared


def mode_transition(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    policy: str,
    records: list[dict[str, Any]] | None = None,
    sample: dict[str, Any] | None = None,
) -> ToolPlan | None:
    """A `by_mode` plan of one docs transition per documented value, or None when the docs describe no values
    one by one or a value's transition cannot be read."""
    from synth.envsynth.docs_entries import business_date
    from synth.envsynth.param_dates import value_dates
    from synth.envsynth.policy_rules import docs_transition

    if plan.kind not in ("update", "delete") or not plan.key_param:
        return None
    found = mode_segments(spec)
    if found is None:
        return None
    param, segments, shared = found
    params = spec.parameters.get("properties") or {}
    col = (state_schema.get("properties") or {}).get(plan.collection or "") or {}
    own = ((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {}
    modes: dict[str, Any] = {}
    preconditions: dict[str, list[Any]] = {}
    path = mode_path(list(records or []), list(segments))
    for value, segment in segments.items():
        text = _as_value(shared, value, [v for v in segments if v != value]) + "\n" + segment
        given = {param: value} if param in own else _state_named(own, list(segments), value)  # sets that state
        given = given or _verb_state(own, value)  # `suspend` leads to `suspended`, `lights_off` clears a flag
        sub = docs_transition(
            dataclasses.replace(spec, description=text), plan, state_schema, policy, records, sample, given
        )
        if sub is None:
            return None
        effects = [  # a set the record has no field for is a guess ("the action records what it was called with")
            e for e in sub.effects if e["op"] != "set" or e["field"] in own
        ]
        if path is not None:  # what this value writes as the records it shaped show it (mode_objects.py)
            effects = _mode_written(
                effects, records or [], path, param, value, spec, text, plan, state_schema, policy, sample, given
            )
        dated = [  # "- `landed`: ... can only be recorded on or after its `eta`": that value's own date check
            {k: v for k, v in c.items() if k != "when"}
            for c in value_dates(
                f"- `{value}`: {segment}", {param: {"enum": [value]}}, own, business_date(text + policy)
            )
        ]
        checks = list(sub.checks) + [c for c in dated if c not in sub.checks]
        sub = ToolPlan.from_dict({**sub.to_dict(), "effects": effects, "checks": checks})
        needs = [
            p
            for p in params
            if p != param and re.search(rf"\b`?{re.escape(p)}`?\s+(?:is|are)\s+required\b", segment, re.I)
        ]
        modes[value] = {"plan": sub.to_dict(), "requires": needs}
        for name, allowed in sub.preconditions.items():
            preconditions[name] = sorted(set(preconditions.get(name, [])) | set(allowed), key=str)
    return by_mode_plan(plan, param, modes, preconditions, f"one transition per documented `{param}` value")


def _state_named(own: dict[str, Any], values: list[str], value: str) -> dict[str, Any] | None:
    """{field: value} when the parameter's values are all states of the record's one state field (an `outcome`
    of `docked` / `lost` for a `status` that knows both), else None."""
    from synth.envsynth.create_rules import _known

    fields = [
        f
        for f, s in own.items()
        if isinstance(s, dict)
        and re.fullmatch(r"(?:\w+_)?(?:status|state|stage|phase)", f)  # the record's state, not a kind (`engine`)
        and set(values) <= {str(v) for v in _known(s)}
        and _known(s)
    ]
    return {fields[0]: value} if len(fields) == 1 else None


def _verb_state(own: dict[str, Any], value: str) -> dict[str, Any] | None:
    """{field: value} a verb-like mode value leads to: the state its participle spells (`suspend` -> `suspended`,
    `reactivate` -> `active`, the state its stem begins), or a yes/no field named by the words before an `_on` /
    `_off` (`lights_on` -> `lights_enabled` true)."""
    from synth.envsynth.create_rules import _known
    from synth.envsynth.verb_moves import _participles

    flag = re.fullmatch(r"(?P<what>[a-z_]+?)_(?P<way>on|off)", value)
    if flag:
        named = [
            f
            for f, s in own.items()
            if isinstance(s, dict) and s.get("type") == "boolean" and f.startswith(flag["what"] + "_")
        ]
        return {named[0]: flag["way"] == "on"} if len(named) == 1 else None
    verb = value.lower()
    forms = _participles(verb) if re.fullmatch(r"[a-z]+", verb) else set()
    stem = verb[2:-3] if verb.startswith("re") and verb.endswith("ate") and len(verb) > 8 else ""  # re-activ-ate
    found = []
    for field, schema in sorted(own.items()):
        if isinstance(schema, dict) and re.fullmatch(r"(?:\w+_)?(?:status|state)", field):
            known = [str(v) for v in _known(schema)]
            found += [
                (field, v) for v in known if v in forms or (stem and v.startswith(stem) and len(v) <= len(stem) + 2)
            ]
    return {found[0][0]: found[0][1]} if len(found) == 1 else None


def _mode_written(
    effects: list[dict[str, Any]],
    records: list[dict[str, Any]],
    path: tuple[str, ...],
    param: str,
    value: str,
    spec: ToolSpec,
    text: str,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    policy: str,
    sample: dict[str, Any] | None,
    given: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    """The value's effects with the object holding the mode written as the data shows it, and the entries it logs
    learned from its own records when those of every value together explain none."""
    from synth.envsynth.entry_texts import with_new_values
    from synth.envsynth.policy_rules import docs_transition

    sets = {
        e["field"]: e["source"]["value"]
        for e in effects
        if e["op"] == "set" and (e.get("source") or {}).get("from") == "const"
    }
    written = mode_object(records, path, param, value, sets, {e.get("field") for e in effects})
    if written is not None:  # right after the state it moves to, so a logged text reads the object
        at = max((i + 1 for i, e in enumerate(effects) if e["op"] == "set" and e["field"] in sets), default=0)
        effects = effects[:at] + [written] + effects[at:]
    own = mode_records(records, path, value)
    appended = {e.get("field") for e in effects if e["op"] == "append"}
    if own and len(own) < len(records):
        alone = docs_transition(
            dataclasses.replace(spec, description=text), plan, state_schema, policy, own, sample, given
        )
        effects += [e for e in (alone.effects if alone else []) if e["op"] == "append" and e["field"] not in appended]
    return with_new_values(effects) if written is not None else effects


def by_mode_plan(
    plan: ToolPlan, param: str, modes: dict[str, Any], preconditions: dict[str, list[Any]], evidence: str
) -> ToolPlan:
    """The `by_mode` plan dispatching on `param` to each value's sub-plan ({value: {"plan", "requires"}})."""
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "kind": "by_mode",
            "op_param": param,
            "modes": modes,
            "preconditions": preconditions,
            "evidence": plan.evidence + [evidence],
        }
    )


__all__ = ["by_mode_plan", "mode_segments", "mode_transition", "value_text"]
