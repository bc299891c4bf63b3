"""Log entries a change writes that the docs do not spell out, read off the data:

- `data_logged`: a list addition's entry. Every stored element of the list (a berthing's `services` line `SV-1`)
  is named by its id in exactly one entry of another list of the same record (its `log`), and those entries share
  one kind (`event: service_added`) that the log's other entries do not all hold. The entry is built as one the
  docs name by that kind would be (docs_entries.named_entries: its texts written from the new element's values as
  the data's entries show them), with the element's own id where the data's texts show it in every sample. At
  least three logged elements are needed, so a coincidence is not taken for a rule.
- `name_logged`: an entry of the tool's own name (`dues_paid` entries in the skippers' `history` beside a
  `dues_paid` tool), built the same way.
- `data_appends`: a transition's entry, the one every record already in the state it moves to ends its list with
  (an `event` spelling that state is that value, when three records at least show it).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import MIN_RECORDS
from synth.envsynth.docs_entries import _entry_texts, named_entries
from synth.envsynth.entry_texts import CORE_SHARE


def _naming(entry: dict[str, Any], ident: str) -> bool:
    """Whether one of the entry's texts names the id as a word of its own."""
    word = re.compile(rf"(?<![\w-]){re.escape(ident)}(?![\w-])")
    return any(isinstance(v, str) and word.search(v) for v in entry.values())


def logged_kind(records: list[dict[str, Any]], element_list: str, item_key: str) -> tuple[str, str, str] | None:
    """(log list, kind field, kind) of the entries the data logs its `element_list` elements with, or None."""
    found: list[tuple[str, dict[str, Any]]] = []
    logs: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        elements = record.get(element_list)
        for element in elements if isinstance(elements, list) else []:
            ident = element.get(item_key) if isinstance(element, dict) else None
            if not isinstance(ident, str) or not ident:
                return None
            named = [
                (name, e)
                for name, value in sorted(record.items())
                if name != element_list and isinstance(value, list)
                for e in value
                if isinstance(e, dict) and _naming(e, ident)
            ]
            if len(named) != 1:
                return None
            found.append(named[0])
            logs.setdefault(named[0][0], [e for e in record[named[0][0]] if isinstance(e, dict)])
    if len(found) < MIN_RECORDS or len({name for name, _ in found}) != 1:
        return None
    field = found[0][0]
    every = [e for es in logs.values() for e in es]
    kinds = [
        k
        for k, v in sorted(found[0][1].items())
        if isinstance(v, str) and all(e.get(k) == v for _, e in found) and any(e.get(k) != v for e in every)
    ]
    return (field, kinds[0], found[0][1][kinds[0]]) if len(kinds) == 1 else None


