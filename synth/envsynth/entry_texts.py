"""Free-text fields of logged entries, learned from the sample data: a `checked_in` entry's note "party of 4 at
S-102" is "party of <party_size> at <site_id>" of its record, a `vehicle_added` note "JHE4410 added, 24.00 for 4
night(s)" names the added element's `plate` and `fee` (two decimals) and the record's `nights`.

Each sample entry of the kind is read against what was known when it was written: the fields of its record (one
level into object fields too) and, for an entry that logs an added element, the fields of one of the record's
elements. The values the text shows (numbers as written, or with two decimals, or whole) become placeholders; the
rest is literal. A template is kept only when it has a placeholder and writes every sample entry's text exactly,
at least two entries of the kind being there to agree; or, when the data shows the kind once, when each stretch of
its text that a value writes is written by exactly one value ("AO-04 x1": the logged add-on's id and quantity).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.expr_runtime import fg_number
from synth.envsynth.text_clauses import SUM, flagged_clauses, replaced_sources, summed, with_sums
from synth.words import singular

Source = dict[str, Any]
MAX_CHOICES = 256  # combinations of readings of one text tried before giving up


def _renderings(value: Any) -> list[tuple[str, int | None]]:
    """(text, decimals) a value may be written as: text as is, whole numbers as they are, other numbers with two
    decimals or as they are, whole floats also without decimals."""
    if isinstance(value, str):
        return [(value, None)] if value.strip() else []
    if not fg_number(value):
        return []
    if isinstance(value, int):
        return [(str(value), None)]
    out = [(f"{value:.2f}", 2), (str(value), None)]
    if float(value).is_integer():
        out.append((str(int(value)), 0))
    return out


def _context(record: dict[str, Any], element: dict[str, Any] | None) -> list[tuple[Source, Any]]:
    """(source, value) of what an entry may show: the record's scalars, one level into its objects, and an
    element's."""
    out: list[tuple[Source, Any]] = []
    for name, value in sorted(record.items()):
        if isinstance(value, dict):
            out += [
                ({"from": "record", "path": [name, k]}, v)
                for k, v in sorted(value.items())
                if not isinstance(v, (dict, list))
            ]
        elif not isinstance(value, list):
            out.append(({"from": "record", "path": [name]}, value))
    for name, value in sorted((element or {}).items()):
        if not isinstance(value, (dict, list)):
            out.append(({"from": "new_element", "field": name}, value))
    return out


def _spans(text: str, context: list[tuple[Source, Any]]) -> list[tuple[int, int, list[tuple[Source, int | None]]]]:
    """Non-overlapping stretches of the text that some value writes (longest first), each with its readings."""
    found: dict[tuple[int, int], list[tuple[Source, int | None]]] = {}
    for source, value in context:
        for shown, decimals in _renderings(value):
            edge = r"\d" if fg_number(value) else r"\w"
            for m in re.finditer(rf"(?<!{edge}){re.escape(shown)}(?!{edge})", text):
                if fg_number(value) and (
                    text[m.end() : m.end() + 2][:1] == "." and text[m.end() + 1 : m.end() + 2].isdigit()
                ):
                    continue  # "24" inside "24.00"
                found.setdefault((m.start(), m.end()), []).append((source, decimals))
    chosen: list[tuple[int, int, list[tuple[Source, int | None]]]] = []
    for (start, end), readings in sorted(found.items(), key=lambda kv: (-(kv[0][1] - kv[0][0]), kv[0][0])):
        if all(end <= s or start >= e for s, e, _ in chosen):
            chosen.append((start, end, readings))
    return sorted(chosen, key=lambda c: c[0])


def _placeholder(source: Source, decimals: int | None) -> Source:
    return dict(source) if decimals is None else {"from": "fixed", "of": dict(source), "decimals": decimals}


def _render(parts: list[Any], context: list[tuple[Source, Any]]) -> str | None:
    values = {repr(s): v for s, v in context}
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        inner = part["of"] if part.get("from") == "fixed" else part
        if repr(inner) not in values:
            return None
        value = values[repr(inner)]
        if part.get("from") == "fixed":
            if not fg_number(value):
                return None
            out.append(f"{value:.{part['decimals']}f}" if part["decimals"] else str(int(round(value))))
        else:
            out.append("" if value is None else str(value))
    return "".join(out)


def _fits(parts: list[Any], others: list[tuple[str, dict[str, Any], list[dict[str, Any]]]], whole: bool) -> bool:
    """Every other sample's text is (or, not `whole`, starts with) what the parts write for it."""
    for text, record, elements in others:
        shown = [_render(parts, _context(record, e)) for e in (elements or [None])]
        if not any(s is not None and (s == text if whole else text.startswith(s)) for s in shown):
            return False
    return True


