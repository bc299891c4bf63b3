"""Numbers a call moves, read from the docs: "the sailor's voyages_out goes up by 1", "the balance goes down by the
amount", "adds one to the harbour master's `boats_checked`".

A sentence naming a number field (by its name, spaced or not, or by its last word when that names one number
field only) moves it when it says which way and by how much: "goes up / increases / rises by", "added to", "adds"
(+); "goes down / decreases / drops by", "subtracted / deducted from" (-); by 1 ("1", "one") or by a number
parameter the sentence names, or by a rate of one of the call's record's numbers ("earns 2 points per whole mile of
the miles": rounded down to whole units first). The field is the call's own record's, else that of a record the
call's record references (`member_id` -> members). Each becomes an `adjust` effect (recorded_update).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap
from synth.words import plural, singular

UP = re.compile(
    r"\b(goes up|go up|increases?|is increased|rises?) by\b|\badded to\b|\badds?\b|\brefunds?\b|\brefunded\b"
    r"|\b(?:earns?|accrues?|collects?)\b",
    re.IGNORECASE,
)
DOWN = re.compile(
    r"\b(goes down|go down|decreases?|is decreased|drops?|falls?) by\b|\b(subtracted|deducted) from\b|\bdeducts?\b",
    re.IGNORECASE,
)
ONE = re.compile(r"\b(by|adds?|subtracts?)\s+(1|one)\b", re.IGNORECASE)


def _numbers(props: dict[str, Any]) -> list[str]:
    return sorted(f for f, s in props.items() if isinstance(s, dict) and s.get("type") in ("number", "integer"))


def _mention(field: str, fields: list[str]) -> re.Pattern[str]:
    """The field by its name (`voyages_out`, `voyages out`), or by its last word when no other field ends so."""
    names = [field, field.replace("_", " ")]
    words = field.split("_")
    if singular(words[-1]) != words[-1]:  # "one loyalty point" for `loyalty_points`
        names.append(" ".join(words[:-1] + [singular(words[-1])]))
    last = field.split("_")[-1]
    if last != field and sum(f.split("_")[-1] == last for f in fields) == 1:
        names.append(last)
    return re.compile(r"(?<![\w])`?(" + "|".join(re.escape(n) for n in names) + r")`?(?![\w])", re.IGNORECASE)


def _amount(sentence: str, params: dict[str, Any], own: dict[str, Any], moved: str) -> dict[str, Any] | None:
    """The operand of the move: 1, a number parameter the sentence names, else a number field of the call's
    record it names ("refund its full cost")."""
    if ONE.search(sentence):
        return {"const": 1}

    def named(names: list[str]) -> list[str]:
        return [n for n in names if re.search(rf"\b{re.escape(n.replace('_', ' '))}\b", sentence, re.IGNORECASE)]

    numeric = [p for p, s in params.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")]
    if len(named(numeric)) == 1:
        return {"arg": named(numeric)[0]}
    fields = [f for f in _numbers(own) if f != moved]
    return {"path": [named(fields)[0]]} if len(named(fields)) == 1 else None


PER_UNIT = re.compile(
    r"\b(?P<rate>one|a|an|\d+(?:\.\d+)?)\s+(?:[\w-]+\s+){0,3}?per\s+(?P<whole>whole\s+)?[\w-]+\s+(?:of|in|spent\s+on)\s+"
    r"(?:the\s+)?(?:\w+['\u2019]s\s+)?(?P<field>\w+)",
    re.IGNORECASE,
)


def _per_unit(sentence: str, own: dict[str, Any], moved: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """("one point per whole euro of the total"): the call's record's number times the rate, rounded down when the
    docs count whole units or say so; (None, {}) when the sentence gives no such rate."""
    m = PER_UNIT.search(sentence)
    if m is None or m.group("field") not in _numbers(own) or m.group("field") == moved:
        return None, {}
    rate = m.group("rate").lower()
    extras: dict[str, Any] = {
        "times": 1 if rate in ("one", "a", "an") else int(rate) if rate.isdigit() else float(rate)
    }
    if m.group("whole") or re.search(r"\brounded\s+down\b", sentence, re.IGNORECASE):
        extras["floor"] = True
    return {"path": [m.group("field")]}, extras


EARLIER = re.compile(r"\b(previous|old|former|current|existing)\b", re.IGNORECASE)
NEGATED = re.compile(r"\b(not|never|no longer)\b", re.IGNORECASE)


def _about_another_action(sentence: str, name_words: list[str]) -> bool:
    """A sentence opening with a gerund of another verb than the tool's ("Cancelling refunds ...")."""
    first = re.match(r"\W*([A-Za-z]+ing)\b", sentence)
    if not first or not name_words:
        return False
    stem = first.group(1).lower()[:-3]
    return not any(stem.startswith(w[:4]) or w.startswith(stem[:4]) for w in name_words if len(w) >= 3)


