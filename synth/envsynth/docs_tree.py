"""A directory tree from the docs alone, for APIs whose tools name files and folders but no records.

Shell-like docs (`ls`, `cd`, `cat FILE_NAME`, `mkdir DIR_NAME`) describe no collection: their state is a tree
of named nodes. When at least three tools, and half of them, name files and directories (their parameter names
or descriptions) and the docs' schema has no collection but ones keyed by such names (`dir_name`), the state is
a tree with a neutral layout (`children`, a `kind` of the docs' own two words, a `text` for file contents) and a
small example built from neutral names. It goes through the same inference as sample data (`synth.data.infer`),
so every tree plan kind (list, read, make, remove, write, move, copy, working directory) serves it. With --data,
the data's own layout is used instead.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.schema_stage import SchemaResult
from synth.spec import DocSet

FILE_WORDS = re.compile(r"\bfiles?\b|\bfile_?name", re.IGNORECASE)
BRANCH_WORDS = {
    "directory": re.compile(r"\bdirector(?:y|ies)\b|\bdir(?:_?name)?\b", re.IGNORECASE),
    "folder": re.compile(r"\bfolders?\b", re.IGNORECASE),
}
TREE = "files"
CHILDREN, KIND, TEXT = "children", "kind", "text"


def _text(tool: Any) -> str:
    params = " ".join(sorted((tool.parameters.get("properties") or {}).keys()))
    return f"{tool.name} {tool.description} {params}"


def branch_word(docset: DocSet) -> str | None:
    """The docs' word for a node that holds others ('directory' or 'folder'), when >= 3 tools name files and
    such nodes together; else None."""
    texts = [_text(t) for t in docset.tools]
    counts = {w: sum(1 for t in texts if rx.search(t)) for w, rx in BRANCH_WORDS.items()}
    filing = sum(1 for t in texts if FILE_WORDS.search(t) or any(rx.search(t) for rx in BRANCH_WORDS.values()))
    word = max(sorted(counts), key=lambda w: counts[w])
    if filing < 3 or counts[word] == 0 or not any(FILE_WORDS.search(t) for t in texts):
        return None
    return word


def _names_node(text: str) -> bool:
    return bool(FILE_WORDS.search(text) or any(rx.search(text) for rx in BRANCH_WORDS.values()))


def prefers_tree(docset: DocSet, result: SchemaResult) -> bool:
    """The docs describe a file tree (see branch_word), at least half of the tools name files or directories, and
    the docs' own schema found no record collection but ones keyed by such names (`dir_name`)."""
    if branch_word(docset) is None or result.singletons:
        return False
    if sum(1 for t in docset.tools if _names_node(_text(t))) * 2 < len(docset.tools):
        return False
    keys = [
        " ".join([c.get("key_field") or ""] + list(c.get("composite_key") or [])) for c in result.collections.values()
    ]
    return all(_names_node(k.replace("_", " ")) or _names_node(k) for k in keys)


def example_tree(branch: str) -> dict[str, Any]:
    """A small tree with neutral names: a top node holding files and one nested node."""

    def leaf(text: str) -> dict[str, Any]:
        return {KIND: "file", TEXT: text}

    def node(children: dict[str, Any]) -> dict[str, Any]:
        return {KIND: branch, CHILDREN: children}

    inner = node({"summary.txt": leaf("total 42\nitems 7"), "old": node({})})
    return {
        TREE: {
            "home": node(
                {"notes.txt": leaf("first line\nsecond line\nthird line"), "plan.md": leaf("step one"), "work": inner}
            )
        }
    }


def docs_tree_schema(docset: DocSet) -> SchemaResult | None:
    """The SchemaResult of a docs-only tree (source `docs-tree`), or None when the docs describe none."""
    branch = branch_word(docset)
    if branch is None:
        return None
    from synth.data.infer import infer_layout
    from synth.data.load import SampleData
    from synth.data.reconcile import grounded_schema

    sample = SampleData(path="(docs)", kind="docs", states=[example_tree(branch)])
    result = grounded_schema(docset, sample, infer_layout(sample.states, sample.path))
    if not result.data.get("trees"):
        return None
    result.source = "docs-tree"
    result.data = {**result.data, "notes": ["a directory tree read from the docs: no data given"]}
    return result


__all__ = ["branch_word", "docs_tree_schema", "example_tree", "prefers_tree"]