def _search(text: str, spans: list, i: int, at: int, parts: list[Any], others: list, budget: list[int], varied: set):
    """The first reading of the spans from the i-th on (each a value's placeholder, or kept literal) whose template
    writes every other sample; None when there is none within the budget. A value that differs between the samples
    is tried first, then the literal text, then a value the samples all share (the `8` of "fuel 7/8")."""
    if budget[0] <= 0:
        return None
    budget[0] -= 1
    if i == len(spans):
        done = parts + ([text[at:]] if at < len(text) else [])
        return done if any(not isinstance(p, str) for p in done) and _fits(done, others, True) else None
    start, end, readings = spans[i]
    lead = [text[at:start]] if start > at else []
    shared = [r for r in readings if repr(r[0]) not in varied]
    named = [r for r in shared if _spelt_before(text, start, r[0])]  # "plan v1": `plan_version`, shared or not
    money = [r for r in shared if r not in named and r[1] == 2 and text[start:end].strip("0.")]  # "80.00" twice
    rest = [r for r in shared if r not in named and r not in money]
    ordered = [r for r in readings if repr(r[0]) in varied] + named + money + [None] + rest
    for reading in ordered:
        piece = [text[start:end]] if reading is None else [_placeholder(*reading)]
        trial = parts + lead + piece
        if _fits(trial, others, False):
            found = _search(text, spans, i + 1, end, trial, others, budget, varied)
            if found is not None:
                return found
    return None


