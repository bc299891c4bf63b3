"""The reward: score an episode's final state and replies against its task.

`score_episode(task, final_state, agent_messages) -> Reward` gives reward 1.0 when

- the final state equals the task's gold final state on every path that is not exempt
  (`task.checks.exempt_paths`, JSON-pointer-like paths where `*` matches one key or index,
  e.g. "/todos/*/updated"; an exempt path also exempts everything below it), and
- every string in `task.checks.required_facts` appears in the agent's replies
  (case-insensitive, whitespace-normalized, not glued to letters or digits; a numeric fact also
  matches the same number written differently, "12.5" for "12.50"), and none of the answers it could
  be confused with (`task.checks.fact_options`) is said beside it: listing every option fails.

Otherwise the reward is 0.0. The breakdown says why (`state_match`, the first few `diff_paths`,
`facts_found`, `facts_missing`).

Speed: subtrees are compared with Python's C-level `==` first and only descended where they differ,
so an unchanged collection of thousands of records costs one native comparison. Values compare with
Python's `==` (1 == 1.0; also true == 1, which JSON would keep apart: tool code stores typed values,
so this looseness is accepted for speed).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

MAX_DIFF_PATHS = 5
_MISSING = object()


@dataclass
class Reward:
    """The scalar reward of one episode and why it was given."""

    reward: float
    breakdown: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"reward": self.reward, "breakdown": dict(self.breakdown)}


# ---------------------------------------------------------------------------------------------
# paths


def escape_segment(key: str) -> str:
    """Escape one key for a JSON-pointer-like path ("~" -> "~0", "/" -> "~1")."""
    return str(key).replace("~", "~0").replace("/", "~1")


def split_path(path: str) -> tuple[str, ...]:
    """Split "/a/b~1c/*" into ("a", "b/c", "*"); "" or "/" is the whole document."""
    if path in ("", "/"):
        return ()
    body = path[1:] if path.startswith("/") else path
    return tuple(seg.replace("~1", "/").replace("~0", "~") for seg in body.split("/"))


def join_path(segments: Iterable[Any]) -> str:
    """Inverse of split_path."""
    return "".join("/" + escape_segment(str(s)) for s in segments)


@lru_cache(maxsize=4096)
def _compile(exempt_paths: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(split_path(p) for p in exempt_paths)


def _advance(patterns: tuple[tuple[str, ...], ...], key: str) -> tuple[tuple[str, ...], ...] | None:
    """Patterns that still apply below `key`; None means `key` itself is exempt."""
    out = []
    for pat in patterns:
        if pat[0] == "*" or pat[0] == key:
            rest = pat[1:]
            if not rest:
                return None
            out.append(rest)
    return tuple(out)


def is_exempt(path: str, exempt_paths: Iterable[str]) -> bool:
    """True when `path` is at or below one of `exempt_paths`."""
    segs = split_path(path)
    for pat in _compile(tuple(exempt_paths)):
        if len(pat) <= len(segs) and all(p == "*" or p == s for p, s in zip(pat, segs)):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# state comparison


def _diff(a: Any, b: Any, segs: list[str], patterns: tuple, out: list[str], limit: int) -> None:
    if len(out) >= limit or a is b:
        return
    # callers only descend where values differ, so no whole-subtree == here
    if isinstance(a, dict) and isinstance(b, dict):
        for key, va in a.items():
            vb = b.get(key, _MISSING)
            if vb is va or (vb is not _MISSING and va == vb):
                continue
            sub = _advance(patterns, str(key)) if patterns else ()
            if sub is None:
                continue
            if vb is _MISSING:
                out.append(join_path([*segs, key]))
            else:
                segs.append(str(key))
                _diff(va, vb, segs, sub, out, limit)
                segs.pop()
            if len(out) >= limit:
                return
        for key in b:
            if key not in a and (not patterns or _advance(patterns, str(key)) is not None):
                out.append(join_path([*segs, key]))
                if len(out) >= limit:
                    return
        return
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            if i < len(a) and i < len(b) and (a[i] is b[i] or a[i] == b[i]):
                continue
            key = str(i)
            sub = _advance(patterns, key) if patterns else ()
            if sub is None:
                continue
            if i >= len(a) or i >= len(b):
                out.append(join_path([*segs, key]))
            else:
                segs.append(key)
                _diff(a[i], b[i], segs, sub, out, limit)
                segs.pop()
            if len(out) >= limit:
                return
        return
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)) or a != b:
        out.append(join_path(segs))


def state_diff(expected: Any, actual: Any, exempt_paths: Iterable[str] = (), limit: int = MAX_DIFF_PATHS) -> list[str]:
    """Paths where `actual` differs from `expected`, exempt paths skipped; at most `limit` of them.

    A key missing on one side is reported at its own path; a type change at the node's path.
    """
    out: list[str] = []
    patterns = _compile(tuple(exempt_paths))
    if any(len(p) == 0 for p in patterns):
        return out
    if expected is actual or expected == actual:
        return out
    _diff(expected, actual, [], patterns, out, max(1, limit))
    return out


def states_match(expected: Any, actual: Any, exempt_paths: Iterable[str] = ()) -> bool:
    """True when the two states agree on every non-exempt path."""
    return not state_diff(expected, actual, exempt_paths, limit=1)


# ---------------------------------------------------------------------------------------------
# facts in replies

_WS = re.compile(r"\s+")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:[.,]\d+)?(?![\w])")


def _message_text(message: Any) -> str:
    """The text an agent said in one message (str, or an OpenAI-style dict; tool/user turns ignored)."""
    if message is None:
        return ""
    if isinstance(message, str):
        return message
    if isinstance(message, dict):
        role = message.get("role")
        if role is not None and role != "assistant":
            return ""
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            parts = []
            for part in content:
                if isinstance(part, str):
                    parts.append(part)
                elif isinstance(part, dict) and isinstance(part.get("text"), str):
                    parts.append(part["text"])
            return "\n".join(parts)
        return ""
    return str(message)


def normalize_text(text: str) -> str:
    """Lowercase and collapse whitespace (also turns non-breaking spaces into spaces)."""
    return _WS.sub(" ", str(text).lower()).strip()


def _as_number(text: str) -> float | None:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def fact_in_text(fact: str, normalized_text: str, numbers: set[float] | None = None) -> bool:
    """True when `fact` occurs in already-normalized text, not glued to letters or digits."""
    nf = normalize_text(fact)
    if not nf:
        return True
    left = r"(?<![0-9a-z])" if nf[0].isalnum() else ""
    right = r"(?![0-9a-z])" if nf[-1].isalnum() else ""
    if re.search(left + re.escape(nf) + right, normalized_text):
        return True
    value = _as_number(nf)
    if value is not None:
        if numbers is None:
            numbers = _numbers_in(normalized_text)
        return value in numbers
    return False


def _numbers_in(text: str) -> set[float]:
    out = set()
    for m in _NUMBER.finditer(text):
        v = _as_number(m.group(0))
        if v is not None:
            out.add(v)
    return out


def find_facts(
    facts: Iterable[str], agent_messages: Iterable[Any], options: dict[str, list[str]] | None = None
) -> tuple[list[str], list[str]]:
    """Split `facts` into (found, missing) in the agent's replies. A fact whose `options` (the answers
    it could be confused with) also appear counts as missing: a list of every option states nothing."""
    facts = list(facts)
    if not facts:
        return [], []
    text = normalize_text("\n".join(_message_text(m) for m in (agent_messages or [])))
    numbers = _numbers_in(text)
    found, missing = [], []
    for fact in facts:
        ok = fact_in_text(str(fact), text, numbers)
        if ok and options:
            ok = not any(fact_in_text(str(o), text, numbers) for o in options.get(str(fact), []))
        (found if ok else missing).append(fact)
    return found, missing


# ---------------------------------------------------------------------------------------------
# reward


def score_episode(task: Any, final_state: dict, agent_messages: list[str] | list[dict] | None = None) -> Reward:
    """Score one episode of `task`: 1.0 when the state matches and every required fact was said.

    `task` is a synth.task.Task (or anything with gold_final_state and checks.exempt_paths /
    checks.required_facts). Breakdown keys: state_match, diff_paths (first few), facts_found,
    facts_missing, facts_required.
    """
    checks = task.checks
    exempt = tuple(getattr(checks, "exempt_paths", None) or ())
    facts = list(getattr(checks, "required_facts", None) or ())
    diffs = state_diff(task.gold_final_state, final_state, exempt, limit=MAX_DIFF_PATHS)
    found, missing = find_facts(facts, agent_messages or [], getattr(checks, "fact_options", None) or {})
    state_ok = not diffs
    ok = state_ok and not missing
    return Reward(
        reward=1.0 if ok else 0.0,
        breakdown={
            "state_match": state_ok,
            "diff_paths": diffs,
            "facts_required": len(facts),
            "facts_found": found,
            "facts_missing": missing,
        },
    )
