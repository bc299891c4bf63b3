"""The states a change acts on, named in its description's opening sentence (a greenhouse's trays): "Discards a
tray that is `sprouting` or `potted`" allows the change from those states only; a list that holds the state the
call leads to, or a value the records never hold, is not read."""

from __future__ import annotations

from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.spec import ToolSpec
from tests.schemas import collection

STATES = ["seeded", "sprouting", "potted", "discarded"]
SCHEMA = {
    "type": "object",
    "properties": {"trays": collection({"tray_id": {"type": "string"}, "stage": {"type": "string", "x-enum": STATES}})},
}
PARAMS = {"type": "object", "properties": {"tray_id": {"type": "string"}}, "required": ["tray_id"]}
BASE = ToolPlan(kind="update", collection="trays", key_field="tray_id", key_param="tray_id")


def _plan(text: str) -> ToolPlan | None:
    return docs_transition(ToolSpec("discard_tray", text, PARAMS), BASE, SCHEMA, "")


def test_the_opening_sentence_gives_the_states_the_change_acts_on() -> None:
    plan = _plan("Discards a tray that is `sprouting` or `potted`. Its stage becomes `discarded`.")
    assert plan is not None and plan.preconditions == {"stage": ["sprouting", "potted"]}
    listed = _plan(
        "Discards any tray which is currently 'seeded', 'sprouting' or 'potted'. The stage becomes 'discarded'."
    )
    assert listed is not None and listed.preconditions == {"stage": ["seeded", "sprouting", "potted"]}


def test_other_lists_are_not_read_as_states() -> None:
    later = _plan("Discards the tray. Its stage becomes `discarded`. A tray that is `potted` is composted.")
    assert later is not None and later.preconditions == {}  # not the opening sentence
    odd = _plan("Discards a tray that is `wilted` or `potted`. Its stage becomes `discarded`.")
    assert odd is not None and odd.preconditions == {}  # `wilted` is no stage a tray holds
    target = _plan("Discards a tray that is `potted` or `discarded`. Its stage becomes `discarded`.")
    assert target is not None and target.preconditions == {}  # the state it leads to


def test_a_summary_line_may_come_first() -> None:
    plan = _plan("Discard a tray.\n\nDiscards a tray that is `sprouting` or `potted`. Its stage becomes `discarded`.")
    assert plan is not None and plan.preconditions == {"stage": ["sprouting", "potted"]}
