"""The one yes/no asker (synth.llm.ask) and its three callers: environment synthesis, the tool graph, the judge.

The callers must send the same requests as before they shared it (the LLM cache keys on the whole
request), so the prompts and keyword arguments are checked against literal expectations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from synth.llm.ask import Ballot, ask_yes_no, parse_yes_no, variant_questions, vote_word

SUFFIX = "\nAnswer with one word: yes or no."


@dataclass
class _Reply:
    text: str


@dataclass
class FakeChat:
    """A fake client: answers in order (cycling), records every prompt and keyword argument."""

    answers: list[str] = field(default_factory=lambda: ["yes"])
    prompts: list[str] = field(default_factory=list)
    kwargs: list[dict[str, Any]] = field(default_factory=list)
    model: str = "fake"

    def chat(self, messages: list[dict[str, Any]], **kw: Any) -> _Reply:
        assert len(messages) == 1 and messages[0]["role"] == "user"
        self.prompts.append(messages[0]["content"])
        self.kwargs.append(kw)
        return _Reply(self.answers[(len(self.prompts) - 1) % len(self.answers)])


@pytest.mark.parametrize(
    "text, vote",
    [
        ("Yes.", True),
        ("  NO, never", False),
        ("I think... No.", False),
        ("yesterday", None),
        ("nope", None),
        ("", None),
        ("no or yes", False),
    ],
)
def test_parse_yes_no_takes_the_first_yes_or_no_word(text, vote):
    assert parse_yes_no(text) is vote


def test_vote_words():
    assert [vote_word(v) for v in (True, False, None)] == ["yes", "no", "?"]


def test_questions_are_wrapped_once_each_and_answers_kept_stripped():
    fake = FakeChat(answers=[" Yes \n", "no", "maybe"])
    ballot = ask_yes_no(fake, ["Is A?", "Is B?", "Is C?"], tag="t.x", max_tokens=4)
    assert fake.prompts == ["Is A?" + SUFFIX, "Is B?" + SUFFIX, "Is C?" + SUFFIX]
    assert fake.kwargs == [{"max_tokens": 4, "tag": "t.x"}] * 3  # no temperature unless asked for
    assert ballot.answers == ["Yes", "no", "maybe"] and ballot.votes == [True, False, None]
    assert (ballot.yes, ballot.no) == (1, 1) and ballot.decision() is None  # a tie decides nothing


def test_majority_unclear_answers_and_inversion():
    assert ask_yes_no(FakeChat(["yes", "?", "yes"]), ["q"] * 3, tag="t").decision() is True
    assert ask_yes_no(FakeChat(["no", "no", "yes"]), ["q"] * 3, tag="t").decision() is False
    assert ask_yes_no(FakeChat(["hmm"]), ["q"] * 2, tag="t").decision() is None
    flipped = ask_yes_no(FakeChat(["yes", "yes", "maybe"]), ["a", "b", "c"], tag="t", inverted={1, 2})
    assert flipped.votes == [True, False, None] and flipped.decision() is None
    assert Ballot().decision() is None and ask_yes_no(FakeChat(), [], tag="t").votes == []


def test_unwrapped_questions_and_temperature_go_as_given():
    fake = FakeChat(["no"])
    ask_yes_no(fake, ["Raw question? Answer yes or no."], tag="judge", temperature=0.0, wrap=False)
    assert fake.prompts == ["Raw question? Answer yes or no."]
    assert fake.kwargs == [{"max_tokens": 8, "tag": "judge", "temperature": 0.0}]


def test_variant_questions_render_each_variant():
    qs = variant_questions("envsynth_mutates.j2", range(3), name="add_todo", description="Adds a todo.")
    assert qs[0] == "Does the API function `add_todo` (Adds a todo.) modify stored data?"
    assert qs[2] == "Is `add_todo` a write operation? Its description: Adds a todo."
    assert len(set(qs)) == 3


def test_environment_synthesis_votes_over_paraphrases():
    from synth.envsynth.ask import ask_yes_no as envsynth_ask

    fake = FakeChat(["Yes", "no.", "yes!"])
    vote = envsynth_ask(fake, "envsynth_mutates.j2", 3, "plan.mutates", name="add_todo", description="Adds a todo.")
    assert vote.decision is True and vote.answers == ["Yes", "no.", "yes!"]
    assert fake.prompts[0] == "Does the API function `add_todo` (Adds a todo.) modify stored data?" + SUFFIX
    assert fake.kwargs == [{"max_tokens": 8, "tag": "plan.mutates"}] * 3
    assert (
        envsynth_ask(FakeChat(["yes", "no"]), "envsynth_mutates.j2", 2, "t", name="n", description="d").decision is None
    )


def test_tool_graph_asks_one_wrapped_question_per_edge():
    from synth.tasks.graph import Edge, confirm_edges, edge_question

    class Tool:
        def __init__(self, name: str) -> None:
            self.name, self.description = name, f"The {name} tool."

    class Model:
        tools = {"a": Tool("a"), "b": Tool("b")}

    def edges() -> list[Edge]:
        return [
            Edge("a", "b", "state", collections=["todos"], strength="weak"),
            Edge("b", "a", "state", collections=["todos"], strength="strong"),
        ]

    fake = FakeChat(["No, it does not.", "no"])
    weak, strong = confirm_edges(Model(), edges(), fake)  # type: ignore[arg-type]
    assert fake.prompts == [edge_question(Model(), weak) + SUFFIX, edge_question(Model(), strong) + SUFFIX]  # type: ignore[arg-type]
    assert fake.kwargs == [{"max_tokens": 4, "tag": "tasks.edge"}] * 2
    assert weak.llm == {"question": edge_question(Model(), weak), "answer": "No, it does not.", "says": False}  # type: ignore[arg-type]
    assert (weak.kept, weak.reason) == (False, "weak; llm_rejects")
    assert (strong.kept, strong.reason) == (True, "strong; llm_disagrees")
    unclear, _ = confirm_edges(Model(), edges(), FakeChat(["maybe"]))  # type: ignore[arg-type]
    assert (unclear.kept, unclear.reason, unclear.llm["says"]) == (False, "weak; llm_unclear", None)


def test_judge_sends_its_variants_unwrapped_at_temperature_zero():
    from rl.judge import UserErrorJudge

    fake = FakeChat(["yes", "yes", "no"])
    dialogue = [{"role": "user", "content": "Add milk."}]
    votes = UserErrorJudge(fake, mode="llm", explain=False).llm_votes("Add bread.", dialogue)  # type: ignore[arg-type]
    assert votes == ["yes", "no", "no"]  # variant 1 asks whether everything agrees: its yes means clean
    assert fake.prompts == variant_questions(
        "judge_user_error", (0, 1, 2), instruction="Add bread.", user_lines=["Add milk."]
    )
    assert fake.kwargs == [{"max_tokens": 8, "tag": "judge", "temperature": 0.0}] * 3
    only_second = UserErrorJudge(FakeChat(["no"]), mode="llm", variants=(1,), explain=False)  # type: ignore[arg-type]
    assert only_second.llm_votes("x", dialogue) == ["yes"]
