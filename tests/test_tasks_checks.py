"""The instruction checks, the consistency/discriminability probes, and difficulty measures."""

from __future__ import annotations

import copy
import random

import pytest

from synth.spec import ToolCall
from synth.task import Checks, Task
from synth.tasks.dag import ArgSource, DagNode, TaskDAG
from synth.tasks.describe import describe
from synth.tasks.difficulty import Band, dag_measures, filter_band, measure_pass_rate
from synth.tasks.envmodel import load_model
from synth.tasks.facts import Fact, exempt_paths
from synth.tasks.instantiate import instantiate
from synth.tasks.instruction import check_instruction, check_obtainable, template_instruction, write_instruction
from synth.tasks.probes import PROBES, perturb_value, run_probes, summarize
from synth.tasks.testing import FakeLLM, function_runner, write_env_dir
from synth.tasks.values import build_pool


@pytest.fixture()
def model(tmp_path):
    return load_model(write_env_dir(tmp_path / "env"))


def _pick_and_update(model, seed=5):
    dag = TaskDAG(
        [
            DagNode(id="n0", kind="call", tool="list_todos"),
            DagNode(id="r0", kind="reason", op="pick", inputs=["n0"], detail={"collection": "todos"}),
            DagNode(
                id="n1",
                kind="call",
                tool="update_todo",
                args={"todo_id": ArgSource("reason", node="r0", binding={"via": "key", "collection": "todos"})},
            ),
            DagNode(id="n2", kind="call", tool="create_todo"),
        ]
    )
    inst = instantiate(dag, model, function_runner(), random.Random(seed), build_pool(model, None))
    return inst


def _task(inst, model, instruction, facts=()):
    return Task(
        task_id="fake-s0-0001",
        env_id="fake",
        user_instruction=instruction,
        intent="",
        initial_state=inst.initial_state,
        gold_actions=inst.gold_actions,
        gold_final_state=inst.final_state,
        checks=Checks(exempt_paths=exempt_paths(model), required_facts=list(facts)),
    )


def test_template_instruction_states_everything_and_passes_both_checks(model):
    inst = _pick_and_update(model)
    needs = describe(inst, model, [])
    text = template_instruction(needs, "a todo list")
    assert check_instruction(text, needs, [], list(model.tools)) == []
    assert check_obtainable(inst, text) == []
    pick = inst.dag.node("r0").detail
    assert f"'{pick['equals']}'" in text
    assert "update_todo" not in text


def test_checks_catch_missing_values_tool_names_and_leaked_answers(model):
    inst = _pick_and_update(model)
    needs = describe(inst, model, [])
    created_title = inst.gold_actions[2].arguments["title"]
    problems = check_obtainable(inst, "Please call update_todo on something.")
    assert any("criterion of r0" in p for p in problems)
    assert any(repr(created_title) in p for p in problems)
    text = template_instruction(needs, "a todo list") + " Use update_todo."
    assert any("names the tool update_todo" in p for p in check_instruction(text, needs, [], list(model.tools)))
    fact = Fact(node="n0", collection="todos", record=1, field="title", value=created_title)
    assert any("gives away" in p for p in check_instruction(template_instruction(needs, "x"), needs, [fact], []))


def test_a_weak_model_text_falls_back_to_the_template(model):
    inst = _pick_and_update(model)
    needs = describe(inst, model, [])

    class Lazy(FakeLLM):
        def chat(self, messages, max_tokens=256, tag="", **kw):
            self.calls.append(tag)
            return type("R", (), {"text": "Please help me with my todos."})()

    lazy = Lazy()
    text, source, seen = write_instruction(needs, [], model, lazy, retries=1)
    assert source == "template" and lazy.calls.count("tasks.instruction") == 2
    assert any("missing the value" in s for s in seen)
    text, source, _ = write_instruction(needs, [], model, FakeLLM())
    assert source == "llm" and check_obtainable(inst, text) == []


