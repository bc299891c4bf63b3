"""open_client: a client for the configured endpoint, or for the embedded model started for the occasion."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import httpx

from synth.errors import LLMError
from synth.llm.client import LLMClient
from synth.llm.config import EMBEDDED_MODEL_ALIAS, LLMConfig, resolve_endpoint
from synth.llm.embedded import acquire_embedded, release_embedded
from synth.llm.structured import STYLE_JSON_SCHEMA, STYLE_LLAMA


def first_served_model(base_url: str, api_key: str, timeout_s: float = 30.0) -> str:
    """The first model id the endpoint lists at /models (used when no model is configured)."""
    try:
        resp = httpx.get(
            f"{base_url.rstrip('/')}/models", headers={"Authorization": f"Bearer {api_key}"}, timeout=timeout_s
        )
        resp.raise_for_status()
        models = resp.json().get("data") or []
        if models and isinstance(models[0], dict) and models[0].get("id"):
            return str(models[0]["id"])
    except (httpx.HTTPError, ValueError, AttributeError) as err:
        raise LLMError(f"{base_url}: no model given (--model or OPENAI_MODEL) and /models failed: {err}") from err
    raise LLMError(f"{base_url}: no model given (--model or OPENAI_MODEL) and /models lists none")


@contextmanager
def open_client(config: LLMConfig | None = None) -> Iterator[LLMClient]:
    """Yield an LLMClient; with no endpoint configured, start the embedded model and stop it on exit."""
    config = config or LLMConfig()
    endpoint = resolve_endpoint(config)
    if not endpoint.embedded:
        model = endpoint.model or first_served_model(endpoint.base_url, endpoint.api_key, config.timeout_s)
        client = LLMClient(
            config, endpoint.base_url, model, api_key=endpoint.api_key, structured_style=STYLE_JSON_SCHEMA
        )
        try:
            yield client
        finally:
            client.close()
        return
    server = acquire_embedded()
    try:
        client = LLMClient(
            config,
            server.base_url,
            endpoint.model or EMBEDDED_MODEL_ALIAS,
            api_key=endpoint.api_key,
            structured_style=STYLE_LLAMA,
        )
        try:
            yield client
        finally:
            client.close()
    finally:
        release_embedded()
