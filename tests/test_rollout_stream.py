"""Token-in, token-out: the stream a rollout records is exactly what the trainer consumes.

A tiny randomly initialized Llama (rl.tiny_model) samples real turns; the ids, loss masks and sampling
logprobs on the trajectory must match a from-scratch forward pass. A forced policy (scripted token ids,
logprobs from the same model) checks interleaved thinking and per-context training sequences.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from rl.backends.base import Sample, SamplingParams
from rl.backends.transformers_backend import TransformersPolicy
from rl.episode import RolloutConfig
from rl.render import hermes_renderer
from rl.rollout import load_env_tasks, run_episodes
from rl.tiny_model import build_model, build_tokenizer, default_corpus
from rl.user_sim import ScriptedUser, UserReply
from synth.spec import ToolCall

MINI = Path(__file__).parent / "data" / "envs" / "mini_todo"


@pytest.fixture(scope="module")
def tiny():
    """Tokenizer trained on the environment's own prompt text, so the head is short (fast tests)."""
    from synth.runtime import Environment

    env = Environment(MINI)
    corpus = default_corpus() + [hermes_renderer().system_content(env.tools)] * 4
    corpus += [t.user_instruction for t in load_env_tasks(MINI)] + [
        str(o) for t in load_env_tasks(MINI) for o in t.gold_outputs
    ]
    tok = build_tokenizer(corpus=corpus, vocab_size=1024)
    return build_model(tok, seed=0), tok


class ChattyUser:
    """Never stops by itself: the episode ends on the user-turn limit."""

    name = "chatty"

    def first_message(self, task, sample_index=0):
        return task.user_instruction

    def reply(self, task, dialogue, sample_index=0):
        return UserReply(text=f"Please go on ({sample_index}).", stop=False)


class Recorder:
    """Wraps a token policy and keeps every (prompt, sample) it served."""

    def __init__(self, inner):
        self.inner, self.tokenizer, self.name = inner, inner.tokenizer, inner.name
        self.served: list[tuple[list[int], Sample]] = []

    def generate(self, prompts, params):
        out = self.inner.generate(prompts, params)
        self.served.extend(zip([list(p) for p in prompts], out))
        return out


class ForcedPolicy:
    """Emits scripted turns as token ids; logprobs are the model's own (temperature 1) at those ids."""

    def __init__(self, model, tokenizer, turns: list[str]):
        self.model, self.tokenizer, self.turns, self.name = model, tokenizer, turns, "forced"
        self.served: list[tuple[list[int], Sample]] = []

    def generate(self, prompts, params):
        out = []
        for prompt in prompts:
            ids = self.tokenizer.encode(self.turns[len(self.served)] + "<|im_end|>", add_special_tokens=False)
            lps = recompute(self.model, prompt + ids)[len(prompt) :]
            sample = Sample(token_ids=ids, logprobs=lps, finish_reason="stop")
            self.served.append((list(prompt), sample))
            out.append(sample)
        return out


def recompute(model, ids: list[int]) -> list[float]:
    """logprob of each token given the ones before it (0.0 for the first)."""
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([ids])).logits[0].float()
    lp = torch.log_softmax(logits, dim=-1)
    return [0.0] + [lp[i - 1, ids[i]].item() for i in range(1, len(ids))]


@pytest.mark.slow
def test_sampled_stream_matches_recomputation(tiny):
    model, tok = tiny
    policy = Recorder(TransformersPolicy(model, tok, max_batch=3))
    tasks = load_env_tasks(MINI)
    config = RolloutConfig(max_new_tokens=12, max_turns=4, max_user_turns=2, temperature=1.0, seed=3)
    trajs = run_episodes(policy, [(MINI, t) for t in tasks], ChattyUser(), config, k=2)
    assert len(trajs) == 4 and all(t.dialogue.stop_reason for t in trajs)
    assert len({tuple(t.tokens.token_ids) for t in trajs}) == 4  # samples differ
    sampled = {id(s): s for _, s in policy.served}
    for t in trajs:
        assert t.tokens.sequences == [] and t.training_sequences() == [
            (t.tokens.token_ids, t.tokens.loss_mask, t.tokens.logprobs)
        ]
        assert len(t.tokens.token_ids) == len(t.tokens.loss_mask) == len(t.tokens.logprobs)
        spans = [s for s in t.tokens.turn_spans if s[2] == "assistant"]
        assert len(spans) == t.dialogue.num_turns >= 2
        # mask is 1 exactly on sampled tokens, which sit unchanged in the stream after the context they were sampled in
        mine = [
            (p, s)
            for p, s in policy.served
            if t.tokens.token_ids[: len(p)] == p
            and t.tokens.token_ids[len(p) : len(p) + len(s.token_ids)] == s.token_ids
        ]
        assert len(mine) == t.dialogue.num_turns
        ones = set()
        for p, s in mine:
            ones.update(range(len(p), len(p) + len(s.token_ids)))
            assert t.tokens.logprobs[len(p) : len(p) + len(s.token_ids)] == s.logprobs
        assert {i for i, m in enumerate(t.tokens.loss_mask) if m} == ones
        again = recompute(model, t.tokens.token_ids)
        worst = max(abs(again[i] - t.tokens.logprobs[i]) for i in ones)
        assert worst < 1e-4, worst
        assert all(t.tokens.logprobs[i] == 0.0 for i in range(len(t.tokens.token_ids)) if not t.tokens.loss_mask[i])
    assert sampled  # the recorder saw the batches


