"""Text values: the model's chatter is no value; fallbacks fit link kinds, node kinds and notes."""

from __future__ import annotations

import random

import pytest

from synth.tasks.values import LINK_KINDS, NODE_KINDS, NOTE_FACTS, clean_answer, fallback_text


@pytest.mark.parametrize(
    "answer",
    [
        "Awesome, I'm glad to help!",
        "I'm ready to help. What's your order?",
        "No, I'm not",
        "In an app for Todo, I'd write",
        "The app's zip of a kitchen address is",
        "A: I'm glad to help with",
        "Is this the garden plan?",
    ],
)
def test_chatter_is_not_a_value(answer):
    assert clean_answer(answer) is None


def test_values_survive_and_lose_a_trailing_colon():
    assert clean_answer("Family:") == "Family"
    assert clean_answer("Garden Planner") == "Garden Planner"
    assert clean_answer("The Ultimate Travel Destination Guide") == "The Ultimate Travel Destination Guide"
    assert clean_answer("Sydney, Australia (2018-03-24)") == "Sydney, Australia (2018-03-24)"


def test_fallbacks_by_what_the_field_holds():
    rng = random.Random(0)
    assert {fallback_text("relation", "relationType", rng) for _ in range(30)} <= set(LINK_KINDS)
    assert {fallback_text("edge", "kind", rng) for _ in range(30)} <= set(LINK_KINDS)
    assert {fallback_text("entity", "entityType", rng) for _ in range(30)} <= set(NODE_KINDS)
    assert {fallback_text("entity", "observations", rng) for _ in range(30)} <= set(NOTE_FACTS)
    assert fallback_text("todo", "category", rng) not in set(LINK_KINDS) | set(NODE_KINDS)
