"""Parse one assistant turn (Hermes-style text) into thinking, text and tool calls.

This is the only place model output is interpreted. The format (see docs/rollouts.md):

    <think>free-form reasoning</think>
    optional text for the user
    <tool_call>
    {"name": "tool_name", "arguments": {"key": "value"}}
    </tool_call>

Any number of `<tool_call>` blocks may follow each other. A turn that cannot be read is not an
exception: `ParsedTurn.parse_error` says why, `raw` keeps the text, and the rollout's parse-error
policy decides what it costs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from synth.spec import ToolCall

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
CALL_OPEN, CALL_CLOSE = "<tool_call>", "</tool_call>"
_CALL_RE = re.compile(re.escape(CALL_OPEN) + r"(.*?)" + re.escape(CALL_CLOSE), re.DOTALL)


@dataclass
class ParsedTurn:
    """One assistant turn, read once. `tool_calls` is empty when the agent only talks."""

    raw: str
    thinking: str = ""
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    parse_error: str | None = None

    @property
    def ok(self) -> bool:
        return self.parse_error is None

    def to_message(self) -> dict[str, Any]:
        """The structured dialogue entry stored on the trajectory."""
        return {
            "role": "assistant",
            "content": self.text,
            "thinking": self.thinking,
            "tool_calls": [c.to_dict() for c in self.tool_calls],
            "parse_error": self.parse_error,
            "raw": self.raw,
        }


def strip_end_markers(text: str, markers: tuple[str, ...]) -> str:
    """Remove end-of-turn markers (e.g. `<|im_end|>`) that the sampler left at the end."""
    out = text.rstrip()
    changed = True
    while changed:
        changed = False
        for m in markers:
            if m and out.endswith(m):
                out = out[: -len(m)].rstrip()
                changed = True
    return out


def _split_thinking(text: str) -> tuple[str, str, str | None]:
    """Return (thinking, rest, error). Thinking must come first when present."""
    stripped = text.lstrip()
    if THINK_CLOSE in stripped and not stripped.startswith(THINK_OPEN):
        # Some chat templates open <think> in the generation prompt; accept a bare close tag at the start.
        head, _, rest = stripped.partition(THINK_CLOSE)
        if THINK_OPEN in head:
            return "", text, "<think> must open the turn"
        if CALL_OPEN in head:
            return "", text, "misplaced </think>"
        return head.strip(), rest, None
    if not stripped.startswith(THINK_OPEN):
        if THINK_OPEN in stripped:
            return "", text, "<think> must open the turn"
        return "", text, None
    body = stripped[len(THINK_OPEN) :]
    if THINK_CLOSE not in body:
        return body.strip(), "", "unterminated <think>"
    thinking, _, rest = body.partition(THINK_CLOSE)
    if THINK_OPEN in rest or THINK_CLOSE in rest:
        return thinking.strip(), rest, "more than one <think> block"
    return thinking.strip(), rest, None


def _read_call(body: str) -> tuple[ToolCall | None, str | None]:
    """Decode the JSON inside one <tool_call> block."""
    try:
        obj = json.loads(body.strip())
    except json.JSONDecodeError as ex:
        return None, f"tool call is not valid JSON ({ex.msg} at char {ex.pos})"
    if not isinstance(obj, dict):
        return None, "tool call must be a JSON object"
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return None, 'tool call lacks a string "name"'
    args: Any = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(args, str):  # some models emit arguments as a JSON string
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            return None, f'arguments of "{name}" are a string that is not JSON'
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return None, f'arguments of "{name}" must be a JSON object'
    return ToolCall(name=name, arguments=args), None


def parse_turn(raw: str, end_markers: tuple[str, ...] = ()) -> ParsedTurn:
    """Parse an assistant turn; never raises on bad model output."""
    text = strip_end_markers(raw, end_markers)
    thinking, rest, error = _split_thinking(text)
    turn = ParsedTurn(raw=raw, thinking=thinking)
    if error:
        turn.parse_error = error
        turn.text = rest.strip()
        return turn
    calls: list[ToolCall] = []
    pieces: list[str] = []
    pos = 0
    for m in _CALL_RE.finditer(rest):
        pieces.append(rest[pos : m.start()])
        pos = m.end()
        call, err = _read_call(m.group(1))
        if err:
            turn.parse_error = err
            break
        calls.append(call)  # type: ignore[arg-type]
    tail = rest[pos:]
    if turn.parse_error is None and (CALL_OPEN in tail or CALL_CLOSE in tail):
        turn.parse_error = "unterminated <tool_call>" if CALL_OPEN in tail else "</tool_call> without <tool_call>"
    pieces.append(tail if turn.parse_error is None else "")
    turn.text = "".join(pieces).strip()
    turn.tool_calls = calls if turn.parse_error is None else []
    return turn
