"""The KV cache kept across turns: same samples as encoding every prompt whole, dropped when weights change."""

from __future__ import annotations

import pytest
import torch

from rl.backends.base import SamplingParams
from rl.backends.prefix_cache import PrefixCache
from rl.backends.transformers_backend import TransformersPolicy
from rl.tiny_model import build_model, build_tokenizer, default_corpus


@pytest.fixture(scope="module")
def tiny():
    tok = build_tokenizer(corpus=default_corpus(), vocab_size=512)
    model = build_model(tok, seed=0)
    model.eval()
    return model, tok


def _turns(policy, turns: int = 3, temperature: float = 0.0, seed: int = 1):
    """Three episodes of different lengths; each turn's prompt is the last prompt + its sample + new tokens."""
    gen = torch.Generator().manual_seed(0)
    prompts = [torch.randint(5, 400, (n,), generator=gen).tolist() for n in (40, 70, 55)]
    served = []
    for t in range(turns):
        params = SamplingParams(max_new_tokens=12, temperature=temperature, seed=seed + t, stop_token_ids=(7,))
        samples = policy.generate(prompts, params)
        served.append(samples)
        prompts = [
            p + s.token_ids + torch.randint(5, 400, (5 + 3 * i,), generator=gen).tolist()
            for i, (p, s) in enumerate(zip(prompts, samples))
        ]
    return served


@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_reuse_samples_what_full_encoding_samples(tiny, temperature):
    model, tok = tiny
    plain = _turns(TransformersPolicy(model, tok, max_batch=3, prefix_cache_mb=0), temperature=temperature)
    policy = TransformersPolicy(model, tok, max_batch=3)
    cached = _turns(policy, temperature=temperature)
    for turn_plain, turn_cached in zip(plain, cached):
        for a, b in zip(turn_plain, turn_cached):
            assert a.token_ids == b.token_ids and a.finish_reason == b.finish_reason
            assert max(abs(x - y) for x, y in zip(a.logprobs, b.logprobs)) < 1e-5
    stats = policy.prefix_cache.stats
    assert stats.hits == 6 and stats.lookups == 9  # turns 2 and 3 of each episode reuse turn 1 and 2
    assert stats.reused_tokens > 0.5 * stats.prompt_tokens
    assert len(policy.prefix_cache.entries) == 3  # one entry per episode: a longer row supersedes its prefix


def test_rows_of_one_batch_reuse_prefixes_of_different_lengths(tiny):
    model, tok = tiny
    a = torch.randint(5, 400, (60,), generator=torch.Generator().manual_seed(3)).tolist()
    params = SamplingParams(max_new_tokens=6, temperature=0.0, seed=0)
    policy = TransformersPolicy(model, tok, max_batch=4)
    policy.generate([a[:30], a[:50]], params)  # two cached rows of different lengths
    prompts = [a[:30] + [9, 10, 11], a[:50] + [12], a[:20] + [13] * 30]  # the third shares 20 tokens with both
    want = TransformersPolicy(model, tok, max_batch=4, prefix_cache_mb=0).generate(prompts, params)
    got = policy.generate(prompts, params)
    assert [s.token_ids for s in got] == [s.token_ids for s in want]
    assert policy.prefix_cache.stats.hits == 3


def test_weight_change_drops_the_cache(tiny):
    model, tok = tiny
    policy = TransformersPolicy(model, tok, max_batch=3)
    prompt = torch.randint(5, 400, (40,), generator=torch.Generator().manual_seed(1)).tolist()
    params = SamplingParams(max_new_tokens=4, temperature=0.0, seed=0)
    policy.generate([prompt], params)
    policy.generate([prompt], params)
    assert policy.prefix_cache.stats.hits == 1
    saved = {k: v.clone() for k, v in model.state_dict().items()}
    try:
        with torch.no_grad():
            next(model.parameters()).add_(0.01)  # what an optimizer step does: an in-place update
        policy.generate([prompt], params)
        assert policy.prefix_cache.stats.invalidations == 1 and policy.prefix_cache.stats.hits == 1
    finally:
        model.load_state_dict(saved)