def test_probes_pass_on_a_good_task_and_flag_a_non_discriminative_one(model):
    inst = _pick_and_update(model)
    task = _task(inst, model, "x")
    rep = run_probes(task, function_runner(), model)
    assert rep.ok, rep.problems()
    assert rep.gold.reward == 1.0 and all(rep.probes[p].reward == 0.0 for p in PROBES)
    # a task whose only write is undone by the next write: perturbing the first write changes nothing
    runner = function_runner()
    st = copy.deepcopy(inst.initial_state)
    key = sorted(st["todos"])[0]
    actions = [
        ToolCall("update_todo", {"todo_id": int(key), "title": "a"}),
        ToolCall("update_todo", {"todo_id": int(key), "title": "b"}),
        ToolCall("list_todos", {}),
    ]
    runner.reset(st)
    for a in actions:
        assert runner.call(a.name, a.arguments).ok
    weak = Task(
        task_id="weak-0",
        env_id="fake",
        user_instruction="",
        intent="",
        initial_state=st,
        gold_actions=actions,
        gold_final_state=runner.state(),
        checks=Checks(exempt_paths=exempt_paths(model)),
    )
    found_bad = False
    for i in range(8):
        weak.task_id = f"weak-{i}"
        r = run_probes(weak, function_runner(), model)
        assert r.gold_ok and r.probe_failed("noop") and r.probe_failed("drop_last_write")
        found_bad = found_bad or not r.probe_failed("perturb_write_arg")
    assert found_bad
    summary = summarize([rep, r])
    assert summary["tasks"] == 2 and summary["gold_pass"] == 2 and summary["probes"]["noop"] == 2


def test_required_facts_make_a_read_only_need_verifiable(model):
    inst = _pick_and_update(model)
    task = _task(inst, model, "x", facts=["some title"])
    rep = run_probes(task, function_runner(), model)
    assert rep.gold.breakdown["facts_found"] == ["some title"]
    assert rep.probes["noop"].breakdown["facts_missing"] == ["some title"]


def test_perturbations_change_values_and_keep_types():
    state = {"todos": {"1": {}, "2": {}}}
    assert perturb_value(True, {}, state) is False
    assert perturb_value("open", {"enum": ["open", "done"]}, state) == "done"
    assert perturb_value(1, {"type": "integer"}, state, is_key=True) == 2
    assert perturb_value(5, {"type": "integer", "maximum": 5}, state) == 4
    assert perturb_value("abc", {}, state) == "abc (changed)"
    assert perturb_value(["a", "b"], {"items": {}}, state) == ["a (changed)", "b"]


def test_difficulty_measures_band_and_reference_agent(model):
    inst = _pick_and_update(model)
    d = dag_measures(inst.dag, model)
    assert d["dag_size"] == 4 and d["calls"] == 3 and d["writes"] == 2 and d["reasoning_nodes"] == 1 and d["depth"] == 3
    task = _task(inst, model, "x")
    task.difficulty = d
    assert filter_band([task], Band(min_size=5)) == [] and filter_band([task], Band(max_size=4)) == [task]
    ok, why = Band(max_pass=0.5).admits({**d, "pass_rate": 1.0})
    assert not ok and "pass_rate" in why

    asked = []
    assert measure_pass_rate(task, lambda t: asked.append(t.task_id) or 0.5, rollouts=2) == 0.5
    assert asked == [task.task_id] and task.difficulty["pass_rate"] == 0.5 and task.difficulty["rollouts"] == 2
    assert not Band(min_pass=0.6).admits(task.difficulty)[0] and Band(max_pass=0.5).admits(task.difficulty)[0]
    with pytest.raises(ValueError, match="rollouts"):
        measure_pass_rate(task, lambda t: 1.0, rollouts=0)


def test_reference_agent_pass_rate_runs_on_the_rollout_loop():
    from pathlib import Path

    from rl.backends.scripted import GoldPolicy, NoopPolicy
    from rl.evaluate import pass_rate_fn
    from rl.rollout import load_env_tasks
    from rl.user_sim import ScriptedUser

    mini = Path(__file__).parent / "data" / "envs" / "mini_todo"
    task = load_env_tasks(mini)[0]
    assert pass_rate_fn(mini, GoldPolicy(), ScriptedUser(), k=2)(task) == 1.0
    assert pass_rate_fn(mini, NoopPolicy(), ScriptedUser(), k=2)(task) == 0.0
    with pytest.raises(ValueError, match="k must be positive"):
        pass_rate_fn(mini, GoldPolicy(), ScriptedUser(), k=0)


