"""The verification spec: state comparison with exempt paths, required facts, the reward breakdown."""

from __future__ import annotations

import copy
import time

from synth.task import Checks, Task
from synth.verify import Reward, find_facts, is_exempt, score_episode, split_path, state_diff, states_match


def _task(gold: dict, exempt=(), facts=()) -> Task:
    return Task(
        task_id="t",
        env_id="e",
        user_instruction="u",
        intent="i",
        initial_state={},
        gold_actions=[],
        gold_final_state=gold,
        checks=Checks(exempt_paths=list(exempt), required_facts=list(facts)),
    )


GOLD = {
    "todos": {
        "t1": {"id": "t1", "title": "buy milk", "done": True, "updated": 3},
        "t2": {"id": "t2", "title": "call mom", "done": False, "updated": 1},
    },
    "next_id": 3,
}


def test_identical_states_score_one_with_empty_breakdown():
    r = score_episode(_task(GOLD), copy.deepcopy(GOLD), [])
    assert isinstance(r, Reward)
    assert r.reward == 1.0
    assert r.breakdown["state_match"] is True and r.breakdown["diff_paths"] == []


def test_a_changed_field_is_reported_at_its_path():
    final = copy.deepcopy(GOLD)
    final["todos"]["t2"]["done"] = True
    r = score_episode(_task(GOLD), final, [])
    assert r.reward == 0.0
    assert r.breakdown["diff_paths"] == ["/todos/t2/done"]


def test_wildcard_exempt_paths_are_skipped_but_other_fields_are_not():
    final = copy.deepcopy(GOLD)
    final["todos"]["t1"]["updated"] = 99
    final["next_id"] = 7
    assert score_episode(_task(GOLD, exempt=["/todos/*/updated", "/next_id"]), final, []).reward == 1.0
    final["todos"]["t1"]["title"] = "buy oat milk"
    r = score_episode(_task(GOLD, exempt=["/todos/*/updated", "/next_id"]), final, [])
    assert r.breakdown["diff_paths"] == ["/todos/t1/title"]


def test_missing_and_extra_records_are_diffs():
    final = copy.deepcopy(GOLD)
    del final["todos"]["t1"]
    final["todos"]["t3"] = {"id": "t3", "title": "x", "done": False, "updated": 0}
    assert state_diff(GOLD, final) == ["/todos/t1", "/todos/t3"]


def test_diff_stops_at_the_limit():
    gold = {"c": {str(i): {"v": i} for i in range(100)}}
    final = {"c": {str(i): {"v": -i - 1} for i in range(100)}}
    assert len(state_diff(gold, final, limit=3)) == 3
    assert not states_match(gold, final)


def test_type_change_and_list_length_are_diffs():
    assert state_diff({"a": [1, 2]}, {"a": [1, 2, 3]}) == ["/a/2"]
    assert state_diff({"a": {"b": 1}}, {"a": [1]}) == ["/a"]


def test_keys_with_slashes_are_escaped_in_paths():
    assert split_path("/a~1b/c~0d") == ("a/b", "c~d")
    assert state_diff({"a/b": 1}, {"a/b": 2}) == ["/a~1b"]
    assert is_exempt("/todos/t1/updated", ["/todos/*/updated"])
    assert not is_exempt("/todos/t1/title", ["/todos/*/updated"])


def test_required_facts_must_appear_in_agent_replies():
    task = _task(GOLD, facts=["call mom", "12.50"])
    ok = score_episode(
        task, copy.deepcopy(GOLD), [{"role": "assistant", "content": "Its title is Call  Mom; total 12.5"}]
    )
    assert ok.reward == 1.0 and ok.breakdown["facts_missing"] == []
    # facts said by the user or a tool do not count, and a digit inside a longer number is not a match
    bad = score_episode(
        task,
        copy.deepcopy(GOLD),
        [
            {"role": "user", "content": "call mom"},
            {"role": "tool", "content": "12.50"},
            {"role": "assistant", "content": "total 112.50"},
        ],
    )
    assert bad.reward == 0.0
    assert bad.breakdown["state_match"] is True
    assert set(bad.breakdown["facts_missing"]) == {"call mom", "12.50"}


def test_fact_matching_respects_word_boundaries_and_content_parts():
    found, missing = find_facts(
        ["t1", "milk"], [{"role": "assistant", "content": [{"type": "text", "text": "todo t12: milky"}]}]
    )
    assert found == [] and missing == ["t1", "milk"]
    found, _ = find_facts(["t1"], ["done with t1."])
    assert found == ["t1"]


def test_verification_of_a_large_state_is_fast():
    big = {
        "orders": {
            f"#W{i}": {"id": f"#W{i}", "items": [{"sku": i, "qty": 1}], "status": "pending"} for i in range(5000)
        },
        "users": {f"u{i}": {"name": f"user {i}", "orders": [f"#W{i}"]} for i in range(2000)},
    }
    final = copy.deepcopy(big)
    final["orders"]["#W4999"]["status"] = "cancelled"
    task = _task(big, exempt=["/orders/*/updated_at"])
    t0 = time.perf_counter()
    for _ in range(20):
        r = score_episode(task, final, [])
    per_call = (time.perf_counter() - t0) / 20
    assert r.breakdown["diff_paths"] == ["/orders/#W4999/status"]
    assert per_call < 0.25  # generous: the machine running the tests may be busy
