"""The judge's prior against an LLM user: paraphrased values pass, changed ones are flagged, and the precision
reported in docs/judge_prior_llm_user.json is what the committed dialogues give (no LLM call here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rl.judge import prior_hits
from rl.judge_eval import LLM_USER_DATA, PRIOR_OUT, load_labeled, prior_scores

INSTRUCTION = (
    "Please add 3 bags of coffee (1,000 g each) for pet 7, ship date '2024-05-20T09:00:00Z', phone '555-1394', "
    "OpenAPI 3.0, then delete todo 00003689-0000-4000-8000-000000003689."
)


def said(text: str) -> list[str]:
    return prior_hits(INSTRUCTION, [{"role": "user", "content": text}])


@pytest.mark.parametrize(
    "text",
    [
        "Add three bags of coffee, 1000 g each.",
        "Pet #7, pet seven, pet 7.0.",
        "Ship it on May 20, 2024 at 9am.",
        "Ship date 20 May 2024.",
        "Ship date 05/20/2024.",
        "Ship on May 20th.",
        "My phone is 555 1394.",
        "OpenAPI 3 please.",
        "Delete todo 00003689.",
        "Delete the todo numbered 3,689.",
        "The steps:\n1. add the coffee\n2. delete the todo",
        "Items: 1) coffee; 2) the todo.",
        "Example:\n```python\nitems = [{'value': 42}]\n```",
    ],
)
def test_paraphrased_values_are_not_errors(text):
    assert said(text) == []


@pytest.mark.parametrize(
    "text,value",
    [
        ("Add 5 bags of coffee.", "5"),
        ("Ship it on May 21, 2024.", "may 21, 2024"),
        ("Ship date 2024-05-21.", "2024-05-21"),
        ("My phone is 555 1395.", "555 1395"),
        ("Delete todo 00003690.", "00003690"),
        ("Pet 9 please.", "9"),
    ],
)
def test_changed_values_are_still_errors(text, value):
    hits = said(text)
    assert len(hits) == 1 and repr(value) in hits[0], hits


def test_the_llm_user_set_is_labelled_and_large_enough():
    rows = load_labeled(LLM_USER_DATA)
    llm = [r for r in rows if r["source"] == "llm-user"]
    assert len(llm) >= 30 and any(r["user_error"] for r in llm) and all(r.get("note") for r in llm)
    assert {r["source"] for r in rows} == {"llm-user", "injected-paraphrase", "injected-error"}


def test_reported_prior_precision_reproduces_from_the_committed_dialogues():
    scores = prior_scores(load_labeled(LLM_USER_DATA))
    reported = json.loads(Path(PRIOR_OUT).read_text())
    assert {k: reported[k] for k in ("all", "by_source", "flagged")} == scores
    assert scores["all"]["precision"] >= 0.9  # the prior masks rarely by mistake; recall is the LLM vote's job
    assert scores["by_source"]["injected-paraphrase"]["fp"] == 0
    assert scores["by_source"]["llm-user"]["n"] >= 30
