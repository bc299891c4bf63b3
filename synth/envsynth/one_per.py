"""How many records of its kind a create may add for one linked record, as the docs state it: "a pier can have only
one unresolved (`open` or `scheduled`) charter per berth", "a skipper may hold only one `booked` trip per day", "a
pier cannot have more than one `booked` charter per route".

- the first noun names a record the new one links (create_checks.noun_link: `pier_id`);
- the record word is the created kind (`charters`, or the last word of `harbour_charters`);
- the word after "per" (or "on a", "for each") is one of the record's own fields (`berth`, `day`) or names another
  record it links (`berth_id`), and the rule ends there (a second "per", "unless ..." or "that is ..." after it
  is more than one field can say);
- the states, when the sentence gives any, are quoted values of one of the record's closed fields (`status`), read
  from the words between "one" and the record word; unquoted words there that are no stored value ("active",
  "live"), and negations ("non-`sailed`"), say nothing readable, so the sentence is left alone.

Each becomes a `none_alike` check {collection, fields, where} (list_runtime.fg_list_rule): no stored record of the
kind names the same linked record and holds the same value of the other field, in one of those states.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap
from synth.spec import known_values
from synth.words import singular

ONLY_ONE = re.compile(
    r"\b(?:a|an|each|every|the)\s+(?P<noun>[a-z]\w*)\s+"
    r"(?:(?:can|may)\s+(?:only\s+)?(?:have|hold)\s+(?:only\s+|at\s+most\s+)?"  # "can have only one"
    r"|(?:cannot|can't|may\s+not)\s+(?:have|hold)\s+more\s+than\s+)"  # "cannot have more than one"
    r"one\s+(?P<states>[^.;]{0,80}?)\b(?P<record>[a-z]\w*)\s+"
    r"(?:(?:per|on\s+(?:a|each|the\s+same)|for\s+(?:a|each|the\s+same))\s+(?P<per>[a-z]\w*)"
    r"(?=\s*(?:at\s+a\s+time\s*)?(?:[.;:]|$))"  # the rule ends there: "per route per day", "unless ..." are more
    r"|at\s+a\s+time(?=\s*(?:[.;:]|$)))",  # "a boat can have only one open tow at a time": one per boat
    re.I,
)
# "Tows in `requested` or `under_way` are *open*": a word the docs define as a group of states
GROUP = (
    r"\b(?:in|with\s+status)\s+((?:`[\w-]+`\s*(?:,\s*|\s+or\s+|\s+and\s+)?)+)\s*"
    r"(?:are|is|count\s+as)\s+[*_`'\"]*{word}\b"
)


def names_kind(word: str, collection: str) -> bool:
    """Whether the word names the created kind (one or many)."""
    name = singular(collection.lower())
    return singular(word.lower()) in (name, name.split("_")[-1])


def _per_field(word: str, own: dict[str, Any], cols: dict[str, Any]) -> str | None:
    """The record's field the word after "per" names: the field itself, else the link to that noun's record."""
    from synth.envsynth.create_checks import noun_link

    if word.lower() in own:
        return word.lower()
    link = noun_link(word, own, cols)
    return link[0] if link else None


def worded_states(text: str, own: dict[str, Any], docs: str = "") -> dict[str, list[Any]] | None:
    """{field: values} of the quoted states, {} when the words hold none, None when they cannot be read (`docs`:
    where a word of the states may be defined as a group of them)."""
    if re.search(r"\b(?:not|non|other\s+than|except|but)\b", text, re.I):
        return None  # "one non-`sailed` charter": the states are the others
    word = text.strip()
    defined = re.search(GROUP.format(word=re.escape(word)), docs, re.I) if re.fullmatch(r"[a-z]+", word) else None
    if defined:  # "only one open tow", open being "in `requested` or `under_way`"
        text = defined.group(1)
    quoted = re.findall(r"`([^`]+)`", text)
    words = re.sub(r"\([^()]*\)|`[^`]*`|\b(?:or|and|nor)\b|[,/]", " ", text).split()
    if not quoted:
        fields = [f for f, s in sorted(own.items()) if words and all(w in known_values(s) for w in words)]
        if not words:
            return {}
        return {fields[0]: words} if len(fields) == 1 else None
    fields = [f for f, s in sorted(own.items()) if all(q in known_values(s) for q in quoted)]
    if defined and not fields:  # a group the docs define may name states no stored record is in yet
        fields = [f for f, s in sorted(own.items()) if any(q in known_values(s) for q in quoted)]
    return {fields[0]: quoted} if len(fields) == 1 else None


def one_per(
    text: str, collection: str, own: dict[str, Any], cols: dict[str, Any], policy: str = ""
) -> list[dict[str, Any]]:
    """The `none_alike` checks of the docs' "a <noun> can have only one <states> <record> per <field>" (or "at a
    time": one per <noun>) sentences; `policy` may define a word of the states as a group of them."""
    from synth.envsynth.create_checks import noun_link

    out: list[dict[str, Any]] = []
    for m in ONLY_ONE.finditer(unwrap(text)):
        if not names_kind(m.group("record"), collection):
            continue
        link = noun_link(m.group("noun"), own, cols)
        same = _per_field(m.group("per"), own, cols) if m.group("per") else None
        where = worded_states(m.group("states"), own, unwrap(text + "\n" + policy))
        if link is None or (m.group("per") and (same is None or same == link[0])) or where is None:
            continue
        fields = [link[0], same] if same else [link[0]]
        check = {"op": "none_alike", "collection": collection, "fields": fields, "where": where}
        if check not in out:
            out.append(check)
    return out


__all__ = ["names_kind", "one_per", "worded_states"]
