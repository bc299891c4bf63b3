"""A state change said by its verb and the states it joins, without naming the field: "Takes payment and moves a
`held` charter to `confirmed`", "Marks a confirmed charter as checked in" (`checked_in`), "Cancels a held or
confirmed charter" and "Cancel a requested or scheduled charter" (the verb's participle, `cancelled`, is the state
the call leads to). The states before the record's noun are the ones the call is allowed from.

Every state must be a value the field knows (words joined by a space read as `_`, `-` or nothing), so a sentence
about anything else reads as nothing; a sentence that opens on a condition ("When ...", "If ..."), negates ("does
not move ..."), or speaks of another call ("use confirm_charter, which moves ...") is no change of this call, and a
removing verb ("Deletes a draft charter") leads to no state.
"""

from __future__ import annotations

import re

MOVE = re.compile(
    r"\b(?:moves?|marks?|turns?|puts?|changes?|sets?|switch(?:es)?)\s+(?:a|an|the|any|every)\s+"
    r"(?P<states>[`'\"\w ,-]{1,80}?)\s+(?P<noun>[a-z]\w*)\s+(?:to|as|into)\s+(?P<rest>.{1,60})",
    re.I,
)
LEAD = re.compile(r"^\W*(?P<verb>[A-Za-z]{3,})\s+(?:a|an|the|any)\s+(?P<words>[`'\"\w ,-]{1,120})", re.I)
CONDITIONAL = re.compile(r"^\W*(?:when|whenever|if|once|unless|after|before)\b", re.I)
# "does not move ...", "use confirm_charter, which moves ...": about another call, not this one
ELSEWHERE = re.compile(r"(?:\bnot|n't|\bnever|\bno\s+longer|\bwhich|\bthat)\s+(?:\w+\s+)?$", re.I)  # right before
REMOVING = {"delete", "deletes", "remove", "removes", "erase", "erases", "destroy", "destroys", "purge", "purges"}


def _known_value(words: str, known: list[str]) -> str | None:
    """The known value the words spell (any case; a space as `_`, `-` or nothing), or None."""
    said = words.strip().strip("`'\"").strip().lower()
    for value in known:
        plain = value.lower()
        if said in (plain, plain.replace("_", " "), plain.replace("-", " ")) or said.replace(" ", "") == plain:
            return value
    return None


def _states(words: str, known: list[str]) -> list[str]:
    """The known values of "a", "a or b", "a, b or c" (quoted or bare); [] when any part is none."""
    parts = [p for p in re.split(r"\s*,\s*|\s+(?:or|and)\s+", words.strip()) if p.strip()]
    values = [_known_value(p, known) for p in parts]
    return [v for v in values if v] if parts and all(values) else []


def _leading_states(text: str, known: list[str]) -> list[str]:
    """The states the longest run of leading words gives before a noun ("held or confirmed charter and ..." ->
    `held`, `confirmed`); [] when the words do not open with states."""
    words = text.split()
    for k in range(min(len(words) - 1, 8), 0, -1):
        noun = words[k].strip(",")
        if noun.lower() in ("or", "and") or not re.fullmatch(r"[a-z]\w*", noun, re.I) or _known_value(noun, known):
            continue
        found = _states(" ".join(words[:k]), known)
        if found:
            return found
    return []


def _target(rest: str, known: list[str]) -> str | None:
    """The known value the longest run of leading words spells ("checked in when the party ..." -> `checked_in`)."""
    words = re.split(r"\s+", re.split(r"[.;:,()]", rest, maxsplit=1)[0].strip())
    for n in range(min(len(words), 4), 0, -1):
        value = _known_value(" ".join(words[:n]), known)
        if value:
            return value
    return None


def _participles(verb: str) -> set[str]:
    """What a verb's state is called once done: cancel -> cancelled / canceled, close -> closed, carry -> carried."""
    base = verb.lower()
    stems = {base, base[:-1] if base.endswith("s") and not base.endswith("ss") else base}
    if base.endswith("es"):
        stems.add(base[:-2])
    out = set()
    for stem in stems:
        out |= {stem + "ed", stem + "d", stem + stem[-1] + "ed"}
        if stem.endswith("y"):
            out.add(stem[:-1] + "ied")
    return out


def verb_move(sentences: list[str], known: list[str]) -> tuple[str, list[str]] | None:
    """(the state the call leads to, the states it is allowed from) from the first sentence that says both."""
    for sentence in sentences:
        if CONDITIONAL.match(sentence):
            continue
        for m in MOVE.finditer(sentence):
            if ELSEWHERE.search(sentence[max(0, m.start() - 30) : m.start()]):
                continue  # "does not move ...", "confirm_charter, which moves ...": not this call's change
            came_from, target = _states(m.group("states"), known), _target(m.group("rest"), known)
            if came_from and target and target not in came_from:
                return target, came_from
        lead = LEAD.match(sentence)
        if lead and lead.group("verb").lower() not in REMOVING:  # "Deletes a draft charter": gone, not `deleted`
            done = [v for v in known if v.lower() in _participles(lead.group("verb"))]
            came_from = _leading_states(lead.group("words"), known)
            if len(done) == 1 and came_from and done[0] not in came_from:
                return done[0], came_from
    return None


__all__ = ["verb_move"]
