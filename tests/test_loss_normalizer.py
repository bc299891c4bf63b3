"""The paper's loss normaliser ("traj-mean-token-mean"): each trajectory's token-mean term, averaged over the
trajectories not masked for a user error. Hand-computed numbers."""

from __future__ import annotations

import math

import pytest
import torch

from rl import distributed as D
from rl.erpo import policy_loss
from rl.train_config import TrainConfig, config_from_dict
from rl.types import TokenRow
from rl.update_step import Learner, UpdateRow

# Trajectory A (advantage +1) spans two training sequences (a context change), 2 agent tokens each;
# trajectory B (advantage -2) has 1 agent token; C's equal-reward group was dropped (not in the loss, but
# unmasked); a fourth trajectory was masked for a user error. So 3 unmasked trajectories.
LP = torch.tensor([[math.log(1.1), 0.0, 0.0], [0.0, 0.0, 0.0], [math.log(0.5), 0.0, 0.0]])
OLD = torch.zeros(3, 3)
MASK = torch.tensor([[1, 1, 0], [1, 1, 0], [1, 0, 0]])
ADV = torch.tensor([1.0, 1.0, -2.0])


def test_traj_mean_token_mean_by_hand():
    # A's tokens: -min(1.1, clip(1.1, 0.8, 1.28)) = -1.1, then -1, -1, -1  -> token mean -4.1 / 4 = -1.025
    # B's token: ratio 0.5, A = -2: -min(-1.0, 0.8 * -2) = 1.6                -> 1.6
    # C contributes 0; the mean over the 3 unmasked trajectories: (-1.025 + 1.6 + 0) / 3
    loss, _ = policy_loss(
        LP, OLD, ADV, MASK, 0.2, 0.28, "traj-mean-token-mean", seq_tokens=torch.tensor([4.0, 4.0, 1.0]), normalizer=3.0
    )
    assert float(loss) == pytest.approx((-1.025 + 1.6) / 3, abs=1e-6)
    # the other aggregations give other numbers on the same tokens
    token_mean, _ = policy_loss(LP, OLD, ADV, MASK, 0.2, 0.28, "token-mean")
    assert float(token_mean) == pytest.approx((-4.1 + 1.6) / 5, abs=1e-6)
    seq_mean, _ = policy_loss(LP, OLD, ADV, MASK, 0.2, 0.28, "seq-mean-token-mean")
    assert float(seq_mean) == pytest.approx((-2.1 / 2 - 1.0 + 1.6) / 3, abs=1e-6)


def _rows() -> list[UpdateRow]:
    def row(n_agent: int, adv: float, total: float) -> UpdateRow:
        mask = [0] + [1] * n_agent
        return UpdateRow(TokenRow(list(range(len(mask))), mask, [0.0] * len(mask)), adv, total)

    return [row(2, 1.0, 4.0), row(2, 1.0, 4.0), row(1, -2.0, 1.0)]


def _learner(mini_batches: int, agg: str = "traj-mean-token-mean") -> Learner:
    cfg: TrainConfig = config_from_dict({"envs": ["-"], "loss": {"agg": agg}, "optim": {"mini_batches": mini_batches}})
    return Learner(
        config=cfg,
        model=torch.nn.Linear(1, 1),
        wrapped=torch.nn.Linear(1, 1),
        ref_model=None,
        optimizer=None,
        scheduler=None,
        dist=D.DistInfo(),
        device=torch.device("cpu"),
        pad_id=0,
        temperature=1.0,
    )


def test_the_plan_divides_by_the_unmasked_trajectories():
    [mb] = _learner(1)._plan(_rows(), step=0, unmasked=3)
    assert mb.normalizer == pytest.approx(3.0)  # not 2 (trajectories in the loss) nor 3 sequences by chance
    [mb] = _learner(1)._plan(_rows(), step=0, unmasked=None)
    assert mb.normalizer == pytest.approx(2.0)  # without the count: the trajectories given
    # two mini-batches: each divides by its share of the trajectories, scaled; the shares add up to 3
    plan = _learner(2)._plan(_rows(), step=0, unmasked=3)
    assert sum(mb.normalizer for mb in plan) == pytest.approx(3.0)
    [mb] = _learner(1, "token-mean")._plan(_rows(), step=0, unmasked=3)
    assert mb.normalizer == pytest.approx(5.0)


def test_the_paper_normaliser_is_the_default():
    assert TrainConfig().loss.agg == "traj-mean-token-mean"
