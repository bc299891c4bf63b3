"""The environment runtime: load an environment folder, reset, step, hash the state.

Everything is imported lazily, so importing the package costs nothing. `ToolError` lives in `synth.errors`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Environment", "StepResult", "canonical_json", "changed_paths", "copy_state", "state_hash"]

_LAZY = {
    "Environment": "synth.runtime.environment",
    "StepResult": "synth.runtime.environment",
    "canonical_json": "synth.runtime.state",
    "changed_paths": "synth.runtime.state",
    "copy_state": "synth.runtime.state",
    "state_hash": "synth.runtime.state",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'synth.runtime' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
