"""The rollout loop end to end with scripted policies: wiring, budgets, parse-error policy, context policies."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rl.backends.scripted import GoldPolicy, NoopPolicy
from rl.episode import RolloutConfig
from rl.render import hermes_renderer
from rl.rollout import load_env_tasks, render_gold_trajectory, run_episodes
from rl.tiny_model import build_tokenizer
from rl.user_sim import STOP_MARKER, LLMUser, ScriptedUser
from synth.spec import ToolCall, ToolSpec
from synth.task import Checks, Task

ROOT = Path(__file__).resolve().parent.parent
# every committed environment that has tasks (a folder still being synthesized may have none yet)
COMMITTED = sorted(
    p.parent
    for base in (ROOT / "envs_generated", ROOT / "tests" / "data" / "envs")
    for p in base.glob("*/tasks.jsonl")
    if p.read_text().strip()
)
MINI = ROOT / "tests" / "data" / "envs" / "mini_todo"


@pytest.mark.parametrize("env_dir", COMMITTED, ids=[p.name for p in COMMITTED])
def test_gold_scores_one_and_noop_scores_zero(env_dir):
    tasks = load_env_tasks(env_dir)
    pairs = [(env_dir, t) for t in tasks]
    gold = run_episodes(GoldPolicy(), pairs, ScriptedUser(), RolloutConfig(max_turns=64, max_tool_calls=64), k=1)
    for t in gold:
        assert t.reward == 1.0, (t.task_id, t.outcome.breakdown)
        assert t.dialogue.stop_reason == "user_stop" and t.dialogue.num_parse_errors == 0
        assert t.tokens.retokenized and t.setup.policy == "gold"
    noop = run_episodes(NoopPolicy(), pairs, ScriptedUser(), RolloutConfig(), k=1)
    for t in noop:
        assert t.reward == 0.0, f"{t.task_id}: a policy that does nothing passes this task ({t.outcome.breakdown})"
        assert t.dialogue.num_tool_calls == 0


# --- a small in-test environment with a multi-line error -------------------------------------------


@dataclass
class _Step:
    observation: str
    done: bool = False
    info: dict = field(default_factory=dict)


class ListEnv:
    """Tools: add_item(name), count_items(); a missing name fails with a two-line error."""

    tools = [
        ToolSpec(
            "add_item", "Add an item.", {"type": "object", "properties": {"name": {"type": "string"}}}, mutates=True
        ),
        ToolSpec("count_items", "Count the items.", {"type": "object", "properties": {}}, mutates=False),
    ]

    def reset(self, task):
        self.state = {"items": list(task.initial_state["items"])}
        return ""

    def step(self, call):
        if call.name == "add_item":
            if "name" not in call.arguments:
                return _Step("Error: Traceback (most recent call last):\nKeyError: 'name'", info={"error": "KeyError"})
            self.state["items"].append(call.arguments["name"])
            return _Step(json.dumps({"ok": True}))
        return _Step(json.dumps({"count": len(self.state["items"])}))


def list_task(i: int = 0) -> Task:
    return Task(
        task_id=f"list-{i}",
        env_id="list",
        user_instruction="Add milk and tell me how many items I have.",
        intent="add milk",
        initial_state={"items": ["eggs"]},
        gold_actions=[ToolCall("add_item", {"name": "milk"}), ToolCall("count_items", {})],
        gold_final_state={"items": ["eggs", "milk"]},
        checks=Checks(required_facts=["2"]),
        gold_outputs=['{"ok": true}', '{"count": 2}'],
    )


class Script:
    """A text policy that says the given turns in order (then repeats the last) and records what it saw."""

    name = "script"

    def __init__(self, turns, full=False):
        self.turns, self.seen, self.sees_full_history = turns, [], full

    def respond(self, messages, task, sample_index=0):
        self.seen.append(messages)
        return self.turns[min(len(self.seen) - 1, len(self.turns) - 1)]


R = hermes_renderer()
CALL_COUNT = R.assistant_text("count again", "", [ToolCall("count_items", {})])


def test_gold_on_fake_env_needs_the_fact():
    [t] = run_episodes(GoldPolicy(), [(ListEnv, list_task())], ScriptedUser())
    assert t.reward == 1.0 and t.outcome.breakdown["facts_found"] == ["2"]
    assert [m["role"] for m in t.dialogue.messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]


def test_tool_call_budget_stops_episode():
    [t] = run_episodes(Script([CALL_COUNT]), [(ListEnv, list_task())], ScriptedUser(), RolloutConfig(max_tool_calls=3))
    assert t.dialogue.stop_reason == "max_tool_calls" and t.dialogue.num_tool_calls == 3


def test_turn_budget_stops_episode():
    [t] = run_episodes(Script([CALL_COUNT]), [(ListEnv, list_task())], ScriptedUser(), RolloutConfig(max_turns=2))
    assert t.dialogue.stop_reason == "max_turns" and t.dialogue.num_turns == 2


def test_error_messages_cut_to_last_line():
    bad = R.assistant_text("", "", [ToolCall("add_item", {})])
    for cut in (False, True):
        policy = Script([bad, R.assistant_text("", "Sorry.", [])])
        [t] = run_episodes(policy, [(ListEnv, list_task())], ScriptedUser(), RolloutConfig(tool_error_last_line=cut))
        tool_msg = next(m for m in t.dialogue.messages if m["role"] == "tool")
        assert (tool_msg["content"] == "KeyError: 'name'") is cut
        assert ("Traceback" in tool_msg["content"]) is not cut


def test_parse_error_policies():
    garbage = '<tool_call>{"name": "add_item", "arguments": </tool_call>'
    [fed] = run_episodes(
        Script([garbage, R.assistant_text("", "Sorry.", [])]), [(ListEnv, list_task())], ScriptedUser()
    )
    assert fed.dialogue.num_parse_errors == 1 and fed.dialogue.stop_reason == "user_stop"
    feedback = next(m for m in fed.dialogue.messages if m.get("name") == "parse_error")
    assert "could not be read" in feedback["content"] and "not valid JSON" in feedback["content"]
    assert fed.dialogue.messages[2]["parse_error"] and fed.dialogue.messages[2]["raw"] == garbage
    [ended] = run_episodes(
        Script([garbage]), [(ListEnv, list_task())], ScriptedUser(), RolloutConfig(on_parse_error="end")
    )
    assert ended.dialogue.stop_reason == "parse_error" and ended.dialogue.num_turns == 1
    gold_then_garbage = Script(
        [R.assistant_text("", "", [a]) for a in list_task().gold_actions] + [garbage, "It is 2."]
    )
    [costly] = run_episodes(
        gold_then_garbage, [(ListEnv, list_task())], ScriptedUser(), RolloutConfig(parse_error_reward=-1.0)
    )
    assert costly.reward == -1.0 and costly.outcome.breakdown["state_match"] is True


def test_sliding_window_and_summary_views():
    turns = [CALL_COUNT] * 5 + [R.assistant_text("", "You have 1 item.", [])]
    for policy_name in ("keep_all", "sliding_window", "summary"):
        policy = Script(turns)
        config = RolloutConfig(context_policies={"list": policy_name}, context_window=2)
        [t] = run_episodes(policy, [(ListEnv, list_task())], ScriptedUser(), config)
        assert t.setup.context_policy == policy_name
        last = policy.seen[-1]
        n_assistant = sum(1 for m in last if m["role"] == "assistant")
        assert n_assistant == (5 if policy_name == "keep_all" else 2)
        assert last[0]["role"] == "system" and last[1]["content"] == list_task().user_instruction
        has_summary = any("Summary of the earlier part" in str(m["content"]) for m in last)
        assert has_summary is (policy_name == "summary")
        if policy_name == "summary":
            note = next(m["content"] for m in last if "Summary of the earlier part" in str(m["content"]))
            assert note.count("you called count_items({})") == 3


def test_thinking_dropped_from_text_view_when_switch_off():
    turns = [
        R.assistant_text("alpha reasoning", "", [ToolCall("count_items", {})]),
        R.assistant_text("", "One item.", []),
    ]
    for interleaved in (True, False):
        policy = Script(turns)
        run_episodes(policy, [(ListEnv, list_task())], ScriptedUser(), RolloutConfig(interleaved_thinking=interleaved))
        earlier = [m["content"] for m in policy.seen[1] if m["role"] == "assistant"][0]
        assert ("alpha reasoning" in earlier) is interleaved
        assert "<tool_call>" in earlier


@dataclass
class _Chat:
    text: str


class FakeClient:
    """Replays answers; records prompts."""

    model = "fake"

    def __init__(self, answers):
        self.answers, self.prompts = list(answers), []

    def chat(self, messages, **kwargs):
        self.prompts.append(messages)
        return _Chat(self.answers.pop(0) if self.answers else "")


def test_llm_user_fallbacks_and_stop_marker():
    task = list_task()
    user = LLMUser(FakeClient(["ok", "", f"Great, thanks! {STOP_MARKER}"]))
    assert user.first_message(task) == task.user_instruction  # "ok" says nothing: the instruction is used
    empty = user.reply(task, [{"role": "assistant", "content": "Hello"}])
    assert empty.text == task.user_instruction and not empty.stop and empty.fallback
    done = user.reply(task, [{"role": "assistant", "content": "Done"}])
    assert done.stop and done.text == "Great, thanks!"
    system = user.client.prompts[-1][0]["content"]
    assert task.user_instruction in system and STOP_MARKER in system


def test_llm_user_opening_must_be_on_topic():
    task = list_task()
    off = LLMUser(FakeClient(["I'm thrilled to help you with your project today!"]))
    assert off.first_message(task) == task.user_instruction
    on = LLMUser(FakeClient(["Hi! Please add milk to my items and tell me how many there are."]))
    assert on.first_message(task).startswith("Hi! Please add milk")
    assert LLMUser(FakeClient([]), llm_first_message=False).first_message(task) == task.user_instruction


def test_user_turn_limit_always_ends_episode():
    client = FakeClient(["I want milk added please."] + ["Hmm?"] * 10)
    policy = Script([R.assistant_text("", "How can I help?", [])])
    [t] = run_episodes(policy, [(ListEnv, list_task())], LLMUser(client), RolloutConfig(max_user_turns=3, max_turns=50))
    assert t.dialogue.stop_reason == "max_turns" and sum(1 for m in t.dialogue.messages if m["role"] == "user") == 4
    # the user never sees tool calls or thinking, only the agent's text
    assert all(m["role"] in ("system", "user", "assistant") for m in client.prompts[-1])


def test_render_gold_trajectory_masks_and_matches_environment():
    tok = build_tokenizer()
    task = load_env_tasks(MINI)[0]
    from synth.runtime import Environment

    env = Environment(MINI)
    replayed = render_gold_trajectory(tok, task, env.tools, title=env.definition.title)
    real = render_gold_trajectory(tok, task, env.tools, env=MINI)
    assert replayed.tokens.token_ids == real.tokens.token_ids and replayed.tokens.loss_mask == real.tokens.loss_mask
    assert replayed.reward == 1.0 and replayed.tokens.retokenized
    for start, end, role in replayed.tokens.turn_spans:
        want = 1 if role == "assistant" else 0
        assert set(replayed.tokens.loss_mask[start:end]) == {want}, role
    assert sum(1 for s in replayed.tokens.turn_spans if s[2] == "assistant") == len(task.gold_actions) + 1
    assert "<tool_call>" in tok.decode(
        replayed.tokens.token_ids[replayed.tokens.turn_spans[1][0] : replayed.tokens.turn_spans[1][1]]
    )
