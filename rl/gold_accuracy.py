"""Teacher-forced accuracy of a policy on gold episodes: how far a model is from reproducing them exactly.

Greedy success is all-or-nothing over an episode of hundreds of agent tokens; this measures the
next-token accuracy under teacher forcing on the agent tokens (the SFT loss mask) instead, per token
class (for example digits, which carry copied ids), with the share of sequences predicted without a
single error and where in a sequence the first error falls. Comparing training and held-out episodes
separates memorizing the training tasks from learning to read an instruction.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch

from rl.sft import collate_rows, training_rows
from rl.types import Trajectory


@dataclass
class GoldAccuracy:
    """Counts over the agent tokens of a set of gold episodes."""

    tokens: int = 0
    correct: int = 0
    sequences: int = 0
    exact_sequences: int = 0  # sequences whose every agent token is the model's top prediction
    by_class: dict[str, list[int]] = field(default_factory=dict)  # class -> [correct, tokens]
    first_error_at: list[float] = field(default_factory=list)  # per wrong sequence: share of agent tokens before it

    @property
    def accuracy(self) -> float:
        return self.correct / self.tokens if self.tokens else float("nan")

    def summary(self) -> dict[str, object]:
        """A JSON-ready summary: accuracies rounded to 4 places."""
        return {
            "accuracy": round(self.accuracy, 4),
            "tokens": self.tokens,
            "by_class": {k: round(c / n, 4) for k, (c, n) in sorted(self.by_class.items()) if n},
            "class_tokens": {k: n for k, (_, n) in sorted(self.by_class.items())},
            "sequences": self.sequences,
            "exact_sequences": self.exact_sequences,
            "median_first_error_at": round(statistics.median(self.first_error_at), 4) if self.first_error_at else None,
        }


def teacher_forced_accuracy(
    model: torch.nn.Module,
    trajs: Sequence[Trajectory],
    pad_id: int,
    token_class: Callable[[int], str] | None = None,
    device: torch.device | str = "cpu",
) -> GoldAccuracy:
    """Top-1 next-token accuracy of `model` on the agent tokens of `trajs`, one sequence at a time.

    `token_class(token_id)` names the class a target token is counted under (None: every token is "all").
    """
    out = GoldAccuracy()
    was_training = model.training
    model.eval()
    try:
        for row in training_rows(list(trajs)):
            batch = collate_rows([row], pad_id, device)
            with torch.no_grad():
                logits = model(input_ids=batch.token_ids, attention_mask=batch.attention_mask).logits[0]
            predicted = logits[:-1].argmax(-1)
            targets = batch.token_ids[0, 1:]
            positions = (batch.loss_mask[0, 1:] > 0).nonzero().flatten().tolist()
            if not positions:
                continue
            hits = (predicted == targets).tolist()
            out.sequences += 1
            first_error = next((n for n, i in enumerate(positions) if not hits[i]), None)
            if first_error is None:
                out.exact_sequences += 1
            else:
                out.first_error_at.append(first_error / len(positions))
            for i in positions:
                name = token_class(int(targets[i])) if token_class else "all"
                counts = out.by_class.setdefault(name, [0, 0])
                counts[0] += int(hits[i])
                counts[1] += 1
                out.correct += int(hits[i])
                out.tokens += 1
    finally:
        model.train(was_training)
    return out


def digit_or_other(decode: Callable[[list[int]], str]) -> Callable[[int], str]:
    """A token class function: "digit" for tokens that decode to digits (ids are copied digit by digit), else
    "other"."""

    def classify(token_id: int) -> str:
        text = decode([token_id]).strip()
        return "digit" if text.isdigit() else "other"

    return classify
