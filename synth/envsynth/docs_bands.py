"""A number the docs give in bands of a day count, set on the call's record and moved onto a record it links:

    Refund, by whole days from today's business date to the arrival date, computed on the booking total:
    - 14 days or more: total minus a 10.00 fee (never below 0);
    - 3 to 13 days: 50% of the total;
    - 0 to 2 days: no refund.
    Effects: refund_amount is set, the refund is added to the guest's account_credit.

A band is "N days or more" ("N or more days", "at least / more than N days"), "N to M days" or "fewer than N days";
its value is an amount ("25.00"), a share of the base ("50%", "the full total", "nothing") less a fee ("total minus a
10.00 fee"), never below 0. Two bands or more in a row, with the line before them (or the words before the first)
as their header, make one table. The header names the figure (its first words: "Refund" -> the record's number
field named so, `refund_amount`), the record's date the days are counted to ("to the arrival date": the date minus
the business date) or from ("since the due date": the business date minus the date), and the base ("on the booking
total" -> `total`). A sentence saying the figure is "added to" or "credited to" a number of a record the call's
record names (`guest_id` -> guests) moves that number by it. The figure is the `band` operand of an expression
(expr_runtime.fg_operand), rounded to cents.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.docs_appends import is_number
from synth.envsynth.docs_linked import record_links
from synth.envsynth.figure_terms import spoken
from synth.envsynth.prose import unwrap

DAYS = r"(?:whole\s+|calendar\s+)?days?"
BAND = re.compile(
    rf"\b(?P<lo>\d+)\s*(?:to|-|\u2013|through)\s*(?P<hi>\d+)\s+{DAYS}"
    rf"|\b(?P<up>\d+)\s+(?:or\s+more\s+{DAYS}|{DAYS}\s+or\s+more|{DAYS}\s+and\s+(?:more|over|up)|\+\s*{DAYS})"
    rf"|\b(?:at\s+least|more\s+than|over)\s+(?P<least>\d+)\s+{DAYS}"
    rf"|\b(?:fewer|less)\s+than\s+(?P<below>\d+)\s+{DAYS}",
    re.IGNORECASE,
)
VALUE_END = re.compile(r";|\n|(?<!\d)\.(?!\d)")
SHARE = re.compile(r"(?P<pct>\d+(?:\.\d+)?)\s*%")
NOTHING = re.compile(r"\b(?:no\s+\w+|nothing|none|zero|non-?refundable)\b", re.IGNORECASE)
WHOLE = re.compile(r"\b(?:full|whole|entire|all|total)\b", re.IGNORECASE)
LESS = re.compile(r"\b(?:minus|less|deducting|after)\b\D{0,40}?\$?(?P<n>\d+(?:\.\d+)?)", re.IGNORECASE)
AMOUNT = re.compile(r"^\$?(?P<n>\d+(?:\.\d+)?)\b")
SINCE = re.compile(r"\b(?:since|after|past|from)\s+(?:the|its)\s+$", re.IGNORECASE)
UNTIL = re.compile(r"\b(?:to|until|till|before)\s+(?:the|its)\s+$", re.IGNORECASE)
ADDED = re.compile(r"\b(?:added\s+to|credited\s+to|goes\s+to|put\s+on)\b", re.IGNORECASE)


def _band(m: re.Match[str]) -> tuple[int, int | None]:
    """The band's first and last day (None: no last)."""
    if m.group("lo") is not None:
        return int(m.group("lo")), int(m.group("hi"))
    if m.group("up") is not None:
        return int(m.group("up")), None
    if m.group("least") is not None:
        more = m.group(0).lower().startswith(("more", "over"))
        return int(m.group("least")) + (1 if more else 0), None
    return 0, int(m.group("below")) - 1


def _value(text: str) -> dict[str, Any] | None:
    """A band's value: {"share", "minus"} of the base, or {"amount"}; None when it is none of those."""
    text = re.sub(r"\([^()]*\)", " ", text).strip(" :,-\u2013\u2192\t")
    less = LESS.search(text)
    minus = float(less.group("n")) if less else 0.0
    share = SHARE.search(text)
    if share:
        return {"share": float(share.group("pct")) / 100, "minus": minus}
    if NOTHING.search(text) and not less:
        return {"share": 0.0, "minus": 0.0}
    if WHOLE.search(text) or less:
        return {"share": 1.0, "minus": minus}
    amount = AMOUNT.match(text)
    return {"amount": float(amount.group("n"))} if amount else None


