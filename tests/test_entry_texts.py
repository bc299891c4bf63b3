"""Logged entries' free text learned from the sample data (a ferry line's sailings): a `boarded` note "12 cars on
deck D2" is "<cars> cars on deck <deck>" of its record, a `cabin_added` note names the added cabin's code and fee
with two decimals, a figure every sample shares stays literal ("swell 3/3") unless the word before it names its
field ("tide 3/3": the `tide`), a fixed text stands while a value is unset ("self-steered", else "piloted by AK"),
and nothing is learned from one entry or from texts no record explains."""

from __future__ import annotations

from synth.envsynth.docs_entries import named_entries
from synth.envsynth.entry_texts import learned_text


def _sailing(key: str, cars: int, deck: str, cabins: list[tuple[str, float]]) -> dict:
    return {
        "sailing_id": key,
        "cars": cars,
        "deck": deck,
        "nights": 2,
        "tide": 3,
        "cabins": [{"code": c, "fee": f} for c, f in cabins],
    }


SAILINGS = [
    _sailing("F1", 12, "D2", [("C-7", 40.0)]),
    _sailing("F2", 30, "D1", [("C-2", 55.5), ("C-9", 40.0)]),
    _sailing("F3", 7, "D3", []),
]


def test_a_note_written_from_the_records_values() -> None:
    samples = [(f"{s['cars']} cars on deck {s['deck']}", s, []) for s in SAILINGS]
    assert learned_text(samples) == {
        "from": "concat",
        "parts": [{"from": "record", "path": ["cars"]}, " cars on deck ", {"from": "record", "path": ["deck"]}],
    }


def test_a_note_naming_the_added_element_with_two_decimals() -> None:
    samples = [
        ("C-7 added, 40.00 for 2 night(s)", SAILINGS[0], SAILINGS[0]["cabins"]),
        ("C-9 added, 40.00 for 2 night(s)", SAILINGS[1], SAILINGS[1]["cabins"]),
        ("C-2 added, 55.50 for 2 night(s)", SAILINGS[1], SAILINGS[1]["cabins"]),
    ]
    assert learned_text(samples) == {
        "from": "concat",
        "parts": [
            {"from": "new_element", "field": "code"},
            " added, ",
            {"from": "fixed", "of": {"from": "new_element", "field": "fee"}, "decimals": 2},
            " for 2 night(s)",  # every sailing here lasts 2 nights: the sample cannot tell it from a literal
        ],
    }


def test_a_figure_all_samples_share_stays_literal_unless_its_word_names_it() -> None:
    samples = [(f"{s['cars']} cars, swell 3/3", s, []) for s in SAILINGS]
    found = learned_text(samples)
    assert found == {"from": "concat", "parts": [{"from": "record", "path": ["cars"]}, " cars, swell 3/3"]}
    samples = [(f"{s['cars']} cars, tide 3/3", s, []) for s in SAILINGS]  # "tide 3": the `tide` every one holds
    found = learned_text(samples)
    tide = {"from": "record", "path": ["tide"]}
    assert found == {"from": "concat", "parts": [{"from": "record", "path": ["cars"]}, " cars, tide ", tide, "/3"]}


def test_a_fixed_text_while_a_value_is_unset_else_a_template_showing_it() -> None:
    crews = [{"sailing_id": f"F{i}", "pilot": p} for i, p in enumerate(["AK", None, "JT", None])]
    samples = [(f"piloted by {c['pilot']}" if c["pilot"] else "self-steered", c, []) for c in crews]
    assert learned_text(samples) == {
        "from": "given",
        "test": {"from": "record", "path": ["pilot"]},
        "then": {"from": "concat", "parts": ["piloted by ", {"from": "record", "path": ["pilot"]}]},
        "else": "self-steered",
    }
    crews[1]["pilot"] = "RB"  # a pilot on record, yet the fixed text: no such rule
    samples = [(t, c, []) for (t, _, _), c in zip(samples, crews)]
    assert learned_text(samples) is None


def test_the_logged_elements_value_chooses_too_and_a_tail_shows_only_when_given() -> None:
    # the element is what the call was given: a pilot's initials, or none
    rows = [("piloted by AK", SAILINGS[0], [{"pilot": "AK"}]), ("self-steered", SAILINGS[1], [{}])]
    rows += [("piloted by JT", SAILINGS[2], [{"pilot": "JT"}])]
    pilot = {"from": "new_element", "field": "pilot"}
    assert learned_text(rows) == {
        "from": "given",
        "test": pilot,
        "then": {"from": "concat", "parts": ["piloted by ", pilot]},
        "else": "self-steered",
    }
    rows = [("to Q7", SAILINGS[0], [{"berth": "Q7"}]), ("to Q1 (tug T4)", SAILINGS[1], [{"berth": "Q1", "tug": "T4"}])]
    berth, tug = {"from": "new_element", "field": "berth"}, {"from": "new_element", "field": "tug"}
    tail = {"from": "concat", "parts": [" (tug ", tug, ")"]}
    assert learned_text(rows) == {
        "from": "concat",
        "parts": ["to ", berth, {"from": "given", "test": tug, "then": tail, "else": ""}],
    }


def test_one_entry_reads_only_one_way_and_unexplained_texts_give_nothing() -> None:
    once = learned_text([("12 cars on deck D2", SAILINGS[0], [])])
    assert once == {
        "from": "concat",
        "parts": [{"from": "record", "path": ["cars"]}, " cars on deck ", {"from": "record", "path": ["deck"]}],
    }
    crowded = {**SAILINGS[0], "crew": 12}  # the 12 is the cars or the crew: one entry cannot tell
    assert learned_text([("12 cars on deck D2", crowded, [])]) is None
    samples = [("rough crossing", SAILINGS[0], []), ("calm crossing", SAILINGS[1], [])]
    assert learned_text(samples) is None


def test_a_named_entry_takes_the_learned_note() -> None:
    records = []
    for s in SAILINGS:
        log = [{"event": "boarded", "note": f"{s['cars']} cars on deck {s['deck']}"}]
        records.append({**s, "log": log})
    event = {"type": "string", "x-enum": ["boarded", "docked"]}
    props = {"log": {"type": "array", "items": {"type": "object", "properties": {"event": event}}}}
    text = 'Boards the sailing; a "boarded" log entry is written.'
    found = named_entries(text, "sailing", props, {"properties": {"sailing_id": {"type": "string"}}}, records, None)
    assert found == [
        {
            "op": "append",
            "field": "log",
            "items": [
                {
                    "fields": {
                        "event": {"from": "const", "value": "boarded"},
                        "note": {
                            "from": "concat",
                            "parts": [
                                {"from": "record", "path": ["cars"]},
                                " cars on deck ",
                                {"from": "record", "path": ["deck"]},
                            ],
                        },
                    }
                }
            ],
        }
    ]
