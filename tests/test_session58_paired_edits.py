"""A list edited by an adding and a removing argument, through the whole pipeline on a harbour desk (harbour words
only): removals match names regardless of case, an added crew member gets the business date in the date field every
crew entry holds, the answer lists the names added and removed, closed and condemned berths refuse the edit, and a
test writer's random name to remove no longer hides the edit from the publish gate. With recorded calls, the log
entries the real desk writes, one per name removed or added, are learned. Also the readers underneath: "cannot be
changed on <state> or <state> <nouns>", and sampled strings that match their schema's pattern."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

from synth.envsynth.pipeline import SynthConfig, synthesize_environment, traces_digest
from synth.runtime.environment import Environment
from tests.desks import harbour_desk

S = {"type": "string"}
PERSON = {
    "type": "object",
    "required": ["name", "role", "phone"],
    "properties": {
        "name": S,
        "role": {"type": "string", "enum": ["skipper", "deckhand", "cook"]},
        "phone": {"type": "string", "pattern": "^\\d{3}-\\d{4}$"},
    },
}


def _tool(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": props, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


TOOLS = [
    _tool("get_berth", "Get a berth with its crew and history.", {"berth_id": S}, ["berth_id"]),
    _tool(
        "edit_crew",
        "Adds and/or removes crew of a berth. Removals are applied before additions. A berth may have at most 3 "
        "crew. Removal matches the name case-insensitively. Crew lists cannot be changed on closed or condemned "
        "berths. Returns {berth_id, added, removed, crew}.",
        {
            "berth_id": S,
            "add": {"type": "array", "items": PERSON},
            "remove": {"type": "array", "items": S, "description": "Names to remove"},
        },
        ["berth_id"],
    ),
]
POLICY = """# Harbour desk policy

The desk works on its business date (today: 2031-03-01).
"""


def _crew(name: str, role: str, day: str) -> dict[str, Any]:
    return {"name": name, "role": role, "phone": "555-0101", "joined_on": day}


def _data() -> dict[str, Any]:
    berths = {
        "B1": ("open", [_crew("Ines Lind", "skipper", "2030-05-01")]),
        "B2": ("open", [_crew("Tomas Berg", "skipper", "2030-06-02"), _crew("Ada Holm", "cook", "2030-07-03")]),
        "B3": ("closed", [_crew("Bram Vos", "deckhand", "2030-08-04")]),
        "B4": ("condemned", []),
        "B5": ("open", []),
        "B6": ("closed", []),
    }
    return {
        "berths": {
            key: {"berth_id": key, "status": status, "crew": crew, "history": [{"day": "2030-01-01", "note": "opened"}]}
            for key, (status, crew) in berths.items()
        }
    }


def _call(env: Environment, **arguments: Any) -> Any:
    return env.step({"name": "edit_crew", "arguments": arguments})


def test_a_paired_edit_matches_without_case_dates_what_it_adds_and_answers_both_lists(tmp_path: Path) -> None:
    env = harbour_desk(tmp_path, TOOLS, _data(), POLICY)
    joined = {"name": "Lena Dahl", "role": "cook", "phone": "555-0199"}
    step = _call(env, berth_id="B1", remove=["ines lind"], add=[joined])
    assert step.info["ok"], step.observation
    assert env.state["berths"]["B1"]["crew"] == [{**joined, "joined_on": "2031-03-01"}]
    assert step.info["result"] == {
        "berth_id": "B1",
        "added": ["Lena Dahl"],
        "removed": ["ines lind"],
        "crew": [{**joined, "joined_on": "2031-03-01"}],
    }
    for berth in ("B3", "B4"):  # closed and condemned berths refuse it
        assert not _call(env, berth_id=berth, add=[joined]).info["ok"]
    assert not _call(env, berth_id="B2", remove=["Nobody Here"]).info["ok"]  # not on the list
    three = [{**joined, "name": f"Crew {n}"} for n in "AB"]
    assert not _call(env, berth_id="B2", add=three).info["ok"]  # would have 4
    assert env.state["berths"]["B2"] == _data()["berths"]["B2"]


def _logged(state: dict[str, Any], berth: str, remove: list[str], add: list[dict[str, Any]]) -> dict[str, Any]:
    """The real desk's call: the edit, and one history entry per name removed, then per person added."""
    before = state["berths"][berth]
    crew = [c for c in before["crew"] if c["name"] not in remove] + [{**a, "joined_on": "2031-03-01"} for a in add]
    notes = [f"Crew member {n} signed off" for n in remove] + [f"Crew member {a['name']} signed on" for a in add]
    kinds = ["crew_off"] * len(remove) + ["crew_on"] * len(add)
    history = before["history"] + [{"day": "2031-03-01", "kind": k, "note": n} for k, n in zip(kinds, notes)]
    changes = _leaves(f"/berths/{berth}/crew", before["crew"], crew)
    changes += _leaves(f"/berths/{berth}/history", before["history"], history)
    after = {**before, "crew": crew, "history": history}
    state["berths"][berth] = after
    output = {"berth_id": berth, "added": [a["name"] for a in add], "removed": remove, "crew": crew}
    args: dict[str, Any] = {"berth_id": berth, "remove": remove, "add": add}
    return {"name": "edit_crew", "arguments": args, "ok": True, "output": output, "changes": changes}


