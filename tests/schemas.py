"""Schema shapes the tests build states from (not a test module)."""

from __future__ import annotations

from typing import Any


def collection(props: dict[str, Any]) -> dict[str, Any]:
    """A state collection: records keyed by id, each an object with these properties."""
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}
