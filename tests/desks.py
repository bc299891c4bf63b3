"""Building a desk environment through the whole pipeline for a test (not a test module)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synth.envsynth.pipeline import SynthConfig, synthesize_environment
from synth.runtime.environment import Environment


def harbour_desk(tmp_path: Path, tools: list[dict[str, Any]], data: dict[str, Any], policy: str = "") -> Environment:
    """The environment the structured route makes from these tool docs (and policy) grounded in `data`, reset to it."""
    docs, sample = tmp_path / "harbour_tools.json", tmp_path / "harbour.json"
    docs.write_text(json.dumps(tools))
    sample.write_text(json.dumps(data))
    paths = [docs]
    if policy:
        paths.append(tmp_path / "harbour_policy.md")
        paths[-1].write_text(policy)
    out = tmp_path / "env"
    synthesize_environment(paths, out, None, SynthConfig(env_id="harbour", route="structured", data=str(sample)))
    env = Environment(out)
    env.reset(initial_state=data)
    return env


def markdown_desk(tmp_path: Path, docs_text: str, data: dict[str, Any], env_id: str = "harbour") -> Environment:
    """The environment the structured route makes from one markdown docs file grounded in `data`, reset to it."""
    docs, sample = tmp_path / f"{env_id}.md", tmp_path / f"{env_id}.json"
    docs.write_text(docs_text)
    sample.write_text(json.dumps(data))
    out = tmp_path / "env"
    synthesize_environment([docs], out, None, SynthConfig(env_id=env_id, route="structured", data=str(sample)))
    env = Environment(out)
    env.reset(initial_state=data)
    return env