def _with_ids(source: Any, ident: str, item_key: str) -> Any:
    """A `concat` source whose fixed parts holding the id every sample element had show the new element's id."""
    if not isinstance(source, dict) or source.get("from") != "concat":
        return source
    parts: list[Any] = []
    for part in source.get("parts") or []:
        if not isinstance(part, str):
            parts.append(part)
            continue
        pieces = re.split(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", part)
        for i, piece in enumerate(pieces):
            parts += ([{"from": "new_element", "field": item_key}] if i else []) + ([piece] if piece else [])
    return {**source, "parts": parts}


def _as_named(
    kind: str,
    field: str,
    noun: str,
    record_props: dict[str, Any],
    parameters: dict[str, Any],
    records: list[dict[str, Any]],
    today: str | None,
    element_list: str | None = None,
    stated: str = "",
    taken: frozenset[str] | None = None,
) -> list[dict[str, Any]]:
    """The entry of the data's own kind, built as one a docs sentence naming it would be (named_entries); `stated`:
    the tool's text, read for the figures such an entry earns; `taken`: the state's keys (fresh ids of a series)."""
    said = f'A "{kind}" entry is appended to the {field}.'
    return named_entries(said, noun, record_props, parameters, records, today, element_list, stated=stated, taken=taken)


def data_logged(
    noun: str,
    record_props: dict[str, Any],
    parameters: dict[str, Any],
    records: list[dict[str, Any]],
    today: str | None,
    element_list: str,
    item_key: str,
) -> list[dict[str, Any]]:
    """The `append` effect of the log entry the data writes for a new `element_list` element, or []."""
    kind = logged_kind(records, element_list, item_key)
    if kind is None:
        return []
    field, kind_field, name = kind
    found = _as_named(name, field, noun, record_props, parameters, records, today, element_list)
    texts = _entry_texts(records, field, kind_field, name, element_list)
    idents = {str(e.get(item_key)) for r in records for e in (r.get(element_list) or []) if isinstance(e, dict)}
    for effect in found:
        for item in effect.get("items") or []:
            fields = item.get("fields") if isinstance(item, dict) else None
            for key, source in (fields or {}).items():
                if source.get("from") == "arg" and key in texts:  # a `note` the data writes, not the call's note
                    fields[key] = source = texts[key]
                fields[key] = _with_ids(source, next(iter(idents)), item_key) if len(idents) == 1 else source
    return found


def name_logged(
    name: str,
    noun: str,
    record_props: dict[str, Any],
    parameters: dict[str, Any],
    records: list[dict[str, Any]] | None,
    today: str | None,
    stated: str = "",
    sample: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The `append` effect of the entry a change logs when the data's records log entries of the tool's own name
    (`dues_paid` entries in the skippers' `history` beside a `dues_paid` tool), built as one the docs name so
    would be; `stated`: the tool's text, read for the figures such an entry earns; `sample`: the whole sample
    state, whose keys no fresh id of the entries may be."""
    kinds = sorted(
        {
            (field, key)
            for r in records or []
            for field, value in r.items()
            if isinstance(value, list)
            for e in value
            if isinstance(e, dict)
            for key, v in e.items()
            if v == name
        }
    )
    if len(kinds) != 1:
        return []
    taken = frozenset(str(k) for held in (sample or {}).values() if isinstance(held, dict) for k in held)
    entries = list(records or [])
    return _as_named(name, kinds[0][0], noun, record_props, parameters, entries, today, stated=stated, taken=taken)


def data_appends(records: list[dict[str, Any]], field: str, target: Any, allowed: list[Any]) -> list[dict[str, Any]]:
    """Elements the transition appends, read off the data: every record already in the target state ends a list
    field with an element whose fields are constants or values of the record at fixed paths (three quarters of
    them, when the others hold a key more), and a constant of it never shows in that list in records of the
    allowed states (so the transition added it)."""
    from synth.envsynth.trace_learn import item_rule

    done = [r for r in records if r.get(field) == target]
    before = [r for r in records if r.get(field) in allowed]
    if len(done) < 2 or not before:
        return []
    out = []
    names = sorted({k for r in done for k, v in r.items() if isinstance(v, list)})
    for name in names:
        if not all(isinstance(r.get(name), list) and r[name] for r in done):
            continue
        samples = [(r[name][-1], {}, {**r, name: r[name][:-1]}, {}) for r in done]
        shapes = [sorted(x) if isinstance(x, dict) else [] for x, *_ in samples]
        common = max(shapes, key=shapes.count)  # an entry with a remark of its own ("note") beside the rest
        if shapes.count(common) >= max(2, CORE_SHARE * len(shapes)):
            samples = [one for one, shape in zip(samples, shapes) if shape == common]
        rule = item_rule(samples, "")
        if not rule or "fields" not in rule:
            continue
        state = {"from": "record", "path": [field]}  # an `event` that spells the state moved to: that value,
        if len(samples) >= MIN_RECORDS:  # when three samples at least say so (two may agree on a date by chance)
            spelt = {k: {"from": "const", "value": target} if v == state else v for k, v in rule["fields"].items()}
            rule = {"fields": spelt}
        consts = {k: src["value"] for k, src in rule["fields"].items() if src["from"] == "const"}
        seen = [e for r in before for e in (r.get(name) or []) if isinstance(e, dict)]
        if consts and not any(all(e.get(k) == v for k, v in consts.items()) for e in seen):
            out.append({"op": "append", "field": name, "items": [rule]})
    return out


__all__ = ["data_appends", "data_logged", "logged_kind", "name_logged"]
