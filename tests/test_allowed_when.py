"""Conditions a change is allowed under, read from a "possible only if ..." sentence (a community garden adding a
season to a plot lease): a date of the record, a count of the record, the state of the record and of a record it
links, and an empty list of a linked record; each checked by the runtime, and nothing read from a sentence without
"only"."""

from __future__ import annotations

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S = {"type": "string"}


SCHEMA = {
    "type": "object",
    "properties": {
        "leases": _collection(
            {
                "lease_id": S,
                "gardener_id": S,
                "plot_id": S,
                "phase": {"type": "string", "x-enum": ["running", "lapsed"]},
                "ends_on": S,
                "prolongations": {"type": "integer"},
            }
        ),
        "gardeners": _collection({"gardener_id": S, "standing": {"type": "string", "x-enum": ["enrolled", "struck"]}}),
        "plots": _collection({"plot_id": S, "standby_list": {"type": "array", "items": S}}),
    },
}
TEXT = (
    "Adds a season to a plot lease. Possible only if the lease is still 'running', with its `ends_on` no earlier "
    "than 2030-06-10, it was prolonged fewer than 3 times so far, the gardener is 'enrolled' and has paid in full, "
    "and the plot's standby list is empty. Returns the lease."
)
SPEC = ToolSpec("prolong_lease", TEXT, {"type": "object", "properties": {"lease_id": S}, "required": ["lease_id"]})
PLAN = ToolPlan(kind="recorded_update", collection="leases", key_field="lease_id", key_param="lease_id")


def test_each_clause_becomes_a_check_or_a_state() -> None:
    plan = allowed_checks(SPEC, PLAN, SCHEMA, TEXT)
    assert plan.preconditions == {"phase": ["running"]}
    assert plan.checks == [
        {"op": "dated", "field": "ends_on", "cmp": ">=", "value": "2030-06-10"},
        {"op": "bound", "from": "self", "field": "prolongations", "cmp": "<", "value": 3},
        {
            "op": "linked_state",
            "collection": "gardeners",
            "via": "gardener_id",
            "field": "standing",
            "allowed": ["enrolled"],
        },
        {"op": "empty", "collection": "plots", "via": "plot_id", "field": "standby_list"},
    ]
    state = {
        "gardeners": {"G1": {"standing": "enrolled"}, "G2": {"standing": "struck"}},
        "plots": {"P1": {"standby_list": []}, "P2": {"standby_list": ["G2"]}},
    }
    fine = {"gardener_id": "G1", "plot_id": "P1", "ends_on": "2030-06-10", "prolongations": 2}
    assert all(fg_check(c, {}, fine, state) for c in plan.checks)
    for change in ({"gardener_id": "G2"}, {"plot_id": "P2"}, {"ends_on": "2030-06-09"}, {"prolongations": 3}):
        assert not all(fg_check(c, {}, {**fine, **change}, state) for c in plan.checks), change


def test_other_words_for_a_date_side_and_a_count() -> None:
    text = "Possible only while the lease has `ends_on` not after 2031-01-31 and has been prolonged more than 1 time."
    plan = allowed_checks(ToolSpec("prolong_lease", text, SPEC.parameters), PLAN, SCHEMA, text)
    assert plan.checks == [
        {"op": "dated", "field": "ends_on", "cmp": "<=", "value": "2031-01-31"},
        {"op": "bound", "from": "self", "field": "prolongations", "cmp": ">", "value": 1},
    ]


def test_no_only_sentence_or_an_unknown_noun_changes_nothing() -> None:
    plain = "Adds a season to a plot lease. The lease is 'running' and was prolonged fewer than 3 times."
    assert allowed_checks(ToolSpec("prolong_lease", plain, SPEC.parameters), PLAN, SCHEMA, plain) == PLAN
    odd = "Possible only if the landlord is 'enrolled'."  # no `landlord_id` on the lease
    assert allowed_checks(ToolSpec("prolong_lease", odd, SPEC.parameters), PLAN, SCHEMA, odd) == PLAN
    read = ToolPlan(kind="get", collection="leases", key_param="lease_id")
    assert allowed_checks(SPEC, read, SCHEMA, TEXT) == read  # a read is no change


