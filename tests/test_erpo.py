"""ERPO advantages and the clipped policy loss against values worked out by hand."""

from __future__ import annotations

import math

import pytest
import torch

from rl.erpo import (
    compute_advantages,
    entropy_from_logits,
    equal_reward_groups,
    first_target,
    kl_k3,
    logprobs_from_logits,
    policy_loss,
)

EPS = 1e-6

# Batch used by several tests (worked out by hand below):
#   env A: task a1 rewards 1, 0 (+ an invalid 0.0), task a2 rewards 1, 1
#   env B: task b1 reward 0.5 (singleton group)
REWARDS = torch.tensor([1.0, 0.0, 0.0, 1.0, 1.0, 0.5])
TASKS = ["a1", "a1", "a1", "a2", "a2", "b1"]
ENVS = ["A", "A", "A", "A", "A", "B"]
VALID = torch.tensor([True, True, False, True, True, True])


def test_erpo_env_level_std():
    # env A valid rewards {1, 0, 1, 1}: mean 0.75, population std sqrt((3 * 0.25^2 + 0.75^2) / 4) = sqrt(0.1875)
    std_a = math.sqrt(0.1875)
    adv = compute_advantages(REWARDS, TASKS, ENVS, VALID, mode="erpo", eps=EPS)
    expected = [0.5 / (std_a + EPS), -0.5 / (std_a + EPS), 0.0, 0.0, 0.0, 0.0]
    assert adv.tolist() == pytest.approx(expected, abs=1e-6)
    assert adv.dtype == REWARDS.dtype


def test_grpo_task_level_std():
    # task a1 valid {1, 0}: mean 0.5, std 0.5; a2 all equal -> 0; b1 singleton -> 0
    adv = compute_advantages(REWARDS, TASKS, ENVS, VALID, mode="grpo", eps=EPS)
    expected = [0.5 / (0.5 + EPS), -0.5 / (0.5 + EPS), 0.0, 0.0, 0.0, 0.0]
    assert adv.tolist() == pytest.approx(expected, abs=1e-6)


def test_reinforce_pp_batch_level():
    # valid rewards {1, 0, 1, 1, 0.5}: mean 0.7, std sqrt((3 * 0.09 + 0.49 + 0.04) / 5) = 0.4
    adv = compute_advantages(REWARDS, TASKS, ENVS, VALID, mode="reinforce++", eps=EPS)
    expected = [0.3 / 0.4, -0.7 / 0.4, 0.0, 0.3 / 0.4, 0.3 / 0.4, -0.2 / 0.4]
    assert adv.tolist() == pytest.approx(expected, abs=1e-5)


def test_all_equal_and_singleton_groups_give_zero():
    rewards = torch.tensor([0.3, 0.3, 0.3, 0.9])
    for mode in ("erpo", "grpo"):
        adv = compute_advantages(
            rewards, ["t", "t", "t", "s"], ["e", "e", "e", "e"], torch.ones(4, dtype=torch.bool), mode=mode
        )
        assert adv.tolist() == [0.0, 0.0, 0.0, 0.0]


def test_erpo_differs_from_grpo_across_tasks_of_one_env():
    # one env, task x rewards {1, 0}, task y rewards {1, 1, 1, 1, 1, 0}: env std != task std
    rewards = torch.tensor([1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0])
    tasks = ["x", "x"] + ["y"] * 6
    valid = torch.ones(8, dtype=torch.bool)
    erpo = compute_advantages(rewards, tasks, ["e"] * 8, valid, mode="erpo", eps=0.0)
    grpo = compute_advantages(rewards, tasks, ["e"] * 8, valid, mode="grpo", eps=0.0)
    env_std = math.sqrt(0.75 * 0.25)  # 6 ones, 2 zeros
    assert erpo[0].item() == pytest.approx(0.5 / env_std)
    assert grpo[0].item() == pytest.approx(1.0)
    y_mean = 5 / 6
    y_std = math.sqrt(y_mean * (1 - y_mean))
    assert erpo[7].item() == pytest.approx(-y_mean / env_std)
    assert grpo[7].item() == pytest.approx(-y_mean / y_std)