def _kv(n: int) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    return [torch.zeros(2, n, 4)], [torch.zeros(2, n, 4)]


def test_lookup_leaves_a_token_to_encode_and_ignores_short_prefixes():
    cache = PrefixCache(max_bytes=10**6, min_reuse=4)
    cache.store(list(range(10)), *_kv(10))
    assert cache.lookup(list(range(10)))[1] == 9  # the whole prompt is cached: the last token is encoded again
    assert cache.lookup(list(range(12)))[1] == 10
    assert cache.lookup([0, 1, 2, 99])[0] is None  # 3 shared tokens: below min_reuse
    assert cache.lookup([5, 6, 7, 8, 9])[0] is None  # shared tokens that are not a prefix do not count


def test_eviction_is_least_recently_used_within_the_budget():
    one = sum(t.numel() * t.element_size() for t in (*_kv(10)[0], *_kv(10)[1]))
    cache = PrefixCache(max_bytes=2 * one, min_reuse=1)
    cache.store([1] * 10, *_kv(10))
    cache.store([2] * 10, *_kv(10))
    assert cache.lookup([1] * 11)[1] == 10  # touches the first entry
    cache.store([3] * 10, *_kv(10))  # over budget: the least recently used ([2] * 10) goes
    assert cache.lookup([2] * 11)[0] is None and cache.lookup([1] * 11)[1] == 10
    assert cache.stats.evictions == 1 and cache.nbytes <= 2 * one


def test_buffered_cache_samples_what_the_concatenating_cache_samples(tiny):
    model, tok = tiny
    prompts = [torch.randint(5, 400, (n,), generator=torch.Generator().manual_seed(n)).tolist() for n in (30, 45)]
    params = SamplingParams(max_new_tokens=20, temperature=1.0, seed=5)
    buffered = TransformersPolicy(model, tok, max_batch=2, prefix_cache_mb=0)
    assert buffered._layers == model.config.num_hidden_layers  # a plain Llama: the buffered cache is used
    concat = TransformersPolicy(model, tok, max_batch=2, prefix_cache_mb=0)
    concat._layers = 0  # the model's own DynamicCache, which grows by concatenation
    a, b = buffered.generate(prompts, params), concat.generate(prompts, params)
    assert [s.token_ids for s in a] == [s.token_ids for s in b]
    assert max(abs(x - y) for sa, sb in zip(a, b) for x, y in zip(sa.logprobs, sb.logprobs)) < 1e-5


def test_buffered_layer_grows_when_full():
    from rl.backends.kv_buffer import BufferedLayer

    layer = BufferedLayer(reserve=2)
    chunks = [torch.randn(1, 2, n, 4) for n in (3, 1, 1, 1, 4)]
    for chunk in chunks:
        keys, values = layer.update(chunk, -chunk)
    whole = torch.cat(chunks, dim=-2)
    assert torch.equal(keys, whole) and torch.equal(values, -whole)
    assert layer.get_seq_length() == 10


def test_run_episodes_starts_from_an_empty_cache(tiny):
    """Samples of a rollout call must not depend on what an earlier call left in the cache."""
    model, tok = tiny
    policy = TransformersPolicy(model, tok, max_batch=3)
    prompt = torch.randint(5, 400, (40,), generator=torch.Generator().manual_seed(2)).tolist()
    policy.generate([prompt], SamplingParams(max_new_tokens=4, temperature=0.0, seed=0))
    assert len(policy.prefix_cache.entries) == 1
    from rl.episode import RolloutConfig
    from rl.rollout import run_episodes
    from rl.user_sim import ScriptedUser

    run_episodes(policy, [], ScriptedUser(), RolloutConfig())
    assert len(policy.prefix_cache.entries) == 0
