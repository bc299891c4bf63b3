"""Two readings of a logged text that the sample data alone cannot tell apart from literal words, decided by the
names of the record's fields:

- a clause spelling a yes/no field's name ("..., fee 8.40, fuel returned" where the record holds
  `fuel_returned: true`) is written only while that field is true: every sample that shows the clause holds it
  true, and the words are the field's own, so the text says the flag, not a fixed remark;
- a number that no field holds but that the entries of one of the record's lists add up to ("500 litre(s) drawn"
  where the lines' `quantity` values sum to 500) is that sum, read only when no template of the plain fields writes
  every sample and two samples at least agree on it.

A flag of an object the finished plan never writes cannot change with the call, so its clause is written as the
data wrote it (settled_flags, when the code is rendered).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.expr_runtime import fg_number

Source = dict[str, Any]
SUM = "#sum#"  # a record's list's numbers added up (a key no field has): "<list>#sum#<field>"
LEAD = r"(?:[,;]\s*|\s+-\s+)"  # what sets a clause off: ", fuel returned", "; paid", " - rush"


def _flag_words(source: Source) -> str:
    """The words a yes/no field's name spells ("fuel returned" for `fuel_returned`)."""
    path = source.get("path") or [source.get("field")]
    return re.sub(r"[_\s]+", " ", str(path[-1])).strip()


def flagged_clauses(parts: list[Any], contexts: list[list[tuple[Source, Any]]]) -> list[Any]:
    """The template's parts with each literal clause that spells a yes/no field's name, true in every sample,
    shown only while the field is true (a `flag` part)."""
    flags: dict[str, Source] = {}
    for source, value in contexts[0] if contexts else []:
        if value is True and all(any(repr(s) == repr(source) and v is True for s, v in c) for c in contexts[1:]):
            words = _flag_words(source)
            if len(words) >= 3:
                flags.setdefault(words.lower(), source)
    if not flags:
        return parts
    out: list[Any] = []
    for part in parts:
        if not isinstance(part, str):
            out.append(part)
            continue
        rest = part
        while rest:
            found = None
            for words, source in sorted(flags.items(), key=lambda kv: -len(kv[0])):
                m = re.search(
                    rf"{LEAD}{re.escape(words)}(?=\s*(?:[,;.)]|$))|\s*\(\s*{re.escape(words)}\s*\)", rest, re.I
                )
                if m and (found is None or m.start() < found[0].start()):
                    found = (m, source)
            if found is None:
                out.append(rest)
                break
            m, source = found
            out += [rest[: m.start()]] if m.start() else []
            out.append({"from": "flag", "test": dict(source), "then": {"from": "const", "value": m.group(0)}})
            rest = rest[m.end() :]
    return out


def settled_flags(effects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The effects with each clause shown while a flag of an object the plan never writes holds (`cancellation.
    fuel_returned` where no effect sets `cancellation`) written as the data wrote it: the call cannot set that
    flag, so reading it would drop the clause always."""
    written = {e.get("field") for e in effects if e.get("op") == "set"}

    def settle(node: dict[str, Any]) -> Any:
        test = node.get("test") if node.get("from") == "flag" else None
        path = test.get("path") if isinstance(test, dict) and test.get("from") == "record" else None
        return node["then"] if isinstance(path, list) and len(path) == 2 and path[0] not in written else None

    return [replaced_sources(e, settle) if e.get("op") in ("append", "ref_append") else e for e in effects]


def with_sums(record: dict[str, Any]) -> dict[str, Any]:
    """The record with each number field of its lists' entries added up, under a key no field has."""
    out = dict(record)
    for name, value in record.items():
        if not isinstance(value, list) or not value or not all(isinstance(e, dict) for e in value):
            continue
        fields = sorted({k for e in value for k, v in e.items() if fg_number(v)})
        for field in fields:
            numbers = [e.get(field) for e in value]
            total = sum(numbers) if all(fg_number(n) for n in numbers) else None
            if total is not None and total != len(value):  # as many as the entries: a count, not a sum
                out[f"{name}{SUM}{field}"] = round(total, 6) if isinstance(total, float) else total
    return out


def summed(node: Any) -> Any:
    """The source with each summed list read as the sum of its entries' field (`sum`)."""

    def total(part: dict[str, Any]) -> dict[str, Any] | None:
        path = part.get("path") if part.get("from") == "record" else None
        if isinstance(path, list) and len(path) == 1 and SUM in str(path[0]):
            name, field = str(path[0]).split(SUM, 1)
            return {"from": "sum", "list": name, "field": field}
        return None

    return replaced_sources(node, total)


def replaced_sources(node: Any, swap: Any) -> Any:
    """The source with every part `swap` answers for (not None) replaced by its answer, concat parts too."""
    if isinstance(node, dict):
        found = swap(node)
        return found if found is not None else {k: replaced_sources(v, swap) for k, v in node.items()}
    return [replaced_sources(v, swap) for v in node] if isinstance(node, list) else node


__all__ = ["SUM", "flagged_clauses", "replaced_sources", "settled_flags", "summed", "with_sums"]