def _tables(text: str) -> list[tuple[str, list[dict[str, Any]], str]]:
    """(header, steps, the text of the values) of every run of two bands or more with a value each."""
    out = []
    found = list(BAND.finditer(text))
    i = 0
    while i < len(found):
        run = [found[i]]
        while i + len(run) < len(found):
            gap = text[run[-1].end() : found[i + len(run)].start()]
            if re.search(r"(?<!\d)\.(?!\d)\s", gap) or len(gap) > 160:
                break
            run.append(found[i + len(run)])
        i += len(run)
        if len(run) < 2:
            continue
        steps, said = [], []
        for k, m in enumerate(run):
            stop = run[k + 1].start() if k + 1 < len(run) else len(text)
            rest = text[m.end() : stop]
            end = VALUE_END.search(rest)
            piece = rest[: end.start()] if end else rest
            value = _value(piece)
            if value is None:
                break
            lo, hi = _band(m)
            steps.append({"lo": lo, "hi": hi, **value})
            said.append(piece)
        if len(steps) != len(run):
            continue
        before = [line for line in text[: run[0].start()].split("\n")]
        head = before[-1].strip(" -*\t")
        if not head and len(before) > 1:
            head = before[-2].strip(" -*\t")
        head = re.split(r"(?<!\d)\.(?!\d)\s+", head)[-1]
        out.append((head, steps, " ".join(said)))
    return out


def _mentioned(fields: list[str], text: str) -> list[str]:
    plain = re.sub(r"\([^()]*\)", " ", text)
    return [f for f in fields if re.search(rf"(?<![\w-])`?{spoken(f)}`?(?![\w-])", plain, re.IGNORECASE)]


def _dates(own: dict[str, Any]) -> list[str]:
    return sorted(
        f for f, s in own.items() if isinstance(s, dict) and (s.get("format") == "date" or f.endswith("_date"))
    )


def _figure(head: str, numbers: list[str]) -> tuple[str, str] | None:
    """(the figure's word, the record's number field named by it): the header's first word, when one field's name
    holds it ("Refund" -> `refund_amount`)."""
    first = re.match(r"\s*(?:the\s+|a\s+|an\s+)?(?P<word>[A-Za-z]+)", head)
    word = first.group("word").lower() if first else ""
    hits = [f for f in numbers if word and word in [w.rstrip("s") for w in f.lower().split("_")]]
    return (word, hits[0]) if len(hits) == 1 else (word, "") if word else None


def banded_figures(text: str, collection: str, state_schema: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """The `set` of the record's number a banded table gives and the `adjust` of each linked number the docs add
    it to; [] when the text holds no such table or the business date is not known."""
    if not today:
        return []
    text = unwrap(text)
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    numbers = sorted(f for f, s in own.items() if is_number(s))
    out: list[dict[str, Any]] = []
    for head, steps, said in _tables(text):
        dated = [
            (f, m)
            for f in _dates(own)
            for m in [re.search(rf"\b{spoken(f)}(?:\s+date)?\b", head, re.IGNORECASE)]
            if m is not None
        ]
        figure = _figure(head, numbers)
        if len(dated) != 1 or figure is None:
            continue
        field, where = dated[0]
        base = [f for f in _mentioned(numbers, head) if f != figure[1]] or [
            f for f in _mentioned(numbers, said) if f != figure[1]
        ]
        if len(set(base)) != 1 and any("share" in s for s in steps):
            continue
        before = head[max(0, where.start() - 24) : where.start()]
        band = {
            "date": [field],
            "today": today,
            "since": bool(SINCE.search(before)) and not UNTIL.search(before),
            "of": [base[0]] if base else None,
            "steps": steps,
        }
        expr = {"from": "expr", "expr": {"plus": [{"band": band}], "digits": 2}}
        if figure[1] and any(e.get("field") == figure[1] for e in out):
            continue  # the policy's copy of a table the tool's docs already gave
        if figure[1]:
            out.append({"op": "set", "field": figure[1], "source": expr})
        moves = _moves(text, figure[0], record_links(own, cols, collection), cols, expr)
        out += [m for m in moves if not any(e.get("path") == m["path"] for e in out)]
    return out


def _moves(
    text: str, word: str, links: dict[str, str], cols: dict[str, Any], expr: dict[str, Any]
) -> list[dict[str, Any]]:
    """`adjust` effects for "the <word> is added to the <noun>'s <number>" on the records the record's `links` name
    (docs_linked.record_links)."""
    out: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.;!?])\s+|,\s+(?=and\b|the\b)|\n", text):
        said = re.search(rf"\b{re.escape(word)}\b[^.;]*?{ADDED.pattern}[^.;]*", sentence, re.IGNORECASE)
        if not said:
            continue
        for ref, other in links.items():
            theirs = sorted(f for f, s in _props(cols, other).items() if is_number(s))
            for number in _mentioned(theirs, said.group(0)):
                path = [{"from": "record", "path": [ref]}, {"from": "const", "value": number}]
                if not any(e["path"] == path for e in out):
                    out.append({"op": "adjust", "collection": other, "path": path, "delta": expr})
    return out


__all__ = ["banded_figures"]
