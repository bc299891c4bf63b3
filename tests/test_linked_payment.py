"""A create that records a payment against another record and says what it does there: the invoice's `paid`
rises by the amount, the balance of the customer the new payment copies from the invoice drops by it (a link the
new record holds only once its copies are made), and an entry written out in full is appended to the invoice's
history (`literal_links.py`); planned and rendered."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.literal_links import literal_linked_entries
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

NUM = {"type": "number"}
TEXT = {"type": "string"}
ENTRY = {"type": "object", "properties": {"on": TEXT, "kind": TEXT, "ref": TEXT}}
SCHEMA = {
    "type": "object",
    "properties": {
        "customers": _collection({"customer_id": TEXT, "balance": NUM}),
        "invoices": _collection(
            {
                "invoice_id": TEXT,
                "customer_id": {**TEXT, "x-references": "customers"},
                "paid": NUM,
                "history": {"type": "array", "items": ENTRY},
            }
        ),
        "payments": _collection(
            {
                "payment_id": TEXT,
                "invoice_id": {**TEXT, "x-references": "invoices"},
                "customer_id": {**TEXT, "x-references": "customers"},
                "amount": NUM,
            }
        ),
    },
}
STATE = {
    "customers": {"C1": {"customer_id": "C1", "balance": 120.0}, "C2": {"customer_id": "C2", "balance": 40.0}},
    "invoices": {
        "I1": {"invoice_id": "I1", "customer_id": "C1", "paid": 0.0, "history": []},
        "I2": {"invoice_id": "I2", "customer_id": "C2", "paid": 10.0, "history": []},
        "I3": {"invoice_id": "I3", "customer_id": "C1", "paid": 5.0, "history": []},
    },
    "payments": {
        "P-1": {"payment_id": "P-1", "invoice_id": "I2", "customer_id": "C2", "amount": 10.0},
        "P-2": {"payment_id": "P-2", "invoice_id": "I3", "customer_id": "C1", "amount": 5.0},
        "P-3": {"payment_id": "P-3", "invoice_id": "I1", "customer_id": "C1", "amount": 0.0},
    },
}
PARAMS = {
    "type": "object",
    "properties": {"invoice_id": TEXT, "amount": NUM},
    "required": ["invoice_id", "amount"],
}
PAY = ToolSpec(
    "record_payment",
    "Records a payment against an invoice.\n\nEffects: a payment record is created with the next `P-` id and the "
    "invoice's customer; the invoice's `paid` increases by the amount; the customer's `balance` decreases by the "
    'amount; and a `history` entry `{"on": today, "kind": "payment", "ref": <payment_id>}` is appended to the '
    "invoice.",
    PARAMS,
)


def test_an_entry_written_in_full_goes_to_the_record_the_new_one_links_to() -> None:
    effects = literal_linked_entries(PAY.description, "payments", SCHEMA, PARAMS, "2030-02-01")
    assert effects == [
        {
            "op": "ref_append",
            "collection": "invoices",
            "via": "invoice_id",
            "field": "history",
            "items": [
                {
                    "fields": {
                        "on": {"from": "const", "value": "2030-02-01"},
                        "kind": {"from": "const", "value": "payment"},
                        "ref": {"from": "record", "path": ["payment_id"]},
                    }
                }
            ],
        }
    ]
    other = 'Appends `{"on": today, "kind": "payment"}` to the invoice\'s history.'
    assert literal_linked_entries(other, "payments", SCHEMA, PARAMS, "2030-02-01")[0]["field"] == "history"
    unknown = 'A `history` entry `{"on": today}` is appended to the ledger.'  # no such collection
    assert literal_linked_entries(unknown, "payments", SCHEMA, PARAMS, "2030-02-01") == []
    no_list = 'A `notes` entry `{"on": today}` is appended to the invoice.'  # invoices hold no `notes` list
    assert literal_linked_entries(no_list, "payments", SCHEMA, PARAMS, "2030-02-01") == []


def test_the_payment_moves_both_records_and_logs_on_the_invoice() -> None:
    plan = ToolPlan(
        kind="create",
        collection="payments",
        key_field="payment_id",
        fields=["invoice_id", "amount"],
        id_type="pattern",
        key_format={"prefix": "P-", "digits": 1},
    )
    refined = refine_create(PAY, plan, SCHEMA, PAY.description, "2030-02-01", STATE)
    ops = [e["op"] for e in refined.effects]
    assert "copied" in ops and ops.count("adjust") == 2 and "ref_append" in ops
    after = copy.deepcopy(STATE)
    after["payments"]["P-4"] = {"payment_id": "P-4", "invoice_id": "I3", "customer_id": "C1", "amount": 25.0}
    after["invoices"]["I3"]["paid"] = 30.0
    after["invoices"]["I3"]["history"] = [{"on": "2030-02-01", "kind": "payment", "ref": "P-4"}]
    after["customers"]["C1"]["balance"] = 95.0
    case = Case(PAY.name, "x", STATE, {"invoice_id": "I3", "amount": 25.0}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(render_tool(PAY, refined, SCHEMA), PAY.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1
