"""quote_deadlines: a figure offered only until a named record's date refuses the quote past it (when the line's
condition holds); keyed_tables.sample_states: a text field's states from its sample records (made-up marina domain)."""

from __future__ import annotations

from types import SimpleNamespace

from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.keyed_tables import sample_states
from synth.envsynth.quote_deadlines import deadline_refusals

SCOPE = SimpleNamespace(
    named={"season": "seasons"},
    params={"season": {"type": "string"}, "early_settle": {"type": "boolean"}},
    fields={"season": {"early_settle_deadline": {"type": "string"}, "months": {"type": "integer"}}},
)
LINE = (
    "2% of `fee_subtotal` when `early_settle` is `true`. Only available up to and including the season's "
    "early-settle deadline; after it the figure is refused"
)


def _refused(refusal: dict, deadline: str, early: bool) -> bool:
    named = {"season": {"early_settle_deadline": deadline}}
    return fg_formula(refusal["when"], {"early_settle": early}, named, {}) is True


def test_a_line_past_its_deadline_is_refused_when_its_condition_holds() -> None:
    [refusal] = deadline_refusals([LINE], SCOPE, "2031-03-10")
    assert _refused(refusal, "2031-03-09", True)
    assert not _refused(refusal, "2031-03-10", True)  # up to and including the deadline
    assert not _refused(refusal, "2031-03-09", False)  # the figure is not asked for


def test_a_figure_that_only_drops_after_the_deadline_refuses_nothing() -> None:
    line = "5% of `fee_subtotal`. Only available until the season's early-settle deadline, 0 after it."
    assert deadline_refusals([line], SCOPE, "2031-03-10") == []


def test_before_the_deadline_excludes_the_day_itself() -> None:
    line = LINE.replace("up to and including", "before")
    [refusal] = deadline_refusals([line], SCOPE, "2031-03-10")
    assert _refused(refusal, "2031-03-10", True)
    assert not _refused(refusal, "2031-03-11", True)


def test_no_business_date_or_no_such_field_reads_nothing() -> None:
    assert deadline_refusals([LINE], SCOPE, None) == []
    assert deadline_refusals([LINE.replace("early-settle deadline", "haul-out deadline")], SCOPE, "2031-03-10") == []


def test_a_line_without_a_condition_is_refused_for_every_call() -> None:
    line = "Only available until the season's early-settle deadline; after it the figure is refused."
    [refusal] = deadline_refusals([line], SCOPE, "2031-03-10")
    assert _refused(refusal, "2031-03-01", False)


def test_sample_states_knows_the_values_its_records_hold() -> None:
    cols = {
        "seasons": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {"status": {"type": "string"}, "label": {"type": "string"}},
            },
        }
    }
    sample = {
        "seasons": {
            "S1": {"status": "closed", "label": "Spring 2031"},
            "S2": {"status": "open", "label": "Summer 2031"},
            "S3": {"status": "upcoming", "label": "Autumn 2031"},
        }
    }
    props = sample_states(cols, "seasons", sample)
    assert props["status"]["x-enum"] == ["closed", "open", "upcoming"]
    assert "x-enum" not in props["label"]  # names, not states
