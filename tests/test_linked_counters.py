"""A create whose record links its sender by `sender_id` (an account, not a "senders" collection): "the sender's
`shipments` goes up by 1" moves the account the link names; a number of that account the sentence does not give an
owner for ("the fee is added to total") is left alone."""

from __future__ import annotations

from synth.envsynth.docs_counters import docs_counters
from tests.schemas import collection

S, INT, N = {"type": "string"}, {"type": "integer"}, {"type": "number"}
SCHEMA = {
    "type": "object",
    "properties": {
        "accounts": collection({"account_id": S, "shipments": INT, "fee": N}),
        "parcels": collection(
            {"parcel_id": S, "sender_id": {"type": "string", "x-references": "accounts"}, "total": N, "fee": N}
        ),
    },
}
PARAMS = {"sender_id": S}


def test_the_linked_record_moves_where_the_sentence_names_its_owner() -> None:
    said = "The parcel is booked and the sender's shipments goes up by 1."
    [move] = docs_counters(said, "parcels", "parcel_id", SCHEMA, PARAMS)
    assert move["collection"] == "accounts"
    assert move["path"] == [{"from": "arg", "name": "sender_id"}, {"from": "const", "value": "shipments"}]
    assert (
        docs_counters("The parcel is booked and shipments goes up by 1.", "parcels", "parcel_id", SCHEMA, PARAMS) == []
    )
