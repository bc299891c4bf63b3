"""Seeded, offline file-tree states: realistic folder and file names, short file texts.

A tree-shaped state (a state key whose schema carries `x-tree`: branch and leaf kinds, the child map,
the kind field and the text field) gets names the way people name files: words joined by `_`, `-` or
camel case, with an extension a file of that kind has ("meeting_notes.txt", "budget-2024.csv").
The words and extensions come from the environment's own sample states when it has them (`--data`,
the state schema's `examples`), else from a small built-in vocabulary. Texts are a few distinct lines
by extension (notes, table rows, log lines). Nothing here calls a model, so names are never task phrases.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synth.words import split_words

FOLDER_WORDS = (
    "projects", "reports", "drafts", "photos", "invoices", "notes", "backup", "shared", "receipts", "travel",
    "taxes", "clients", "research", "templates", "exports", "minutes", "budgets", "letters", "planning", "old",
)  # fmt: skip
FILE_WORDS = (
    "budget", "summary", "meeting", "notes", "invoice", "draft", "plan", "agenda", "contacts", "schedule",
    "expenses", "results", "inventory", "recipe", "itinerary", "proposal", "checklist", "timeline", "minutes",
    "roadmap", "estimate", "review", "survey", "payroll",
)  # fmt: skip
QUALIFIERS = ("2023", "2024", "q1", "q3", "final", "march", "june", "team", "weekly", "v2", "old", "new")
TOP_WORDS = ("home", "desk", "office", "personal")
TEXT_EXTS = ("txt", "md", "csv", "log")
PEOPLE = ("Ana", "Ben", "Chen", "Dana", "Eli", "Farah", "Gus", "Hana", "Ivan", "Jo", "Kemal", "Lena")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
MONTHS = ("March", "April", "May", "June", "July", "August", "September", "October")
NOTE_LINES = (
    "Call {person} about the {noun} on {day}",
    "{Noun} approved by {person}",
    "Send the {noun} to {person} before {day}",
    "Review the {noun} with the team in {month}",
    "{person} asked for a copy of the {noun}",
    "Set aside {n}00 dollars for the {noun}",
    "Move the {noun} meeting to {day}",
    "Order {n} boxes of paper for the office",
    "{Noun} is due on {month} {d}",
    "Ask {person} to check the {noun} numbers",
)  # fmt: skip
NOUNS = ("budget", "proposal", "contract", "schedule", "report", "invoice", "survey", "roadmap", "estimate", "launch")
CSV_ITEMS = ("paper", "toner", "pens", "chairs", "folders", "cables", "monitors", "stamps", "tape", "labels")
LOG_EVENTS = (
    "INFO backup finished",
    "INFO user {person} signed in",
    "WARN disk usage at {n}5 percent",
    "ERROR upload of {noun} failed",
    "INFO sync of {noun} started",
    "WARN retrying connection to server {n}",
    "INFO {n} files archived",
    "ERROR timeout while saving {noun}",
)  # fmt: skip


@dataclass
class TreeInfo:
    """One tree in the state: where it lives and how its nodes are marked (from the schema's `x-tree`)."""

    key: str
    children: str
    kind_field: str | None
    branch: str
    leaf: str
    text_field: str | None
    cwd_key: str | None = None  # the state key holding the working path, when there is one


def tree_infos(state_schema: dict[str, Any]) -> list[TreeInfo]:
    """The trees a state schema declares (`x-tree` on a property; `x-working-node-of` names its working path)."""
    props = state_schema.get("properties") or {}
    cwd = {str(s.get("x-working-node-of")): k for k, s in props.items() if isinstance(s, dict)}
    out = []
    for key in sorted(props):
        x = (props[key] or {}).get("x-tree") if isinstance(props[key], dict) else None
        if isinstance(x, dict) and x.get("children") and x.get("branch") and x.get("leaf"):
            out.append(
                TreeInfo(
                    key=key,
                    children=str(x["children"]),
                    kind_field=x.get("kind_field"),
                    branch=str(x["branch"]),
                    leaf=str(x["leaf"]),
                    text_field=x.get("text_field"),
                    cwd_key=cwd.get(key),
                )
            )
    return out


@dataclass
class Vocab:
    """Words for names, extensions and top-level names; learned from sample states when there are some."""

    folder_words: list[str] = field(default_factory=lambda: list(FOLDER_WORDS))
    file_words: list[str] = field(default_factory=lambda: list(FILE_WORDS))
    exts: list[str] = field(default_factory=lambda: list(TEXT_EXTS))
    tops: list[str] = field(default_factory=lambda: list(TOP_WORDS))
    avoid: set[str] = field(default_factory=set)  # words that must not appear (tool names)

    def ok(self, word: str) -> bool:
        return word.lower() not in self.avoid and word.isalpha() and 2 <= len(word) <= 14


def _walk(nodes: Any, info: TreeInfo, depth: int = 0):
    """(name, node, depth) for every node under a child map."""
    if not isinstance(nodes, dict):
        return
    for name in sorted(nodes):
        node = nodes[name]
        if isinstance(node, dict):
            yield name, node, depth
            yield from _walk(node.get(info.children), info, depth + 1)


def is_branch(node: Any, info: TreeInfo) -> bool:
    """True for a folder-like node."""
    if not isinstance(node, dict):
        return False
    if info.kind_field:
        return node.get(info.kind_field) == info.branch
    return isinstance(node.get(info.children), dict)


def learn_vocab(examples: list[Any], info: TreeInfo, avoid: set[str] | None = None) -> Vocab:
    """A Vocab from sample states: their folder and file words, their files' extensions, their top names.

    Too few words of a kind (fewer than 6) keep the built-in ones beside them."""
    vocab = Vocab(avoid={a.lower() for a in (avoid or set())})
    folders: set[str] = set()
    files: set[str] = set()
    exts: set[str] = set()
    tops: set[str] = set()
    for ex in examples:
        tree = ex.get(info.key) if isinstance(ex, dict) else None
        for name, node, depth in _walk(tree, info):
            if depth == 0 and is_branch(node, info) and re.fullmatch(r"[a-z]+", name):
                tops.add(name)
            stem, _, ext = name.rpartition(".") if "." in name.strip(".") else (name, "", "")
            words = [w for w in split_words(stem) if vocab.ok(w)]
            if is_branch(node, info):
                folders.update(words)
            else:
                files.update(words)
                if re.fullmatch(r"[a-z0-9]{2,4}", ext):
                    exts.add(ext)
    if len(folders) >= 6:
        vocab.folder_words = sorted(folders)
    else:
        vocab.folder_words = sorted(set(vocab.folder_words) | folders)
    vocab.file_words = sorted(files | set(vocab.file_words)) if len(files) < 6 else sorted(files)
    vocab.exts = sorted(exts & set(TEXT_EXTS + ("pdf", "docx"))) or vocab.exts
    vocab.tops = sorted(tops) or vocab.tops
    vocab.folder_words = [w for w in vocab.folder_words if vocab.ok(w)] or list(FOLDER_WORDS)
    vocab.file_words = [w for w in vocab.file_words if vocab.ok(w)] or list(FILE_WORDS)
    return vocab


def data_states(env_dir: str | Path, limit: int = 500) -> list[dict[str, Any]]:
    """Sample states of a grounded environment (`--data`): the JSON-lines files its manifest lists under
    `data.files`, up to `limit` states; [] when there are none or a file cannot be read."""
    d = Path(env_dir)
    try:
        manifest = json.loads((d / "manifest.json").read_text())
    except (OSError, json.JSONDecodeError):
        return []
    data = manifest.get("data") if isinstance(manifest, dict) else None
    out: list[dict[str, Any]] = []
    for rel in (data or {}).get("files") or [] if isinstance(data, dict) else []:
        path = d / str(rel)
        if path.suffix != ".jsonl" or not path.is_file():
            continue
        for line in path.read_text().splitlines():
            try:
                state = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(state, dict):
                out.append(state)
            if len(out) >= limit:
                return out
    return out


def join_words(words: list[str], style: str) -> str:
    """Words joined the way file names are: snake, kebab or camel case."""
    if style == "kebab":
        return "-".join(w.lower() for w in words)
    if style == "camel":
        return "".join(w[:1].upper() + w[1:].lower() for w in words)
    return "_".join(w.lower() for w in words)


def _fresh(make, taken: set[str]) -> str:
    for _ in range(50):
        name = make()
        if name not in taken and not any(name in t or t in name for t in taken):
            taken.add(name)
            return name
    raise ValueError("no fresh name after 50 tries")


def branch_name(rng: random.Random, vocab: Vocab, taken: set[str]) -> str:
    """A new folder name, not containing and not contained in any taken name (so a name search finds one)."""

    def make() -> str:
        words = [rng.choice(vocab.folder_words)]
        if rng.random() < 0.35:
            words.append(rng.choice(QUALIFIERS))
        return join_words(words, rng.choice(("snake", "snake", "kebab", "camel")))

    return _fresh(make, taken)


def leaf_name(rng: random.Random, vocab: Vocab, taken: set[str], ext: str | None = None) -> str:
    """A new file name with an extension ("budget_2024.csv"), unique as `folder_name` is."""

    def make() -> str:
        words = rng.sample(vocab.file_words, 2) if rng.random() < 0.5 else [rng.choice(vocab.file_words)]
        if rng.random() < 0.4:
            words.append(rng.choice(QUALIFIERS))
        return (
            join_words(words, rng.choice(("snake", "snake", "kebab", "camel"))) + "." + (ext or rng.choice(vocab.exts))
        )

    return _fresh(make, taken)


def _fill(template: str, rng: random.Random) -> str:
    noun = rng.choice(NOUNS)
    return template.format(
        person=rng.choice(PEOPLE),
        day=rng.choice(DAYS),
        month=rng.choice(MONTHS),
        noun=noun,
        Noun=noun.capitalize(),
        n=rng.randint(2, 9),
        d=rng.randint(2, 28),
    )


def leaf_text(rng: random.Random, name: str, avoid: set[str] | None = None, lines: int | None = None) -> str:
    """A few distinct lines fitting the file's extension (notes, CSV rows, log lines), joined by newlines."""
    ext = name.rpartition(".")[2].lower()
    n = lines or rng.randint(2, 6)
    out: list[str] = []
    if ext == "csv":
        out.append("item,quantity,price")
        for item in rng.sample(CSV_ITEMS, min(n, len(CSV_ITEMS))):
            out.append(f"{item},{rng.randint(1, 40)},{rng.randint(1, 90)}.{rng.choice(('00', '50', '99'))}")
        return "\n".join(out)
    bad = {a.lower() for a in (avoid or set())}
    for _ in range(n * 10):
        if len(out) >= n:
            break
        if ext == "log":
            line = "2024-%02d-%02d %02d:%02d " % (
                rng.randint(1, 12),
                rng.randint(1, 28),
                rng.randint(7, 19),
                rng.randint(0, 59),
            )
            line += _fill(rng.choice(LOG_EVENTS), rng)
        else:
            line = _fill(rng.choice(NOTE_LINES), rng)
        if line not in out and not ({w.lower() for w in re.findall(r"[A-Za-z]+", line)} & bad):
            out.append(line)
    return "\n".join(out)


@dataclass
class TreeShape:
    """How big generated trees are."""

    folders: tuple[int, int] = (3, 5)  # folders under the top
    sub: tuple[int, int] = (0, 2)  # subfolders per folder (one level below)
    files: tuple[int, int] = (1, 3)  # files per folder
    top_files: tuple[int, int] = (1, 2)


def make_tree(info: TreeInfo, rng: random.Random, vocab: Vocab, shape: TreeShape | None = None) -> dict[str, Any]:
    """A new state value for the tree: one top folder holding folders, subfolders and files."""
    shape = shape or TreeShape()
    taken: set[str] = set()

    def node(kind: str) -> dict[str, Any]:
        out: dict[str, Any] = {info.kind_field: kind} if info.kind_field else {}
        if kind == info.branch:
            out[info.children] = {}
        return out

    def add_files(into: dict[str, Any], lo_hi: tuple[int, int]) -> None:
        for _ in range(rng.randint(*lo_hi)):
            name = leaf_name(rng, vocab, taken)
            leaf = node(info.leaf)
            if info.text_field:
                leaf[info.text_field] = leaf_text(rng, name, vocab.avoid)
            into[name] = leaf

    top_name = rng.choice(vocab.tops)
    taken.add(top_name)
    top = node(info.branch)
    for _ in range(rng.randint(*shape.folders)):
        fname = branch_name(rng, vocab, taken)
        folder = node(info.branch)
        add_files(folder[info.children], shape.files)
        for _ in range(rng.randint(*shape.sub)):
            sname = branch_name(rng, vocab, taken)
            sub = node(info.branch)
            add_files(sub[info.children], (0, 2))
            folder[info.children][sname] = sub
        top[info.children][fname] = folder
    add_files(top[info.children], shape.top_files)
    return {top_name: top}


def tree_nodes(state: dict[str, Any], info: TreeInfo) -> list[tuple[list[str], str, dict[str, Any]]]:
    """(folder path below the working top, name, node) for every node, in sorted walk order."""
    tree = state.get(info.key) or {}
    tops = [n for n in tree.values() if is_branch(n, info)]
    start = tops[0].get(info.children) if len(tree) == 1 and len(tops) == 1 else tree
    out: list[tuple[list[str], str, dict[str, Any]]] = []

    def rec(nodes: Any, path: list[str]) -> None:
        if not isinstance(nodes, dict):
            return
        for name in sorted(nodes):
            n = nodes[name]
            if isinstance(n, dict):
                out.append((path, name, n))
                if is_branch(n, info):
                    rec(n.get(info.children), path + [name])

    rec(start, [])
    return out
