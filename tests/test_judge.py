"""The user-error judge: prior, LLM votes, their combination, wiring into rollouts, and its measured accuracy."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from rl.episode import RolloutConfig
from rl.judge import UserErrorJudge, prior_hits
from rl.judge_eval import DEFAULT_DATA, load_labeled, measure
from synth.errors import InputError

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class _Chat:
    text: str


class VariantClient:
    """Answers the judge's yes/no prompts by variant (recognized by its wording)."""

    model = "fake"

    def __init__(self, contradiction: str, agreement: str, disagreement: str, reason: str = "Because the id differs."):
        self.answers = {
            "contradicts the instruction?": contradiction,
            "agree with what": agreement,
            "Does B disagree": disagreement,
        }
        self.reason, self.calls = reason, 0

    def chat(self, messages, **kwargs):
        self.calls += 1
        prompt = messages[-1]["content"]
        for key, answer in self.answers.items():
            if key in prompt:
                return _Chat(answer)
        return _Chat(self.reason)


def test_labeled_set_is_balanced_and_well_formed():
    rows = load_labeled()
    assert len(rows) >= 12 and len({r["id"] for r in rows}) == len(rows)
    errors = sum(r["user_error"] for r in rows)
    assert errors >= 6 and len(rows) - errors >= 6
    for r in rows:
        assert r["dialogue"][0]["role"] == "user" and {m["role"] for m in r["dialogue"]} <= {"user", "assistant"}


def test_labeled_set_rejects_bad_rows(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "instruction": "i", "dialogue": [], "user_error": "yes"}) + "\n")
    with pytest.raises(InputError, match="line 1: user_error"):
        load_labeled(bad)


def test_prior_flags_new_values_and_closed_class_conflicts():
    instruction = "Cancel order #W1042 and pay with the blue card on Friday."
    assert prior_hits(instruction, [{"role": "user", "content": "Cancel #W1042 please."}]) == []
    hits = prior_hits(instruction, [{"role": "user", "content": "Cancel #W1099."}])
    assert len(hits) == 1 and "w1099" in hits[0]
    # a value the agent said first is not the user's invention
    said = [{"role": "assistant", "content": "Your ticket is 5521."}, {"role": "user", "content": "OK, ticket 5521."}]
    assert prior_hits(instruction, said) == []
    assert any("weekday" in h for h in prior_hits(instruction, [{"role": "user", "content": "Make it Monday."}]))
    assert any("color" in h for h in prior_hits(instruction, [{"role": "user", "content": "The red card."}]))
    # tool results are not the user's words
    assert prior_hits(instruction, [{"role": "tool", "content": "order #W7"}]) == []


def test_yes_no_parsing():
    from synth.llm.ask import parse_yes_no, vote_word

    def word(text: str) -> str:  # the judge records each vote as yes / no / ?
        return vote_word(parse_yes_no(text))

    assert word("Yes, it does.") == "yes" and word("no") == "no"
    assert word("I think... No.") == "no" and word("maybe") == "?"


def test_llm_votes_majority_with_inverted_variant():
    dialogue = [{"role": "user", "content": "Hello"}]
    erred = UserErrorJudge(VariantClient("yes", "no", "yes")).judge("Say hello.", dialogue)
    assert erred.votes == ["yes", "yes", "yes"] and erred.user_error and erred.llm_error
    assert "Because the id differs." in erred.rationale
    clean = UserErrorJudge(VariantClient("no", "yes", "yes")).judge("Say hello.", dialogue)
    assert clean.votes == ["no", "no", "yes"] and not clean.user_error
    assert clean.rationale.startswith("LLM votes")


def test_modes():
    dialogue = [{"role": "user", "content": "Cancel #W9."}]
    client = VariantClient("no", "yes", "no")
    assert UserErrorJudge(client, mode="prior+llm").judge("Cancel #W1.", dialogue).user_error  # the prior finds it
    assert not UserErrorJudge(client, mode="llm").judge("Cancel #W1.", dialogue).user_error
    assert UserErrorJudge(None, mode="prior").judge("Cancel #W1.", dialogue).votes == []
    with pytest.raises(ValueError, match="needs an LLM client"):
        UserErrorJudge(None, mode="llm")


