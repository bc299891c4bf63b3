"""The publish gate: a tool that passes its tests is still left out when the pass is vacuous.

Per tool (`gate_problems`), on its own test cases run once more in the sandbox:
- a plan's key parameter is one of the tool's parameters;
- the tool succeeds on at least one call (a tool that always fails is never published);
- a write has at least one call with documented arguments that succeeds and changes the state;
- a create does not leave a field its docs talk about at a blank value that nothing in its plan sets;
- a read that takes parameters uses them: successful calls with different documented arguments on one state
  do not all give the same non-empty output (judged only where the tests hold two such calls);
- a read whose docs list its answer's fields answers at least half of them;
- a read whose docs compute something and change nothing ("Calculates what a stay would cost") is not planned as
  an answer of stored records.
Across tools (`same_change_problems`): two writes with different names and descriptions whose code is the
same up to the function name make the same change (borrow/return, enable/disable), so neither is published.
"""

from __future__ import annotations

import json
import re
from typing import Any

import synth
from synth.envsynth.codegen import header_source
from synth.envsynth.expr_runtime import fg_number
from synth.envsynth.plan import WRITE_KINDS
from synth.envsynth.priors import computes_without_change
from synth.envsynth.testgen import TestCase
from synth.sandbox import run_cases
from synth.spec import ToolSpec

STORED_READS = {"get", "get_many", "list", "search", "filter"}  # plans that answer records as they are stored


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def gate_problems(
    spec: ToolSpec,
    plan: dict[str, Any] | None,
    source: str,
    function: str,
    cases: list[dict[str, Any]],
    shown: set[str] | None = None,
) -> list[str]:
    """Why a passing tool's pass is vacuous (empty when it is not). `shown`: when the code reproduces every call
    recorded from the real system (two successful ones at least), the fields those calls changed; the docs' words
    about other fields then yield to what the real system did."""
    params = set(spec.parameters.get("properties") or {})
    problems: list[str] = []
    if plan and plan.get("key_param") and plan["key_param"] not in params:
        problems.append(f"key parameter `{plan['key_param']}` is not a parameter of the tool")
    tests = [TestCase.from_dict(c) for c in cases]
    if not tests or not source:
        return problems
    module = header_source("gate", synth.PIPELINE_VERSION, source) + "\n\n" + source
    outcomes = run_cases(module, [{"function": function, "state": c.state, "arguments": c.arguments} for c in tests])
    if not any(o.status == "ok" for o in outcomes):  # a promo code the test writer picked at random may be refused
        tests = _without_options(spec, tests)
        outcomes = run_cases(
            module, [{"function": function, "state": c.state, "arguments": c.arguments} for c in tests]
        )
    documented = [(c, o) for c, o in zip(tests, outcomes) if set(c.arguments) <= params]
    succeeded = [(c, o) for c, o in documented if o.status == "ok"]
    if not any(o.status == "ok" for o in outcomes):
        problems.append("no call succeeds: the tool always fails")
        return problems
    if plan and plan.get("kind") in STORED_READS and computes_without_change(spec):
        problems.append("its docs compute an answer and change nothing, but the plan answers stored records")
    writes = bool(plan and plan.get("kind") in WRITE_KINDS) or (
        plan is None and any(o.state_after is not None and o.state_after != c.state for c, o in succeeded)
    )
    if writes:
        if not any(o.state_after is not None and o.state_after != c.state for c, o in succeeded):
            problems.append("a write, but no call with documented arguments both succeeds and changes the state")
        problems += _unset_documented_fields(spec, plan, succeeded) if shown is None else []
        problems += _unmet_stated_changes(spec, plan, succeeded, shown)
    elif params:
        by_state: dict[str, dict[str, str]] = {}
        for c, o in succeeded:
            # flags may rightly change nothing; 1 and "1" name the same record
            named = {
                k: v if isinstance(v, (dict, list)) else str(v)
                for k, v in c.arguments.items()
                if not isinstance(v, bool)
            }
            by_state.setdefault(_canon(c.state), {})[_canon(named)] = _canon(o.result)
        pairs = [outs for outs in by_state.values() if len(outs) >= 2]
        empty = {_canon(v) for v in (None, "", [], {})}  # finding nothing for unknown arguments is no sign
        empty |= {_canon(o.result) for _, o in succeeded if _found_nothing(o.result)}  # {"count": 0, "piers": []}
        if pairs and all(len(set(outs.values())) == 1 and next(iter(outs.values())) not in empty for outs in pairs):
            problems.append("a read that ignores its parameters: different documented arguments give the same output")
    if not writes:
        problems += _unanswered_fields(spec, [o.result for _, o in succeeded])
    return problems


