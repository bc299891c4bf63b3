"""Word helpers for names in tool docs and state schemas: split identifiers, crude singular and plural.

Shared by environment synthesis (doc priors, collections, plans) and task synthesis (values, descriptions).
"""

from __future__ import annotations

import re

NUMBER_WORDS = {
    w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}
NUMBER_WORDS.update(twenty=20, thirty=30, forty=40, fifty=50)  # counts said in words: "four sailors", "twenty litres"


def split_words(name: str) -> list[str]:
    """`getPetById` -> ['get', 'pet', 'by', 'id']; `create_entities` -> ['create', 'entities']."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


E_ENDED = {"caches", "niches", "aches", "headaches", "quiches"}  # a singular ending in -che keeps its e


def singular(word: str) -> str:
    """A crude singular: 'entities' -> 'entity', 'todos' -> 'todo', 'pets' -> 'pet'."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses") or word.endswith("xes"):
        return word[:-2]
    if (word.endswith("ches") or word.endswith("shes")) and word not in E_ENDED:  # 'batches' -> 'batch'
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def entry_words(field: str) -> str:
    """A list field's name spoken as one of its entries: `crew_members` -> 'crew member'."""
    words = field.split("_")
    return " ".join(words[:-1] + [singular(words[-1])])


def plural(word: str) -> str:
    """'pet' -> 'pets', 'entity' -> 'entities', 'glass' -> 'glasses', 'batch' -> 'batches'; already plural words
    stay."""
    if word.endswith("ss") or word.endswith("x") or word.endswith("ch") or word.endswith("sh"):
        return word + "es"
    if word.endswith("s"):
        return word
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"