def learned_text(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> Source | None:
    """A `concat` source writing every sample's text, or a `given` one choosing between a template and a fixed
    text by whether a value the template shows is set ("verified by JRK", else "dispensed"); None when neither
    writes every sample. Each sample is (text, its record, the elements one of which the entry may log: empty
    when it logs none). A clause spelling a yes/no field's name is shown only while it is true, and a number the
    entries of a list add up to is that sum when no plain template fits (text_clauses.py)."""
    found = _learned(samples)
    if found is None and len(samples) >= 2 and not any(_is_summed(r) for _, r, _ in samples):
        found = _learned([(t, with_sums(r), es) for t, r, es in samples])
        found = summed(found) if found is not None else None
    texts = all(isinstance(t, str) for t, _, _ in samples)
    if found is None and texts and len(samples) >= CORE_MIN:  # a clause a yes/no field explains, else plain
        found = _flagged_template(samples, least=1) or _core_template(samples)
    if isinstance(found, dict) and found.get("from") == "concat":
        contexts = [_context(r, (es or [None])[0]) for _, r, es in samples]
        found = {**found, "parts": flagged_clauses(found["parts"], contexts)}
    return found


CORE_MIN = 4  # samples a text needs before a few of them may add a clause the rest never show
CORE_SHARE = 0.75


def _core_template(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> Source | None:
    """The template of the texts written in the samples' most common number of "; "-clauses (three quarters of
    them at least), when each other text is what it writes followed by clauses of its own ("Paid 8.00 by card;
    1 pass used" beside "Paid 16.00 by card") or by an aside in brackets ("... (added at check-in)"): what the
    added clauses depend on is not in the data, so the plain form is written."""
    if any(not isinstance(t, str) for t, _, _ in samples):
        return None
    counts = [len(t.split("; ")) for t, _, _ in samples]
    common = max(set(counts), key=lambda n: (counts.count(n), -n))
    core = [(ASIDE_END.sub("", t), r, es) for (t, r, es), n in zip(samples, counts) if n == common]
    asides = sum(bool(ASIDE_END.search(t)) for t, _, _ in samples)
    if len(core) < max(3, CORE_SHARE * len(samples)) or asides > (1 - CORE_SHARE) * len(samples):
        return None
    found = _learned(core)
    if not isinstance(found, dict) or found.get("from") != "concat":
        return None
    for (text, record, elements), n in zip(samples, counts):
        head = _render(found["parts"], _context(record, (elements or [None])[0]))
        added = head is not None and (text.startswith(head + "; ") or ASIDE_END.fullmatch(text[len(head) :]))
        if (n != common or ASIDE_END.search(text)) and text != head and not (n >= common and added):
            return None
    return found


ASIDE_END = re.compile(r" \([^()]*\)$")  # "... x4 24.00 (added at <another step>)": an aside a few texts end on


def _is_summed(record: dict[str, Any]) -> bool:
    return any(SUM in str(k) for k in record)


def _learned(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> Source | None:
    """learned_text's template of the samples as they are."""
    if not samples or any(not isinstance(t, str) for t, _, _ in samples):
        return None
    if len(samples) == 1:
        cued = _cued_counts(samples[0][0], samples[0][1])  # "Checked in 2 boat(s)": the boats listed, counted
        if cued:
            text, record, elements = samples[0]
            plain = {k: v for k, v in record.items() if not (_is_count(v) and v in cued.values())}
            found = _single_template((text, {**plain, **cued}, elements))
            if found is not None:
                return _counted(found)
        return _single_template(samples[0])
    found = _one_template(samples)
    found = found if found is not None else _tailed_template(samples)  # a tail: the texts share their head
    found = found if found is not None else _given_template(samples)
    if found is None and len(samples) >= 3:  # "2 berth(s), total 58.40": how many entries a list holds
        counted = [(t, {**r, **_counts(r)}, es) for t, r, es in samples]
        found = _one_template(counted) or _tailed_template(counted) or _flagged_template(counted)
        found = _counted(found) if found is not None else None
    return found


COUNT = "#count"  # a record's list, counted (a key no field has)


CUE = re.compile(r"\b(\d+)\s+([a-z]+)\(s\)", re.I)  # "2 berth(s)"


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cued_counts(text: str, record: dict[str, Any]) -> dict[str, int]:
    """{`<list>#count`: length} of the record's lists a text counts as "<n> <noun>(s)", the noun naming the list
    and n its length: with one sample, the "(s)" says a count is shown, not some other field holding n."""
    out = {}
    for m in CUE.finditer(text):
        noun, n = m.group(2).lower(), int(m.group(1))
        lists = [k for k, v in record.items() if isinstance(v, list) and singular(k.lower()) == noun and len(v) == n]
        if len(lists) == 1:
            out[f"{lists[0]}{COUNT}"] = n
    return out


def _counts(record: dict[str, Any]) -> dict[str, int]:
    return {f"{k}{COUNT}": len(v) for k, v in record.items() if isinstance(v, list) and v}


def _counted(node: Any) -> Any:
    """The source with each counted list read as its length (`count`)."""

    def count(part: dict[str, Any]) -> dict[str, Any] | None:
        path = part.get("path") if part.get("from") == "record" else None
        if isinstance(path, list) and len(path) == 1 and str(path[0]).endswith(COUNT):
            return {**part, "from": "count", "path": [path[0][: -len(COUNT)]]}
        return None

    return replaced_sources(node, count)


def _flagged_template(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]], least: int = 2) -> Source | None:
    """One template for every sample, followed by one fixed tail exactly while a yes/no field of the record is true
    ("2 berth(s), total 58.40" / "1 berth(s), total 31.20, express"); two samples at least on each side (`least`
    on the flagged side, where one flag alone must explain the tails when fewer)."""
    flags = sorted({k for _, r, _ in samples for k, v in r.items() if isinstance(v, bool)})
    found = [one for flag in flags if (one := _flag_tail(samples, flag, least)) is not None]
    return found[0] if found and (least >= 2 or len(found) == 1) else None


def _flag_tail(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]], flag: str, least: int) -> Source | None:
    """The template of the samples whose `flag` is not true, with the one tail the others add while it is."""
    plain = [s for s in samples if s[1].get(flag) is not True]
    rest = [s for s in samples if s[1].get(flag) is True]
    template = _one_template(plain) if len(plain) >= 2 and len(rest) >= least else None
    if template is None:
        return None
    tails = set()
    for text, record, elements in rest:
        head = _render(template["parts"], _context(record, (elements or [None])[0]))
        tails.add(text[len(head) :] if head is not None and text.startswith(head) and text != head else None)
    if len(tails) != 1 or None in tails:
        return None
    tail = {"from": "switch", "when": {"field": flag, "in": [True]}, "then": {"from": "const", "value": tails.pop()}}
    return {**template, "parts": template["parts"] + [{**tail, "else": {"from": "const", "value": ""}}]}


def _named_reading(text: str, start: int, readings: list[tuple[Source, int | None]]) -> list:
    """Of several values a stretch may show, the one whose field the word before it names ("fee 0.00" shows the
    `fee`, not another field that also holds 0); all of them when the word names none or several."""
    if len({repr(r[0]) for r in readings}) < 2:
        return readings
    word = re.search(r"(\w+)\W*$", text[:start])
    named = [
        r
        for r in readings
        if word and str((r[0].get("path") or [r[0].get("field")])[-1]).lower() == word.group(1).lower()
    ]
    return named if len({repr(r[0]) for r in named}) == 1 else readings


