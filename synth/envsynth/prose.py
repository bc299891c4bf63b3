"""Docs prose as sentences: hard-wrapped lines (YAML block scalars, markdown) joined back, list items kept apart."""

from __future__ import annotations

import re

# a line break inside a sentence: the line before does not end one, the next does not start a list item or heading
WRAPPED = re.compile(r"(?<=[^\s.!?:;])[ \t]*\n[ \t]*(?=[^\s\-*+#|>\d])")


def unwrap(text: str) -> str:
    """The text with the line breaks that only wrap a sentence replaced by spaces."""
    return WRAPPED.sub(" ", text)


__all__ = ["unwrap"]
