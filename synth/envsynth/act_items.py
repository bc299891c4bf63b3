"""The policy items of a tool that no policy heading names: in the one section whose heading is on the tool's nouns
("Changes to crews" for `removeCrewHand`), the items (bullets, numbered lines, paragraphs) that open with its act
("- Removing a crew hand from a confirmed charter is allowed until ..."). An item that merely mentions the act, and
the section's other items, may state another step's rules, so they are left out (policy_rules.tool_text)."""

from __future__ import annotations

import re

from synth.words import singular


def _stems(words: list[str]) -> set[str]:
    return {singular(w.lower()) for w in words if w}


def _items(body: str) -> list[str]:
    """A section's items: its bullets and numbered lines (with the lines continuing them), or its paragraphs."""
    items: list[str] = []
    for line in body.splitlines():
        if re.match(r"\s*(?:[-*+]|\d+[.)])\s+", line) or not items or not line.strip() or not items[-1].strip():
            items.append(line)
        else:
            items[-1] += "\n" + line
    return [i for i in items if i.strip()]


def names_act(words: list[str], item: str) -> bool:
    """Whether the item opens with the name's verb of its nouns: "- Removing a crew hand ...", "Remove crew hands"."""
    if len(words) < 2 or len(words[0]) < 3:
        return False
    verb, noun = words[0].lower(), r"\s+".join(re.escape(singular(w.lower())) for w in words[1:])
    stem = verb[:-1] if verb.endswith("e") else verb
    said = rf"^\s*(?:[-*+]|\d+[.)])?\s*\**{re.escape(stem)}(?:e|es|ing|s)?\s+(?:an?\s+|the\s+|one\s+)?{noun}s?\b"
    return re.match(said, item, re.I) is not None


def act_items(words: list[str], sections: list[tuple[list[set[str]], str]]) -> list[str]:
    """The items opening with the act of a tool named by `words`, from the one section on its nouns holding any."""
    nouns = _stems(words[1:])
    acting = [
        [item for item in _items(body) if names_act(words, item)]
        for heads, body in sections
        if heads and _stems(sorted(heads[-1])) & nouns
    ]
    acting = [items for items in acting if items]
    return acting[0] if len(acting) == 1 else []


__all__ = ["act_items", "names_act"]
