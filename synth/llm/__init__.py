"""LLM access: one async client for any OpenAI-compatible endpoint, with the embedded SmolLM2 as the default.

Names are loaded lazily so that importing `synth.llm.config` (the CLI does) does not import `openai`.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ChatResult": "synth.llm.client",
    "JsonResult": "synth.llm.client",
    "LLMClient": "synth.llm.client",
    "EMBEDDED_MODEL_ALIAS": "synth.llm.config",
    "LLMConfig": "synth.llm.config",
    "config_from_cli": "synth.llm.config",
    "resolve_endpoint": "synth.llm.config",
    "render": "synth.llm.prompts",
    "template_version": "synth.llm.prompts",
    "open_client": "synth.llm.session",
    "LLMStats": "synth.llm.stats",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'synth.llm' has no attribute {name!r}")
