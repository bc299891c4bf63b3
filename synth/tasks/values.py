"""Seeded values for states and arguments: realistic text from a pool the LLM fills, schema-valid rest.

The pool holds, per (resource, field), short text values the model wrote when asked one small
question at a time; every answer is validated (one line, length, characters, no duplicates) and
a seeded fallback fills what the model could not. The pool is built once per run, in a fixed
order, so with cached answers it is the same every time.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from synth.llm.prompts import render
from synth.tasks.envmodel import json_type
from synth.words import singular, split_words

TOPICS = (
    "home",
    "work",
    "travel",
    "garden",
    "music",
    "health",
    "school",
    "kitchen",
    "sports",
    "finance",
    "books",
    "family",
    "car",
    "office",
    "science",
    "weekend",
)
FIRST = (
    "Alice",
    "Bruno",
    "Chen",
    "Dana",
    "Elif",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Keiko",
    "Lars",
    "Maya",
    "Nikos",
    "Olga",
    "Priya",
    "Quentin",
    "Rosa",
    "Sami",
    "Tara",
)
LAST = (
    "Adams",
    "Berg",
    "Costa",
    "Diaz",
    "Evans",
    "Fischer",
    "Garcia",
    "Horvat",
    "Ito",
    "Jensen",
    "Kowal",
    "Lopez",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
)
NOUNS = (
    "report",
    "invoice",
    "garden",
    "meeting",
    "ticket",
    "recipe",
    "budget",
    "trip",
    "lesson",
    "parcel",
    "poster",
    "playlist",
    "backup",
    "contract",
    "survey",
    "workshop",
    "bicycle",
    "library",
    "concert",
    "dentist",
)
VERBS = (
    "Book",
    "Call",
    "Check",
    "Clean",
    "Draft",
    "Email",
    "Fix",
    "Order",
    "Pay",
    "Plan",
    "Print",
    "Review",
    "Send",
    "Sort",
    "Update",
    "Visit",
    "Water",
    "Write",
)
ADJ = ("blue", "quiet", "early", "spare", "weekly", "annual", "urgent", "small", "shared", "new", "old", "final")
ANIMALS = ("Biscuit", "Coco", "Luna", "Milo", "Nala", "Oscar", "Pepper", "Rocky", "Simba", "Tiger", "Willow", "Ziggy")
_OK_TEXT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ,.'&:!?()/@+-]*$")
LINK_KINDS = ("works with", "reports to", "manages", "mentors", "lives near", "studies at", "belongs to", "invested in")
NODE_KINDS = ("person", "organization", "project", "city", "event", "team")
NOTE_FACTS = (
    "Prefers morning meetings",
    "Speaks Portuguese",
    "Lives in Lisbon",
    "Joined in 2019",
    "Allergic to peanuts",
    "Plays the cello",
    "Runs the book club",
    "Drives an electric car",
    "Has two cats",
    "Works remotely on Fridays",
    "Moved here from Osaka",
    "Volunteers at the food bank",
)
CHATTER = re.compile(
    r"(?i)\b(i|i'm|i'd|i'll|i've|me|my|you|your|please|glad|ready to|no|yes)\b(?!\.)"
    r"|^\w:|\b(is|are|the|a|an|and|with|of|to)$"
)
PERSONISH = {"name", "username", "user", "owner", "author", "assignee", "first", "last", "contact", "person"}


def field_words(name: str) -> list[str]:
    return split_words(name) or [name.lower()]


def text_kind(field_name: str) -> str:
    """A coarse kind of a text field from its name: email, url, phone, date, person, pet, id, title, text."""
    w = set(field_words(field_name))
    if w & {"email", "mail"}:
        return "email"
    if w & {"url", "uri", "link", "photo", "urls"}:
        return "url"
    if w & {"phone", "mobile"}:
        return "phone"
    if w & {"date", "time", "at", "deadline", "due", "created", "updated", "modified"}:
        return "date"
    if w & {"password", "pwd", "secret", "token"}:
        return "password"
    if w & {"firstname", "lastname", "username"} or w & {"first", "last"} or field_name.lower() in ("username",):
        return "person"
    return "text"


def fallback_text(resource: str, field_name: str, rng: random.Random) -> str:
    """A seeded, plausible text value for a field (used when the model's answer fails validation)."""
    kind = text_kind(field_name)
    w = field_words(field_name)
    if kind == "email":
        return f"{rng.choice(FIRST).lower()}.{rng.choice(LAST).lower()}@example.com"
    if kind == "url":
        return f"https://example.com/{rng.choice(NOUNS)}/{rng.randint(1, 999)}"
    if kind == "phone":
        return "555-%04d" % rng.randint(0, 9999)
    if kind == "date":
        return "2024-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28))
    if kind == "password":
        return f"{rng.choice(ADJ)}-{rng.choice(NOUNS)}-{rng.randint(10, 99)}"
    if "username" in field_name.lower():
        return f"{rng.choice(FIRST).lower()}{rng.randint(1, 99)}"
    if "first" in w:
        return rng.choice(FIRST)
    if "last" in w:
        return rng.choice(LAST)
    if resource in ("pet", "animal", "dog", "cat") and "name" in w:
        return rng.choice(ANIMALS)
    if "name" in w and resource in ("user", "person", "entity", "contact", "customer", "member", "owner"):
        return f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    if "name" in w or "title" in w:
        return f"{rng.choice(VERBS)} the {rng.choice(ADJ)} {rng.choice(NOUNS)}"
    if set(w) & {"type", "kind"} and set(w + [resource]) & {"relation", "link", "edge", "connection"}:
        return rng.choice(LINK_KINDS)  # how two records relate: "works with", not a noun
    if set(w) & {"type", "kind"} and set(w + [resource]) & {"entity", "node", "vertex"}:
        return rng.choice(NODE_KINDS)
    if set(w) & {"observation", "observations", "note", "notes", "remark", "remarks", "fact", "facts"}:
        return rng.choice(NOTE_FACTS)  # what is known about a record, not a to-do
    if "type" in w or "kind" in w or "category" in w or "tag" in w or "tags" in w:
        return rng.choice(NOUNS)
    return (
        f"{rng.choice(VERBS)} the {rng.choice(NOUNS)} "
        f"before {rng.choice(('Monday', 'Friday', 'noon', 'lunch', 'the trip'))}"
    )


def clean_answer(text: str) -> str | None:
    """The model's answer as one short value, or None when it is unusable."""
    line = (text or "").strip().splitlines()[0].strip() if (text or "").strip() else ""
    line = line.strip().strip("\"'`*").strip()
    line = re.sub(r"^(title|name|answer|value)\s*:\s*", "", line, flags=re.I).strip()
    head = re.split(r"[:;]| - ", line)[0].strip()
    if len(head.split()) >= 2:
        line = head  # "The Garden Planner: A Guide to ..." -> "The Garden Planner"
    for _ in range(2):
        line = line.rstrip(".").strip().strip("\"'`*").strip()
    if not (2 <= len(line) <= 48) or not _OK_TEXT.match(line):
        return None
    line = line.rstrip(":;,").strip()  # "Family:" -> "Family"
    low = line.lower()
    if any(bad in low for bad in ("as an ai", "i'm sorry", "i cannot", "sure", "here is", "answer")):
        return None
    if CHATTER.search(line) or line.endswith(("?", "!")):  # the model talking, not a value
        return None
    if len(line.split()) > 8:
        return None
    return line


def text_fields(model: Any) -> list[tuple[str, str]]:
    """(resource, field) pairs that take free text, in a stable order (records, then tool parameters)."""
    out: list[tuple[str, str]] = []

    def visit(resource: str, props: dict[str, Any], skip: str | None = None) -> None:
        for fname, fs in props.items():
            fs = fs or {}
            if fname == skip:
                continue
            typ = json_type(fs)
            if typ == "array":
                items = fs.get("items") or {}
                if json_type(items) == "string":
                    pair = (resource, fname)
                elif json_type(items) == "object":
                    visit(singular(fname), items.get("properties") or {})
                    continue
                else:
                    continue
            elif typ == "object":
                visit(singular(fname), fs.get("properties") or {})
                continue
            elif typ == "string" and fs.get("format") not in ("uuid", "date-time", "date", "password"):
                pair = (resource, fname)
            else:
                continue
            if text_kind(fname) == "text" and pair not in out:
                out.append(pair)

    from synth.tasks.envmodel import field_ref

    for col in model.collections.values():
        refs = {f for f in col.fields if field_ref(model, col.name, f)}
        key = (
            col.key_field
            if (col.fields.get(col.key_field or "") or {}).get("type") != "string"
            or col.key_field == "id"
            or col.key_prefix
            else None
        )
        visit(col.resource, {f: v for f, v in col.fields.items() if f not in refs}, key)
    return out


@dataclass
class TextPool:
    """Realistic text values per (resource, field), with where each came from."""

    values: dict[str, list[str]] = field(default_factory=dict)
    source: dict[str, dict[str, int]] = field(default_factory=dict)  # key -> {"llm": n, "fallback": n}

    @staticmethod
    def key(resource: str, field_name: str) -> str:
        return f"{resource}.{field_name}"

    def get(self, resource: str, field_name: str, rng: random.Random, avoid: set | None = None) -> str:
        """A value for the field; a seeded fallback when the pool has none left outside `avoid`."""
        options = [v for v in self.values.get(self.key(resource, field_name), []) if not avoid or v not in avoid]
        if options:
            return rng.choice(options)
        for _ in range(20):
            v = fallback_text(resource, field_name, rng)
            if not avoid or v not in avoid:
                return v
        return f"{fallback_text(resource, field_name, rng)} {rng.randint(100, 999)}"


def build_pool(model: Any, client: Any | None, per_field: int = 6, seed: int = 0) -> TextPool:
    """Ask the model for `per_field` values of each text field (one small question each), validated."""
    pool = TextPool()
    rng = random.Random(f"pool:{model.env_id}:{seed}")
    domain = model.title or model.env_id
    for resource, fname in text_fields(model):
        key = TextPool.key(resource, fname)
        vals: list[str] = []
        counts = {"llm": 0, "fallback": 0}
        for i in range(per_field):
            topic = TOPICS[(i + len(vals) * 3 + len(key)) % len(TOPICS)]
            answer = None
            if client is not None:
                prompt = render(
                    "tasks_text_value.j2",
                    resource=resource,
                    field=" ".join(field_words(fname)),
                    domain=domain,
                    topic=topic,
                )
                text = client.chat([{"role": "user", "content": prompt}], max_tokens=24, tag="tasks.text").text
                answer = clean_answer(text)
                if answer in vals:
                    answer = None
            if answer is not None:
                counts["llm"] += 1
            else:
                answer = fallback_text(resource, fname, rng)
                while answer in vals:
                    answer = fallback_text(resource, fname, rng)
                counts["fallback"] += 1
            vals.append(answer)
        pool.values[key] = vals
        pool.source[key] = counts
    return pool
