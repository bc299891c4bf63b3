"""Answers learned from recorded calls (--traces) that are messages rather than records: the one envelope key every
successful answer has, a message built from the call's arguments ("Moved a.txt to docs"), where a moved node lands
(`dest/src` into a folder, else `dest`), and argument values that always answer the same (`cd ..` answering `{}`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase


def recorded_envelope(recorded: list[TestCase]) -> str | None:
    """The one key every successful recorded output is an object of, or None."""
    outs = [c.expect_result for c in recorded if not c.expect_error and c.expect_result is not None]
    keys = {tuple(o) if isinstance(o, dict) else None for o in outs}
    if len(keys) == 1:
        only = next(iter(keys))
        if only is not None and len(only) == 1:
            return only[0]
    return None


def _message_pieces(text: str, arguments: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The text as literal pieces and argument values (longest values first, at least 2 characters); a marked
    landing path is its own piece."""
    if LANDED in text:
        head, tail = text.split(LANDED, 1)
        return _message_pieces(head, arguments) + (("landed", ""),) + _message_pieces(tail, arguments)
    if not text:
        return ()
    values = sorted(
        {v: k for k, v in sorted(arguments.items()) if isinstance(v, str) and len(v) >= 2}.items(),
        key=lambda kv: -len(kv[0]),
    )
    if not values:
        return (("text", text),)
    pattern = re.compile("|".join(re.escape(v) for v, _ in values))
    names = dict(values)
    pieces: list[tuple[str, str]] = []
    last = 0
    for m in pattern.finditer(text):
        if m.start() > last:
            pieces.append(("text", text[last : m.start()]))
        pieces.append(("arg", names[m.group(0)]))
        last = m.end()
    if last < len(text):
        pieces.append(("text", text[last:]))
    return tuple(pieces)


def recorded_message(
    recorded: list[TestCase], mark: Callable[[str, dict[str, Any]], str] | None = None
) -> tuple[str, list[list[str]]] | None:
    """(key, pieces) of the message most successful recorded outputs `{key: text}` share, built from arguments
    (and, with `mark`, from the parts it marks)."""
    counts: dict[tuple[str, tuple[tuple[str, str], ...]], int] = {}
    for c in recorded:
        out = c.expect_result
        if c.expect_error or not isinstance(out, dict) or len(out) != 1:
            continue
        key, text = next(iter(out.items()))
        if isinstance(text, str) and text:
            pieces = _message_pieces(mark(text, c.arguments) if mark else text, c.arguments)
            if any(kind in ("arg", "landed") for kind, _ in pieces):
                counts[(key, pieces)] = counts.get((key, pieces), 0) + 1
    if not counts:
        return None
    (key, pieces), n = max(counts.items(), key=lambda kv: (kv[1], kv[0][0]))
    return (key, [list(p) for p in pieces]) if n >= 2 else None


LANDED = "\x00landed\x00"  # where a moved or copied node ends up: `dest/src` into a folder, else `dest`


def landed_text(text: str, arguments: dict[str, Any], plan: ToolPlan) -> str:
    """A recorded message with the moved node's new path marked (tree_move / tree_copy only)."""
    src, dest = arguments.get(plan.key_param or ""), arguments.get(plan.fields[0] if plan.fields else "")
    if not isinstance(src, str) or not isinstance(dest, str) or not src or not dest:
        return text
    if f"{dest}/{src}" in text:
        return text.replace(f"{dest}/{src}", LANDED)
    return re.sub(rf"(?<![\w/]){re.escape(dest)}(?![\w/])", LANDED, text)


def special_outputs(recorded: list[TestCase]) -> list[dict[str, Any]]:
    """Argument values whose successful calls (two or more) all answer the same answer, which does not name the
    value, unlike the other values' calls (`cd ..` answering `{}` where every other folder answers its name)."""
    ok = [c for c in recorded if not c.expect_error and c.expect_result is not None]
    out = []
    for name in sorted({n for c in ok for n, v in c.arguments.items() if isinstance(v, str)}):
        groups: dict[str, list[Any]] = {}
        for c in ok:
            if isinstance(c.arguments.get(name), str):
                groups.setdefault(c.arguments[name], []).append(c.expect_result)
        for value, outputs in sorted(groups.items()):
            others = [o for v, outs in groups.items() if v != value for o in outs]
            mentions = value in json.dumps(outputs[0])  # an answer naming the value follows the general rule
            if len(outputs) >= 2 and all(o == outputs[0] for o in outputs) and others and not mentions:
                out.append({"arg": name, "value": value, "output": outputs[0]})
    return out


__all__ = ["LANDED", "landed_text", "recorded_envelope", "recorded_message", "special_outputs"]
