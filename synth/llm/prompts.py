"""Prompt templates: jinja2 files under synth/prompts/, rendered strictly (a missing variable is an error)."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

import jinja2

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"


def _to_json(value, indent: int | None = None) -> str:
    if isinstance(value, jinja2.Undefined):
        str(value)  # StrictUndefined raises UndefinedError naming the variable
    return json.dumps(value, sort_keys=True, ensure_ascii=False, indent=indent)


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The shared jinja2 environment over synth/prompts/ (StrictUndefined, trim_blocks, `to_json` filter)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(PROMPTS_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,
    )
    env.filters["to_json"] = _to_json
    return env


def _file_name(template_name: str) -> str:
    return template_name if template_name.endswith(".j2") else template_name + ".j2"


def render(template_name: str, **vars) -> str:
    """Render synth/prompts/<template_name>(.j2) with vars; undefined variables raise."""
    return environment().get_template(_file_name(template_name)).render(**vars).strip()


def template_version(name: str) -> str:
    """sha256[:12] of the template's source, for cache keys and manifests."""
    source = (PROMPTS_DIR / _file_name(name)).read_bytes()
    return hashlib.sha256(source).hexdigest()[:12]