def _found_nothing(result: Any) -> bool:
    """An answer that found nothing: empty, or an envelope of an empty list beside empty values and zero counts."""
    blank = (None, "", [], {})
    if not isinstance(result, dict) or not any(v == [] for v in result.values()):
        return result in blank
    paging = ("page", "offset", "limit", "per_page", "page_size")  # where the page is, not what it found
    return all(v in blank or (v == 0 and not isinstance(v, bool)) or k.lower() in paging for k, v in result.items())


def _without_options(spec: ToolSpec, tests: list[TestCase]) -> list[TestCase]:
    """The cases with the same calls left without their optional arguments, where that changes them."""
    required = set(spec.parameters.get("required") or [])
    out = []
    for case in tests:
        bare = {k: v for k, v in case.arguments.items() if k in required}
        if required and bare != case.arguments and set(bare) == required:
            out.append(TestCase.from_dict({**case.to_dict(), "arguments": bare}))
    return out


def _unanswered_fields(spec: ToolSpec, results: list[Any]) -> list[str]:
    """A read whose docs list the answer's fields ("Returns {total, fees, ...}") but whose answers hold fewer than
    half of them: it answers something else (a record where the docs promise computed figures)."""
    from synth.envsynth.envelope import documented_fields

    listed = documented_fields(spec)
    answers = [r[0] if isinstance(r, list) and r else r for r in results]
    answers = [a for a in answers if isinstance(a, dict)]
    if len(listed) < 2 or not answers:
        return []
    held = set(answers[0])
    if 2 * len(held & set(listed)) >= len(listed):
        return []
    missing = ", ".join(f"`{f}`" for f in listed if f not in held)
    return [f"the docs' answer holds {missing}, which the plan's answer does not"]


_BLANK = (None, "", 0, 0.0, [], {}, False)
ERROR_TEXT = re.compile(r"[\"\u201c]Error:[^\"\u201d]*[\"\u201d]")
LATER = re.compile(  # ... or an obligation with a deadline ("the hold must be settled with its fee by then")
    r"\b(when|until|once|after|afterwards|later|if)\b|\bmust\s+be\s+\w+ed\b[^.;]*\bby\b", re.I
)
LISTING = re.compile(  # "Returned reservation fields: a, b, c": what the answer holds, not how a field is set
    r"^\W*(?:returned\s+(?:\w+\s+){0,3}fields?|response\s+fields?|(?:the\s+)?(?:answer|response)\s+holds)\s*:", re.I
)


