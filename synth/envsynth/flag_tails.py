"""An entry text with a tail written only while a yes/no field of its record is true, learned from the sample data:
"launched for DK-101" / "launched for DK-101; spare HL-402 fitted for HL-401", where the records written with the
tail hold `swapped: true`. The head is one template every text shares (entry_texts); the tail's values may come from
the record, from the first entry of one of its lists (`lines/0/hull_id`), or from the record one of its fields
links in the sample state (the `hull_id` of the docket its `docket_id` names: a `linked` source), and one tail
template must write every such sample's tail exactly.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from synth.envsynth.entry_texts import Source, _context, _one_template, _placeholder, _render, _single_template, _spans

MAX_READINGS = 64  # combinations of the tail's readings tried


def _wider(record: dict[str, Any], state: dict[str, Any]) -> list[tuple[Source, Any]]:
    """What the entry may show: the record's own values, its lists' first entries', its linked records'."""
    out = _context(record, None)
    for name, value in sorted(record.items()):
        if isinstance(value, list) and value and isinstance(value[0], dict):
            out += [({"from": "record", "path": [name, 0, k]}, v) for k, v in sorted(value[0].items())]
        if not isinstance(value, str):
            continue
        for col, records in sorted(state.items()):
            linked = records.get(value) if isinstance(records, dict) else None
            if isinstance(linked, dict) and linked is not record:
                out += [
                    ({"from": "linked", "collection": col, "via": name, "field": k}, v)
                    for k, v in sorted(linked.items())
                    if not isinstance(v, (dict, list))
                ]
    return [(s, v) for s, v in out if not isinstance(v, (dict, list))]


def _tail(tails: list[tuple[str, list[tuple[Source, Any]]]]) -> list[Any] | None:
    """The parts writing every tail from its own context: each stretch a value writes in the first tail is a
    value or kept literal, the first combination that writes all of them winning."""
    text, context = tails[0]
    spans = _spans(text, context)
    choices = [[*readings, None] for _, _, readings in spans]
    tried = 0
    for picked in product(*choices):
        tried += 1
        if tried > MAX_READINGS:
            return None
        if all(p is None for p in picked):
            continue
        parts: list[Any] = []
        at = 0
        for (start, end, _), reading in zip(spans, picked):
            parts += ([text[at:start]] if start > at else []) + [
                text[start:end] if reading is None else _placeholder(*reading)
            ]
            at = end
        parts += [text[at:]] if at < len(text) else []
        if all(_render(parts, ctx) == t for t, ctx in tails):
            return parts
    return None


def flag_tail(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]], state: dict[str, Any]) -> Source | None:
    """A `concat` source: the head every text shares, then a tail only while a yes/no field is true; or None."""
    flags = sorted({k for _, r, _ in samples for k, v in r.items() if isinstance(v, bool)})
    for flag in flags:
        plain = [s for s in samples if s[1].get(flag) is not True]
        rest = [s for s in samples if s[1].get(flag) is True]
        if not plain or not rest:
            continue
        head = _one_template(plain) if len(plain) >= 2 else _single_template(plain[0])
        if head is None:
            continue
        tails = []
        for text, record, _ in rest:
            shown = _render(head["parts"], _context(record, None))
            if shown is None or not text.startswith(shown) or text == shown:
                break
            tails.append((text[len(shown) :], _wider(record, state)))
        else:
            parts = _tail(tails)
            if parts is not None:
                then = {"from": "concat", "parts": parts}
                return {
                    **head,
                    "parts": [
                        *head["parts"],
                        {"from": "flag", "test": {"from": "record", "path": [flag]}, "then": then},
                    ],
                }
    return None


__all__ = ["flag_tail"]