def _spelt_before(text: str, start: int, source: Source) -> bool:
    """The words just before a stretch spell (or shorten) the name of the field the source reads ("plan v1" for
    `plan_version`, "rev 3" for `revision`): the value is that field's, even where every sample holds the same."""
    words = [w for w in str((source.get("path") or [source.get("field")])[-1]).lower().split("_") if w]
    tokens = re.findall(r"[A-Za-z]+", text[max(0, start - 40) : start])[-len(words) :] if words else []
    if len(tokens) != len(words) or not text[:start].rstrip().endswith(tokens[-1]):
        return False
    if any(w in (t.lower() + "s", t.lower() + "es") for t, w in zip(tokens, words)):
        return False  # "berth 2" names one berth, not the count `berths`
    return sum(map(len, tokens)) >= 3 and all(w.startswith(t.lower()) for t, w in zip(tokens, words))


def _single_template(sample: tuple[str, dict[str, Any], list[dict[str, Any]]]) -> Source | None:
    """The template of a text the data shows once ("AO-04 x1" for the add-on its entry logs): each stretch a value
    writes becomes that value, when exactly one value writes it; with several elements the entry may log, the one
    whose values write the most of the text. None when any stretch has two readings, or no value writes any."""
    text, record, elements = sample
    best: tuple[int, list[Any]] | None = None
    for element in elements or [None]:
        spans = [(a, b, _named_reading(text, a, rs)) for a, b, rs in _spans(text, _context(record, element))]
        if not spans or any(len({repr(r[0]) for r in readings}) != 1 for _, _, readings in spans):
            continue
        if element is not None and not any(r[0].get("from") == "new_element" for _, _, rs in spans for r in rs):
            continue
        parts: list[Any] = []
        at = 0
        for start, end, readings in spans:
            parts += ([text[at:start]] if start > at else []) + [_placeholder(*readings[0])]
            at = end
        parts += [text[at:]] if at < len(text) else []
        covered = sum(end - start for start, end, _ in spans)
        if best is None or covered > best[0]:
            best = (covered, parts)
    return {"from": "concat", "parts": _merged(best[1])} if best else None


