"""Pieces of the LLM client: backoff, Retry-After, cache keys and threads, JSON parsing, prompts, config."""

from __future__ import annotations

import email.utils
import hashlib
import threading
import time

import jinja2
import pytest

from synth.llm import config_from_cli, render, resolve_endpoint, template_version
from synth.llm.cache import ResponseCache, request_key
from synth.llm.config import LLMConfig
from synth.llm.prompts import PROMPTS_DIR
from synth.llm.retry import Backoff, parse_retry_after
from synth.llm.structured import check_answer, parse_json_text

SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def test_backoff_is_seeded_full_jitter_and_capped():
    a, b = Backoff(0.5, 20.0, seed=7), Backoff(0.5, 20.0, seed=7)
    delays = [a.delay(i) for i in range(10)]
    assert delays == [b.delay(i) for i in range(10)]
    for i, d in enumerate(delays):
        assert 0.0 <= d <= min(20.0, 0.5 * 2**i)
    assert Backoff(seed=8).delay(5) != Backoff(seed=7).delay(5)
    assert Backoff(seed=1).delay(0, retry_after_s=3.0) == 3.0


def test_parse_retry_after_forms():
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    date = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= parse_retry_after({"retry-after": date}) <= 31
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_request_key_covers_every_field_and_ignores_key_order():
    base = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "max_tokens": 5,
        "temperature": 0.0,
        "stop": None,
        "seed": 0,
        "response_format": None,
    }
    key = request_key(base)
    assert request_key(dict(reversed(list(base.items())))) == key
    changes = {
        "model": "m2",
        "messages": [{"role": "user", "content": "hi!"}],
        "max_tokens": 6,
        "temperature": 0.5,
        "stop": ["\n"],
        "seed": 1,
        "response_format": {"type": "json_object"},
    }
    for field, value in changes.items():
        assert request_key({**base, field: value}) != key, field


def test_cache_is_safe_across_threads(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    errors = []

    def work(t):
        try:
            for i in range(30):
                cache.put(f"{t}-{i}", f"text {t} {i}", {"prompt_tokens": i})
                assert cache.get(f"{t}-{i}") == (f"text {t} {i}", {"prompt_tokens": i})
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(cache) == 180
    assert cache.get("missing") is None
    cache.close()
    assert ResponseCache(tmp_path / "c.sqlite").get("3-4") == ("text 3 4", {"prompt_tokens": 4})


def test_parse_json_text_tolerates_fences_and_surrounding_text():
    assert parse_json_text('```json\n{"n": 1}\n```') == {"n": 1}
    assert parse_json_text("```\n[1, 2]\n```") == [1, 2]
    assert parse_json_text('Sure! {"n": 2} Hope that helps.') == {"n": 2}
    with pytest.raises(ValueError):
        parse_json_text("no json")


def test_check_answer_names_the_failing_path():
    assert check_answer('{"n": 4}', SCHEMA).data == {"n": 4}
    bad = check_answer('{"n": "four"}', SCHEMA)
    assert not bad.ok and "at n" in bad.error and "'four' is not of type 'integer'" in bad.error
    missing = check_answer("{}", SCHEMA)
    assert "at (root)" in missing.error and "'n' is a required property" in missing.error
    assert check_answer('{"n": ', SCHEMA).error.startswith("not valid JSON")


def test_render_is_strict_and_versions_hash_the_source():
    text = render("json_repair", error="oops", schema=SCHEMA)
    assert text.startswith("Your previous answer was rejected: oops")
    assert '{"properties": {"n": {"type": "integer"}}' in text
    assert render("json_repair.j2", error="oops", schema=SCHEMA) == text
    with pytest.raises(jinja2.UndefinedError):
        render("json_repair", error="oops")
    source = (PROMPTS_DIR / "json_repair.j2").read_bytes()
    assert template_version("json_repair") == hashlib.sha256(source).hexdigest()[:12]


def test_endpoint_resolution_order(monkeypatch):
    for var in ("OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    ep = resolve_endpoint(LLMConfig())
    assert ep.embedded and ep.model is None and ep.api_key == "sk-local"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://env/v1")
    monkeypatch.setenv("OPENAI_MODEL", "env-model")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    ep = resolve_endpoint(LLMConfig())
    assert (ep.base_url, ep.model, ep.api_key, ep.embedded) == ("http://env/v1", "env-model", "sk-env", False)
    cfg = config_from_cli("http://flag/v1", "flag-model", "sk-flag", cache_path=None)
    assert cfg.cache_path is None
    ep = resolve_endpoint(cfg)
    assert (ep.base_url, ep.model, ep.api_key) == ("http://flag/v1", "flag-model", "sk-flag")