def test_a_list_of_states_keeps_every_value() -> None:
    schema = {"type": "object", "properties": {**SCHEMA["properties"]}}
    schema["properties"]["leases"] = _collection(
        {
            "lease_id": S,
            "gardener_id": S,
            "phase": {"type": "string", "x-enum": ["draft", "running", "paused", "lapsed"]},
        }
    )
    schema["properties"]["gardeners"] = _collection(
        {"gardener_id": S, "standing": {"type": "string", "x-enum": ["enrolled", "trial", "struck"]}}
    )
    text = "Possible only while the lease is 'running', 'paused' or 'draft' and the gardener is 'enrolled' or 'trial'."
    plan = allowed_checks(ToolSpec("prolong_lease", text, SPEC.parameters), PLAN, schema, text)
    assert plan.preconditions == {"phase": ["running", "paused", "draft"]}
    [linked] = plan.checks
    assert linked["allowed"] == ["enrolled", "trial"]
    dated = "Possible only if the lease is 'running', `ends_on` not after 2031-01-31."  # a field after the comma
    plan = allowed_checks(ToolSpec("prolong_lease", dated, SPEC.parameters), PLAN, SCHEMA, dated)
    assert plan.preconditions == {"phase": ["running"]} and plan.checks[0]["op"] == "dated"


def test_an_unless_clause_allows_every_other_state() -> None:
    text = "Adds a season to a plot lease, unless its gardener is 'struck' or the lease is 'lapsed'."
    plan = allowed_checks(ToolSpec("prolong_lease", text, SPEC.parameters), PLAN, SCHEMA, text)
    assert plan.checks == [
        {
            "op": "linked_state",
            "collection": "gardeners",
            "via": "gardener_id",
            "field": "standing",
            "allowed": ["enrolled"],
        }
    ]
    assert plan.preconditions == {"phase": ["running"]}
    state = {"gardeners": {"G1": {"standing": "enrolled"}, "G2": {"standing": "struck"}}}
    assert fg_check(plan.checks[0], {}, {"gardener_id": "G1"}, state)
    assert not fg_check(plan.checks[0], {}, {"gardener_id": "G2"}, state)
    required = "Adds a season to a plot lease. The call fails unless the lease is 'lapsed'."
    plan = allowed_checks(ToolSpec("prolong_lease", required, SPEC.parameters), PLAN, SCHEMA, required)
    assert plan.preconditions == {"phase": ["lapsed"]} and plan.checks == []  # after a refusal: what is required


def test_one_number_of_the_record_required_to_equal_or_reach_another() -> None:
    money = {"type": "number"}
    schema = {
        "type": "object",
        "properties": {
            "leases": _collection({"lease_id": S, "dues_owed": money, "dues_paid": money, "deposit": money})
        },
    }
    text = "Renews a lease whose dues are settled (`dues_paid` equals `dues_owed`). Returns the lease."
    [check] = allowed_checks(SPEC, PLAN, schema, text).checks
    assert check == {"op": "bound", "from": "self", "field": "dues_paid", "cmp": "==", "value": {"field": "dues_owed"}}
    assert fg_check(check, {}, {"dues_paid": 80.0, "dues_owed": 80.0}, {})
    assert not fg_check(check, {}, {"dues_paid": 79.5, "dues_owed": 80.0}, {})
    least = allowed_checks(SPEC, PLAN, schema, "Renews a lease. `deposit` must be at least `dues_owed`.").checks
    assert least == [{"op": "bound", "from": "self", "field": "deposit", "cmp": ">=", "value": {"field": "dues_owed"}}]
    told = "Renews a lease; afterwards `dues_paid` equals `dues_owed`."  # what the call leaves, not a condition
    assert allowed_checks(SPEC, PLAN, schema, told).checks == []


