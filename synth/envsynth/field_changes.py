"""A keyed change of one field the call gives ("Change the grade mode of an enrolled course ..."), read from the
docs as a recorded change instead of a plain update when they say more than "the field takes the value":
- an entry the docs append is written as they spell it (docs_appends), a quoted text's OLD and NEW standing for the
  field's value before and after the call (`note: 'OLD -> NEW'`);
- a charge "recomputed ... as in <sibling>" runs that read (quote_reuse.sibling_quotes) on the record's own values
  and the call's new one; "<field> is set to the new <charge>" stores the figure the field's name holds, and "the
  difference is added to (or taken from) the <noun>'s <field>" moves that number of the record the noun names by the
  new charge less the old;
- the errors the docs list refuse the call: "is not <state>" (a precondition on the one state field holding that
  value), "... is unchanged" (the call's value is the record's: a `differs` check), "<value> is requested for a
  <noun> that does not allow it" (the linked record's yes/no field for that value, a `needs` check), and the
  calendar deadlines the docs tie to the call (docs_deadlines).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.cancel_returns import number_named
from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _known, _props
from synth.envsynth.docs_appends import docs_appends, is_number
from synth.envsynth.docs_deadlines import deadline_checks
from synth.envsynth.docs_entries import business_date
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.envsynth.quote_reuse import RECOMPUTED, _computes, _meant_figure
from synth.spec import ToolSpec

SENTENCES = re.compile(r"(?<=[.;!?])\s+|\n")
REPRICED = re.compile(RECOMPUTED.pattern + r"|\bre-?prices?\b", re.I)
OLD_NEW = re.compile(r"\b(OLD|NEW)\b")  # 'OLD -> NEW' in an entry the docs write
NEW_FIGURE = re.compile(
    r"`?\b(\w+)`?\s+(?:is\s+set\s+to|becomes|is\s+updated\s+to|takes|=)\s+the\s+(?:new|recomputed|re-?priced|updated)\s+\w+",
    re.I,
)
DIFFERENCE = re.compile(
    r"\b(?:the|any)\s+difference\s+is\s+(added\s+to|charged\s+to|charged\s+or\s+credited\s+to|credited\s+to|"
    r"billed\s+to|taken\s+from|deducted\s+from)(?:\s*\([^()]*\))?\s+the\s+(\w+)['\u2019]s\s+`?([\w ]{1,40})",
    re.I,
)
FAILS = re.compile(r"\b(?:fails|errors?|refused|rejected)\b[^.]*?\b(?:if|when)\b([^.]*)", re.I)
NOT_STATE = re.compile(r"\bis\s+not\s+`?'?([\w-]+)'?`?", re.I)
UNCHANGED = re.compile(r"\bunchanged\b|\bthe\s+same\s+as\s+(?:the\s+)?(?:current|existing)\b", re.I)
NOT_ALLOWED = re.compile(
    r"`?'?([\w-]+)'?`?\s+is\s+(?:requested|asked\s+for|chosen)\s+for\s+an?\s+(\w+)\s+that\s+does\s+not\s+(?:allow|permit|offer)",
    re.I,
)


def _changed_field(spec: ToolSpec, plan: ToolPlan, own: dict[str, Any]) -> str | None:
    """The one parameter, besides the key, that names a field of the record."""
    params = [p for p in spec.parameters.get("properties") or {} if p != plan.key_param and p in own]
    return params[0] if len(params) == 1 else None


def _entries(text: str, own: dict[str, Any], params: dict[str, Any], field: str, today: str | None) -> list[dict]:
    """The docs' appended entries, OLD and NEW in a text read as the field's value before and after."""
    sides = {"OLD": {"from": "record", "path": [field]}, "NEW": {"from": "arg", "name": field}}
    out = docs_appends(text, own, params, today=today)
    for effect in out:
        for rule in effect.get("items", []):
            for sub, source in (rule.get("fields") or {}).items():
                said = source.get("value") if source.get("from") == "const" else None
                if isinstance(said, str) and OLD_NEW.search(said):
                    parts = [sides.get(part, part) for part in OLD_NEW.split(said) if part]
                    rule["fields"][sub] = {"from": "concat", "parts": parts}
    return out


def record_arguments(tool: ToolSpec, sibling: ToolSpec, own: dict[str, Any]) -> tuple[list[str], dict[str, str]] | None:
    """(the record fields the sibling's parameters read, {list parameter: the record field whose one value it
    takes}) when every parameter the sibling needs is the call's own (same name and type), a field of the record, or
    a list of ids of which the record holds one (`section_ids` <- `section_id`); None otherwise."""
    mine = tool.parameters.get("properties") or {}
    theirs = sibling.parameters.get("properties") or {}
    fields: list[str] = []
    wrapped: dict[str, str] = {}
    for p in list(sibling.parameters.get("required") or theirs):
        kind = (theirs.get(p) or {}).get("type")
        if p in mine and (mine[p] or {}).get("type") == kind:
            continue
        if p in own and (own[p] or {}).get("type") == kind:
            fields.append(p)
        elif kind == "array" and p.endswith("s") and (own.get(p[:-1]) or {}).get("type") == "string":
            fields.append(p[:-1])
            wrapped[p] = p[:-1]
        else:
            return None
    return (fields, wrapped) if fields else None


def _repricing(
    spec: ToolSpec,
    text: str,
    own: dict[str, Any],
    cols: dict[str, Any],
    specs: list[ToolSpec],
    quotes: dict[str, Any],
) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """(the quote the change runs, the effects storing and moving its figure) when a sentence says the charge is
    recomputed as a sibling read computes it."""
    by_name = {s.name: s for s in specs}
    said = [s for s in SENTENCES.split(text) if REPRICED.search(s)]
    for name in sorted(quotes):
        sibling = by_name.get(name)
        if (
            sibling is None
            or name == spec.name
            or not any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", s) for s in said)
        ):
            continue
        reads = record_arguments(spec, sibling, own)
        quote = quotes[name]
        computed = [n for n, node in quote["steps"] if n in quote["fields"] and _computes(node)]
        stored = [m.group(1) for m in NEW_FIGURE.finditer(text) if is_number(own.get(m.group(1)))]
        if reads is None or not computed or len(stored) != 1:
            continue
        field, figure = stored[0], _meant_figure(stored[0], computed)
        effects: list[dict[str, Any]] = [{"op": "set", "field": field, "source": {"from": "figure", "name": figure}}]
        moved = DIFFERENCE.search(text)
        link = noun_link(moved.group(2), own, cols) if moved else None
        target = number_named(moved.group(3), _props(cols, link[1])) if moved and link else None
        if moved and link and target:
            sign = -1 if moved.group(1).lower().split()[0] in ("taken", "deducted") else 1
            new, old = {"from": "figure", "name": figure}, {"from": "record", "path": [field]}
            effects.append(
                {
                    "op": "adjust",
                    "collection": link[1],
                    "path": [{"from": "record", "path": [link[0]]}, {"from": "const", "value": target}],
                    "delta": {"from": "difference", "new": new if sign > 0 else old, "old": old if sign > 0 else new},
                }
            )
        priced = {**quote, "fields": [], "assign": {}, "states": {}, "guards": [], "record_args": reads[0]}
        priced["wrap"] = reads[1]
        return priced, effects
    return None


def _refusals(text: str, own: dict[str, Any], cols: dict[str, Any], field: str) -> tuple[dict, list[dict]]:
    """({state field: the states allowing the call}, checks) the docs' error sentence gives."""
    allowed: dict[str, list[Any]] = {}
    checks: list[dict[str, Any]] = []
    for m in FAILS.finditer(text):
        clause = m.group(1)
        for state in NOT_STATE.findall(clause):
            holders = [f for f, s in own.items() if f != field and state in [str(v) for v in _known(s or {})]]
            if len(holders) == 1:
                allowed.setdefault(holders[0], []).append(state)
        if UNCHANGED.search(clause):
            check = {"op": "differs", "a": {"from": "arg", "name": field}, "b": {"from": "record", "path": [field]}}
            checks += [check] if check not in checks else []
        for value, noun in NOT_ALLOWED.findall(clause):
            link = noun_link(noun, own, cols)
            words = set(value.lower().replace("-", "_").split("_"))
            flags = (
                [
                    f
                    for f, s in _props(cols, link[1]).items()
                    if link and (s or {}).get("type") == "boolean" and words <= set(f.split("_")) and "allowed" in f
                ]
                if link
                else []
            )
            if len(flags) == 1:
                table = {value: True}
                checks.append(
                    {
                        "op": "needs",
                        "param": field,
                        "table": table,
                        "collection": link[1],
                        "via": link[0],
                        "field": flags[0],
                    }
                )
    return allowed, checks