def _unset_documented_fields(spec: ToolSpec, plan: dict[str, Any] | None, succeeded: list[Any]) -> list[str]:
    """A create whose new record leaves a field its docs talk about ("the cost is deducted") at its type's
    blank value, though no parameter, stated value or copied reference sets it: the docs say more than the plan
    does, so publishing it would pass calls the real system answers otherwise."""
    if not plan or plan.get("kind") != "create" or not plan.get("collection"):
        return []
    given = set(spec.parameters.get("properties") or {}) | set(plan.get("initial_values") or {})
    given |= set(plan.get("inherits") or {}) | {e.get("field") for e in plan.get("effects") or []}
    given |= set((plan.get("quote") or {}).get("assign") or {})  # priced: a figure may well be 0
    given.add(plan.get("key_field"))
    for c, o in succeeded:
        before = c.state.get(plan["collection"]) or {}
        after = (o.state_after or {}).get(plan["collection"]) or {}
        if not isinstance(before, dict) or not isinstance(after, dict):
            return []
        new = [r for k, r in after.items() if k not in before and isinstance(r, dict)]
        if not new:
            continue
        prose = re.sub(r"\{[^{}]*\}", " ", re.sub(r"\{[^{}]*\}", " ", spec.description))  # not object listings
        prose = ERROR_TEXT.sub(" ", prose)  # nor the errors' own words ("<id> was last filled on <date>")
        sentences = re.split(r"(?<=[.;!?])\s+", prose)  # nor what happens later ("set when it is approved")
        prose = " ".join(x for x in sentences if not LATER.search(x) and not LISTING.match(x))  # nor field lists
        unset = sorted(
            f
            for f, v in new[0].items()
            if f not in given
            and (any(v == b and type(v) is type(b) for b in _BLANK) or _zero_figures(v))
            and (
                _set_in_prose(f, prose)
                or _figured(f, v, list(before.values()), spec.description)
                or _table_column(f, spec.description)
            )
        )
        if unset:
            fields = ", ".join(f"`{f}`" for f in unset)
            return [f"the docs say how the new record's {fields} is set; the plan leaves it blank"]
        return []
    return []


EFFECTS_LIST = re.compile(r"^\W*(?:side\s+)?effects?\**\s*:", re.I)  # "Effects:", "**Effects**:"
TOUCHED = re.compile(
    r"\b(?:clear(?:s|ed)?|remov(?:es|ed)|add(?:s|ed)|set|appended|becomes?|updated|reset|moved|increased|decreased"
    r"|raised|lowered|points?\s+to)\b",
    re.I,
)
OTHER_LEAD = re.compile(r"\n\s*\W*[A-Z][\w ]{0,30}\**\s*:|\b(?:Errors?|Rules?|Fees?|Returns?)\**\s*:")
EDITS = {"item_add", "item_remove", "recorded_update", "update"}
GATE_PREFIX = "publish gate: "
PARTIAL = "the docs say the call changes"
CHANGED = re.compile(
    r"\b(?:becomes?|drops?|rises?|grows?|moves?|records?|is\s+set|are\s+set|set\s+to|goes|go|falls?|increases?"
    r"|decreases?|is\s+added|are\s+added|is\s+deducted|is\s+cleared|resets?)\b",
    re.I,
)
RULE_WORDS = re.compile(r"\b(?:only|must|unless|cannot|can't|never|error|errors|returns?|rules?)\b", re.I)


def _handled(plan: dict[str, Any]) -> set[str]:
    """The record fields a change plan writes: set, moved (first step of the path), appended, derived,
    priced, or the list it edits; and those a moved number or an appended line reads (they are the move's or the
    line's, not the call's)."""
    out = {plan.get("list_field")} | set((plan.get("quote") or {}).get("assign") or {})
    for e in plan.get("effects") or []:
        out.add(e.get("field"))
        if e.get("op") == "adjust" and e.get("collection") == plan.get("collection"):
            steps = [s.get("value") for s in (e.get("path") or [])[1:] if s.get("from") == "const"]
            out.update(steps[:1])
        out.update(f for f, _ in e.get("steps") or [])  # derive
        if e.get("op") == "adjust":  # "`points` by the whole-unit part of `berth_total`": what it moves by
            expr = (e.get("delta") or {}).get("expr") or {}
            out.update(t["path"][0] for t in expr.get("plus", []) + expr.get("minus", []) if t.get("path"))
        for item in e.get("items") or [] if e.get("posted") else []:  # a posted line's amount `berth_total`
            out.update(s["path"][0] for s in (item.get("fields") or {}).values() if s.get("from") == "record")
    return {f for f in out if f}


