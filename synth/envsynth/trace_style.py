"""The API's message style, learned from recorded calls of some tools and applied to tools nobody recorded.

A tool whose docs promise a message (`{"result": "The result of the remove operation."}`) but whose calls no
trace shows would answer nothing. When the recorded messages of two or more other tools under the same response
key all open the same way: the name they acted on, quoted, then the past participle of the verb their
description leads with (`'notes.txt' moved to 'archive/notes.txt'`, `'a.txt' copied to ...`), an unrecorded
write tool whose docs promise that same single string key answers in that style: its own name argument, quoted,
and its own verb (`'notes.txt' removed`). What followed the verb in the recorded messages (a destination) is not
carried over: it names arguments the other tool does not have.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from synth.spec import ToolSpec

QUOTES = ("'", '"', "`", "")
IRREGULAR = {"write": "written", "make": "made", "send": "sent", "set": "set", "put": "put", "find": "found"}
MIN_TOOLS = 2  # tools whose recorded messages must share the style


@dataclass(frozen=True)
class MessageStyle:
    """`{key: quote + name + quote + " " + participle}`: how the API's writes report what they did."""

    key: str
    quote: str

    def pieces(self, name_param: str, participle: str) -> list[list[str]]:
        """The output format (codegen pieces) of a tool whose name argument is `name_param`."""
        out = [["text", self.quote]] if self.quote else []
        return out + [["arg", name_param], ["text", f"{self.quote} {participle}"]]


def past_participle(verb: str) -> str:
    """'remove' -> 'removed', 'copy' -> 'copied', 'stop' -> 'stopped', 'list' -> 'listed'."""
    verb = verb.lower()
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", verb):  # one short syllable ending in a consonant
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _preamble(specs: list[ToolSpec]) -> str:
    """The text every tool's description opens with (cut back to a word boundary), "" when they share none."""
    texts = [s.description for s in specs if s.description]
    if len(texts) < 2:
        return ""
    common = os.path.commonprefix(texts)
    return common[: common.rfind(" ") + 1] if " " in common else ""


def lead_verb(spec: ToolSpec, preamble: str) -> str | None:
    """The first word of the tool's own description (after the preamble all tools share), lower case."""
    text = spec.description[len(preamble) :] if spec.description.startswith(preamble) else spec.description
    found = re.match(r"\s*([A-Za-z]+)", text)
    return found.group(1).lower() if found else None


def message_key(spec: ToolSpec) -> str | None:
    """The single string property the docs' response has, or None."""
    props = (spec.returns or {}).get("properties") if isinstance(spec.returns, dict) else None
    if not isinstance(props, dict) or len(props) != 1:
        return None
    key, schema = next(iter(props.items()))
    return key if isinstance(schema, dict) and schema.get("type") == "string" else None


def _style_of(text: str, arguments: dict[str, Any], participle: str) -> str | None:
    """The quote of a message that opens with a quoted argument value and the participle, else None."""
    for quote in QUOTES:
        for value in arguments.values():
            if isinstance(value, str) and value and text.startswith(f"{quote}{value}{quote} {participle}"):
                return quote
    return None


def learn_style(specs: list[ToolSpec], recorded: dict[str, list[tuple[dict[str, Any], Any]]]) -> MessageStyle | None:
    """The style every recorded message of MIN_TOOLS or more tools shares under one response key, or None.

    `recorded`: tool name -> (arguments, output) of its successful recorded calls. A tool with a recorded message
    under the key that does not follow the style means there is no style.
    """
    preamble = _preamble(specs)
    by_key: dict[str, list[str | None]] = {}
    for spec in specs:
        verb = lead_verb(spec, preamble)
        messages = [(args, out) for args, out in recorded.get(spec.name, []) if isinstance(out, dict) and len(out) == 1]
        messages = [(args, *next(iter(out.items()))) for args, out in messages]
        messages = [(args, key, text) for args, key, text in messages if isinstance(text, str)]
        for key in sorted({key for _, key, _ in messages}):
            mine = [(args, text) for args, k, text in messages if k == key]
            quotes = {_style_of(text, args, past_participle(verb)) if verb else None for args, text in mine}
            by_key.setdefault(key, []).append(quotes.pop() if len(quotes) == 1 else None)
    for key, quotes in sorted(by_key.items()):
        if len(quotes) >= MIN_TOOLS and None not in quotes and len(set(quotes)) == 1:
            return MessageStyle(key=key, quote=str(quotes[0]))
    return None


def styled_output(spec: ToolSpec, specs: list[ToolSpec], style: MessageStyle) -> dict[str, str] | None:
    """{key, quote, participle} for an unrecorded tool the style applies to (its docs promise a message under the
    style's key and its description leads with a verb), else None."""
    verb = lead_verb(spec, _preamble(specs))
    if not verb or message_key(spec) != style.key:
        return None
    return {"key": style.key, "quote": style.quote, "participle": past_participle(verb)}


def styled_plan_fields(styled: dict[str, str], name_param: str) -> dict[str, Any]:
    """The plan's output_key and output_format: the quoted name argument and the participle."""
    style = MessageStyle(key=styled["key"], quote=styled["quote"])
    return {"output_key": style.key, "output_format": style.pieces(name_param, styled["participle"])}


__all__ = [
    "MessageStyle",
    "learn_style",
    "lead_verb",
    "message_key",
    "past_participle",
    "styled_output",
    "styled_plan_fields",
]
