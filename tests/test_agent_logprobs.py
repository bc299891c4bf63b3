"""Chunked log-probs at agent positions (rl/agent_logprobs.py) equal the full-logits path, values and gradients."""

from __future__ import annotations

import pytest
import torch

from rl.agent_logprobs import agent_logprobs, supports_chunked_head
from rl.erpo import entropy_from_logits, logprobs_from_logits
from rl.tiny_model import build_model, build_tokenizer


@pytest.fixture(scope="module")
def tiny():
    tok = build_tokenizer(vocab_size=300)
    return build_model(tok, size="test", seed=0)


def batch(vocab: int, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, vocab, (3, 40), generator=g)
    attn = torch.ones_like(ids)
    attn[2, 30:] = 0  # a right-padded row
    mask = torch.zeros(3, 40)
    mask[0, 10:18] = 1  # agent turns between context (prompt, tool outputs)
    mask[0, 25:31] = 1
    mask[1, 33:40] = 1
    mask[2, 5:9] = 1
    return ids, attn, mask


def full_path(model, ids, attn, mask, temperature):
    logits = model(input_ids=ids, attention_mask=attn).logits.float() / temperature
    return logprobs_from_logits(logits, ids) * mask, entropy_from_logits(logits.detach(), ids.shape[1]) * mask


@pytest.mark.parametrize("chunk", [1024, 3])
def test_chunked_agent_logprobs_equal_the_full_path(tiny, chunk):
    ids, attn, mask = batch(tiny.config.vocab_size)
    assert supports_chunked_head(tiny)
    ref_lp, ref_ent = full_path(tiny, ids, attn, mask, 0.7)
    got = agent_logprobs(tiny, ids, attn, mask, temperature=0.7, chunk=chunk, entropy=True)
    assert got.positions == int(mask[:, 1:].sum())
    assert torch.allclose(got.logprobs, ref_lp, atol=1e-5, rtol=0)
    assert torch.allclose(got.entropy, ref_ent, atol=1e-5, rtol=0)
    assert (got.logprobs[mask == 0] == 0).all()
    # the largest logits block is one chunk of agent positions, not [B, T, V]
    assert got.peak_logits == min(chunk, got.positions) * tiny.config.vocab_size < ids.numel() * tiny.config.vocab_size


def test_chunked_gradients_equal_the_full_path(tiny):
    ids, attn, mask = batch(tiny.config.vocab_size, seed=1)
    weights = torch.linspace(-1, 1, ids.numel()).reshape(ids.shape)  # any loss over the agent tokens
    tiny.zero_grad()
    (full_path(tiny, ids, attn, mask, 1.0)[0] * weights).sum().backward()
    want = {n: p.grad.clone() for n, p in tiny.named_parameters()}
    tiny.zero_grad()
    (agent_logprobs(tiny, ids, attn, mask, chunk=5).logprobs * weights).sum().backward()
    for n, p in tiny.named_parameters():
        assert torch.allclose(p.grad, want[n], atol=1e-5, rtol=1e-4), n
    tiny.zero_grad()


def test_a_model_that_rescales_logits_is_not_chunked(tiny):
    tiny.config.final_logit_softcapping = 30.0
    try:
        assert not supports_chunked_head(tiny)
    finally:
        tiny.config.final_logit_softcapping = None
