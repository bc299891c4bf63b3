"""Texts a call writes from its arguments and the record it changes, learned from recorded calls (--traces):
"patient_request; stock returned" from the reason given, "3 fills moved to Ridgeview Drug (555-0412)" from the
record's count and the arguments.

The recorded texts are read as the sample data's logged texts are (entry_texts.learned_text): the record before
the call is the record, the call's arguments (its key aside) are the one element the text may show, and the
element's placeholders then read the arguments. Two samples at least, so that a text seen once is not taken for a
template.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.docs_entries import _element_as_argument
from synth.envsynth.entry_texts import learned_text

Sample = tuple[Any, dict[str, Any], dict[str, Any], dict[str, Any]]


def learn_text(samples: list[Sample], key_param: str) -> dict[str, Any] | None:
    """A `concat` (or `given`) source writing every sample's recorded text, or None."""
    if len(samples) < 2 or not all(isinstance(v, str) for v, *_ in samples):
        return None
    rows = [(v, record, [{k: a for k, a in args.items() if k != key_param}]) for v, args, record, _ in samples]
    found = learned_text(rows)
    return _element_as_argument(found) if found is not None else None


__all__ = ["learn_text"]
