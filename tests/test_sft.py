"""SFT warm start on gold trajectories of mini_todo: agent tokens only, and the loss goes down."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from rl.episode import RolloutConfig
from rl.rollout import render_gold_trajectory
from rl.sft import collate, collate_rows, sft_loss, sft_train, training_rows
from rl.tiny_model import build_model, build_tokenizer
from rl.types import EpisodeId, TokenStream, Trajectory
from synth.task import load_tasks

MINI_TODO = Path(__file__).parent / "data" / "envs" / "mini_todo"


@pytest.fixture(scope="module")
def gold():
    torch.set_num_threads(1)
    tok = build_tokenizer(vocab_size=400)
    tasks = load_tasks(MINI_TODO / "tasks.jsonl")
    trajs = [render_gold_trajectory(tok, t, [], RolloutConfig(), env=str(MINI_TODO)) for t in tasks]
    return tok, trajs


def test_gold_trajectories_mask_only_the_agents_tokens(gold):
    tok, trajs = gold
    for traj in trajs:
        assert traj.reward == 1.0  # the gold actions solve the task
        agent = tok.decode([i for i, m in zip(traj.tokens.token_ids, traj.tokens.loss_mask) if m])
        assert "<tool_call>" in agent and "<|im_start|>" not in agent
        prompt = tok.decode([i for i, m in zip(traj.tokens.token_ids, traj.tokens.loss_mask) if not m])
        assert traj.dialogue.messages[1]["content"] in prompt  # the user's words are context, never learned


def test_collate_pads_and_aligns(gold):
    tok, trajs = gold
    batch = collate(trajs, pad_id=tok.pad_token_id)
    width = max(len(t.tokens.token_ids) for t in trajs)
    assert batch.token_ids.shape == (2, width)
    for i, t in enumerate(trajs):
        n = len(t.tokens.token_ids)
        assert batch.token_ids[i, :n].tolist() == t.tokens.token_ids
        assert batch.attention_mask[i].sum().item() == n
        assert batch.loss_mask[i, :n].tolist() == [0.0] + [float(m) for m in t.tokens.loss_mask[1:]]
        assert batch.loss_mask[i, n:].sum().item() == 0.0
    assert batch.num_tokens == sum(sum(t.tokens.loss_mask[1:]) for t in trajs)


@pytest.mark.slow
def test_sft_loss_ignores_context_tokens(gold):
    tok, trajs = gold
    model = build_model(tok, size="test", seed=0)
    rows = training_rows(trajs[:1])
    ids, mask, lps = rows[0]
    base, _ = sft_loss(model, collate_rows(rows, tok.pad_token_id))
    # the loss equals the mean NLL over exactly the masked-in tokens
    logits = model(input_ids=torch.tensor([ids])).logits[0]
    nll = torch.nn.functional.cross_entropy(logits[:-1], torch.tensor(ids[1:]), reduction="none")
    m = torch.tensor(mask[1:], dtype=torch.float32)
    assert base.item() == pytest.approx((nll * m).sum().item() / m.sum().item(), rel=1e-5)


@pytest.mark.slow
def test_sft_lowers_the_loss_on_gold(gold):
    tok, trajs = gold
    model = build_model(tok, size="test", seed=0)
    before, _ = sft_loss(model, collate(trajs, tok.pad_token_id))
    rows = sft_train(model, trajs, steps=8, lr=5e-3, batch_size=2, pad_id=tok.pad_token_id, seed=0)
    after, _ = sft_loss(model, collate(trajs, tok.pad_token_id))
    assert len(rows) == 8 and rows[-1]["sft_loss"] < rows[0]["sft_loss"]
    assert after.item() < before.item() - 0.5
    assert rows[-1]["sft_token_acc"] > rows[0]["sft_token_acc"]


def test_sft_needs_agent_tokens():
    empty = Trajectory(
        EpisodeId("e", "t", 0), TokenStream(token_ids=[1, 2, 3], loss_mask=[0, 0, 0], logprobs=[0.0] * 3)
    )
    with pytest.raises(ValueError, match="no gold trajectory"):
        sft_train(torch.nn.Linear(1, 1), [empty], steps=1, lr=0.1, batch_size=1, pad_id=0)


@pytest.mark.slow
def test_cosine_schedule_decays_to_a_tenth(gold):
    tok, trajs = gold
    model = build_model(tok, size="test", seed=0)
    rows = sft_train(model, trajs, steps=6, lr=1e-3, batch_size=2, pad_id=tok.pad_token_id, schedule="cosine")
    lrs = [r["sft_lr"] for r in rows]
    assert lrs == sorted(lrs, reverse=True) and lrs[0] < 1e-3  # the row logs the rate after the step
    assert lrs[-1] == pytest.approx(1e-4)
    flat = sft_train(
        build_model(tok, size="test", seed=0), trajs, steps=3, lr=1e-3, batch_size=2, pad_id=tok.pad_token_id
    )
    assert {r["sft_lr"] for r in flat} == {1e-3}
    with pytest.raises(ValueError, match="schedule"):
        sft_train(model, trajs, steps=1, lr=1e-3, batch_size=2, pad_id=tok.pad_token_id, schedule="linear")


def test_split_digits_makes_every_digit_a_token():
    corpus = ["id 00075053-0000-4000-8000-000000075053 and 12345"] * 20
    merged = build_tokenizer(corpus=corpus, vocab_size=400)
    split = build_tokenizer(corpus=corpus, vocab_size=400, split_digits=True)
    text = "todo 00075053-0000-4000-8000-000000075053"
    pieces = split.convert_ids_to_tokens(split.encode(text))
    digit_pieces = [p for p in pieces if any(c.isdigit() for c in p)]
    assert digit_pieces and all(len(p) == 1 for p in digit_pieces)
    assert len(merged.encode(text)) < len(split.encode(text))  # the default merges digit runs
    assert split.decode(split.encode(text)) == text
