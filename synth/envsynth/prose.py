"""Docs prose as sentences: hard-wrapped lines (YAML block scalars, markdown) joined back, list items kept apart."""

from __future__ import annotations

import re

# a line break inside a sentence: the line before does not end one, the next does not start a list item or heading
WRAPPED = re.compile(r"(?<=[^\s.!?:;])[ \t]*\n[ \t]*(?=[^\s\-*+#|>\d])")


NEGATED = re.compile(r"\b(?:not|never|no|cannot)\b|n['\u2019]t\b", re.IGNORECASE)


def unwrap(text: str) -> str:
    """The text with the line breaks that only wrap a sentence replaced by spaces."""
    return WRAPPED.sub(" ", text)


def negated_before(text: str, at: int) -> bool:
    """Whether the sentence (or clause after a ';') that position `at` lies in says "not", "never", "no",
    "cannot" or "-n't" before it ("Not every ...", "may not be paid by card or from ...")."""
    opened = max(text.rfind(".", 0, at), text.rfind("\n", 0, at), text.rfind(";", 0, at))
    return bool(NEGATED.search(text[opened + 1 : at]))


__all__ = ["negated_before", "unwrap"]
