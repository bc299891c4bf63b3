"""An amount argument bounded by a record's numbers: "the amount must be positive and at most the balance due
(`dues_owed - dues_paid`)" refuses 0 or less and more than that difference of the record the call names (a
create's `<noun>_id`) or of the record it changes."""

from __future__ import annotations

from synth.envsynth.arg_limits import arg_limits
from synth.envsynth.expr_runtime import fg_check
from tests.schemas import collection

S, N = {"type": "string"}, {"type": "number"}
SCHEMA_COLS = {"leases": collection({"lease_id": S, "dues_owed": N, "dues_paid": N})}
PARAMS = {"lease_id": S, "amount": N}
TEXT = "Records a payment. The amount must be positive and at most the balance due (`dues_owed - dues_paid`)."


def test_a_payment_for_a_named_record_stays_within_its_balance() -> None:
    positive, most = arg_limits(TEXT, PARAMS, {}, {"lease_id": "leases"}, SCHEMA_COLS)
    assert positive == {"op": "arg_limit", "arg": "amount", "cmp": ">", "value": 0}
    assert most["via_arg"] == "lease_id" and most["expr"] == {
        "plus": [{"path": ["dues_owed"]}],
        "minus": [{"path": ["dues_paid"]}],
    }
    state = {"leases": {"L1": {"lease_id": "L1", "dues_owed": 120.0, "dues_paid": 40.0}}}

    def allowed(amount: float) -> bool:
        return all(fg_check(c, {"lease_id": "L1", "amount": amount}, {}, state) for c in (positive, most))

    assert allowed(80.0) and allowed(0.5)
    assert not allowed(80.01) and not allowed(0) and not allowed(-5)


def test_the_changed_record_itself_and_what_is_not_read() -> None:
    own = SCHEMA_COLS["leases"]["additionalProperties"]["properties"]
    [most] = arg_limits(TEXT.replace("positive and ", ""), PARAMS, own, {}, SCHEMA_COLS)
    assert "via_arg" not in most
    assert fg_check(most, {"amount": 80}, {"dues_owed": 120.0, "dues_paid": 40.0}, {})
    assert not fg_check(most, {"amount": 81}, {"dues_owed": 120.0, "dues_paid": 40.0}, {})
    assert arg_limits(TEXT.replace("`dues_owed - dues_paid`", "`rent - deposit`"), PARAMS, own, {}, SCHEMA_COLS) == []
    assert arg_limits(TEXT.replace("amount", "note"), {**PARAMS, "note": S}, own, {}, SCHEMA_COLS) == []  # no number
