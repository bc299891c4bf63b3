"""Structured output: the response_format to ask for, parsing a JSON answer, schema validation, repair prompts."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from synth.llm.prompts import render

# How a server is asked for JSON: llama-cpp-python's schema-constrained json_object, OpenAI's json_schema,
# or nothing (plain prompting with the schema in the message).
STYLE_LLAMA = "llama"
STYLE_JSON_SCHEMA = "json_schema"
STYLE_PLAIN = "plain"

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def response_format(style: str, schema: dict) -> dict | None:
    """The `response_format` request field for a style, or None for plain prompting."""
    if style == STYLE_LLAMA:
        return {"type": "json_object", "schema": schema}
    if style == STYLE_JSON_SCHEMA:
        return {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema, "strict": False}}
    return None


@dataclass
class ParseOutcome:
    """A parsed and validated answer, or the error to send back in a repair prompt."""

    ok: bool
    data: Any = None
    error: str = ""


def parse_json_text(text: str) -> Any:
    """json.loads of the answer, tolerating a ```json fence and text around one JSON value."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        return json.loads(body)
    except json.JSONDecodeError as first_error:
        starts = [i for i in (body.find("{"), body.find("[")) if i >= 0]
        if not starts:
            raise first_error
        try:
            value, _end = json.JSONDecoder().raw_decode(body[min(starts) :])
        except json.JSONDecodeError:
            raise first_error from None
        return value


def check_answer(text: str, schema: dict) -> ParseOutcome:
    """Parse text as JSON and validate it against schema; the error names the failing path."""
    try:
        data = parse_json_text(text)
    except json.JSONDecodeError as err:
        shown = text if len(text) <= 200 else text[:200] + "..."
        return ParseOutcome(
            False, error=f"not valid JSON ({err.msg} at line {err.lineno} column {err.colno}): {shown!r}"
        )
    validator_cls = jsonschema.validators.validator_for(schema)
    errors = sorted(validator_cls(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(root)"
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        return ParseOutcome(False, data=data, error=f"does not match the schema at {where}: {first.message}{more}")
    return ParseOutcome(True, data=data)


def instruction_messages(messages: list[dict], schema: dict) -> list[dict]:
    """Messages for plain prompting: the schema instruction appended to the last user message."""
    note = render("json_instruction", schema=schema)
    out = [dict(m) for m in messages]
    for msg in reversed(out):
        if msg.get("role") == "user" and isinstance(msg.get("content"), str):
            msg["content"] = f"{msg['content']}\n\n{note}"
            return out
    out.append({"role": "user", "content": note})
    return out


def repair_messages(messages: list[dict], answer: str, error: str, schema: dict) -> list[dict]:
    """The conversation extended with the rejected answer and a repair request naming the error."""
    return [
        *messages,
        {"role": "assistant", "content": answer},
        {"role": "user", "content": render("json_repair", error=error, schema=schema)},
    ]