def field_change(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    policy: str,
    sample: dict[str, Any] | None,
    specs: list[ToolSpec],
    quotes: dict[str, Any],
) -> ToolPlan | None:
    """The plain update as a recorded change of the one field the call gives, when the docs append an entry or
    reprice the record; None when they say neither."""
    if plan.kind != "update" or not plan.collection or not plan.key_param:
        return None
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    field = _changed_field(spec, plan, own)
    if field is None:
        return None
    params = spec.parameters.get("properties") or {}
    text = unwrap(spec.description)
    today = business_date(text + "\n" + policy)
    entries = _entries(text, own, params, field, today)
    repriced = _repricing(spec, text, own, cols, specs, quotes)
    if not entries and repriced is None:
        return None
    quote, priced = repriced if repriced is not None else ({}, [])
    allowed, checks = _refusals(text, own, cols, field)
    checks += deadline_checks(
        spec.description, spec.description + "\n" + policy, plan.collection, state_schema, sample or {}, today
    )
    effects = [{"op": "set", "field": field, "source": {"from": "arg", "name": field}}] + priced + entries
    evidence = plan.evidence + [
        f"a recorded change of `{field}`" + (" priced again as its sibling read" if quote else "")
    ]
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "kind": "recorded_update",
            "effects": effects,
            "checks": list(plan.checks) + checks,
            "preconditions": {**plan.preconditions, **allowed},
            "quote": quote,
            "evidence": evidence,
        }
    )


__all__ = ["field_change", "record_arguments"]