def test_rollouts_store_verdicts_for_llm_users_only():
    from rl.backends.scripted import GoldPolicy
    from rl.rollout import load_env_tasks, run_episodes
    from rl.user_sim import STOP_MARKER, LLMUser, ScriptedUser

    mini = ROOT / "tests" / "data" / "envs" / "mini_todo"
    task = load_env_tasks(mini)[0]

    class UserClient:
        model = "fake-user"

        def chat(self, messages, **kwargs):
            return _Chat(
                f"My todo is t9 actually. {STOP_MARKER}"
                if len(messages) > 1
                else "Please add buy milk and complete t1 for me."
            )

    judge = UserErrorJudge(None, mode="prior")
    [llm] = run_episodes(GoldPolicy(), [(mini, task)], LLMUser(UserClient()), RolloutConfig(), judge=judge)
    assert llm.verdict.user_error is True and "'t9'" in llm.verdict.rationale
    assert llm.valid is False
    [scripted] = run_episodes(GoldPolicy(), [(mini, task)], ScriptedUser(), RolloutConfig(), judge=judge)
    assert scripted.verdict.user_error is None and scripted.valid


def test_measure_counts_confusion():
    rows = load_labeled()
    result = measure(None, rows, modes=("prior",))["modes"]["prior"]
    assert result["tp"] + result["fp"] + result["tn"] + result["fn"] == len(rows)
    assert result["accuracy"] == (result["tp"] + result["tn"]) / len(rows)


def test_docs_report_the_committed_measurement():
    acc = json.loads((ROOT / "docs" / "judge_accuracy.json").read_text())
    doc = (ROOT / "docs" / "rollouts.md").read_text()
    assert acc["n"] == len(load_labeled(DEFAULT_DATA))
    for mode, row in acc["modes"].items():
        line = next((ln for ln in doc.splitlines() if ln.startswith(f"| {mode} |")), None)
        assert line is not None, f"docs/rollouts.md has no row for judge mode {mode}"
        assert f"{row['accuracy']:.3f}" in line
    # the prior needs no model: its committed figure must be reproducible here
    assert (
        measure(None, load_labeled(), modes=("prior",))["modes"]["prior"]["accuracy"]
        == acc["modes"]["prior"]["accuracy"]
    )


@pytest.mark.embedded
@pytest.mark.timeout(1200)
def test_embedded_judge_matches_committed_verdicts():
    """Re-judge a few labeled dialogues with the embedded model; the committed figures must still hold."""
    from synth.llm import config_from_cli, open_client

    acc = json.loads((ROOT / "docs" / "judge_accuracy.json").read_text())
    rows = [
        r for r in load_labeled() if r["id"] in ("err-payment", "clean-confirm-price", "err-order-id", "clean-email")
    ]
    with open_client(config_from_cli(cache_path=None)) as client:  # really ask the model again
        got = measure(client, rows, modes=("prior+llm",))["modes"]["prior+llm"]["verdicts"]
    want = acc["modes"]["prior+llm"]["verdicts"]
    assert sorted(got) == sorted(r["id"] for r in rows)
    # llama.cpp's sums differ between CPU instruction sets (an AMD EPYC flips one vote of the 12 the
    # committed file records), so a single vote may differ; a broken prompt or parser changes many.
    votes = [(a, b) for rid in got for a, b in zip(got[rid]["votes"], want[rid]["votes"], strict=True)]
    same_votes = sum(a == b for a, b in votes)
    same_verdicts = sum(got[rid]["verdict"] == want[rid]["verdict"] for rid in got)
    assert same_votes >= len(votes) - 1 and same_verdicts >= 3, (got, want)
    assert all(got[rid]["prior_hits"] == want[rid]["prior_hits"] for rid in got)  # the prior is exact
    assert re.match(r"smollm2", acc["model"])
