"""The state checks a test case carries are of known kinds: a misspelt one raises instead of passing unchecked."""

from __future__ import annotations

import pytest

from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.tool_tests import check_state


def test_a_state_check_of_no_known_kind_is_an_error_not_a_pass() -> None:
    case = Case("move_visit", "x", {}, {}, state_checks=[{"op": "field_equal", "collection": "visits"}])
    with pytest.raises(ValueError, match="unknown state check 'field_equal'"):
        check_state(case, {}, {})
    known = Case("move_visit", "x", {}, {}, state_checks=[{"op": "unchanged"}])
    assert check_state(known, {"a": 1}, {"a": 2}) == "state changed but the call must not change it"
