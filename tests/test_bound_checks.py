"""Number limits a create's docs put on the records it names (an observatory lending telescopes): each "at least /
less than / no more than N <words>" picks the named record's one number field sharing a word, and the rendered
create refuses the call beyond the limit; limits on other nouns, or words no single field shares, are left alone."""

from __future__ import annotations

from synth.envsynth.bound_checks import bound_checks
from synth.envsynth.expr_runtime import fg_check
from tests.schemas import collection as _collection

S, N = {"type": "string"}, {"type": "number"}


INT = {"type": "integer"}
COLS = {
    "astronomers": _collection(
        {"astronomer_id": S, "safety_badges": INT, "open_charges": N, "scopes_out": INT, "age": N}
    ),
    "telescopes": _collection({"telescope_id": S, "aperture": INT}),
}
REFS = {"astronomer_id": "astronomers", "telescope_id": "telescopes"}
TEXT = (
    "Lends a telescope for one night. Before lending, the astronomer must hold at least 2 safety badges, must keep "
    "less than 25.50 in open charges and must have no more than 4 scopes out; the telescope itself has to be "
    "'parked'. Afterwards the astronomer carries more than 3 eyepieces."
)


def test_limits_on_the_named_record_become_bound_checks() -> None:
    checks = bound_checks(TEXT, REFS, COLS)
    assert [(c["via"], c["field"], c["cmp"], c["value"]) for c in checks] == [
        ("astronomer_id", "safety_badges", ">=", 2),
        ("astronomer_id", "open_charges", "<", 25.5),
        ("astronomer_id", "scopes_out", "<=", 4),
    ]
    state = {
        "astronomers": {
            "A1": {"safety_badges": 2, "open_charges": 25.49, "scopes_out": 4},
            "A2": {"safety_badges": 1, "open_charges": 25.5, "scopes_out": 5},
        }
    }
    assert all(fg_check(c, {"astronomer_id": "A1"}, {}, state) for c in checks)
    assert not any(fg_check(c, {"astronomer_id": "A2"}, {}, state) for c in checks)
    assert fg_check(checks[1], {"astronomer_id": "A9"}, {}, state)  # no such record: left to the existence check
    fewer = bound_checks("An astronomer must have fewer than 4 scopes out.", REFS, COLS)
    assert fewer[0]["cmp"] == "<" and not fg_check(fewer[0], {"astronomer_id": "A1"}, {}, state)


def test_what_is_no_limit_on_a_named_record() -> None:
    assert bound_checks("The astronomer keeps less than 25.50 in open charges.", REFS, COLS) == []  # no "must"
    assert bound_checks("The astronomer must carry fewer than 3 lenses.", REFS, COLS) == []  # no field shares a word
    assert bound_checks("The dome must have fewer than 3 scopes out.", REFS, COLS) == []  # names no record


def test_a_cap_the_named_record_holds_itself() -> None:
    cols = {"teams": _collection({"team_id": S, "probes": INT, "max_probes": INT})}
    text = "Hands a probe to a survey team. The team has to be active, and it must stay under its `max_probes`."
    checks = bound_checks(text, {"team_id": "teams"}, cols)
    assert checks == [
        {
            "op": "bound",
            "collection": "teams",
            "via": "team_id",
            "field": "probes",
            "cmp": "<",
            "value": {"field": "max_probes"},
        }
    ]
    state = {"teams": {"T1": {"probes": 2, "max_probes": 3}, "T2": {"probes": 3, "max_probes": 3}}}
    assert fg_check(checks[0], {"team_id": "T1"}, {}, state) and not fg_check(checks[0], {"team_id": "T2"}, {}, state)
    assert bound_checks("The team must stay under max_sensors.", {"team_id": "teams"}, cols) == []  # no such cap


def test_a_docs_rule_case_the_limit_refuses_yields_to_it() -> None:
    from synth.envsynth.case_filters import refused_by_checks
    from synth.envsynth.plan import ToolPlan
    from synth.envsynth.testgen import TestCase

    cols = {"teams": _collection({"team_id": S, "probes": INT, "max_probes": INT})}
    checks = bound_checks("The team must stay under its `max_probes`.", {"team_id": "teams"}, cols)
    state = {"teams": {"T2": {"probes": 3, "max_probes": 3}}, "probes": {"PR1": {"probe_id": "PR1"}}}
    plan = ToolPlan(kind="recorded_update", collection="probes", key_param="probe_id", checks=checks)
    rule = TestCase("hand_probe", "docs-rule", state, {"probe_id": "PR1", "team_id": "T2"}, expect_error=False)
    assert refused_by_checks(plan, checks, rule)
    written = TestCase("hand_probe", "llm-questions", state, {"probe_id": "PR1", "team_id": "T2"}, expect_error=False)
    assert not refused_by_checks(plan, checks, written)  # only the docs' own cases yield here


def test_a_limit_said_in_the_negative_turns_the_comparison_round() -> None:
    text = "The astronomer must not carry more than 9.75 in open charges, and must never hold fewer than 1 safety badge"
    checks = bound_checks(text, REFS, COLS)
    assert [(c["field"], c["cmp"], c["value"]) for c in checks] == [
        ("open_charges", "<=", 9.75),
        ("safety_badges", ">=", 1),
    ]
    state = {"astronomers": {"A1": {"open_charges": 9.75, "safety_badges": 1}, "A2": {"open_charges": 10.0}}}
    assert all(fg_check(c, {"astronomer_id": "A1"}, {}, state) for c in checks)
    assert not fg_check(checks[0], {"astronomer_id": "A2"}, {}, state)