def test_a_refused_date_argument_is_kept_out_as_the_list_says() -> None:
    from synth.envsynth.allowed_when import _refused_dates

    params = {"lease_id": S, "visit_date": {"type": "string", "format": "date"}}
    text = (
        "Books a visit to a plot lease.\n\nRefused when:\n- the lease is not `running`;\n- `visit_date` is not after "
        "today, is more than 30 days after today, or falls on a Saturday or Sunday;\n- the gardener is struck.\n"
    )
    spec = ToolSpec("book_visit", text, {"type": "object", "properties": params})
    checks = allowed_checks(spec, PLAN, SCHEMA, text, "2030-06-05").checks  # a Wednesday
    dated = [c for c in checks if c["op"] == "arg_date"]
    assert [c["cmp"] for c in dated] == [">", "<=", "weekday"]
    fine = {"visit_date": "2030-06-10"}  # the Monday after

    def allowed(date: str) -> bool:
        return all(fg_check(c, {"visit_date": date}, {}, {}) for c in dated)

    assert allowed(fine["visit_date"])
    assert not allowed("2030-06-05")  # today is not after today
    assert not allowed("2030-07-08")  # 33 days ahead
    assert not allowed("2030-06-08") and not allowed("2030-06-09")  # Saturday, Sunday
    assert allowed("2030-07-05")  # 30 days ahead, a Friday
    assert _refused_dates("Books a visit. The `visit_date` is not after today.", params, "2030-06-05") == []  # no list
    assert _refused_dates(text, params, None) == []  # no business date to compare with


def test_a_change_that_gives_a_record_one_more_keeps_within_its_cap() -> None:
    schema = {
        "type": "object",
        "properties": {
            "leases": _collection(
                {"lease_id": S, "gardener_id": S, "phase": {"type": "string", "x-enum": ["open", "running", "lapsed"]}}
            ),
            "gardeners": _collection({"gardener_id": S}),
        },
    }
    params = {"lease_id": S, "gardener_id": S}
    text = "Hands a lease to a gardener. A gardener keeps at most 2 leases (`open` or `running`) at a time."
    spec = ToolSpec("hand_over", text, {"type": "object", "properties": params})
    [cap] = [c for c in allowed_checks(spec, PLAN, schema, text).checks if c["op"] == "cap"]
    state = {
        "leases": {
            "L1": {"gardener_id": "G1", "phase": "running"},
            "L2": {"gardener_id": "G1", "phase": "open"},
            "L3": {"gardener_id": "G2", "phase": "running"},
            "L4": {"gardener_id": "G2", "phase": "lapsed"},
        }
    }
    assert not fg_check(cap, {"gardener_id": "G1"}, {}, state)  # two held already
    assert fg_check(cap, {"gardener_id": "G2"}, {}, state)  # one held, a lapsed one does not count


def test_a_cap_by_a_parameter_named_as_its_noun() -> None:
    schema = {
        "type": "object",
        "properties": {
            "leases": _collection(
                {"lease_id": S, "gardener": S, "phase": {"type": "string", "x-enum": ["open", "lapsed"]}}
            )
        },
    }
    params = {"lease_id": S, "gardener": S}
    text = "Hands a lease to a gardener. A gardener can take at most 1 lease (`open`)."
    spec = ToolSpec("hand_over", text, {"type": "object", "properties": params})
    [cap] = [c for c in allowed_checks(spec, PLAN, schema, text).checks if c["op"] == "cap"]
    assert cap["arg"] == "gardener" and cap["field"] == "gardener" and cap["max"] == 1
    state = {"leases": {"L1": {"gardener": "Ada", "phase": "open"}, "L2": {"gardener": "Bo", "phase": "lapsed"}}}
    assert not fg_check(cap, {"gardener": "Ada"}, {}, state) and fg_check(cap, {"gardener": "Bo"}, {}, state)