def _given_template(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> Source | None:
    """The samples written as one fixed text while a value of the record or of the logged element is unset, and
    by a template showing it otherwise ("dispensed" / "verified by JRK")."""
    for fixed in sorted({t for t, _, _ in samples}):
        plain = [s for s in samples if s[0] == fixed]
        rest = [s for s in samples if s[0] != fixed]
        template = _one_template(rest) if len(rest) >= 2 and plain else None
        if template is None:
            continue
        shown = [p for p in template["parts"] if isinstance(p, dict) and p.get("from") in ("record", "new_element")]
        for source in shown:  # a value of the record, or of the logged element (the call's arguments)
            unset = all(_sample_value(s, source) in (None, "") for s in plain)
            if unset and all(_sample_value(s, source) not in (None, "") for s in rest):
                return {"from": "given", "test": dict(source), "then": template, "else": fixed}
    return None


def _tailed_template(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> Source | None:
    """The samples written by one template, followed by a tail showing a value only while it is set: a number of
    the record while above 0 ("booked 4 night(s)" / "booked 7 night(s); 20.00 paid from account credit"), or a
    text of the record or of the logged element (the call's arguments) while given ("Harbor Pharmacy" /
    "Harbor Pharmacy (555-0300)"). The template writes every sample whose value is unset (two at least, or one
    whose every written stretch has one reading), and the rest of each other sample's text is the same literal
    words around the value, written the same way."""
    for source in _tail_sources(samples):
        values = [_sample_value(s, source) for s in samples]
        plain = [s for s, v in zip(samples, values) if v in (None, "", 0)]
        rest = [(s, v) for s, v in zip(samples, values) if v not in (None, "", 0)]
        if not plain or not rest:
            continue
        template = _one_template(plain) if len(plain) >= 2 else _single_template(plain[0])
        if template is None:
            continue
        forms = set()
        for (text, record, elements), value in rest:
            head = _render(template["parts"], _context(record, (elements or [None])[0]))
            tail = text[len(head) :] if head is not None and text.startswith(head) else ""
            shown = [(t, d) for t, d in _renderings(value) if tail.count(t) == 1]
            if not shown:
                break
            at = tail.index(shown[0][0])
            forms.add((tail[:at], tail[at + len(shown[0][0]) :], shown[0][1]))
        else:
            if len(forms) == 1:
                lead, trail, decimals = forms.pop()
                parts = [p for p in (lead, _placeholder(dict(source), decimals), trail) if p != ""]
                tail_source = {"from": "concat", "parts": parts}
                shown_while = (
                    {"from": "positive", "test": dict(source), "then": tail_source}
                    if all(v is None or fg_number(v) for v in values)
                    else {"from": "given", "test": dict(source), "then": tail_source, "else": ""}
                )
                return {**template, "parts": template["parts"] + [shown_while]}
    return None


def _tail_sources(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> list[Source]:
    """The record's numbers and texts and the logged element's texts some sample holds, each once, in order."""
    out: dict[str, Source] = {}
    for _, record, elements in samples:
        for source, value in _context(record, (elements or [None])[0]):
            if isinstance(value, str) or (fg_number(value) and source.get("from") == "record"):
                out.setdefault(repr(source), source)
    return list(out.values())


def _sample_value(sample: tuple[str, dict[str, Any], list[dict[str, Any]]], source: Source) -> Any:
    _, record, elements = sample
    values = {repr(s): v for s, v in _context(record, (elements or [None])[0])}
    return values.get(repr(source))


def _one_template(samples: list[tuple[str, dict[str, Any], list[dict[str, Any]]]]) -> Source | None:
    """A `concat` source writing every sample's text, or None."""
    seen: dict[str, set[str]] = {}
    for _, r, es in samples:
        for e in es or [None]:
            for source, value in _context(r, e):
                seen.setdefault(repr(source), set()).add(repr(value))
    varied = {s for s, values in seen.items() if len(values) > 1}
    text, record, elements = samples[0]
    for element in elements or [None]:
        spans = _spans(text, _context(record, element))
        found = _search(text, spans, 0, 0, [], samples[1:], [MAX_CHOICES], varied) if spans else None
        if found is not None:
            return {"from": "concat", "parts": _merged(found)}
    return None


def _merged(parts: list[Any]) -> list[Any]:
    """Neighbouring literal parts joined."""
    out: list[Any] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        else:
            out.append(part)
    return out


def _rewritten(node: Any, new: dict[str, Source]) -> Any:
    """`node` with every `record` source of a one-field path the call sets replaced by the value it sets, and of a
    key of an object it sets by that key's value (not one marked `before`: the state a transition left)."""
    if isinstance(node, dict):
        if node.get("before"):
            return node
        if node.get("from") == "record" and len(node.get("path") or []) == 1 and node["path"][0] in new:
            cleared = new[node["path"][0]] == {"from": "const", "value": None}
            return node if cleared else new[node["path"][0]]  # "left <berth_id>" as it was, not null
        path = node.get("path") or [] if node.get("from") == "record" else []
        whole = new.get(path[0]) if len(path) == 2 else None
        if isinstance(whole, dict) and whole.get("from") == "object" and path[1] in whole["fields"]:
            return whole["fields"][path[1]]  # a key of an object the call sets ("<cancellation.fee>")
        return {k: _rewritten(v, new) for k, v in node.items()}
    if isinstance(node, list):
        return [_rewritten(v, new) for v in node]
    return node


def with_new_values(effects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The effects with the entries they append reading the record's fields as the call leaves them: texts are
    learned from records after their change, and a change computes all it writes before writing, so an entry
    showing a field the call sets ("odometer <mileage_out> km") takes the value set, not the one before."""
    new = {
        e["field"]: e["source"]
        for e in effects
        if e.get("op") == "set" and "when" not in e and "if_given" not in e and isinstance(e.get("source"), dict)
    }
    for e in effects:  # set only when given: the argument, else the value the record keeps
        if e.get("op") == "set" and e.get("if_given") and (e.get("source") or {}).get("from") == "arg":
            kept = {"from": "record", "path": [e["field"]]}
            new[e["field"]] = {"from": "given", "test": e["source"], "then": e["source"], "else": kept}
    if not new:
        return effects
    return [_rewritten(e, new) if e.get("op") in ("append", "ref_append") else e for e in effects]


def with_argument_keys(effects: list[dict[str, Any]], params: dict[str, Any]) -> list[dict[str, Any]]:
    """The effects with an appended entry's text reading a key of an object the call does not write, named as one
    of its parameters (`cancellation.reason` for `reason`), from that argument: the data's entry was written when
    the object was, so it showed the argument the call was given (before, the text showed nothing)."""
    written = {e.get("field") for e in effects if e.get("op") == "set"}

    def swap(node: Any) -> Any:
        path = node.get("path") if node.get("from") == "record" else None
        if isinstance(path, list) and len(path) == 2 and path[0] not in written and path[1] in params:
            return {"from": "arg", "name": path[1], "default": ""}
        return None

    return [
        {**e, "items": replaced_sources(e["items"], swap)} if e.get("op") == "append" and "items" in e else e
        for e in effects
    ]


__all__ = ["learned_text", "with_argument_keys", "with_new_values"]