def test_free_text_that_reorders_steps_or_invents_values_is_rejected(model):
    from synth.tasks.describe import Need

    needs = [
        Need("delete the todo 'Buy milk'", values=["Buy milk"]),
        Need("add a new todo with title 'Call mom'", values=["Call mom"]),
        Need("update the todo you added with title 'Call mom'", values=["Call mom"]),
    ]
    draft = (
        "Please delete the todo 'Buy milk'. Then add a new todo with title 'Call mom'. "
        "Finally, update the todo you added with title 'Call mom'."
    )
    order = "does not mention the values in the order and number of the request"
    good = "Please delete 'Buy milk', then add 'Call mom' and afterwards update 'Call mom' again."
    assert check_instruction(good, needs, [], [], draft=draft) == []
    swapped = "Add 'Call mom' and update 'Call mom', then delete 'Buy milk'."
    assert order in check_instruction(swapped, needs, [], [], draft=draft)
    merged = "Please delete 'Buy milk', then add 'Call mom' and update it."  # the second mention is gone
    assert order in check_instruction(merged, needs, [], [], draft=draft)
    invented = "Please delete 'Buy milk', then add 'Call mom' for 'Grandma Rose' and update 'Call mom'."
    assert any("adds the value 'grandma rose'" in p for p in check_instruction(invented, needs, [], [], draft=draft))
    # a number inside a longer one (the '3' of 'OpenAPI 3.0') is not a mention of the value
    n3 = [Need("update pet 3", values=["3"])]
    d3 = "Hi, I need help with OpenAPI 3.0. Please update pet 3."
    assert order in check_instruction("Hi, I need help with OpenAPI 3.0. Please update my pet.", n3, [], [], draft=d3)
    assert check_instruction("OpenAPI 3.0 question: could you update pet 3?", n3, [], [], draft=d3) == []


def test_a_rewording_that_echoes_the_request_or_loses_the_service_is_refused() -> None:
    from synth.llm.prompts import render
    from synth.tasks.instruction import _rewrite_problems

    draft = "Hey, quick question for Shop Co. My email is 'a@b.io'. I would like you to tell me the status of my order."
    prompt = render("tasks_instruction.j2", domain="Shop Co", draft=draft, values=["a@b.io"])
    echoed = "Rewrite this message from a person to their Shop Co assistant so it sounds natural. Message: " + draft
    assert _rewrite_problems(echoed, prompt, draft, "Shop Co") == ["repeats the request made to the model"]
    lost = "Hey, quick question for your Lamp! My email is 'a@b.io', what is the status of my order?"
    assert _rewrite_problems(lost, prompt, draft, "Shop Co") == ["drops the service's name 'Shop Co'"]
    good = "Hi Shop Co, my email is 'a@b.io'. Could you tell me the status of my order?"
    assert _rewrite_problems(good, prompt, draft, "Shop Co") == []


def test_an_update_states_the_new_values_as_a_goal_not_a_field_list() -> None:
    from synth.tasks.dag import ArgSource, DagNode
    from synth.tasks.describe import Need
    from synth.tasks.describe import change_text as _change_text
    from synth.tasks.describe import plain_changes as _plain_changes

    node = DagNode(
        id="n1",
        kind="call",
        tool="edit_pet",
        args={
            "pet_id": ArgSource("user", value="7"),
            "body": ArgSource("user", value={"name": "Rex", "tags": ["a", "b"]}),
        },
    )
    stated = [Need(text="name 'Rex'"), Need(text="tags 'a' and 'b'")]
    changes = _plain_changes(node, {"pet_id"}, stated, [], [])
    assert changes == [("name", "Rex"), ("tags", ["a", "b"])]
    assert _change_text(changes, "pet 7") == "the name of pet 7 to 'Rex' and its tags to 'a' and 'b'"
    assert _plain_changes(node, {"pet_id"}, stated, [Need(text="the owner you found")], []) == []  # a bound value
    nested = DagNode(id="n2", kind="call", tool="edit_pet", args={"body": ArgSource("user", value={"a": {"b": 1}})})
    assert _plain_changes(nested, set(), [Need(text="a b 1")], [], []) == []  # not a plain value: the old wording


def test_a_list_edit_reads_as_the_values_and_whose_list_they_join() -> None:
    from synth.tasks.phrases import Need, list_edit

    one = {"notes": [{"who": "Ana", "lines": ["likes tea", "runs"]}]}
    assert list_edit(one, None, "person") == "add 'likes tea' and 'runs' to the lines of the person 'Ana'"
    target = Need(text="the person you just added")
    assert (
        list_edit(one, target, "person", add=False)
        == "remove 'likes tea' and 'runs' from the lines of the person you just added"
    )
    two = {"notes": [{"who": "Ana", "lines": ["x"]}, {"who": "Bo", "lines": ["y"]}]}
    assert list_edit(two, None, "person") == ""  # several edits: the field-list wording stays
