"""rl.gold_accuracy: teacher-forced accuracy on the agent tokens of gold episodes, by a counting fake model."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch

from rl.gold_accuracy import digit_or_other, teacher_forced_accuracy
from rl.types import EpisodeId, TokenStream, Trajectory

VOCAB = 16


class CountingModel(torch.nn.Module):
    """Predicts token t + 1 after token t (a fake with a known answer, not a trained model)."""

    def __init__(self) -> None:
        super().__init__()
        self.dummy = torch.nn.Parameter(torch.zeros(1))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None) -> SimpleNamespace:
        nxt = (input_ids + 1) % VOCAB
        return SimpleNamespace(logits=torch.nn.functional.one_hot(nxt, VOCAB).float())


def traj(tokens: list[int], mask: list[int]) -> Trajectory:
    return Trajectory(EpisodeId("e", "t"), TokenStream(token_ids=tokens, loss_mask=mask, logprobs=[0.0] * len(tokens)))


def test_a_sequence_predicted_throughout_is_exact() -> None:
    acc = teacher_forced_accuracy(CountingModel(), [traj([0, 1, 2, 3, 4], [0, 1, 1, 1, 1])], pad_id=0)
    assert (acc.correct, acc.tokens, acc.sequences, acc.exact_sequences) == (4, 4, 1, 1)
    assert acc.accuracy == 1.0 and acc.first_error_at == []


def test_only_agent_tokens_count() -> None:
    # token 1 (0 after 5) is wrong but is a prompt token; tokens 2 and 3 are agent tokens and right
    acc = teacher_forced_accuracy(CountingModel(), [traj([5, 0, 1, 2], [0, 0, 1, 1])], pad_id=0)
    assert (acc.correct, acc.tokens, acc.exact_sequences) == (2, 2, 1)


def test_errors_and_where_the_first_one_falls() -> None:
    # targets 1 2 7 4 5 after 0 1 2 7 4: right, right, wrong (3 expected), wrong (8 expected), right
    acc = teacher_forced_accuracy(CountingModel(), [traj([0, 1, 2, 7, 4, 5], [0, 1, 1, 1, 1, 1])], pad_id=0)
    assert (acc.correct, acc.tokens, acc.exact_sequences) == (3, 5, 0)
    assert acc.first_error_at == [pytest.approx(2 / 5)]
    assert acc.summary()["median_first_error_at"] == 0.4


def test_classes_and_several_sequences() -> None:
    trajs = [traj([0, 1, 2, 3], [0, 1, 1, 1]), traj([0, 1, 9, 3], [0, 1, 1, 1]), traj([4, 5], [0, 0])]
    acc = teacher_forced_accuracy(CountingModel(), trajs, pad_id=0, token_class=lambda t: "odd" if t % 2 else "even")
    # targets: 1 2 3 (all right), 1 9 3 (1 right, 9 wrong, 3 wrong: 10 expected); the third has no agent token
    assert acc.sequences == 2 and acc.exact_sequences == 1
    assert acc.by_class == {"odd": [3, 5], "even": [1, 1]}
    summary = acc.summary()
    assert summary["by_class"] == {"even": 1.0, "odd": 0.6} and summary["class_tokens"] == {"even": 1, "odd": 5}
    assert summary["accuracy"] == round(4 / 6, 4)


def test_training_mode_is_restored() -> None:
    model = CountingModel().train()
    teacher_forced_accuracy(model, [traj([0, 1], [0, 1])], pad_id=0)
    assert model.training


def test_digit_or_other() -> None:
    names = {1: "7", 2: " 42", 3: "abc", 4: "-"}
    classify = digit_or_other(lambda ids: names[ids[0]])
    assert [classify(i) for i in (1, 2, 3, 4)] == ["digit", "digit", "other", "other"]
