"""Concrete values in a text, in canonical forms, for the user-error judge's prior (rl/judge.py).

A simulated LLM user paraphrases: it writes "three" for 3, "3" for "3.0", "1,000" for 1000, "555 1394"
for "555-1394", "May 20, 2024" for "2024-05-20T09:00:00Z", "order 3689" for the end of a long id, and it
numbers the lines of a list ("1. ..."). None of that contradicts its instruction, so values are compared
in canonical forms:

- `allowed_forms(text)`: every form a value of the instruction (or of an agent reply) may take: the
  canonical value, the parts of an id split at "-", number words as digits, and for each date its ISO day
  (with and without the year), its day and year numbers and its time ("9am" = "9:00");
- `stated_values(text)`: (as written, canonical) for each concrete value the user stated: dates in
  several formats become ISO days, digit groups of a phone number become one value, list numbers ("1. ",
  "2) " at the start of a line or after punctuation) and fenced code blocks are left out.
"""

from __future__ import annotations

import re

VALUE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|#?[A-Za-z]*\d[\w-]*(?:[.,]\d+)*")
_LIST_MARKER = re.compile(r"(?m)(?:^\s*(?:[-*]\s*)?|(?<=[:;,.!?] ))\(?\d{1,2}[.)]\s")
_CODE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_PHONE = re.compile(r"(?<![\w-])\(?\d{3}\)?[ .-]\d{3}(?:[ .-]\d{4})?(?![\w-])|(?<![\w-])\d{3} \d{4}(?![\w-])")
_MONTHS = "january february march april may june july august september october november december".split()
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})(?:[t ](\d{1,2}):(\d{2})(?::\d{2})?z?)?", re.IGNORECASE)
_SLASH = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b")
_MONTH_DAY = re.compile(r"\b" + _MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?", re.IGNORECASE)
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"\b(?:,?\s+(\d{4}))?", re.IGNORECASE)
_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
).split()
_TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth").split()


def _month_number(name: str) -> int:
    key = name.lower()[:3]
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(key))


def canonical(value: str) -> str:
    """One spelling per value: lower case, no '#', no thousands separators or trailing '.0', no leading zeros,
    ordinals and clock hours as numbers, phone-like digit groups as their digits."""
    v = value.lower().strip().rstrip(".,").lstrip("#")
    m = re.fullmatch(r"(\d+)(st|nd|rd|th)", v)
    if m:
        v = m.group(1)
    m = re.fullmatch(r"(\d{1,2})(am|pm)", v)
    if m:
        hour = int(m.group(1)) % 12 + (12 if m.group(2) == "pm" else 0)
        return f"{hour}:00"
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", v):
        v = v.replace(",", "")
    if re.fullmatch(r"\d+\.\d+", v):
        f = float(v)
        return str(int(f)) if f == int(f) else repr(f)
    if re.fullmatch(r"\d+", v):
        return str(int(v))
    if re.fullmatch(r"[\d() .-]+", v) and sum(c.isdigit() for c in v) >= 7:
        return re.sub(r"\D", "", v)
    return v


def _dates(text: str) -> list[tuple[re.Match[str], str, list[str]]]:
    """(match, ISO day or '' when the year is missing, extra allowed forms) for each date written in `text`."""
    found = []
    for m in _ISO.finditer(text):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        extra = [str(d), str(y)] + ([f"{int(m.group(4))}:{m.group(5)}"] if m.group(4) else [])
        found.append((m, f"{y:04d}-{mo:02d}-{d:02d}", extra))
    for m in _SLASH.finditer(text):
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        forms = [f"{y:04d}-{a:02d}-{b:02d}", f"{y:04d}-{b:02d}-{a:02d}"]  # US or European order
        found.append((m, "|".join(forms), [str(y)]))
    for pattern, day_group, month_group in ((_MONTH_DAY, 2, 1), (_DAY_MONTH, 1, 2)):
        for m in pattern.finditer(text):
            d, mo = int(m.group(day_group)), _month_number(m.group(month_group))
            y = m.group(3)
            iso = f"{int(y):04d}-{mo:02d}-{d:02d}" if y else f"*-{mo:02d}-{d:02d}"
            found.append((m, iso, [str(d)] + ([y] if y else [])))
    return found


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the characters of `spans` (which may overlap) blanked out."""
    chars = list(text)
    for lo, hi in spans:
        chars[lo:hi] = " " * (hi - lo)
    return "".join(chars)


def allowed_forms(text: str) -> set[str]:
    """Every canonical form a value of `text` (an instruction or an agent reply) may be restated in."""
    forms: set[str] = set()
    dates = _dates(text)
    for m, iso, extra in dates:
        for part in iso.split("|"):
            forms.add(part)
            forms.add("*" + part[4:])  # the same day without the year
        forms.update(extra)
    text = _without(text, [m.span() for m, _iso, _extra in dates])  # a date's month is not a quantity
    for m in _PHONE.finditer(text):
        forms.add(canonical(m.group(0)))
    for m in VALUE.finditer(text):
        value = canonical(m.group(0))
        forms.add(value)
        parts = [p for p in re.split(r"[-_/]", m.group(0).lower().lstrip("#")) if p]
        forms.update(parts)
        forms.update(canonical(p) for p in parts if p.isdigit())
        digits = re.sub(r"\D", "", value)
        if len(digits) >= 7:
            forms.add(digits)
    words = re.findall(r"[a-z]+", text.lower())
    for w in words:
        if w in _WORDS:
            forms.add(str(_WORDS.index(w)))
        elif w in _TENS:
            forms.add(str(_TENS[w]))
        elif w in _ORDINALS:
            forms.add(str(_ORDINALS.index(w) + 1))
    return forms


def stated_values(text: str) -> list[tuple[str, str]]:
    """(as written, canonical) for every concrete value a user message states (see the module doc)."""
    out: list[tuple[str, str]] = []
    text = _CODE.sub(" ", text)
    spans: list[tuple[int, int]] = []
    for m, iso, _extra in _dates(text):
        if any(lo < m.end() and m.start() < hi for lo, hi in spans):
            continue
        spans.append(m.span())
        out.append((m.group(0), iso))
    for m in _PHONE.finditer(text):
        if not any(lo < m.end() and m.start() < hi for lo, hi in spans):
            spans.append(m.span())
            out.append((m.group(0), canonical(m.group(0))))
    spans.extend(m.span() for m in _LIST_MARKER.finditer(text))
    for m in VALUE.finditer(_without(text, spans)):
        out.append((m.group(0), canonical(m.group(0))))
    return out


def is_allowed(canonical_value: str, allowed: set[str]) -> bool:
    """A stated value matches an allowed form ("a|b": a date read in either day/month order)."""
    return any(option in allowed for option in canonical_value.split("|"))
