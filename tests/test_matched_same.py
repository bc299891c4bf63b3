"""An argument that must equal a value on file: "the code must equal the mooring's `gate_code`" (the record's own
field) is a `same` check and is not kept on the record; a happy-path test gives the value on file."""

from __future__ import annotations

import random

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.matched_params import matching_checks
from synth.envsynth.testgen import _required_values
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
SCHEMA = {"type": "object", "properties": {"moorings": collection({"mooring_id": S, "gate_code": S, "code": S})}}
PARAMS = {"mooring_id": S, "code": S}
TEXT = "Opens the gate of a mooring. The code must equal the mooring's `gate_code` (case-insensitive)."


def test_an_argument_that_must_equal_the_records_own_field() -> None:
    checks, used = matching_checks(TEXT, PARAMS, "moorings", SCHEMA)
    assert used == {"code"} and checks == [
        {
            "op": "same",
            "a": {"from": "arg", "name": "code"},
            "b": {"from": "record", "path": ["gate_code"]},
            "caseless": True,
        }
    ]
    assert fg_check(checks[0], {"code": "ab12"}, {"gate_code": "AB12"}, {})
    assert not fg_check(checks[0], {"code": "AB13"}, {"gate_code": "AB12"}, {})
    kept = matching_checks("Opens the gate. The code is stored.", PARAMS, "moorings", SCHEMA)
    assert kept == ([], set())  # a parameter the record keeps, no comparison said


def test_a_happy_path_gives_the_value_on_file() -> None:
    state = {"moorings": {"M1": {"mooring_id": "M1", "gate_code": "AB12", "code": ""}}}
    args = {"mooring_id": "M1", "code": "zz"}
    spec = ToolSpec("open_gate", TEXT, {"type": "object", "properties": PARAMS})
    _required_values(spec, state, args, SCHEMA, random.Random(0))
    assert args == {"mooring_id": "M1", "code": "AB12"}