def test_several_environments_are_normalized_separately():
    # env A rewards {0, 1} (std 0.5), env B rewards {0, 10} (std 5): same normalized advantages
    rewards = torch.tensor([0.0, 1.0, 0.0, 10.0])
    adv = compute_advantages(
        rewards, ["a", "a", "b", "b"], ["A", "A", "B", "B"], torch.ones(4, dtype=torch.bool), eps=0.0
    )
    assert adv.tolist() == pytest.approx([-1.0, 1.0, -1.0, 1.0])


def test_masked_entries_change_nothing():
    base = compute_advantages(REWARDS, TASKS, ENVS, VALID)
    wild = REWARDS.clone()
    wild[2] = 1000.0  # the invalid entry's reward must not leak into any statistic
    assert compute_advantages(wild, TASKS, ENVS, VALID).tolist() == base.tolist()
    # dropping the invalid entry altogether gives the same advantages for the rest
    keep = [0, 1, 3, 4, 5]
    sub = compute_advantages(REWARDS[keep], [TASKS[i] for i in keep], [ENVS[i] for i in keep], VALID[keep])
    assert sub.tolist() == [base[i].item() for i in keep]


def test_all_invalid_gives_zeros_and_bad_input_raises():
    adv = compute_advantages(torch.tensor([1.0, 0.0]), ["t", "t"], ["e", "e"], torch.zeros(2, dtype=torch.bool))
    assert adv.tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="mode"):
        compute_advantages(REWARDS, TASKS, ENVS, VALID, mode="ppo")
    with pytest.raises(ValueError, match="length"):
        compute_advantages(REWARDS, TASKS[:2], ENVS, VALID)


def test_equal_reward_groups():
    assert equal_reward_groups(REWARDS.tolist(), TASKS, VALID.tolist()) == {"a2", "b1"}


# ---- policy loss -------------------------------------------------------------------------------------


def _loss_batch():
    """Two sequences of 3 tokens with ratios 1.5, 0.5, 1; A = +1 and -1; the last token of seq 1 masked.

    A=+1: r=1.5 -> -min(1.5, 1.2) = -1.2 (clipped); r=0.5 -> -min(0.5, 0.8) = -0.5; r=1 -> -1
    A=-1: r=1.5 -> -min(-1.5, -1.2) = 1.5;  r=0.5 -> -min(-0.5, -0.8) = 0.8 (clipped); r=1 -> masked
    """
    old = torch.tensor([[-1.0, -2.0, -0.5], [-1.0, -2.0, -0.5]])
    delta = torch.tensor([math.log(1.5), math.log(0.5), 0.0])
    logprobs = (old + delta).clone().requires_grad_(True)
    adv = torch.tensor([1.0, -1.0])
    mask = torch.tensor([[1, 1, 1], [1, 1, 0]])
    return logprobs, old, adv, mask


@pytest.mark.parametrize(
    "agg,expected",
    [
        ("token-mean", (-1.2 - 0.5 - 1.0 + 1.5 + 0.8) / 5),
        ("seq-mean-token-mean", ((-1.2 - 0.5 - 1.0) / 3 + (1.5 + 0.8) / 2) / 2),
        ("seq-mean-token-sum", ((-1.2 - 0.5 - 1.0) + (1.5 + 0.8)) / 2),
    ],
)
def test_policy_loss_aggregations(agg, expected):
    logprobs, old, adv, mask = _loss_batch()
    loss, metrics = policy_loss(logprobs, old, adv, mask, agg=agg)
    assert loss.item() == pytest.approx(expected, abs=1e-6)
    assert metrics["clip_frac"] == pytest.approx(2 / 5)
    # approx KL (k3 on ratio): mean over masked tokens of (r - 1) - log r
    k = lambda r: (r - 1) - math.log(r)  # noqa: E731
    assert metrics["approx_kl"] == pytest.approx((2 * k(1.5) + 2 * k(0.5) + 0.0) / 5, abs=1e-6)


@pytest.mark.parametrize("agg", ["token-mean", "seq-mean-token-mean", "seq-mean-token-sum"])
def test_empty_sequence_contributes_nothing(agg):
    logprobs, old, adv, mask = _loss_batch()
    loss, _ = policy_loss(logprobs, old, adv, mask, agg=agg)
    lp3 = torch.cat([logprobs.detach(), torch.tensor([[5.0, -7.0, 3.0]])]).requires_grad_(True)
    old3 = torch.cat([old, torch.tensor([[-9.0, 2.0, 0.0]])])
    loss3, _ = policy_loss(
        lp3,
        old3,
        torch.cat([adv, torch.tensor([4.0])]),
        torch.cat([mask, torch.zeros(1, 3, dtype=torch.long)]),
        agg=agg,
    )
    assert loss3.item() == pytest.approx(loss.item(), abs=1e-7)
    loss3.backward()
    assert lp3.grad[2].abs().sum().item() == 0.0


