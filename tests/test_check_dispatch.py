"""A check whose op no runtime reads is an error, not a silent pass: a rule added to a plan but never dispatched
(missing from list_runtime.FG_LIST_RULES, say) would otherwise let every call through."""

from __future__ import annotations

import pytest

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.list_runtime import FG_LIST_RULES


def test_an_unknown_check_op_raises() -> None:
    with pytest.raises(ValueError, match="unknown check op 'no_such_rule'"):
        fg_check({"op": "no_such_rule"}, {}, {}, {})


def test_a_listed_rule_is_dispatched() -> None:
    assert "none_stored" in FG_LIST_RULES
    check = {"op": "none_stored", "collection": "charters", "match": {"boat_id": {"arg": "boat_id"}}, "where": {}}
    stored = {"charters": {"C1": {"boat_id": "B1"}}}
    assert fg_check(check, {"boat_id": "B2"}, {}, stored) is True
    assert fg_check(check, {"boat_id": "B1"}, {}, stored) is False