def _other_fields(state: dict[str, Any], own: str) -> set[str]:
    """The field names of the records of every collection but `own`."""
    out: set[str] = set()
    for name, records in state.items():
        if name != own and isinstance(records, dict):
            out |= {f for r in records.values() if isinstance(r, dict) for f in r}
    return out


def _written(plan: dict[str, Any]) -> set[str]:
    """Every field name a change plan's effects write or read, on any record (a linked record's balance too)."""
    text = json.dumps(plan.get("effects") or []) + json.dumps(plan.get("quote") or {})
    return set(re.findall(r'"(\w+)"', text))


def _unmet_stated_changes(
    spec: ToolSpec, plan: dict[str, Any] | None, succeeded: list[Any], shown: set[str] | None = None
) -> list[str]:
    """A change whose docs say fields of its record "are recomputed", list them after "Effects:", or spell out a
    field with a changing verb ("transferred_to records the pharmacy", outside rules and conditions) that the plan
    leaves alone, or whose "Effects:" paragraph names a field only other collections' records hold (a linked
    record's `current_berth_id` cleared) that no effect of the plan touches: every call the real system makes
    those changes on would disagree."""
    from synth.envsynth.quote_reuse import recomputed_names

    if not plan or plan.get("kind") not in EDITS or not plan.get("collection") or not succeeded:
        return []
    records = (succeeded[0][0].state or {}).get(plan["collection"]) or {}
    record = next((r for r in records.values() if isinstance(r, dict)), None) if isinstance(records, dict) else None
    if record is None:
        return []
    kinds = {
        f: {"type": "number"} if isinstance(v, (int, float)) and not isinstance(v, bool) else {}
        for f, v in record.items()
    }
    stated = set(recomputed_names(spec.description, kinds))
    others = _other_fields(succeeded[0][0].state or {}, plan["collection"]) - set(record)
    for paragraph in re.split(r"\n\s*\n", spec.description):  # "**Effects**: ..." to the paragraph's end
        said = EFFECTS_LIST.search(paragraph)
        listed = OTHER_LEAD.split(paragraph[said.end() :])[0] if said else ""  # not the "**Errors**:" after it
        always = [x for x in re.split(r"(?<=[.!?])\s+", " ".join(listed.split())) if not LATER.search(x)]
        changing = [c for x in always for c in re.split(r"[,;]\s*", x) if TOUCHED.search(c)]  # not "fees follow ..."
        named = set(re.findall(r"`(\w+)`", " ".join(changing))) if said else set()  # nor "when a fee is given"
        stated |= {f for f in named - _written(plan) if f in others}
    for sentence in re.split(r"(?<=[.!?])\s+|\n", spec.description):
        if EFFECTS_LIST.search(sentence):
            stated |= {f for f in re.findall(r"`(\w+)`", sentence) if f in record}
        else:  # "the local count drops to 0", "transferred_to records the pharmacy": fields spelt out
            bare = re.sub(r"\([^()]*\)", " ", sentence)
            if LATER.search(bare) or RULE_WORDS.search(bare):
                continue
            for clause in re.split(r"[,;]\s+|\s+and\s+", sentence):
                if CHANGED.search(clause):
                    stated |= {f for f in re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", clause) if f in record}
    missing = sorted(stated - _handled(plan) - {plan.get("key_field")})
    missing = [f for f in missing if shown is None or f in shown]  # the real system's calls changed it
    if not missing:
        return []
    return [f"{PARTIAL} {', '.join(f'`{f}`' for f in missing)}; the plan leaves that as it is"]


def only_partial(error: str) -> bool:
    """A publish-gate reason made only of changes the plan leaves out (_unmet_stated_changes): the tool does part
    of what its docs say, which assemble_environment keeps when leaving it out would leave no environment."""
    if not error.startswith(GATE_PREFIX):
        return False
    return all(p.startswith(PARTIAL) for p in error[len(GATE_PREFIX) :].split("; the plan leaves that as it is; "))


def _zero_figures(value: Any) -> bool:
    """An object of figures nobody worked out: its numbers (one at least) all 0, its other values text or null (a
    currency code)."""
    if not isinstance(value, dict) or not all(fg_number(v) or v is None or isinstance(v, str) for v in value.values()):
        return False
    numbers = [v for v in value.values() if fg_number(v)]
    return bool(numbers) and all(v == 0 for v in numbers)


def _figured(field: str, value: Any, records: list[Any], description: str) -> bool:
    """A figure the docs name (in a field listing too) that every stored record (three at least) holds, nonzero
    and not all the same, left at 0 or null: the real system works it out when it makes the record, the plan
    does not know how. An object of figures (a price breakdown) left all at 0 counts when every stored record's
    holds a nonzero figure and they are not all the same."""
    held = [r.get(field) for r in records if isinstance(r, dict)]
    if _zero_figures(value):
        worked = [h for h in held if isinstance(h, dict) and any(fg_number(v) and v != 0 for v in h.values())]
        return (
            len(held) >= 3
            and len(worked) == len(held)
            and len({json.dumps(h, sort_keys=True) for h in worked}) >= 2
            and _set_in_prose(field, description)
        )
    if value not in (0, None) or isinstance(value, bool):
        return False
    numbers = [h for h in held if isinstance(h, (int, float)) and not isinstance(h, bool) and h != 0]
    return len(held) >= 3 and len(numbers) == len(held) and len(set(numbers)) >= 2 and _set_in_prose(field, description)


def _table_column(field: str, text: str) -> bool:
    """A pipe table of the docs has a column headed by the field ("type | allowed when | fee (per visit)")."""
    names = {field.lower(), field.replace("_", " ").lower()}
    for line in text.splitlines():
        cells = [c.strip().strip("`*").lower() for c in line.split("|")] if line.count("|") >= 2 else []
        if any(c == n or c.startswith(n + " ") or c.startswith(n + " (") for c in cells for n in names):
            return True
    return False


def _set_in_prose(field: str, prose: str) -> bool:
    """The prose names the field other than as blank ("no crew", "the refund stays null until a return")."""
    for name in {field, field.replace("_", " ")}:
        for m in re.finditer(rf"\b{re.escape(name)}\b", prose, re.I):
            before, after = prose[max(0, m.start() - 12) : m.start()], prose[m.end() : m.end() + 30]
            if re.search(r"\b(no|without|empty)\s+$", before, re.I):
                continue
            if re.match(r"^(\s*(,|and|or)?\s*\w+){0,3}?\s*(null|none|empty|unset|blank|false|zero|0)\b", after, re.I):
                continue
            return True
    return False


def _body(source: str, function: str) -> str:
    return re.sub(rf"\b{re.escape(function)}\b", "TOOL", re.sub(r'"""[^"]*"""', '""""""', source))


def same_change_problems(builds: list[Any], specs: dict[str, ToolSpec]) -> dict[str, str]:
    """{tool: reason} for passing writes whose code equals another's with a different name and description."""
    groups: dict[str, list[Any]] = {}
    for b in builds:
        if b.status == "passed" and b.plan and b.plan.get("kind") in WRITE_KINDS and b.source:
            groups.setdefault(_body(b.source, b.function), []).append(b)
    out: dict[str, str] = {}
    for same in groups.values():
        described = {specs[b.name].description.strip() for b in same}
        if len(same) > 1 and len(described) > 1:
            names = ", ".join(sorted(b.name for b in same))
            for b in same:
                out[b.name] = f"makes the same change as another tool with another name and description ({names})"
    return out


__all__ = ["GATE_PREFIX", "gate_problems", "only_partial", "same_change_problems"]
