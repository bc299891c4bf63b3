"""The LLM endpoint as the flows see it: resolved once, passed to tasks as plain data, one client per task.

LLM clients do not cross process boundaries (Dask workers), so tasks receive the `llm` dict made by
llm_endpoint() and open their own client with stage_client(). The client's own retries handle short
outages; when the endpoint still fails, stage_client raises EndpointFailure after the stage, so Prefect
retries the task with backoff and never caches a result the stages degraded to work around the outage.
"""

from __future__ import annotations

import dataclasses
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from synth.errors import ForgeError, LLMError
from synth.llm import EMBEDDED_MODEL_ALIAS, LLMClient, LLMConfig, resolve_endpoint

STAT_KEYS = ("calls", "cache_hits", "retries", "repairs", "failures", "prompt_tokens", "completion_tokens")


class EndpointFailure(ForgeError):
    """The LLM endpoint failed (after the client's own retries) during a stage."""


def is_resolved(llm: dict[str, Any] | None) -> bool:
    """True when an `llm` dict names an endpoint, a model and a structured-output style (made by llm_endpoint)."""
    return bool(llm and llm.get("base_url") and llm.get("model") and llm.get("structured_style"))


def config_from_params(llm: dict[str, Any] | None) -> LLMConfig:
    """The LLMConfig inside an `llm` parameter dict (unknown keys ignored)."""
    fields = {f.name for f in dataclasses.fields(LLMConfig)}
    return LLMConfig(**{k: v for k, v in (llm or {}).items() if k in fields})


@contextmanager
def llm_endpoint(config: LLMConfig) -> Iterator[dict[str, Any]]:
    """Yield the `llm` parameter of the flows: the LLMConfig fields plus a resolved base_url, model and style.

    With no endpoint configured the embedded model starts here, once; tasks (threads, or Dask workers on this
    machine) reach it by its URL. The API key never enters the parameters (they show in the Prefect UI): tasks
    read OPENAI_API_KEY, which is set here from config.api_key when one is given.
    """
    from synth.llm.embedded import acquire_embedded, release_embedded
    from synth.llm.session import first_served_model
    from synth.llm.structured import STYLE_JSON_SCHEMA, STYLE_LLAMA

    endpoint = resolve_endpoint(config)
    params = dataclasses.asdict(config)
    params.pop("api_key", None)
    if params.get("cache_path"):
        params["cache_path"] = str(Path(params["cache_path"]).expanduser().resolve())
    if config.api_key:
        os.environ["OPENAI_API_KEY"] = config.api_key
    if not endpoint.embedded:
        model = endpoint.model or first_served_model(endpoint.base_url, endpoint.api_key, config.timeout_s)
        yield {**params, "base_url": endpoint.base_url, "model": model, "structured_style": STYLE_JSON_SCHEMA}
        return
    server = acquire_embedded()
    try:
        yield {
            **params,
            "base_url": server.base_url,
            "model": endpoint.model or EMBEDDED_MODEL_ALIAS,
            "structured_style": STYLE_LLAMA,
        }
    finally:
        release_embedded()


class WatchedClient:
    """Passes calls to an LLMClient and notes endpoint failures, which the stages may catch and work around.

    An LLMError raised from a transport error (it has a __cause__) is an endpoint failure; an answer that never
    validated is not (that is the model's doing, and the stages' fallbacks handle it).
    """

    def __init__(self, client: LLMClient):
        self._client = client
        self.endpoint_errors: list[str] = []

    def _watch(self, fn, args, kwargs):
        try:
            return fn(*args, **kwargs)
        except LLMError as err:
            if err.__cause__ is not None:
                self.endpoint_errors.append(str(err))
            raise

    def chat(self, *args, **kwargs):
        """LLMClient.chat, watched."""
        return self._watch(self._client.chat, args, kwargs)

    def json(self, *args, **kwargs):
        """LLMClient.json, watched."""
        return self._watch(self._client.json, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)


@contextmanager
def stage_client(llm: dict[str, Any]) -> Iterator[WatchedClient]:
    """A client for one task; raises EndpointFailure when the block ends if any request failed at the endpoint."""
    client = LLMClient(config_from_params(llm), llm["base_url"], llm["model"], structured_style=llm["structured_style"])
    watched = WatchedClient(client)
    try:
        yield watched
    finally:
        client.close()
    if watched.endpoint_errors:
        raise EndpointFailure(f"{len(watched.endpoint_errors)} LLM request(s) failed: {watched.endpoint_errors[0]}")


def llm_usage(client: WatchedClient | LLMClient) -> dict[str, int]:
    """The client's counters (STAT_KEYS) as ints."""
    stats = client.stats.to_dict()
    return {k: int(stats.get(k, 0)) for k in STAT_KEYS}


def retry_on_endpoint_failure(task_obj: Any, task_run: Any, state: Any) -> bool:
    """Prefect retry_condition_fn: retry only when the LLM endpoint failed (not on bugs or bad input)."""
    err = state.data if isinstance(state.data, BaseException) else state.result(raise_on_failure=False)
    return isinstance(err, (EndpointFailure, LLMError, ConnectionError, TimeoutError))
