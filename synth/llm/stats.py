"""Token, call and latency accounting of one client, safe to update from several threads."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


@dataclass
class TagStats:
    """Counts for one tag (a caller's label for a kind of request)."""

    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    repairs: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0


@dataclass
class LLMStats:
    """Network calls, cache hits, tokens and time of one client.

    `latency_s` sums the latency of every network call; `backoff_s` the waits before retries; `busy_s` is
    the union of the time during which at least one request was in flight, so latency_s / busy_s is the
    effective parallelism.
    """

    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    repairs: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    backoff_s: float = 0.0
    busy_s: float = 0.0
    wall_start: float = field(default_factory=time.time)
    by_tag: dict[str, TagStats] = field(default_factory=dict)
    _in_flight: int = 0
    _busy_since: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _tag(self, tag: str) -> TagStats:
        return self.by_tag.setdefault(tag or "", TagStats())

    def request_started(self) -> None:
        """Mark one request in flight (for busy_s)."""
        with self._lock:
            if self._in_flight == 0:
                self._busy_since = time.perf_counter()
            self._in_flight += 1

    def request_ended(self) -> None:
        """Mark one request done (for busy_s)."""
        with self._lock:
            self._in_flight -= 1
            if self._in_flight == 0:
                self.busy_s += time.perf_counter() - self._busy_since

    def record_call(self, tag: str, usage: dict, latency_s: float) -> None:
        """Count one successful network call and its tokens."""
        prompt = int(usage.get("prompt_tokens") or 0)
        completion = int(usage.get("completion_tokens") or 0)
        with self._lock:
            for s in (self, self._tag(tag)):
                s.calls += 1
                s.prompt_tokens += prompt
                s.completion_tokens += completion
                s.latency_s += latency_s

    def record(self, tag: str, what: str) -> None:
        """Add one to a counter: 'cache_hits', 'retries', 'repairs' or 'failures'."""
        with self._lock:
            for s in (self, self._tag(tag)):
                setattr(s, what, getattr(s, what) + 1)

    def record_backoff(self, seconds: float) -> None:
        """Add time spent waiting before a retry."""
        with self._lock:
            self.backoff_s += seconds

    def to_dict(self) -> dict:
        """Plain-JSON view (for manifests and reports)."""
        with self._lock:
            keys = ("calls", "cache_hits", "retries", "repairs", "failures", "prompt_tokens", "completion_tokens")
            out = {k: getattr(self, k) for k in keys}
            out["latency_s"] = round(self.latency_s, 4)
            out["backoff_s"] = round(self.backoff_s, 4)
            busy = self.busy_s
            if self._in_flight:
                busy += time.perf_counter() - self._busy_since
            out["busy_s"] = round(busy, 4)
            out["wall_s"] = round(time.time() - self.wall_start, 4)
            out["by_tag"] = {
                tag: {k: getattr(t, k) for k in keys} | {"latency_s": round(t.latency_s, 4)}
                for tag, t in sorted(self.by_tag.items())
            }
            return out