def _thinking_turns(task) -> list[str]:
    r = hermes_renderer()
    turns = []
    for i, action in enumerate(task.gold_actions):
        call = ToolCall(action.name, dict(action.arguments))
        turns.append(r.assistant_text(f"secret plan number {i} zebra", "", [call]))
    turns.append(r.assistant_text("final musing quokka", "All done.", []))
    return turns


@pytest.mark.parametrize("interleaved", [True, False])
def test_thinking_switch_and_training_sequences(tiny, interleaved):
    model, tok = tiny
    task = load_env_tasks(MINI)[0]
    policy = ForcedPolicy(model, tok, _thinking_turns(task))
    config = RolloutConfig(interleaved_thinking=interleaved, max_new_tokens=200)
    [traj] = run_episodes(policy, [(MINI, task)], ScriptedUser(), config)
    assert (
        traj.reward == 1.0
        and traj.dialogue.stop_reason == "user_stop"
        and traj.setup.thinking_interleaved is interleaved
    )
    contexts = [tok.decode(p) for p, _ in policy.served]
    assert len(contexts) == 3
    # the full stream always keeps every turn's thinking in place
    assert all(w in tok.decode(traj.tokens.token_ids) for w in ("zebra", "quokka"))
    later = contexts[2]
    assert ("secret plan number 0 zebra" in later) is interleaved
    assert ("secret plan number 1 zebra" in later) is interleaved
    assert "<tool_call>" in later  # the calls themselves stay
    seqs = traj.training_sequences()
    assert (len(seqs) == 1) is interleaved
    # every turn: the sequence holding it starts with exactly the context the policy saw, mask 1 on its ids only
    covered = 0
    for prompt, sample in policy.served:
        hits = [
            (ids, mask, lps)
            for ids, mask, lps in seqs
            if ids[: len(prompt)] == prompt
            and ids[len(prompt) : len(prompt) + len(sample.token_ids)] == sample.token_ids
        ]
        assert hits, "a turn's context is missing from the training sequences"
        ids, mask, lps = hits[0]
        n = len(prompt) + len(sample.token_ids)
        assert mask[len(prompt) : n] == [1] * len(sample.token_ids)
        assert lps[len(prompt) : n] == sample.logprobs
        covered += len(sample.token_ids)
    assert sum(sum(m) for _, m, _ in seqs) == covered
    for ids, mask, lps in seqs:
        again = recompute(model, ids)
        assert max(abs(again[i] - lps[i]) for i in range(len(ids)) if mask[i]) < 1e-4


def test_sliding_window_view_is_spliced_not_retokenized(tiny):
    model, tok = tiny
    task = load_env_tasks(MINI)[0]
    turns = _thinking_turns(task)
    policy = ForcedPolicy(model, tok, turns)
    config = RolloutConfig(context_policy="sliding_window", context_window=1, max_new_tokens=200)
    [traj] = run_episodes(policy, [(MINI, task)], ScriptedUser(), config)
    assert traj.setup.context_policy == "sliding_window" and traj.reward == 1.0
    head_end = traj.tokens.turn_spans[0][1]
    head = traj.tokens.token_ids[:head_end]
    last_prompt = policy.served[2][0]
    assert last_prompt[:head_end] == head
    assert "secret plan number 0" not in tok.decode(last_prompt) and "secret plan number 1" in tok.decode(last_prompt)
    assert len(traj.training_sequences()) == 2  # turn 2 extends turn 1; turn 3 drops turn 1


def test_sampling_params_respected(tiny):
    model, tok = tiny
    policy = TransformersPolicy(model, tok, max_batch=2)
    prompt = tok.encode("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", add_special_tokens=False)
    greedy = policy.generate([prompt, prompt + prompt], SamplingParams(max_new_tokens=5, temperature=0.0))
    assert all(len(s.token_ids) == 5 or s.finish_reason == "stop" for s in greedy)
    alone = policy.generate([prompt], SamplingParams(max_new_tokens=5, temperature=0.0))
    assert alone[0].token_ids == greedy[0].token_ids  # left padding does not change the result
    first = policy.generate([prompt], SamplingParams(max_new_tokens=1, temperature=1.0, seed=1))[0].token_ids[0]
    stop = policy.generate([prompt], SamplingParams(max_new_tokens=6, temperature=1.0, seed=1, stop_token_ids=(first,)))
    assert stop[0].token_ids == [first] and stop[0].finish_reason == "stop"
    nucleus = policy.generate([prompt] * 4, SamplingParams(max_new_tokens=3, temperature=1.0, top_p=1e-6, seed=2))
    for s in nucleus:  # top_p this small leaves only the top token: its logprob is 0 under the truncated distribution
        assert all(abs(lp) < 1e-5 for lp in s.logprobs)


def test_tiny_model_is_seeded_sized_and_loadable(tmp_path):
    from rl.tiny_model import build_tiny, parameter_count, save_tiny

    a, tok = build_tiny(seed=7)
    b, _ = build_tiny(seed=7)
    assert all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values()))
    assert 50_000 < parameter_count(a) < 500_000
    small = build_model(build_tokenizer(vocab_size=2048), size="small")
    assert 2_000_000 < parameter_count(small) < 6_000_000
    loaded = TransformersPolicy.from_pretrained(str(save_tiny(a, tok, tmp_path / "tiny")))
    assert loaded.tokenizer.encode("<think>hi</think><|im_end|>") == tok.encode("<think>hi</think><|im_end|>")
    assert loaded.tokenizer.chat_template == tok.chat_template
    prompt = tok.encode("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n")
    params = SamplingParams(max_new_tokens=4, temperature=0.0)
    assert (
        loaded.generate([prompt], params)[0].token_ids
        == TransformersPolicy(a, tok).generate([prompt], params)[0].token_ids
    )
