"""String formats inferred from values: id-like patterns (`#W0000000` -> ^\\#W[0-9]{7}$), emails, dates."""

from __future__ import annotations

import re
from typing import Any

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")
TOKEN = re.compile(r"[0-9]+|[A-Za-z]+|[^0-9A-Za-z]")
MAX_LEN = 48


def _tokens(value: str) -> list[tuple[str, str]]:
    out = []
    for t in TOKEN.findall(value):
        cls = "d" if t.isdigit() else ("a" if t.isalpha() else "p")
        out.append((cls, t))
    return out


def _letters(texts: list[str]) -> str:
    if all(t.islower() for t in texts):
        return "[a-z]"
    if all(t.isupper() for t in texts):
        return "[A-Z]"
    return "[A-Za-z]"


def _count(lengths: list[int]) -> str:
    lo, hi = min(lengths), max(lengths)
    return f"{{{lo}}}" if lo == hi else ("+" if hi - lo > 4 else f"{{{lo},{hi}}}")


def id_pattern(values: list[str]) -> str | None:
    """A regular expression all `values` match, for id-like strings of one shape (no spaces, some digits)."""
    distinct = sorted(set(values))
    if len(distinct) < 3 or any(not v or len(v) > MAX_LEN or any(c.isspace() for c in v) for v in distinct):
        return None
    if not all(any(c.isdigit() for c in v) for v in distinct):
        return None
    shapes = [_tokens(v) for v in distinct]
    classes = [c for c, _ in shapes[0]]
    if any([c for c, _ in s] != classes for s in shapes):
        return _loose(distinct, shapes)
    parts = []
    for i, cls in enumerate(classes):
        texts = [s[i][1] for s in shapes]
        if len(set(texts)) == 1 and cls != "d":
            parts.append(re.escape(texts[0]))
        elif cls == "d":
            parts.append("[0-9]" + _count([len(t) for t in texts]))
        elif cls == "a":
            lengths = {len(t) for t in texts}
            parts.append(_letters(texts) + (f"{{{lengths.pop()}}}" if len(lengths) == 1 else "+"))
        else:
            parts.append("[" + "".join(re.escape(c) for c in sorted(set(texts))) + "]")
    return "^" + "".join(parts) + "$"


def _loose(distinct: list[str], shapes: list[list[tuple[str, str]]]) -> str | None:
    """Words joined by one separator and ending in digits (e.g. `name_surname_1234`, `gift_card_77`)."""
    last = {s[-1][0] for s in shapes}
    seps = {t for s in shapes for c, t in s if c == "p"}
    if last != {"d"} or len(seps) != 1:
        return None
    sep = re.escape(next(iter(seps)))
    digits = _count([len(s[-1][1]) for s in shapes])
    word = _letters([t for s in shapes for c, t in s if c == "a"]) + "+"
    return f"^(?:{word}{sep})+[0-9]{digits}$"


def string_format(values: list[str]) -> dict[str, Any]:
    """JSON Schema keywords (format, pattern) that all `values` share; {} when none is clear."""
    distinct = set(values)
    if not distinct:
        return {}
    if all(EMAIL.match(v) for v in distinct):
        return {"format": "email"}
    if all(DATE.match(v) for v in distinct):
        return {"format": "date", "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
    if all(DATE_TIME.match(v) for v in distinct):
        return {"format": "date-time"}
    pattern = id_pattern(list(distinct))
    return {"pattern": pattern} if pattern else {}


def id_format(keys: list[str]) -> dict[str, Any] | None:
    """{prefix, digits} when every key is one fixed prefix and a digit run (new ids continue it)."""
    m = [re.match(r"^(.*?)([0-9]+)$", k) for k in keys]
    if not keys or not all(m):
        return None
    prefixes = {x.group(1) for x in m}
    widths = {len(x.group(2)) for x in m}
    if len(prefixes) != 1:
        return _latest_prefix(m, widths)
    prefix = next(iter(prefixes))
    if prefix == "" and all(not (len(x.group(2)) > 1 and x.group(2).startswith("0")) for x in m) and len(widths) > 1:
        return {"prefix": "", "digits": 0}  # plain integers as strings
    return {"prefix": prefix, "digits": max(widths) if len(widths) == 1 else 0}


def _latest_prefix(found: list[re.Match[str]], widths: set[int]) -> dict[str, Any] | None:
    """Keys whose part before the number varies in its digits only (`BP-24-0107`, `BP-25-0041`: a year) with numbers
    of one width: new keys continue the numbers under the latest part (the greatest: `BP-25-`)."""
    shapes = {re.sub(r"[0-9]", "9", x.group(1)) for x in found}  # only digits vary: `BP-99-`
    if len(shapes) != 1 or "9" not in next(iter(shapes)) or len(widths) != 1 or len(found) < 2:
        return None
    return {"prefix": max(x.group(1) for x in found), "digits": widths.pop()}


__all__ = ["id_format", "id_pattern", "string_format"]
