"""LLMClient against a local fault-injecting OpenAI-compatible server: retries, repair, fallback, cache, stats."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from fakes.fault_server import FaultServer, bad_body, content, delay, status, truncated

from synth.errors import LLMError
from synth.llm import LLMClient, LLMConfig, open_client

SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
ASK = [{"role": "user", "content": "What is the capital of France?"}]


def make_client(srv: FaultServer, tmp_path, **overrides) -> LLMClient:
    settings = dict(cache_path=str(tmp_path / "llm.sqlite"), timeout_s=5.0, backoff_base_s=0.01, backoff_cap_s=0.05)
    settings.update(overrides)
    style = settings.pop("structured_style", "json_schema")
    return LLMClient(LLMConfig(**settings), srv.base_url, "fake-model", structured_style=style)


@pytest.fixture
def srv():
    with FaultServer(default_content='{"answer": "Paris"}') as server:
        yield server


def test_every_transport_fault_is_retried_until_success(srv, tmp_path):
    srv.script(delay(3.0), status(429), status(500), status(503), truncated(), bad_body())
    with make_client(srv, tmp_path, max_retries=6, timeout_s=1.0) as client:
        result = client.chat(ASK)
        assert result.text == '{"answer": "Paris"}'
        assert result.cached is False
        assert srv.count == 7
        stats = client.stats.to_dict()
        assert stats["retries"] == 6 and stats["calls"] == 1 and stats["failures"] == 0
        assert result.usage["prompt_tokens"] > 0 and result.usage["completion_tokens"] > 0


def test_retry_after_on_429_is_honoured(srv, tmp_path):
    srv.script(status(429, retry_after=0.8))
    with make_client(srv, tmp_path) as client:
        started = time.perf_counter()
        assert client.chat(ASK).text == '{"answer": "Paris"}'
        assert time.perf_counter() - started >= 0.8
        assert client.stats.backoff_s == 0.8
    srv.script(status(429))  # without Retry-After the jittered backoff (cap 0.05 s) applies
    with make_client(srv, tmp_path, cache_path=None) as client:
        client.chat(ASK)
        assert client.stats.retries == 1 and 0.0 <= client.stats.backoff_s <= 0.05


@pytest.mark.parametrize("code", [400, 401, 404, 422])
def test_client_errors_are_never_retried(srv, tmp_path, code):
    srv.script(status(code, message="bad request here"))
    with make_client(srv, tmp_path) as client:
        with pytest.raises(LLMError, match=str(code)):
            client.chat(ASK)
    assert srv.count == 1


def test_retries_are_bounded(srv, tmp_path):
    srv.script(*[status(500)] * 10)
    with make_client(srv, tmp_path, max_retries=2) as client:
        with pytest.raises(LLMError, match="failed after 3 attempts; last error: 500"):
            client.chat(ASK)
        assert client.stats.failures == 1
    assert srv.count == 3


def test_invalid_json_is_repaired_with_the_error_in_the_prompt(srv, tmp_path):
    srv.script(content("The capital is {answer: Paris}"))
    with make_client(srv, tmp_path) as client:
        result = client.json(ASK, SCHEMA)
        assert result.data == {"answer": "Paris"} and result.attempts == 2
        assert client.stats.repairs == 1
    repair = srv.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "The capital is {answer: Paris}"}
    assert "not valid JSON" in repair[-1]["content"]
    assert '"required": ["answer"]' in repair[-1]["content"]


def test_schema_invalid_then_valid_on_repair(srv, tmp_path):
    srv.script(content('{"answer": 3}'))
    with make_client(srv, tmp_path) as client:
        result = client.json(ASK, SCHEMA)
    assert result.data == {"answer": "Paris"} and result.attempts == 2
    error_text = srv.requests[1]["messages"][-1]["content"]
    assert "at answer" in error_text and "is not of type 'string'" in error_text


def test_truncated_json_content_is_repaired(srv, tmp_path):
    srv.script(content('{"answer": "Par'))
    with make_client(srv, tmp_path) as client:
        assert client.json(ASK, SCHEMA).attempts == 2


def test_fenced_json_is_accepted(srv, tmp_path):
    srv.script(content('```json\n{"answer": "Lyon"}\n```'))
    with make_client(srv, tmp_path) as client:
        result = client.json(ASK, SCHEMA)
    assert result.data == {"answer": "Lyon"} and result.attempts == 1


def test_repair_is_bounded(tmp_path):
    with FaultServer(default_content="no json here") as srv, make_client(srv, tmp_path, repair_attempts=2) as client:
        with pytest.raises(LLMError, match="did not validate after 3 attempts: not valid JSON"):
            client.json(ASK, SCHEMA)
        assert srv.count == 3


def test_response_format_styles(srv, tmp_path):
    with make_client(srv, tmp_path, cache_path=None) as client:
        client.json(ASK, SCHEMA)
    with make_client(srv, tmp_path, cache_path=None, structured_style="llama") as client:
        client.json(ASK, SCHEMA)
    first, second = srv.requests[0]["response_format"], srv.requests[1]["response_format"]
    assert first == {"type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA, "strict": False}}
    assert second == {"type": "json_object", "schema": SCHEMA}
    assert srv.requests[0]["temperature"] == 0.0 and srv.requests[0]["seed"] == 0


def test_rejected_response_format_falls_back_to_plain_prompting_once(tmp_path):
    with FaultServer('{"answer": "Paris"}', accept_formats=()) as srv:
        with make_client(srv, tmp_path) as client:
            assert client.json(ASK, SCHEMA).data == {"answer": "Paris"}
            assert client.structured_style == "plain"
            assert client.json([{"role": "user", "content": "And of Italy?"}], SCHEMA).attempts == 1
            assert client.stats.failures == 0
        assert srv.count == 3  # rejected, plain, plain: the rejection is remembered
        plain = srv.requests[1]
        assert "response_format" not in plain
        assert "JSON Schema" in plain["messages"][-1]["content"]
        assert plain["messages"][-1]["content"].startswith(ASK[0]["content"])


def test_llama_style_server_rejecting_json_schema_gets_json_object(tmp_path):
    # llama-cpp-python's server answers an unknown response_format type with a 500 naming the allowed ones
    with FaultServer('{"answer": "Paris"}', accept_formats=("text", "json_object"), reject_status=500) as srv:
        with make_client(srv, tmp_path) as client:
            assert client.json(ASK, SCHEMA).data == {"answer": "Paris"}
            assert client.structured_style == "llama" and client.stats.retries == 0
        assert srv.count == 2
        assert srv.requests[1]["response_format"] == {"type": "json_object", "schema": SCHEMA}


def test_cache_makes_reruns_free(srv, tmp_path):
    with make_client(srv, tmp_path) as client:
        first = client.chat(ASK, max_tokens=32)
        again = client.chat(ASK, max_tokens=32)
        assert (first.cached, again.cached, again.text) == (False, True, first.text)
        assert again.usage == first.usage
        client.chat(ASK, max_tokens=33)  # a different request is a miss
        srv.script(content('{"answer": 3}'))  # the json answer needs one repair
        answer = client.json(ASK, SCHEMA, tag="capital")
        stats = client.stats.to_dict()
        assert stats["calls"] == 4 and stats["cache_hits"] == 1
        assert stats["by_tag"]["capital"]["calls"] == 2 and stats["by_tag"]["capital"]["repairs"] == 1
    calls_before = srv.count
    with make_client(srv, tmp_path) as rerun:  # a new process-like client on the same cache file
        assert rerun.chat(ASK, max_tokens=32).cached is True
        replay = rerun.json(ASK, SCHEMA, tag="capital")
        assert replay.data == answer.data and replay.attempts == 2 and replay.cached is True
        assert rerun.stats.calls == 0 and rerun.stats.cache_hits == 3
    assert srv.count == calls_before


def test_failures_are_not_cached(srv, tmp_path):
    srv.script(status(400))
    with make_client(srv, tmp_path) as client:
        with pytest.raises(LLMError):
            client.chat(ASK)
        assert client.chat(ASK).cached is False
    assert srv.count == 2


def test_concurrency_is_bounded_and_busy_time_is_a_union(tmp_path):
    with FaultServer("ok", latency_s=0.2) as srv, make_client(srv, tmp_path, max_concurrency=2) as client:

        async def many():
            asks = [[{"role": "user", "content": f"q{i}"}] for i in range(6)]
            return await asyncio.gather(*(client.achat(m) for m in asks))

        results = asyncio.run(many())
        assert [r.text for r in results] == ["ok"] * 6
        assert srv.max_in_flight == 2
        stats = client.stats.to_dict()
        assert stats["calls"] == 6
        assert stats["latency_s"] >= 1.2
        assert 0.55 <= stats["busy_s"] < stats["latency_s"] * 0.75


def test_sync_wrappers_work_inside_a_running_loop(srv, tmp_path):
    with make_client(srv, tmp_path) as client:

        async def inside():
            return client.json(ASK, SCHEMA).data, (await client.achat(ASK)).text

        assert asyncio.run(inside()) == ({"answer": "Paris"}, '{"answer": "Paris"}')
        assert asyncio.run(client.achat(ASK, max_tokens=7)).cached is False  # a second loop gets its own HTTP client


def test_closed_client_refuses(srv, tmp_path):
    client = make_client(srv, tmp_path)
    client.close()
    client.close()
    with pytest.raises(LLMError, match="closed"):
        client.chat(ASK)


def test_open_client_uses_the_configured_endpoint_and_lists_the_model(srv, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with open_client(LLMConfig(cache_path=None)) as client:
        assert (client.base_url, client.model, client.api_key) == (srv.base_url, "fake-model", "sk-test")
        assert client.structured_style == "json_schema"
        assert client.json(ASK, SCHEMA).data == {"answer": "Paris"}


def test_cli_check_against_an_endpoint(tmp_path):
    import typer
    from typer.testing import CliRunner

    from synth.cli import llm_cmd

    app, llm_app = typer.Typer(), typer.Typer()
    llm_cmd.register(app, {"llm": llm_app, "env": typer.Typer()})
    app.add_typer(llm_app, name="llm")
    with FaultServer('{"capital": "Paris"}', model="served-model") as srv:
        result = CliRunner().invoke(app, ["llm", "check", "--base-url", srv.base_url])
        assert result.exit_code == 0, result.output
        assert "model: served-model" in result.output
        assert 'answer: {"capital": "Paris"}' in result.output
        stats = json.loads(result.output.split("stats: ", 1)[1])
        assert stats["calls"] == 1
        srv.script(status(404))
        failed = CliRunner().invoke(app, ["llm", "check", "--base-url", srv.base_url, "--model", "m"])
        assert failed.exit_code == 1 and "404" in failed.output
