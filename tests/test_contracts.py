"""Typed contracts keep their on-disk forms: tasks.jsonl lines and trajectory dumps round-trip exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rl.types import EpisodeId, EpisodeStat, Outcome, StopReason, TokenRow, TokenStream, Trajectory
from synth.spec import ToolCall
from synth.task import Task, dump_jsonl_line, load_tasks

ROOT = Path(__file__).resolve().parents[1]
TASK_FILES = sorted((ROOT / "envs_generated").glob("*/tasks.jsonl")) + sorted(
    (ROOT / "tests" / "data" / "envs").glob("*/tasks.jsonl")
)

# The flat fields of trajectories.jsonl, in their order (the format written before Trajectory had parts).
FLAT_FIELDS = [
    "env_id",
    "task_id",
    "sample_index",
    "token_ids",
    "loss_mask",
    "logprobs",
    "turn_spans",
    "messages",
    "reward",
    "reward_breakdown",
    "stop_reason",
    "user_error",
    "judge_rationale",
    "context_policy",
    "thinking_interleaved",
    "num_turns",
    "num_tool_calls",
    "final_state_hash",
    "sequences",
    "retokenized",
    "policy",
    "user",
    "chat_format",
    "num_parse_errors",
]


@pytest.mark.parametrize("path", TASK_FILES, ids=lambda p: p.parent.name)
def test_committed_tasks_round_trip_byte_for_byte(path):
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    tasks = load_tasks(path)
    assert tasks and all(isinstance(a, ToolCall) for t in tasks for a in t.gold_actions)
    assert [dump_jsonl_line(t) for t in tasks] == lines


def test_a_malformed_gold_action_is_a_type_error():
    base = {
        "task_id": "t",
        "env_id": "e",
        "user_instruction": "u",
        "intent": "i",
        "initial_state": {},
        "gold_final_state": {},
    }
    with pytest.raises(TypeError, match="name"):
        Task.from_dict({**base, "gold_actions": [{"arguments": {}}]})
    with pytest.raises(TypeError, match="arguments must be an object"):
        Task.from_dict({**base, "gold_actions": [{"name": "f", "arguments": [1]}]})
    task = Task.from_dict({**base, "gold_actions": [{"name": "f"}]})
    assert task.gold_actions == [ToolCall("f", {})] and task.to_dict()["gold_actions"] == [
        {"name": "f", "arguments": {}}
    ]


def test_a_gold_trajectory_dumps_flat_and_loads_back():
    from rl.episode import RolloutConfig
    from rl.rollout import load_env_tasks, render_gold_trajectory
    from rl.tiny_model import build_tokenizer

    mini = ROOT / "tests" / "data" / "envs" / "mini_todo"
    task = load_env_tasks(mini)[0]
    traj = render_gold_trajectory(build_tokenizer(), task, [], RolloutConfig(), env=str(mini))
    assert traj.dialogue.stop_reason is StopReason.USER_STOP and traj.reward == 1.0
    d = traj.to_dict()
    assert list(d) == FLAT_FIELDS
    text = json.dumps(d, sort_keys=True)
    assert '"stop_reason": "user_stop"' in text and d["turn_spans"][0][2] == "prompt"
    again = Trajectory.from_dict(json.loads(text))
    assert again == traj and json.dumps(again.to_dict(), sort_keys=True) == text


def test_per_context_sequences_and_statistics_are_named():
    rows = [TokenRow([1, 2, 3], [0, 1, 1], [0.0, -1.0, -2.0]), TokenRow([1, 4], [0, 1], [0.0, -0.5])]
    t = Trajectory(
        EpisodeId("e", "t", 2),
        TokenStream([1, 2, 3, 4], [0, 1, 1, 1], [0.0, -1.0, -2.0, -0.5], sequences=rows),
        outcome=Outcome(0.5, {"success": True}),
    )
    assert t.training_sequences() == rows and t.tokens.sampled_tokens() == 3
    assert Trajectory.from_dict(t.to_dict()).training_sequences() == rows
    assert EpisodeStat.of(t) == EpisodeStat(env_id="e", task_id="t", reward=0.5, valid=True, success=True)
    assert t.to_dict()["sequences"][1] == {"token_ids": [1, 4], "loss_mask": [0, 1], "logprobs": [0.0, -0.5]}


def test_gold_observations_are_what_the_runtime_shows() -> None:
    from synth.task import result_text

    assert result_text("liam_9") == '"liam_9"'  # a text result is JSON-encoded, as the runtime observes it
    assert result_text('{"a": 1}') == '{"a": 1}'  # an output kept as its observation text stays as it is
    assert result_text({"b": 1, "a": "é"}) == '{"a": "é", "b": 1}'
