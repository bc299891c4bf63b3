"""Client settings and how the endpoint is resolved (flags, then OPENAI_* variables, then the embedded model)."""

from __future__ import annotations

import os
from dataclasses import dataclass

EMBEDDED_MODEL_ALIAS = "smollm2-135m-instruct"
DEFAULT_CACHE_PATH = ".forgegym_cache/llm.sqlite"
LOCAL_API_KEY = "sk-local"


@dataclass
class LLMConfig:
    """Settings of one LLM client; None endpoint fields fall back to OPENAI_* variables, then the embedded model."""

    base_url: str | None = None  # None -> OPENAI_BASE_URL env -> embedded default
    model: str | None = None  # None -> OPENAI_MODEL env -> embedded model alias
    api_key: str | None = None  # None -> OPENAI_API_KEY env -> "sk-local"
    max_concurrency: int = 4
    max_retries: int = 5
    timeout_s: float = 120.0
    cache_path: str | None = DEFAULT_CACHE_PATH  # None disables the cache
    temperature: float = 0.0
    seed: int = 0
    repair_attempts: int = 2
    backoff_base_s: float = 0.5
    backoff_cap_s: float = 20.0


@dataclass(frozen=True)
class Endpoint:
    """Where requests go; base_url None means: start the embedded model."""

    base_url: str | None
    model: str | None
    api_key: str

    @property
    def embedded(self) -> bool:
        return self.base_url is None


def resolve_endpoint(config: LLMConfig) -> Endpoint:
    """Fill the endpoint from the config, then OPENAI_BASE_URL / OPENAI_MODEL / OPENAI_API_KEY."""
    base_url = config.base_url or os.environ.get("OPENAI_BASE_URL") or None
    model = config.model or os.environ.get("OPENAI_MODEL") or None
    api_key = config.api_key or os.environ.get("OPENAI_API_KEY") or LOCAL_API_KEY
    return Endpoint(base_url=base_url, model=model, api_key=api_key)


def config_from_cli(
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    cache_path: str | None = DEFAULT_CACHE_PATH,
    **overrides,
) -> LLMConfig:
    """Build an LLMConfig from command-line values (None keeps the env/embedded fallback)."""
    return LLMConfig(
        base_url=base_url or None, model=model or None, api_key=api_key or None, cache_path=cache_path, **overrides
    )