def docs_counters(
    text: str,
    collection: str,
    key_param: str,
    schema: dict[str, Any],
    params: dict[str, Any],
    name_words: list[str] | None = None,
) -> list[dict[str, Any]]:
    """`adjust` effects for the number fields the text says the call moves (not in negated sentences, nor in those
    about another action)."""
    cols = schema.get("properties") or {}
    own = ((cols.get(collection) or {}).get("additionalProperties") or {}).get("properties") or {}
    targets: list[tuple[str, str | None, str, list[str]]] = []  # (collection, reference field, field, fields)
    for field in _numbers(own):
        targets.append((collection, None, field, _numbers(own)))
    for ref in sorted(f for f in own if f.endswith("_id") and f != key_param):
        other = plural(ref[:-3])
        theirs = ((cols.get(other) or {}).get("additionalProperties") or {}).get("properties") or {}
        for field in _numbers(theirs):
            targets.append((other, ref, field, _numbers(theirs)))
    out: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.!?;])\s+|\n|,\s+(?=and\b|the\b)|\s+and\s+(?=(?:a|an|the)\b)", unwrap(text)):
        if NEGATED.search(sentence) or _about_another_action(sentence, name_words or []):
            continue
        for col, ref, field, fields in targets:
            if ref is None:
                head = [{"from": "arg", "name": key_param}]
            elif ref in params and not EARLIER.search(sentence):  # a link the call sets: the record it now names
                head = [{"from": "arg", "name": ref}]
            else:  # the record the stored link names ("the previous owner's count")
                head = [{"from": "record", "path": [ref]}]
            if not _mention(field, fields).search(sentence) or any(
                e["collection"] == col and e["path"][:-1] == head and e["path"][-1]["value"] == field for e in out
            ):
                continue
            up, down = UP.search(sentence), DOWN.search(sentence)
            per, extras = _per_unit(sentence, own, field)
            amount = per or _amount(sentence, params, own, field)
            if bool(up) == bool(down) or amount is None:
                continue
            delta = {"plus": [amount], **extras} if up else {"minus": [amount], **extras}
            path = head + [{"from": "const", "value": field}]
            out.append({"op": "adjust", "collection": col, "path": path, "delta": {"from": "expr", "expr": delta}})
    return out


SHORT = re.compile(
    r"\b(insufficient|not enough|must cover|cannot cover|can(?:not|'t) afford|exceeds?|(?:lower|less) than)\b", re.I
)


def covered(counters: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """`enough` checks for the numbers the call takes from a balance, when the docs say a short balance refuses it
    ("insufficient fuel budget", "the budget must cover the fee")."""
    out = []
    for e in counters:
        minus = e["delta"]["expr"].get("minus") or []
        field = e["path"][-1]["value"]
        if len(minus) != 1 or e["delta"]["expr"].get("plus") or not SHORT.search(text):
            continue
        head = e["path"][:-1]
        out.append(
            {"op": "enough", "collection": e["collection"], "path": head, "field": field, "amount": {"plus": minus}}
        )
    return out


__all__ = ["covered", "docs_counters"]
