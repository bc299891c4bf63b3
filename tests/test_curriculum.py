"""Curriculum: difficulty order, strategies, measured pass rates, turn schedule, resumable position."""

from __future__ import annotations

import pytest

from rl.curriculum import Curriculum, CurriculumConfig, max_turns_at
from synth.task import Task


def _task(tid: str, dag: int, pass_rate: float | None = None) -> Task:
    diff = {"dag_size": dag, "depth": 1}
    if pass_rate is not None:
        diff["pass_rate"] = pass_rate
    return Task(tid, "env", "do it", "goal", {}, [{"name": "x", "arguments": {}}] * dag, {}, difficulty=diff)


TASKS = [_task("hard", 6, 0.1), _task("easy", 1, 0.9), _task("mid", 3, 0.5), _task("unknown", 2)]


def test_order_by_pass_rate_and_dag_size():
    by_pass = Curriculum(TASKS, CurriculumConfig(order="pass_rate"), total_steps=10)
    assert by_pass.order == ["easy", "unknown", "mid", "hard"]  # unknown pass rate counts as 0.5, smaller DAG first
    by_dag = Curriculum(TASKS, CurriculumConfig(order="dag_size"), total_steps=10)
    assert by_dag.order == ["easy", "unknown", "mid", "hard"]
    by_dag2 = Curriculum([_task("a", 5, 0.9), _task("b", 2, 0.1)], CurriculumConfig(order="dag_size"), 10)
    assert by_dag2.order == ["b", "a"]


def test_sequential_walks_easy_to_hard_cyclically():
    cur = Curriculum(TASKS, CurriculumConfig(strategy="sequential"), total_steps=10)
    assert [t.task_id for t in cur.sample(0, 3)] == ["easy", "unknown", "mid"]
    assert [t.task_id for t in cur.sample(1, 3)] == ["hard", "easy", "unknown"]


def test_competence_pool_grows():
    cur = Curriculum(TASKS, CurriculumConfig(strategy="competence", start_fraction=0.25, warmup_fraction=0.5), 10)
    assert cur.pool_size(0) == 1 and cur.pool_size(5) == 4 and cur.pool_size(9) == 4
    assert {t.task_id for t in cur.sample(0, 1)} == {"easy"}
    assert [t.task_id for t in cur.sample(0, 3)] == ["easy"] * 3  # pool of one: with replacement
    late = cur.sample(9, 4)
    assert sorted(t.task_id for t in late) == sorted(t.task_id for t in TASKS)  # distinct when pool allows


def test_uniform_covers_every_task_each_epoch():
    cur = Curriculum(TASKS, CurriculumConfig(strategy="uniform"), total_steps=10, seed=3)
    first = [t.task_id for t in cur.sample(0, 4)]
    second = [t.task_id for t in cur.sample(1, 4)]
    assert sorted(first) == sorted(second) == sorted(t.task_id for t in TASKS)


def test_weighted_prefers_learnable_tasks_and_tracks_measured_pass_rate():
    cur = Curriculum(TASKS, CurriculumConfig(strategy="weighted", min_weight=0.01), total_steps=10)
    w = cur.weights()
    assert w["mid"] == pytest.approx(0.25) and w["easy"] == pytest.approx(0.09) and w["unknown"] == pytest.approx(0.25)
    counts = {t: 0 for t in cur.tasks}
    for step in range(400):
        for t in cur.sample(step, 1):
            counts[t.task_id] += 1
    assert counts["mid"] > counts["easy"] and counts["mid"] > counts["hard"]
    cur.update({"mid": 1.0})  # EMA 0.5 -> 0.75
    assert cur.pass_rates["mid"] == pytest.approx(0.75)
    cur.update({"mid": 1.0, "unknown": 0.0})
    assert cur.pass_rates["mid"] == pytest.approx(0.875) and cur.pass_rates["unknown"] == 0.0
    assert cur.weights()["unknown"] == pytest.approx(0.01)


def test_position_resumes_exactly():
    for strategy in ("uniform", "competence", "weighted", "sequential"):
        cfg = CurriculumConfig(strategy=strategy)
        a = Curriculum(TASKS, cfg, total_steps=10, seed=7)
        for s in range(3):
            a.sample(s, 2)
            a.update({"mid": 0.5 * (s % 2)})
        state = a.state_dict()
        b = Curriculum(TASKS, cfg, total_steps=10, seed=999)
        b.load_state_dict(state)
        for s in range(3, 8):
            assert [t.task_id for t in a.sample(s, 3)] == [t.task_id for t in b.sample(s, 3)], strategy


def test_turn_schedule_phases():
    assert [max_turns_at([8, 12, 15], s, 9, 5) for s in range(9)] == [8, 8, 8, 12, 12, 12, 15, 15, 15]
    assert max_turns_at([], 3, 9, 5) == 5
    sched = [{"until_step": 2, "max_turns": 4}, {"until_step": 4, "max_turns": 6}, {"max_turns": 9}]
    assert [max_turns_at(sched, s, 100, 1) for s in range(6)] == [4, 4, 6, 6, 9, 9]
    cur = Curriculum(TASKS, CurriculumConfig(turn_schedule=[8, 12, 15]), total_steps=30)
    assert cur.max_turns(29, 5) == 15
    with pytest.raises(ValueError, match="max_turns"):
        max_turns_at([{"until_step": 3}], 0, 10, 1)


def test_bad_config_is_rejected():
    with pytest.raises(ValueError, match="strategy"):
        CurriculumConfig(strategy="random")
    with pytest.raises(ValueError, match="no tasks"):
        Curriculum([], CurriculumConfig(), 10)
