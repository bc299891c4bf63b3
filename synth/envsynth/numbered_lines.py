"""Price lines the docs number, each naming its answer figure (formula_rules.py builds the quote):

    The levy is the sum of four lines, each rounded to the cent (half up):
    1. `base_fee` by kiln size: small 20, medium 35, large 50.
    2. `energy_levy`: 2% of the first 1,000 of load_value plus 1% of the part above 1,000.
    3. `glaze_fee`: 40% of the energy levy for stoneware and porcelain; 0 for the other bodies.
    4. `studio_fee`: 15 when the kiln is in a shared studio, else 0.
    5. `service_charge`: 10% of the sum of lines 1 to 4.
    `total` is the sum of the five lines.

A line "With `x`: `a` = ..., and `b` = ..." gives each figure only when the call gives `x` (else 0).
A line given after a colon is read from its own text only (a line that text does not explain is left unknown, not
guessed from its name); it may be a tiered percent ("a% of the first N of x plus b% of the part above N"), a percent
of the sum of lines i to j, a percent of a figure for some values of a named record's field and a number for the
others, a number when the record is in a state its flag or a field's value names, a percent of a figure, or any
formula parse_formula reads. "each rounded to the cent (half up)" before the list rounds every line; "`total` is the
sum of the lines" adds them up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from synth.envsynth.figure_terms import ROUNDED, param_default, spoken
from synth.envsynth.keyed_tables import _held
from synth.words import singular, split_words

ITEM = re.compile(r"^\s*(\d+)[.)]\s+(`.*|(?:With|Given)\s+`\w+`:\s+`\w+`\s*=.*)$")  # "2. With `x`: `a` = ..."
INLINE = re.compile(r"(?:^|(?<=\s))(\d+)\.\s+(?=`)")
FORMULA = re.compile(r"`(\w+)\s*=\s*([^`]+)`([^;`]*)")
PERCENT = r"(\d+(?:\.\d+)?)\s*(?:%|percent)"
AMOUNT = r"\$?(\d+(?:\.\d+)?)"
TIERED = re.compile(
    rf"^{PERCENT}\s+of\s+the\s+first\s+{AMOUNT}\s+of\s+(.+?)\s*,?\s+(?:plus|and)\s+{PERCENT}\s+of\s+the\s+"
    rf"(?:part|amount|rest|remainder|portion|share)\s+(?:above|over|beyond)\s+{AMOUNT}$",
    re.I,
)
OF_LINES = re.compile(
    rf"^{PERCENT}\s+of\s+the\s+sum\s+of\s+(?:lines|items|steps)\s+(\d+)\s+(?:to|through|-)\s+(\d+)$", re.I
)
FOR_VALUES = re.compile(
    rf"^{PERCENT}\s+of\s+(.+?)\s+for\s+(.+?)\s*[;,]\s*{AMOUNT}\s+for\s+(?:the\s+|all\s+|any\s+)?others?\b.*$", re.I
)
WHEN = re.compile(
    rf"^{AMOUNT}\s+(?:when|if)\s+the\s+([\w-]+)\s+(?:is|has)\s+(?:in\s+|on\s+|at\s+|an?\s+|the\s+)*(.+?)\s*,?\s+"
    rf"(?:else|otherwise)\s+{AMOUNT}$",
    re.I,
)
SAID_EQUAL = re.compile(r"`(\w+)`\s*=\s*")
FLAT_FOR = re.compile(  # "a flat 180.00 per season for `covered` berths, otherwise 0", "25.00 per month for `x` ..."
    rf"^(?:an?\s+)?(?:flat\s+)?{AMOUNT}(?:\s+(?:per|a|each)\s+([\w-]+))?\s+(?:for|on)\s+(.+?)\s*[,;]\s*"
    rf"(?:otherwise|else|and)\s+{AMOUNT}(?:\s+(?:otherwise|for\s+(?:the\s+|all\s+|any\s+)?others?))?$",
    re.I,
)
WHEN_ARG = re.compile(r"^(.+?)\s+(?:when|if)\s+`(\w+)`\s+is\s+`?(true|false|[\w-]+)`?$", re.I)
UP_TO = re.compile(  # "the amount needed to bring `held` up to the 300.00 bond": what is missing, never below 0
    rf"^(?:the\s+)?(?:amount|sum|top-up)\s+(?:needed|required|it\s+takes)\s+to\s+(?:bring|raise|top\s+up)\s+(.+?)\s+"
    rf"(?:up\s+)?to\s+(?:the\s+|a\s+)?{AMOUNT}\b.*$",
    re.I,
)
TIERS = re.compile(r"\b(?:tiers?|bands?|blocks?|brackets?)\b", re.I)
LIMIT_WORDS = {"up", "upto", "limit", "max", "maximum", "ceiling", "through", "until"}
RATE_WORDS = {"rate", "price", "charge", "cost", "fee", "per"}
PLAIN_SHARE = re.compile(rf"^{PERCENT}\s+of\s+(.+)$", re.I)
SUM_OF_LINES = re.compile(r"`(\w+)`\s+is\s+the\s+sum\s+of\s+(?:the\s+|all\s+)?(?:\w+\s+)?(?:lines|items|steps)\b", re.I)
FILLER = {"a", "an", "the", "in", "on", "at", "is", "has", "of"}


@dataclass
class NumberedLines:
    """The numbered lines of a description: (number, figure, "by" or ":" or "", text), the rounding every line
    gets, and the figure that sums them."""

    items: list[tuple[int, str, str, str]] = field(default_factory=list)
    rounding: dict[str, Any] | None = None
    total: str | None = None
    given: dict[str, str] = field(default_factory=dict)  # "With `x`: `a` = ...": a figure only when x is given

    def text_of(self, name: str) -> str | None:
        """The text after the colon (or the formula) of the line that names this figure; None when none does."""
        return next((text for _, n, sep, text in self.items if n == name and sep in (":", "=")), None)

    def names(self, first: int = 1, last: int = 10**6) -> list[str]:
        return [n for number, n, _, _ in self.items if first <= number <= last]


def _plain(text: str) -> str:
    """One line of words, thousands separators dropped ("250,000" is 250000), no final full stop."""
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", " ".join(text.split()))
    return text.rstrip(".").strip()


def _entries(number: int, body: str) -> list[tuple[int, str, str, str]]:
    """The figures one numbered line defines: "`name`: text", "`name` by ...", or one or more "`name = formula`"
    (each with the words after it up to the next ";", where its rounding is said)."""
    m = re.match(r"`(\w+)`\s*(:|by\b|=)?\s*(.*)$", body, re.S)
    if m:
        return [(number, m.group(1), (m.group(2) or "").strip(), m.group(3))]
    found = [(number, d.group(1), "=", d.group(2) + d.group(3)) for d in FORMULA.finditer(body)]
    if found:
        return found
    said = list(SAID_EQUAL.finditer(body))  # "With `x`: `a` = the ..., and `b` = the ...": each up to the next
    ends = [d.start() for d in said[1:]] + [len(body)]
    return [
        (number, d.group(1), "=", re.sub(r"[,;]?\s*(?:and)?\s*$", "", body[d.end() : end]))
        for d, end in zip(said, ends)
    ]


def _bodies(description: str) -> tuple[list[tuple[int, str]], str]:
    """(the numbered lines' (number, text), the paragraph before the first): lines that open with "1. `", a line
    going on under it until a blank one or the next number; else items numbered inside one paragraph."""
    bodies: list[list[Any]] = []
    intro: list[str] = []
    for raw in description.split("\n"):
        m = ITEM.match(raw)
        if m:
            bodies.append([int(m.group(1)), m.group(2)])
        elif bodies and bodies[-1] is not None and raw.strip() and not re.match(r"^\s*[-*`]", raw):
            bodies[-1][1] += " " + raw.strip()
        elif not bodies:
            intro = intro + [raw] if raw.strip() else []
        elif bodies[-1] is not None:
            bodies.append(None)  # type: ignore[arg-type]  # the list's end: nothing more joins its last line
    found = [(n, text) for n, text in (b for b in bodies if b is not None)]
    if len(found) >= 2:
        return found, " ".join(intro)
    for paragraph in re.split(r"\n\s*\n", description):
        marks = list(INLINE.finditer(paragraph))
        if len(marks) >= 2 and [int(m.group(1)) for m in marks] == list(range(1, len(marks) + 1)):
            ends = [m.start() for m in marks[1:]] + [len(paragraph)]
            return [(int(m.group(1)), paragraph[m.end() : end]) for m, end in zip(marks, ends)], paragraph[
                : marks[0].start()
            ]
    return [], ""


def numbered_lines(description: str) -> NumberedLines | None:
    """The numbered figure lines of a description, or None when there are fewer than two."""
    out = NumberedLines()
    bodies, intro = _bodies(description)
    out.items = [
        (n, name, sep, _plain(text)) for number, body in bodies for n, name, sep, text in _entries(number, body)
    ]
    for number, body in bodies:
        lead = re.match(r"^(?:With|Given)\s+`(\w+)`\s*:", body)
        out.given.update({name: lead.group(1) for name in [e[1] for e in _entries(number, body)]} if lead else {})
    if len(out.items) < 2:
        return None
    said = " ".join(intro.split())
    rounded = ROUNDED.search(said)
    if rounded and re.search(r"\beach\b|\bevery\b", said, re.I):
        out.rounding = {"digits": int(rounded.group(2)) if rounded.group(2) else 2, "way": _way(said, rounded)}
    summed = SUM_OF_LINES.search(description)
    if summed and summed.group(1) not in out.names():
        out.total = summed.group(1)
    return out


def _way(text: str, rounded: re.Match[str]) -> str:
    """How a rounding goes: "half up" / "half a cent rounds up", "rounded down", else to the nearest."""
    half = re.search(r"\bhalf\b[^.;]*?\b(up|down)\b", text[rounded.start() :], re.I)
    return f"half_{half.group(1).lower()}" if half else (rounded.group(1) or "").strip().lower() or "nearest"


def _pct(number: str) -> dict[str, Any]:
    value = float(number)
    return {"num": round(value / 100, 9)}


def _sum(names: list[str]) -> dict[str, Any] | None:
    if not names:
        return None
    node: dict[str, Any] = {"val": names[0]}
    for name in names[1:]:
        node = {"op": "+", "args": [node, {"val": name}]}
    return node


def _words(text: str) -> set[str]:
    return {singular(w) for w in split_words(text.replace("-", " "))} - FILLER


def _record(noun: str, scope: Any) -> str | None:
    """The parameter (or the link field, for a record a named one links) naming the record a noun is ("the kiln"
    -> `kiln_id`), or the one named record when no record is that noun."""
    noun = singular(noun.lower())
    records = {p: col for p, col in scope.named.items()}
    records.update({f: link[2] for f, link in scope.linked.items()})
    hits = [p for p, col in records.items() if noun in ({singular(col)} | _words(p) - {"id"})]
    return hits[0] if len(hits) == 1 else (next(iter(scope.named)) if len(scope.named) == 1 and not hits else None)


def _state_condition(phrase: str, p: str, scope: Any) -> dict[str, Any] | None:
    """{"param", "field", "in"} for "in a shared studio": a yes/no field whose words are the phrase's, or a field
    holding a value the phrase names together with the field's own words."""
    words = _words(phrase)
    col = scope.named[p] if p in scope.named else scope.linked[p][2]
    flags, valued = [], []
    for f, schema in sorted((scope.fields.get(p) or {}).items()):
        kind = schema.get("type") if isinstance(schema, dict) else None
        own = _words(f.replace("_", " "))
        if kind == "boolean" and own and own - {"is", "has"} == words:
            flags.append({"param": p, "field": f, "in": [True]})
        for value in _held(scope.sample, col, f):
            said = _words(value.replace("_", " "))
            if said and said <= words and words - said <= own:
                valued.append({"param": p, "field": f, "in": [value]})
    hits = flags or valued
    return hits[0] if len(hits) == 1 else None


def _values_condition(listed: str, scope: Any) -> dict[str, Any] | None:
    """{"param", "field", "in"} for "stoneware, porcelain and raku": the one named record's field holding them."""
    values = [v.strip().strip("`'\"") for v in re.split(r",|\s+and\s+|\s+or\s+", listed) if v.strip()]
    hits, whole = [], []
    for p, col in scope.named.items():
        for f in sorted(scope.fields.get(p) or {}):
            held = _held(scope.sample, col, f)
            if values and len(set(values) & held) >= min(2, len(values)):
                hits.append({"param": p, "field": f, "in": values})
                whole += [hits[-1]] if set(values) <= held else []
    hits = hits if len(hits) == 1 else whole
    return hits[0] if len(hits) == 1 else None


def line_node(
    text: str,
    lines: NumberedLines,
    scope: Any,
    parse: Callable[[str], dict[str, Any] | None],
) -> dict[str, Any] | None:
    """The node of one numbered line's text, or None when the text is of no known form."""
    rounded = ROUNDED.search(text)
    if rounded:  # "..., rounded to the cent (half a cent rounds up)", "... The sum is rounded to the cent"
        inner = line_node(
            re.sub(r"[.;,]?\s*(?:the\s+\w+\s+is)?$", "", text[: rounded.start()].strip()), lines, scope, parse
        )
        digits = int(rounded.group(2)) if rounded.group(2) else 2
        return {"round": inner, "digits": digits, "way": _way(text, rounded)} if inner else None
    if TIERS.search(text) and re.search(r"\bup\s+to\b", text, re.I):
        return tier_node(text, scope)
    tiered = TIERED.match(text)
    if tiered and float(tiered.group(2)) == float(tiered.group(5)):
        base = parse(tiered.group(3))
        if base is None:
            return None
        cut = {"num": float(tiered.group(2))}
        low = {"op": "*", "args": [_pct(tiered.group(1)), {"op": "min", "args": [base, cut]}]}
        over = {"op": "max", "args": [{"op": "-", "args": [base, cut]}, {"num": 0}]}
        return {"op": "+", "args": [low, {"op": "*", "args": [_pct(tiered.group(4)), over]}]}
    of_lines = OF_LINES.match(text)
    if of_lines:
        summed = _sum(lines.names(int(of_lines.group(2)), int(of_lines.group(3))))
        return {"op": "*", "args": [_pct(of_lines.group(1)), summed]} if summed else None
    for_values = FOR_VALUES.match(text)
    if for_values:
        base, when = parse(for_values.group(2)), _values_condition(for_values.group(3), scope)
        if base is None or when is None:
            return None
        share = {"op": "*", "args": [_pct(for_values.group(1)), base]}
        return {"if_field": when, "then": share, "else": {"num": float(for_values.group(4))}}
    when_said = WHEN.match(text)
    if when_said:
        p = _record(when_said.group(2), scope)
        when = _state_condition(when_said.group(3), p, scope) if p else None
        if when is None:
            return None
        return {
            "if_field": when,
            "then": {"num": float(when_said.group(1))},
            "else": {"num": float(when_said.group(4))},
        }
    flat = FLAT_FOR.match(re.sub(r"\s*\([^()]*\)", "", text))
    if flat:
        return _flat_for(flat, scope)
    up_to = UP_TO.match(text)
    if up_to:
        held = parse(up_to.group(1).replace("`", ""))
        gap = {"op": "-", "args": [{"num": float(up_to.group(2))}, held]} if held else None
        return {"op": "max", "args": [gap, {"num": 0}]} if gap else None
    first = re.split(r"(?<=[a-z`)])\.\s+(?=[A-Z])", text)[0]  # "2% of `x` when `y` is `true`. Only ...": its rule
    when_arg = WHEN_ARG.match(first)
    value = arg_value(when_arg.group(2), when_arg.group(3), scope.params) if when_arg else None
    if when_arg and value is not None:
        inner = line_node(when_arg.group(1), lines, scope, parse)
        test = {"arg": when_arg.group(2), "default": param_default(scope.params[when_arg.group(2)]), "in": [value]}
        return {"when": test, "then": inner, "else": {"num": 0}} if inner else None
    share = PLAIN_SHARE.match(text)
    if share:
        base = parse(share.group(2))
        return {"op": "*", "args": [_pct(share.group(1)), base]} if base else None
    return parse(text)


def arg_value(name: str, said: str, params: dict[str, Any]) -> Any:
    """The value "when `x` is `v`" names: true or false of a yes/no parameter, one of a closed one's values; None
    for any other word ("is given") or parameter."""
    schema = params.get(name) if isinstance(params.get(name), dict) else None
    if schema is None:
        return None
    if schema.get("type") == "boolean" or isinstance(schema.get("default"), bool):
        return {"true": True, "false": False}.get(said.lower())
    return said if said in (schema.get("enum") or []) else None


def _flat_for(flat: re.Match[str], scope: Any) -> dict[str, Any] | None:
    """ "a flat 180.00 per season for `covered` berths, otherwise 0": the amount (times the quote's figure that
    counts the unit, "per month" -> `months`; a unit no figure counts is the quote's own) while the named record's
    field holds the values named, else the other amount."""
    values = re.findall(r"`([\w-]+)`", flat.group(3))
    when = _values_condition(", ".join(values), scope) if values else None
    if when is None:
        return None
    amount: dict[str, Any] = {"num": float(flat.group(1))}
    unit = (flat.group(2) or "").lower()
    counted = [d for d in scope.defined if unit and d.lower() in (unit + "s", unit + "es")]
    if len(counted) == 1:
        amount = {"op": "*", "args": [amount, {"val": counted[0]}]}
    return {"if_field": when, "then": amount, "else": {"num": float(flat.group(4))}}


def tier_node(text: str, scope: Any) -> dict[str, Any] | None:
    """ "usage is split into tiers; each tier bills usage up to its `up_to` limit (cumulative) at its rate; the last
    tier bills everything above": the figure named first, billed band by band over the one list of a named (or
    linked) record whose entries hold a limit (an empty one: no limit) and a rate."""
    spots = [(m.start(), d) for d in scope.defined if (m := re.search(rf"\b{spoken(d)}\b", text, re.I))]
    if not spots:
        return None
    lists = []
    for holder in [*scope.named, *scope.linked]:
        for f, schema in sorted((scope.fields.get(holder) or {}).items()):
            items = (schema.get("items") or {}) if isinstance(schema, dict) and schema.get("type") == "array" else {}
            entry = items.get("properties") if isinstance(items, dict) else None
            if not isinstance(entry, dict):
                continue
            numbers = [k for k, v in sorted(entry.items()) if {"number", "integer"} & set(_kinds(v))]
            limit = [k for k in numbers if _words(k.replace("_", " ")) & LIMIT_WORDS]
            rate = [k for k in numbers if _words(k.replace("_", " ")) & RATE_WORDS and k not in limit]
            if len(limit) == 1 and len(rate) == 1:
                lists.append({"param": holder, "field": f, "limit": limit[0], "rate": rate[0]})
    return {"tiers": lists[0], "of": {"val": min(spots)[1]}} if len(lists) == 1 else None


def _kinds(schema: Any) -> list[str]:
    kind = schema.get("type") if isinstance(schema, dict) else None
    return kind if isinstance(kind, list) else [kind] if kind else []


def numbered_node(
    name: str, description: str, scope: Any, parse: Callable[[str], dict[str, Any] | None]
) -> tuple[bool, dict[str, Any] | None]:
    """(whether the docs number a line for this figure after a colon or sum the lines into it, its node)."""
    lines = numbered_lines(description)
    if lines is None:
        return False, None
    if name == lines.total:
        return True, _sum(lines.names())
    text = lines.text_of(name)
    if text is None:
        return False, None
    node = line_node(text, lines, scope, parse)
    if node is not None and name in lines.given:  # 0 without the argument the line is given for (or when false)
        arg = lines.given[name]
        yes_no = (scope.params.get(arg) or {}).get("type") == "boolean"
        test = {"test": {"arg": arg, "default": param_default(scope.params.get(arg) or {})}, "in": [True]}
        node = {"if": test if yes_no else {"set": {"arg": arg}}, "then": node, "else": {"num": 0}}
    return True, node


def numbered_names(description: str) -> set[str]:
    """The figures the docs give a numbered line after a colon, or sum the lines into."""
    lines = numbered_lines(description)
    if lines is None:
        return set()
    return {n for _, n, sep, _ in lines.items if sep in (":", "=")} | ({lines.total} if lines.total else set())


def rounded_lines(description: str, steps: dict[str, dict[str, Any]]) -> None:
    """Every numbered line's node rounded as the sentence before the list says ("each rounded to the cent")."""
    lines = numbered_lines(description)
    if lines is None or lines.rounding is None:
        return
    for name in lines.names():
        node = steps.get(name)
        if node is not None and "round" not in node and not ({"arg", "field", "lines", "groups"} & set(node)):
            steps[name] = {"round": node, **lines.rounding}


__all__ = [
    "NumberedLines",
    "line_node",
    "tier_node",
    "numbered_lines",
    "numbered_names",
    "numbered_node",
    "rounded_lines",
]