def test_gradients_only_through_masked_in_tokens():
    logprobs, old, adv, mask = _loss_batch()
    loss, _ = policy_loss(logprobs, old, adv, mask, agg="token-mean")
    loss.backward()
    g = logprobs.grad
    assert g[1, 2].item() == 0.0  # masked out
    # clipped tokens carry no gradient; the others d/dlp of -r*A/5 = -A*r/5
    assert g[0, 0].item() == 0.0 and g[1, 1].item() == 0.0
    assert g[0, 1].item() == pytest.approx(-1.0 * 0.5 / 5)
    assert g[0, 2].item() == pytest.approx(-1.0 * 1.0 / 5)
    assert g[1, 0].item() == pytest.approx(1.0 * 1.5 / 5)


def test_asymmetric_clip_and_normalizer():
    logprobs, old, adv, mask = _loss_batch()
    # clip_high 0.6: r=1.5 with A=+1 is no longer clipped -> -1.5 instead of -1.2
    loss, m = policy_loss(logprobs, old, adv, mask, clip_low=0.2, clip_high=0.6, agg="token-mean", normalizer=10.0)
    assert loss.item() == pytest.approx((-1.5 - 0.5 - 1.0 + 1.5 + 0.8) / 10)
    assert m["clip_frac"] == pytest.approx(1 / 5)


def test_reference_kl_and_truncated_importance_sampling():
    lp = torch.zeros(1, 2, requires_grad=True)
    old = torch.zeros(1, 2)
    ref = torch.tensor([[math.log(2.0), 0.0]])
    adv = torch.tensor([1.0])
    mask = torch.ones(1, 2)
    kl2 = 2.0 - math.log(2.0) - 1.0  # k3 with ref - lp = log 2
    loss, m = policy_loss(lp, old, adv, mask, ref_logprobs=ref, kl_coef=0.5)
    assert loss.item() == pytest.approx((-1.0 + 0.5 * kl2 - 1.0) / 2)
    assert m["ref_kl"] == pytest.approx(kl2 / 2)
    assert kl_k3(torch.zeros(1), torch.zeros(1)).item() == 0.0
    # sampler logprobs lower than the trainer's by log 3 -> weight 3, truncated at 2
    sampler = torch.full((1, 2), -math.log(3.0))
    loss_tis, _ = policy_loss(lp, old, adv, mask, sampler_logprobs=sampler, tis_cap=2.0)
    assert loss_tis.item() == pytest.approx(-2.0)
    with pytest.raises(ValueError, match="aggregation"):
        policy_loss(lp, old, adv, mask, agg="sum")


def test_logprobs_from_logits_alignment_and_partial_logits():
    torch.manual_seed(0)
    logits = torch.randn(2, 6, 11)
    ids = torch.randint(0, 11, (2, 6))
    full = logprobs_from_logits(logits, ids, chunk=2)
    ref = torch.log_softmax(logits, -1)
    assert full[:, 0].abs().sum().item() == 0.0
    for t in range(1, 6):  # position t - 1 predicts token t
        assert torch.allclose(full[:, t], ref[:, t - 1].gather(-1, ids[:, t : t + 1]).squeeze(-1), atol=1e-6)
    part = logprobs_from_logits(logits[:, 3:], ids, start=3)  # only the logits of positions 3..5
    assert part.shape == (2, 6) and part[:, :4].abs().sum().item() == 0.0
    assert torch.allclose(part[:, 4:], full[:, 4:], atol=1e-6)
    ent = entropy_from_logits(logits[:, 3:], 6, start=3)
    want = -(ref.exp() * ref).sum(-1)
    assert torch.allclose(ent[:, 4:], want[:, 3:5], atol=1e-5) and ent[:, :4].abs().sum().item() == 0.0
    assert first_target(torch.tensor([[0, 0, 0, 1], [0, 0, 1, 1]])) == 2
    assert first_target(torch.zeros(2, 3)) == 1
