"""The async LLM client: bounded concurrency, retries, structured output with repair, cache, accounting."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Coroutine

import openai

from synth.errors import LLMError
from synth.llm.cache import ResponseCache, request_key
from synth.llm.config import LLMConfig, resolve_endpoint
from synth.llm.retry import Backoff, MalformedResponse, classify
from synth.llm.stats import LLMStats
from synth.llm.structured import (
    STYLE_JSON_SCHEMA,
    STYLE_LLAMA,
    STYLE_PLAIN,
    check_answer,
    instruction_messages,
    repair_messages,
    response_format,
)

log = logging.getLogger(__name__)


@dataclass
class ChatResult:
    """One chat answer; cached is True when it came from the on-disk cache (no network call)."""

    text: str
    cached: bool
    usage: dict
    latency_s: float


@dataclass
class JsonResult:
    """A schema-valid JSON answer; attempts counts requests including repairs; usage sums them."""

    data: Any
    text: str
    cached: bool
    attempts: int
    usage: dict = field(default_factory=dict)


class _FormatRejected(Exception):
    """The server refused the response_format field (400/422)."""


@dataclass
class _LoopState:
    api: openai.AsyncOpenAI
    semaphore: asyncio.Semaphore


def _add_usage(total: dict, usage: dict) -> None:
    for key, value in usage.items():
        if isinstance(value, (int, float)):
            total[key] = total.get(key, 0) + value


class LLMClient:
    """Client of one OpenAI-compatible endpoint.

    Concurrency is bounded per event loop (config.max_concurrency). The sync wrappers run on a private
    event loop in a background thread, so they work from plain code and from inside a running loop.
    structured_style is how JSON is requested: "llama" (llama-cpp-python's json_object + schema),
    "json_schema" (OpenAI style; on a 400 the client falls back to "plain" prompting and remembers it).
    """

    def __init__(
        self,
        config: LLMConfig,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        structured_style: str = STYLE_JSON_SCHEMA,
    ):
        self.config = config
        self.base_url = base_url
        self.model = model
        self.api_key = api_key or resolve_endpoint(config).api_key
        self.structured_style = structured_style
        self.stats = LLMStats()
        self._cache = ResponseCache(config.cache_path) if config.cache_path else None
        self._backoff = Backoff(config.backoff_base_s, config.backoff_cap_s, config.seed)
        self._states: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState]" = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._bg_loop: asyncio.AbstractEventLoop | None = None
        self._bg_thread: threading.Thread | None = None
        self._closed = False

    # ----- requests -----------------------------------------------------------------------------

    def _loop_state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        with self._lock:
            state = self._states.get(loop)
            if state is None:
                api = openai.AsyncOpenAI(
                    base_url=self.base_url, api_key=self.api_key, max_retries=0, timeout=self.config.timeout_s
                )
                state = _LoopState(api, asyncio.Semaphore(max(1, self.config.max_concurrency)))
                self._states[loop] = state
        return state

    def _build_request(self, messages, max_tokens, temperature, stop, fmt) -> dict:
        return {
            "model": self.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": self.config.temperature if temperature is None else temperature,
            "stop": stop,
            "seed": self.config.seed,
            "response_format": fmt,
        }

    async def _send(self, request: dict, tag: str) -> tuple[str, dict, bool, float]:
        """Answer a request from the cache, or from the network with retries; returns (text, usage, cached, latency)."""
        if self._closed:
            raise LLMError("the LLM client is closed")
        key = request_key(request)
        if self._cache is not None:
            hit = self._cache.get(key)
            if hit is not None:
                self.stats.record(tag, "cache_hits")
                return hit[0], hit[1], True, 0.0
        text, usage, latency = await self._call_with_retries(request, tag)
        if self._cache is not None:
            self._cache.put(key, text, usage, model=self.model)
        return text, usage, False, latency

    async def _call_with_retries(self, request: dict, tag: str) -> tuple[str, dict, float]:
        state = self._loop_state()
        kwargs = {k: v for k, v in request.items() if v is not None}
        attempts = self.config.max_retries + 1
        for attempt in range(attempts):
            async with state.semaphore:
                self.stats.request_started()
                started = time.perf_counter()
                try:
                    response = await state.api.chat.completions.create(**kwargs)
                    text, usage = _extract(response)
                    error = None
                except Exception as exc:  # classified below; unknown errors are not retried
                    error = exc
                finally:
                    latency = time.perf_counter() - started
                    self.stats.request_ended()
            if error is None:
                self.stats.record_call(tag, usage, latency)
                return text, usage, latency
            if request.get("response_format") is not None and _rejects_response_format(error):
                raise _FormatRejected(str(error)[:1000]) from error
            decision = classify(error)
            if not decision.retry:
                self.stats.record(tag, "failures")
                raise LLMError(f"{self.base_url}: model {self.model}: request rejected: {decision.reason}") from error
            if attempt == attempts - 1:
                self.stats.record(tag, "failures")
                raise LLMError(
                    f"{self.base_url}: model {self.model}: failed after {attempts} attempts; "
                    f"last error: {decision.reason}"
                ) from error
            self.stats.record(tag, "retries")
            wait = self._backoff.delay(attempt, decision.retry_after_s)
            self.stats.record_backoff(wait)
            log.info("LLM request failed (%s); retry %d/%d in %.2fs", decision.reason, attempt + 1, attempts - 1, wait)
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")

    async def achat(
        self,
        messages: list[dict],
        *,
        max_tokens: int = 256,
        temperature: float | None = None,
        stop: list[str] | None = None,
        tag: str = "",
    ) -> ChatResult:
        """One chat completion (cached, retried)."""
        request = self._build_request(messages, max_tokens, temperature, stop, None)
        text, usage, cached, latency = await self._send(request, tag)
        return ChatResult(text=text, cached=cached, usage=usage, latency_s=latency)

    async def ajson(self, messages: list[dict], schema: dict, *, max_tokens: int = 512, tag: str = "") -> JsonResult:
        """A JSON answer that validates against schema; repairs up to config.repair_attempts times, else LLMError."""
        style = self.structured_style
        while True:
            try:
                return await self._ajson_with_style(messages, schema, max_tokens, tag, style)
            except _FormatRejected as rejected:
                style = _next_style(style, str(rejected))
                short = " ".join(str(rejected).split())[:200]
                log.warning(
                    "%s rejects response_format (%s); asking with style %r from now on", self.base_url, short, style
                )
                self.structured_style = style

    async def _ajson_with_style(self, messages, schema, max_tokens, tag, style) -> JsonResult:
        fmt = response_format(style, schema)
        conversation = instruction_messages(messages, schema) if fmt is None else list(messages)
        usage_total: dict = {}
        all_cached = True
        tries = 1 + max(0, self.config.repair_attempts)
        error = ""
        for attempt in range(1, tries + 1):
            request = self._build_request(conversation, max_tokens, None, None, fmt)
            text, usage, cached, _latency = await self._send(request, tag)
            _add_usage(usage_total, usage)
            all_cached = all_cached and cached
            outcome = check_answer(text, schema)
            if outcome.ok:
                return JsonResult(data=outcome.data, text=text, cached=all_cached, attempts=attempt, usage=usage_total)
            error = outcome.error
            if attempt < tries:
                self.stats.record(tag, "repairs")
                conversation = repair_messages(conversation, text, error, schema)
        self.stats.record(tag, "failures")
        raise LLMError(f"model {self.model}: answer did not validate after {tries} attempts: {error}")

    # ----- sync wrappers ------------------------------------------------------------------------

    def _background_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._closed:
                raise LLMError("the LLM client is closed")
            if self._bg_loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="llm-client-loop", daemon=True)
                thread.start()
                self._bg_loop, self._bg_thread = loop, thread
            return self._bg_loop

    def _run_sync(self, coro: Coroutine) -> Any:
        try:
            loop = self._background_loop()
        except LLMError:
            coro.close()
            raise
        if threading.current_thread() is self._bg_thread:
            coro.close()
            raise RuntimeError(
                "sync LLMClient methods cannot be called from the client's own loop; await the async ones"
            )
        return asyncio.run_coroutine_threadsafe(coro, loop).result()

    def chat(self, messages: list[dict], **kwargs) -> ChatResult:
        """Blocking achat (same arguments); safe inside a running event loop."""
        return self._run_sync(self.achat(messages, **kwargs))

    def json(self, messages: list[dict], schema: dict, **kwargs) -> JsonResult:
        """Blocking ajson (same arguments); safe inside a running event loop."""
        return self._run_sync(self.ajson(messages, schema, **kwargs))

    # ----- lifetime -----------------------------------------------------------------------------

    def close(self) -> None:
        """Close HTTP clients, stop the background loop and close the cache. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            loop, thread = self._bg_loop, self._bg_thread
            states = list(self._states.items())
            self._states = weakref.WeakKeyDictionary()
        for state_loop, state in states:
            try:
                if state_loop is loop and loop is not None:
                    asyncio.run_coroutine_threadsafe(state.api.close(), loop).result(timeout=10)
                elif not state_loop.is_closed() and not state_loop.is_running():
                    state_loop.run_until_complete(state.api.close())
            except Exception as exc:  # closing is best effort; connections die with the process anyway
                log.debug("closing HTTP client failed: %s", exc)
        if loop is not None:
            loop.call_soon_threadsafe(loop.stop)
            if thread is not None:
                thread.join(timeout=10)
            if not loop.is_running():
                loop.close()
        if self._cache is not None:
            self._cache.close()

    def __enter__(self) -> "LLMClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _rejects_response_format(error: Exception) -> bool:
    """A 400/422, or any error status whose message names response_format (llama-cpp-python answers 500)."""
    if not isinstance(error, openai.APIStatusError):
        return False
    return error.status_code in (400, 422) or "response_format" in str(error)


def _next_style(style: str, rejection: str) -> str:
    """After a rejected response_format: llama-style json_object if the server names it, else plain prompting."""
    if style == STYLE_JSON_SCHEMA and "json_object" in rejection:
        return STYLE_LLAMA
    return STYLE_PLAIN


def _extract(response) -> tuple[str, dict]:
    """Text and usage of a chat completion; MalformedResponse when the body has no message."""
    choices = getattr(response, "choices", None)
    if not choices:
        raise MalformedResponse(f"no choices in response: {str(response)[:200]!r}")
    message = getattr(choices[0], "message", None)
    text = getattr(message, "content", None)
    if not isinstance(text, str):
        raise MalformedResponse(f"no message content in response: {str(response)[:200]!r}")
    usage_obj = getattr(response, "usage", None)
    usage = {}
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        value = getattr(usage_obj, key, None) if usage_obj is not None else None
        if isinstance(value, int):
            usage[key] = value
    return text, usage
