"""A new record's number read from a rate table the docs give in prose, keyed by a field of a record it names:
"Chits cost 12 tokens for bronze clubs, 8 for silver and 0 for gold" -> the new record's one unset number is 12, 8
or 0 by the `tier` of the club its `club_id` names.

A table is a sentence whose clauses (split at commas, semicolons, colons and "and") each hold exactly one known
value of one text field of a linked record (its `enum` or the data's values) and exactly one number; it needs two
such clauses or more, and every value of that field the sentence names must have its number. The field it fills
is the new record's one number that nothing else sets, or the one the sentence names. Each table becomes a
`tabled` create effect {field, via, collection, key, values}.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap

NUMBER = re.compile(r"(?<![\w.-])(\d+(?:\.\d+)?)(?!\w|\.\d)")


def _known(schema: Any) -> list[str]:
    return [str(v) for v in ((schema or {}).get("enum") or (schema or {}).get("x-enum") or [])] if schema else []


def _table(sentence: str, values: list[str]) -> dict[str, float | int] | None:
    """{value: number} when the sentence pairs two or more of the values with one number each, and all it names."""
    named = [v for v in values if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", sentence, re.IGNORECASE)]
    if len(named) < 2:
        return None
    out: dict[str, float | int] = {}
    for clause in re.split(r"[,;:]\s*|\s+and\s+", sentence):
        here = [v for v in named if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", clause, re.IGNORECASE)]
        numbers = NUMBER.findall(clause)
        if len(here) == 1 and len(numbers) == 1 and here[0] not in out:
            out[here[0]] = float(numbers[0]) if "." in numbers[0] else int(numbers[0])
    return out if len(out) >= 2 and set(out) == set(named) else None


def rate_tables(
    text: str,
    own: dict[str, Any],
    links: dict[str, str],
    cols: dict[str, Any],
    unset: list[str],
) -> list[dict[str, Any]]:
    """`tabled` effects for the new record's numbers in `unset` (not parameters, nothing else sets them) that a
    prose table gives by a field of a record the new record names (`links`: its field -> the collection). Rows of
    a pipe table are not read: which column keys them is in a header this reading does not see."""
    numbers = [f for f in unset if isinstance(own.get(f), dict) and own[f].get("type") in ("number", "integer")]
    out: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n", unwrap(text)):
        if sentence.count("|") >= 2:
            continue  # a row of a pipe table: its columns are not read here
        found = []
        for via, col in sorted(links.items()):
            theirs = ((cols.get(col) or {}).get("additionalProperties") or {}).get("properties") or {}
            for key, schema in sorted(theirs.items()):
                values = _known(schema) if isinstance(schema, dict) and schema.get("type") == "string" else []
                table = _table(sentence, values) if len(values) >= 2 else None
                if table:
                    found.append((via, col, key, table))
        if len(found) != 1:
            continue
        named = [f for f in numbers if re.search(rf"\b{re.escape(f.replace('_', ' '))}\b", sentence, re.I)]
        field = named[0] if len(named) == 1 else numbers[0] if len(numbers) == 1 else None
        if field is None or any(e["field"] == field for e in out):
            continue
        via, col, key, table = found[0]
        if own[field].get("type") == "number":  # a decimal field keeps decimals ("25" -> 25.0)
            table = {k: float(v) for k, v in table.items()}
        out.append({"op": "tabled", "field": field, "via": via, "collection": col, "key": key, "values": table})
    return out


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """(header cells, rows of as many cells below it, rule rows left out) for each pipe-table row taken as a
    header."""
    rows = [_cells(line) for line in text.split("\n") if line.count("|") >= 2]
    out = []
    for at, header in enumerate(rows):
        body = [r for r in rows[at + 1 :] if len(r) == len(header) and not re.fullmatch(r":?-{3,}:?", r[0])]
        out.append((header, body))
    return out


def listed_values(schema: Any) -> list[str]:
    """The values a parameter takes: its enum, else the backticked words its description lists."""
    return _known(schema) or re.findall(r"`([\w-]+)`", str((schema or {}).get("description") or ""))


def column_tables(text: str, params: dict[str, Any], own: dict[str, Any], unset: list[str]) -> list[dict[str, Any]]:
    """`tabled` effects {field, arg, values} for a pipe table with a row per value of a parameter (its first cell)
    and a column headed by one of the new record's unset numbers ("kiln | allowed when | fee (charged on firing)":
    the new record's `fee` by the `kiln` argument)."""
    out: list[dict[str, Any]] = []
    for header, body in _tables(text):
        keys = [r[0].strip("`") for r in body]
        for p, schema in sorted(params.items()):
            values = listed_values(schema) if isinstance(schema, dict) else []
            known = [k for k in keys if k in values]
            if len(known) < 2 or len(set(known)) != len(known) or set(values) - set(known):
                continue
            for column, head in enumerate(header[1:], start=1):
                said = set(re.findall(r"[a-z]+", head.lower()))
                fields = [
                    f
                    for f in unset
                    if set(f.split("_")) <= said and (own.get(f) or {}).get("type") in ("number", "integer")
                ]
                numbers = [NUMBER.findall(r[column]) for r in body if r[0].strip("`") in known]
                if len(fields) != 1 or any(len(n) != 1 for n in numbers) or any(e["field"] == fields[0] for e in out):
                    continue
                kind = float if own[fields[0]].get("type") == "number" else int
                table = {k: kind(float(n[0])) for k, n in zip(known, numbers)}
                out.append({"op": "tabled", "field": fields[0], "arg": p, "values": table})
    return out


DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*(minutes?|mins?|m|hours?|hrs?|h|days?|d)$", re.I)
MINUTES = {"m": 1, "h": 60, "d": 1440}
DUE_WORDS = {"due", "at", "on", "by", "date", "time", "deadline", "until"}


def _minutes(cell: str) -> int | None:
    """Minutes in a duration cell ("1 h", "24 hours", "3 days", "90 min"), or None."""
    m = DURATION.match(cell.strip().strip("`"))
    return round(float(m.group(1)) * MINUTES[m.group(2)[0].lower()]) if m else None


def later_tables(
    text: str, params: dict[str, Any], own: dict[str, Any], unset: list[str], made: str | None
) -> list[dict[str, Any]]:
    """`tabled_later` effects {field, arg, minutes, base} for a pipe table with a row per value of a parameter and a
    column of durations headed by the words of one of the new record's unset timestamp fields ("level | answer
    within | ... " with rows "`T1` | 1 h": the new record's `answer_due` is its making (`made`, a field stamped
    with the business moment) plus that many hours, by the `level` argument or the value the record took)."""
    from synth.envsynth.business_dates import moment_field

    if not made:
        return []
    out: list[dict[str, Any]] = []
    timed = [f for f in unset if moment_field(own.get(f))]
    for header, body in _tables(text):
        known = [r[0].strip("`") for r in body]  # every row: a range (`T1`-`T3`) names only its ends
        for p, schema in sorted(params.items()):
            values = listed_values(schema) if isinstance(schema, dict) else []
            if len(known) < 2 or len(set(known)) != len(known) or len(values) < 2 or set(values) - set(known):
                continue
            for column, head in enumerate(header[1:], start=1):
                said = set(re.findall(r"[a-z]+", head.lower()))
                fields = [f for f in timed if set(f.split("_")) - DUE_WORDS and set(f.split("_")) - DUE_WORDS <= said]
                spans = {r[0].strip("`"): _minutes(r[column]) for r in body if r[0].strip("`") in known}
                if len(fields) != 1 or None in spans.values() or any(e["field"] == fields[0] for e in out):
                    continue
                out.append({"op": "tabled_later", "field": fields[0], "arg": p, "minutes": spans, "base": made})
    return out


ARROW_PAIR = re.compile(  # "`hull` and `rig` -> `yard`", "`sail` → `loft`"
    r"((?:`[\w-]+`\s*(?:,\s*|\s+and\s+|\s+or\s+)?)+)\s*(?:→|->|=>)\s*`([\w-]+)`"
)


def arrow_tables(text: str, params: dict[str, Any], own: dict[str, Any], unset: list[str]) -> list[dict[str, Any]]:
    """`tabled` effects {field, arg, values} for a sentence that sends each value a parameter lists to a value of
    one of the new record's unset text fields ("Kinds route repairs to sheds: `hull` and `rig` -> `yard`,
    `sail` -> `loft`": the new record's `shed`, whose stored values are yard and loft, by the `kind` argument).
    Every value of the parameter must be sent somewhere, and the sent-to values must all be the field's."""
    out: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n", unwrap(text)):
        pairs = [(re.findall(r"`([\w-]+)`", m.group(1)), m.group(2)) for m in ARROW_PAIR.finditer(sentence)]
        if len(pairs) < 2:
            continue
        table = {left: right for lefts, right in pairs for left in lefts}
        args = [p for p, sc in sorted(params.items()) if isinstance(sc, dict) and set(listed_values(sc)) == set(table)]
        sent = set(table.values())
        fields = [
            f
            for f in unset
            if (own.get(f) or {}).get("type") == "string"
            and len(_known(own.get(f))) >= 2
            and sent <= set(_known(own[f]))
        ]
        if len(args) == 1 and len(fields) == 1 and all(e["field"] != fields[0] for e in out):
            out.append({"op": "tabled", "field": fields[0], "arg": args[0], "values": table})
    return out


__all__ = ["arrow_tables", "column_tables", "later_tables", "listed_values", "rate_tables"]
