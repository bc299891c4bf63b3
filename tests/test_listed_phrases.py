"""A read's plain-words list of what it returns names one linked record's field ("sailing date": the `date` of the
voyage the charter names), and a summary's undescribed state borrows the words of the same field in a sibling's
answer schema: both read, and quiet where the words do not fit."""

from __future__ import annotations

from synth.envsynth.envelope import with_envelope
from synth.envsynth.listed_phrases import linked_phrase_fields
from synth.envsynth.plan import ToolPlan
from synth.envsynth.schema_figures import schema_figure
from synth.spec import ToolSpec
from tests.schemas import collection

S, INT = {"type": "string"}, {"type": "integer"}
CHARTER = {"charter_id": S, "crew": INT, "berth": S, "status": S, "history": {"type": "array"}}
CHARTER |= {"voyage_id": {"type": "string", "x-references": "voyages"}, "skipper_id": S}
VOYAGE = {"voyage_id": S, "date": {"type": "string", "format": "date"}, "harbour": S}
COLS = {"charters": collection(CHARTER), "voyages": collection(VOYAGE), "skippers": collection({"skipper_id": S})}
GET = "Get a charter with its crew, berth (numbered), status, sailing date and history.\n\nStatuses: held, sailing."


def test_the_one_phrase_no_own_field_names_is_the_linked_records_field() -> None:
    found = linked_phrase_fields(GET, "charters", COLS)
    assert found == {"sailing_date": {"op": "eq", "via": "voyage_id", "collection": "voyages", "path": ["date"]}}


def test_prose_that_is_not_a_list_of_the_records_fields_reads_as_nothing() -> None:
    assert linked_phrase_fields("Get a charter with its crew, departure harbour, sailing date.", "charters", COLS) == {}
    assert linked_phrase_fields("Get a skipper with its crew, status, sailing date.", "charters", COLS) == {}
    assert linked_phrase_fields("Get a charter with its crew and sailing date.", "charters", COLS) == {}  # two only
    assert linked_phrase_fields("Get a charter with its crew, status, sailing time.", "charters", COLS) == {}


def test_two_links_holding_the_field_read_as_nothing() -> None:
    cols = dict(COLS)
    both = CHARTER | {"skipper_id": {"type": "string", "x-references": "skippers"}}
    cols["charters"] = collection(both)
    cols["skippers"] = collection({"skipper_id": S, "date": {"type": "string", "format": "date"}})
    assert linked_phrase_fields(GET, "charters", cols) == {}


def test_the_get_plan_answers_the_record_and_the_linked_field() -> None:
    spec = ToolSpec(name="get_charter", description=GET, parameters={"type": "object", "properties": {"charter_id": S}})
    plan = ToolPlan(kind="get", collection="charters", key_field="charter_id", key_param="charter_id")
    shaped = with_envelope(spec, plan, {"type": "object", "properties": COLS})
    assert set(shaped.output_fields) == set(CHARTER) | {"sailing_date"}
    assert shaped.output_map == {"sailing_date": linked_phrase_fields(GET, "charters", COLS)["sailing_date"]}


def _lister(name: str, state: dict) -> ToolSpec:
    returns = {"type": "object", "properties": {"skipper_id": S, "licence_state": state}}
    return ToolSpec(name=name, description="", parameters={"type": "object", "properties": {}}, returns=returns)


def test_a_summarys_state_borrows_the_siblings_words_for_the_same_values() -> None:
    plain = {"type": "string", "enum": ["valid", "expired"]}
    said = plain | {"description": "Computed from licence_until and today's date."}
    own = {"skipper_id": S, "licence_until": {"type": "string", "format": "date"}}
    summary, full = _lister("find_skippers", plain), _lister("get_skipper", said)
    rule = {"op": "date_state", "path": ["licence_until"], "passed": "expired", "else": "valid", "today": "2031-04-02"}
    assert schema_figure("licence_state", summary, own, "2031-04-02") is None
    assert schema_figure("licence_state", summary, own, "2031-04-02", (full,)) == rule
    other_values = _lister("get_skipper", said | {"enum": ["valid", "expired", "void"]})
    assert schema_figure("licence_state", summary, own, "2031-04-02", (other_values,)) is None


def test_a_phrase_saying_how_the_record_is_found_is_no_field() -> None:
    assert (
        linked_phrase_fields("Returns a charter with its crew, status and history, by voyage date.", "charters", COLS)
        == {}
    )
