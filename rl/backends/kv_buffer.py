"""A transformers KV cache that appends into preallocated buffers instead of concatenating.

transformers' `DynamicLayer` grows by `torch.cat`, which copies the whole cache at every decoded token:
O(context) memory traffic per token and per layer (21 % of CPU rollout time in session 4's profile).
`BufferedLayer` keeps keys and values in a buffer with room for `reserve` more tokens and hands the model
views of its filled part; the buffer is reallocated (with `reserve` more room) only when it is full.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.cache_utils import Cache, DynamicCache, DynamicLayer


class BufferedLayer(DynamicLayer):
    """A `DynamicLayer` whose `update` writes into a preallocated buffer ([batch, heads, capacity, dim])."""

    def __init__(self, reserve: int) -> None:
        super().__init__()
        self.reserve = max(1, reserve)
        self._key_buf: torch.Tensor | None = None
        self._value_buf: torch.Tensor | None = None
        self._length = 0

    def update(
        self, key_states: torch.Tensor, value_states: torch.Tensor, *args: Any, **kwargs: Any
    ) -> tuple[torch.Tensor, torch.Tensor]:
        if not self.is_initialized:
            self.lazy_initialization(key_states, value_states)
        end = self._length + key_states.shape[-2]
        if self._key_buf is None or end > self._key_buf.shape[-2]:
            self._grow(key_states, value_states, end + self.reserve)
        self._key_buf[..., self._length : end, :] = key_states
        self._value_buf[..., self._length : end, :] = value_states
        self._length = end
        self.keys = self._key_buf[..., :end, :]
        self.values = self._value_buf[..., :end, :]
        return self.keys, self.values

    def _grow(self, key_states: torch.Tensor, value_states: torch.Tensor, capacity: int) -> None:
        keys = key_states.new_empty((*key_states.shape[:-2], capacity, key_states.shape[-1]))
        values = value_states.new_empty((*value_states.shape[:-2], capacity, value_states.shape[-1]))
        if self._length:
            keys[..., : self._length, :] = self._key_buf[..., : self._length, :]
            values[..., : self._length, :] = self._value_buf[..., : self._length, :]
        self._key_buf, self._value_buf = keys, values

    def reset(self) -> None:
        self._key_buf = self._value_buf = None
        self._length = 0
        super().reset()

    def crop(self, tokens_to_remove: int) -> None:
        super().crop(tokens_to_remove)
        if self.is_initialized and self.keys is not None:
            self._length = self.keys.shape[-2]


class BufferedCache(DynamicCache):
    """A `DynamicCache` made of `BufferedLayer`s, optionally starting from given keys and values per layer."""

    def __init__(
        self, num_layers: int, reserve: int, prefix: list[tuple[torch.Tensor, torch.Tensor]] | None = None
    ) -> None:
        Cache.__init__(self, layers=[BufferedLayer(reserve) for _ in range(num_layers)])
        for layer, (keys, values) in zip(self.layers, prefix or []):
            layer.update(keys, values)


def plain_attention_layers(config: Any) -> int:
    """Number of decoder layers if every one is plain full attention (no sliding window, no state), else 0."""
    text = config.get_text_config(decoder=True) if hasattr(config, "get_text_config") else config
    layers = getattr(text, "num_hidden_layers", 0) or 0
    types = getattr(text, "layer_types", None)
    if types is not None and any(t != "full_attention" for t in types):
        return 0
    if getattr(text, "sliding_window", None) and getattr(text, "use_sliding_window", True):
        return 0
    return int(layers)
