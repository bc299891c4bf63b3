"""Which failures to retry, and how long to wait: exponential backoff with full jitter, Retry-After honoured."""

from __future__ import annotations

import email.utils
import json
import random
import time
from dataclasses import dataclass

import openai

MAX_RETRY_AFTER_S = 120.0


class MalformedResponse(Exception):
    """The server answered 200 but the body had no usable completion (truncated, empty, not JSON)."""


@dataclass
class RetryDecision:
    """Whether a failure is worth another try, and the server's requested wait if any."""

    retry: bool
    reason: str
    retry_after_s: float | None = None


def parse_retry_after(headers) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date), or None."""
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000.0)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def classify(exc: BaseException) -> RetryDecision:
    """Retry timeouts, connection errors, 429, 5xx and malformed bodies; never other 4xx."""
    if isinstance(exc, openai.APITimeoutError):
        return RetryDecision(True, "timeout")
    if isinstance(exc, openai.APIConnectionError):
        return RetryDecision(True, f"connection error: {exc.__cause__ or exc}")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status == 429:
            return RetryDecision(True, "429 rate limited", parse_retry_after(exc.response.headers))
        if status >= 500:
            return RetryDecision(True, f"{status} server error", parse_retry_after(exc.response.headers))
        return RetryDecision(False, f"{status} {_error_text(exc)}")
    if isinstance(exc, (MalformedResponse, json.JSONDecodeError, openai.APIResponseValidationError)):
        return RetryDecision(True, f"malformed response: {exc}")
    return RetryDecision(False, f"{type(exc).__name__}: {exc}")


def _error_text(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        msg = body.get("message") or body.get("error") or body
        return str(msg)[:500]
    return str(exc)[:500]


class Backoff:
    """Full-jitter exponential backoff: wait uniform(0, min(cap, base * 2**attempt)), seeded."""

    def __init__(self, base_s: float = 0.5, cap_s: float = 20.0, seed: int = 0):
        self.base_s = base_s
        self.cap_s = cap_s
        self._rng = random.Random(seed)

    def delay(self, attempt: int, retry_after_s: float | None = None) -> float:
        """Seconds to wait before retry number attempt+1 (attempt counts from 0)."""
        jitter = self._rng.uniform(0.0, min(self.cap_s, self.base_s * (2.0**attempt)))
        if retry_after_s is not None:
            return min(MAX_RETRY_AFTER_S, max(retry_after_s, 0.0))
        return jitter
