"""KV caches of earlier prompts, kept so that the next turn of an episode encodes only its new tokens.

An episode's prompt at turn t+1 is its prompt at turn t, the tokens sampled then, and the new
observation or user message. `PrefixCache` keeps, per served row, the keys and values of every layer
for `prompt + sampled[:-1]` (the last sampled token never went through the model), and answers a new
prompt with the entry that shares the longest prefix with it. Entries are evicted least recently used
beyond a byte budget, and the whole cache is dropped when the model's weights change (an optimizer step
or a `load_state_dict` bumps the parameters' version counters), so a cached prefix always comes from the
weights that will sample the continuation.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class CacheEntry:
    """The tokens of one served row and, per layer, their keys and values ([heads, len, head_dim])."""

    tokens: np.ndarray
    keys: list[Any]
    values: list[Any]
    nbytes: int = 0

    def __post_init__(self) -> None:
        self.nbytes = sum(t.numel() * t.element_size() for t in (*self.keys, *self.values))


@dataclass
class PrefixCacheStats:
    """Counters since the cache was made: how many prompt tokens were served from it."""

    lookups: int = 0
    hits: int = 0
    prompt_tokens: int = 0
    reused_tokens: int = 0
    invalidations: int = 0
    evictions: int = 0

    def as_dict(self) -> dict[str, float]:
        share = self.reused_tokens / self.prompt_tokens if self.prompt_tokens else 0.0
        return {**self.__dict__, "reused_share": round(share, 4)}


@dataclass
class PrefixCache:
    """Longest-prefix lookup over cached rows, LRU-evicted beyond `max_bytes`."""

    max_bytes: int
    min_reuse: int = 16  # shorter shared prefixes are not worth a separate code path
    entries: OrderedDict[int, CacheEntry] = field(default_factory=OrderedDict)
    stats: PrefixCacheStats = field(default_factory=PrefixCacheStats)
    _next_key: int = 0
    _weights_version: int | None = None

    @property
    def nbytes(self) -> int:
        return sum(e.nbytes for e in self.entries.values())

    def clear(self) -> None:
        self.entries.clear()

    def check_weights(self, model: Any) -> None:
        """Drop every entry if the model's parameters changed since the last call."""
        version = sum(p._version for p in model.parameters())
        if self._weights_version is not None and version != self._weights_version and self.entries:
            self.clear()
            self.stats.invalidations += 1
        self._weights_version = version

    def lookup(self, prompt: list[int]) -> tuple[CacheEntry | None, int]:
        """The entry sharing the longest prefix with `prompt` and that length (at most len(prompt) - 1).

        At least one prompt token is always left to encode: its logits give the first sampled token.
        """
        self.stats.lookups += 1
        self.stats.prompt_tokens += len(prompt)
        best, best_n, best_key = None, 0, None
        ids = np.asarray(prompt, dtype=np.int64)
        for key, entry in self.entries.items():
            n = _common_prefix(entry.tokens, ids)
            if n > best_n:
                best, best_n, best_key = entry, n, key
        best_n = min(best_n, len(prompt) - 1)
        if best is None or best_n < self.min_reuse:
            return None, 0
        self.entries.move_to_end(best_key)
        self.stats.hits += 1
        self.stats.reused_tokens += best_n
        return best, best_n

    def store(self, tokens: list[int], keys: list[Any], values: list[Any]) -> None:
        """Keep one row; entries that are prefixes of it are dropped (the row supersedes them)."""
        entry = CacheEntry(np.asarray(tokens, dtype=np.int64), keys, values)
        if entry.nbytes > self.max_bytes:
            return
        for key in [k for k, e in self.entries.items() if _common_prefix(e.tokens, entry.tokens) == len(e.tokens)]:
            del self.entries[key]
        self.entries[self._next_key] = entry
        self._next_key += 1
        total = self.nbytes
        while total > self.max_bytes and len(self.entries) > 1:
            _, old = self.entries.popitem(last=False)
            total -= old.nbytes
            self.stats.evictions += 1


def _common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    """Length of the longest common prefix of two int arrays."""
    m = min(len(a), len(b))
    if m == 0:
        return 0
    diff = np.flatnonzero(a[:m] != b[:m])
    return int(diff[0]) if len(diff) else m