def _leaves(path: str, before: list[Any], after: list[Any]) -> list[dict[str, Any]]:
    out = []
    for i, entry in enumerate(after):
        if i < len(before) and before[i] == entry:
            continue
        out += [{"path": f"{path}/{i}/{k}", "value": v} for k, v in sorted(entry.items())]
    return out


def test_the_log_entries_of_a_paired_edit_are_learned_from_recorded_calls(tmp_path: Path) -> None:
    docs, policy, data = tmp_path / "tools.json", tmp_path / "policy.md", tmp_path / "harbour.json"
    docs.write_text(json.dumps(TOOLS))
    policy.write_text(POLICY)
    data.write_text(json.dumps(_data()))
    state = copy.deepcopy(_data())
    person = {"role": "deckhand", "phone": "555-0142"}
    calls = [
        _logged(state, "B1", ["Ines Lind"], [{"name": "Ola Rask", **person}]),
        _logged(state, "B2", [], [{"name": "Siv Moe", **person}]),
        _logged(state, "B5", [], [{"name": "Kai Noor", **person}, {"name": "Eli Sand", **person}]),
    ]
    trajectories = [{"format": "forgegym-traces/1", "id": "t0", "calls": calls}]
    traces = tmp_path / "traces.jsonl"
    traces.write_text("".join(json.dumps(t, sort_keys=True) + "\n" for t in trajectories))
    config = SynthConfig(
        env_id="harbour", route="structured", data=str(data), traces=str(traces), traces_sha256=traces_digest(traces)
    )
    out = tmp_path / "traced"
    synthesize_environment([docs, policy], out, None, config)
    env = Environment(out)
    env.reset(initial_state=_data())
    step = _call(env, berth_id="B2", remove=["Ada Holm"], add=[{"name": "Liv Aas", **person}])
    assert step.info["ok"], step.observation
    assert env.state["berths"]["B2"]["history"][1:] == [
        {"day": "2031-03-01", "kind": "crew_off", "note": "Crew member Ada Holm signed off"},
        {"day": "2031-03-01", "kind": "crew_on", "note": "Crew member Liv Aas signed on"},
    ]


def test_states_named_after_cannot_be_changed_on() -> None:
    from synth.envsynth.refusals import refused_kinds

    props = {"status": {"type": "string", "x-enum": ["open", "closed", "condemned"]}}
    said = "Crew lists cannot be changed on closed or condemned berths."
    assert refused_kinds(said, "berth", props) == {"status": ["open"]}
    assert refused_kinds("Crew lists cannot be changed on weekends.", "berth", props) == {}
    assert refused_kinds("Crew cannot be changed on closed piers.", "berth", props) == {}  # another noun


def test_sampled_strings_match_a_simple_pattern_and_other_patterns_are_left_alone() -> None:
    from synth.envsynth.sampling import sample_value

    rng = random.Random(3)
    for pattern in ("^\\d{3}-\\d{4}$", "^[A-Z]{2}-[0-9]{3}$", "^B\\d+$"):
        for _ in range(5):
            value = sample_value({"type": "string", "pattern": pattern}, rng)
            assert re.fullmatch(pattern.strip("^$"), value), (pattern, value)
    odd = sample_value({"type": "string", "pattern": "^(yes|no)$"}, rng)  # alternation: a word, as before
    assert not re.fullmatch("yes|no", odd)
    wrong = sample_value({"type": "string", "pattern": "^B{3,1}$"}, rng)  # not a valid pattern: a word, no crash
    assert re.fullmatch(r"[a-z]+-\d+", wrong)
    day = sample_value({"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"}, rng)
    assert day.startswith("2025-") and 1 <= int(day[5:7]) <= 12  # a real date, not digits of that shape


def test_a_test_writers_name_to_remove_that_the_list_lacks_is_refused_by_the_record() -> None:
    from synth.envsynth.case_filters import refused_by_record
    from synth.envsynth.plan import ToolPlan
    from synth.envsynth.testgen import TestCase

    drop = {"op": "entries_drop", "field": "crew", "arg": "remove", "match": "name", "caseless": True}
    plan = ToolPlan(kind="recorded_update", collection="berths", key_field="berth_id", key_param="berth_id")
    plan = ToolPlan.from_dict({**plan.to_dict(), "effects": [drop]})
    state = _data()

    def case(remove: list[str]) -> TestCase:
        return TestCase("edit_crew", "llm-questions", state, {"berth_id": "B2", "remove": remove}, False)

    assert refused_by_record(plan, case(["pebble-63"]))
    assert not refused_by_record(plan, case(["ADA HOLM"]))  # case-insensitively
    assert not refused_by_record(plan, case([]))


def test_a_date_window_said_of_a_hyphenated_date_parameter_in_the_description() -> None:
    from synth.envsynth.param_dates import said_dates

    params = {"sail_on_date": {"type": "string", "format": "date"}, "berth_id": S}
    said = "Rules: the sail-on date must be between today and 30 days ahead; a skipper may book two berths."
    checks = said_dates(said, params, "2031-03-01")
    assert [(c["cmp"], c.get("days")) for c in checks] == [(">=", None), ("<=", 30)]
    later = said_dates("The sail-on date must be in the future and within 14 days.", params, "2031-03-01")
    assert [(c["cmp"], c.get("days")) for c in later] == [(">", None), ("<=", 14)]
    assert [c["cmp"] for c in said_dates("The sail-on date must not be in the past.", params, "2031-03-01")] == [">="]
    assert said_dates("The sail-on date must not be within 3 days of a storm.", params, "2031-03-01") == []
