"""The environment runtime on the mini_todo fixture and on small in-memory environments."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from synth.errors import InputError
from synth.runtime import Environment, StepResult, state_hash
from synth.spec import ToolCall, ToolSpec
from synth.task import Task, dump_jsonl_line, load_tasks

MINI = Path(__file__).parent / "data" / "envs" / "mini_todo"


@pytest.fixture
def env() -> Environment:
    return Environment(MINI)


@pytest.fixture
def tasks() -> list[Task]:
    return load_tasks(MINI / "tasks.jsonl")


def test_loads_the_folder(env: Environment) -> None:
    assert env.env_id == "mini_todo"
    assert [t.name for t in env.tools] == ["list_todos", "get_todo", "create_todo", "update_todo", "delete_todo"]
    assert env.state_schema["required"] == ["todos", "next_id"]
    assert env.state == {"todos": {}, "next_id": 1}  # default state from the schema
    assert [s["function"]["name"] for s in env.tool_schemas()] == [t.name for t in env.tools]


def test_tasks_file_is_canonical(tasks: list[Task]) -> None:
    lines = (MINI / "tasks.jsonl").read_text().splitlines()
    assert [dump_jsonl_line(t) for t in tasks] == lines and len(tasks) == 2


def test_gold_actions_reproduce_gold_outputs_and_final_state(env: Environment, tasks: list[Task]) -> None:
    for task in tasks:
        before = copy.deepcopy(task.initial_state)
        observation = env.reset(task)
        assert isinstance(observation, str) and observation
        assert env.task is task and env.state_hash() == state_hash(before)
        steps = env.run_actions(task.gold_actions)
        assert [s.observation for s in steps] == task.gold_outputs
        assert all(s.info["ok"] and s.info["error_kind"] is None for s in steps)
        assert env.state == task.gold_final_state
        assert env.state_hash() == state_hash(task.gold_final_state)
        assert task.initial_state == before  # never mutated
        assert env.call_log == [{"name": a.name, "arguments": a.arguments, "ok": True} for a in task.gold_actions]


def test_replays_are_exact(env: Environment, tasks: list[Task]) -> None:
    task = tasks[0]
    hashes = []
    for _ in range(3):
        env.reset(task)
        outputs = [s.observation for s in env.run_actions(task.gold_actions)]
        hashes.append((env.state_hash(), tuple(outputs)))
    assert len(set(hashes)) == 1


def test_observations_for_errors(env: Environment, tasks: list[Task]) -> None:
    env.reset(tasks[0])
    result = env.step({"name": "get_todo", "arguments": {"todo_id": "t9"}})
    assert result.observation == "Error: todo 't9' not found"
    assert result.info == {
        "ok": False,
        "error_kind": "tool_error",
        "result": None,
        "tool": "get_todo",
        "error": "todo 't9' not found",
    }
    missing = env.step({"name": "get_todo", "arguments": {}})
    assert missing.observation == "Error: invalid arguments: 'todo_id' is a required property"
    assert missing.info["error_kind"] == "invalid_arguments"
    wrong_type = env.step(ToolCall(name="update_todo", arguments={"todo_id": "t1", "complete": "yes"}))
    assert wrong_type.observation == "Error: invalid arguments: 'yes' is not of type 'boolean'"
    extra = env.step({"name": "get_todo", "arguments": {"todo_id": "t1", "verbose": True}})
    assert extra.info["error_kind"] == "invalid_arguments" and "verbose" in extra.observation
    bad_json = env.step({"name": "get_todo", "arguments": "{not json"})
    assert bad_json.info["error_kind"] == "invalid_arguments" and "not valid JSON" in bad_json.observation
    unknown = env.step({"name": "launch_rocket", "arguments": {}})
    assert unknown.observation == "Error: unknown tool 'launch_rocket'"
    assert unknown.info["error_kind"] == "unknown_tool"
    excluded = env.step({"name": "share_todo", "arguments": {}})
    assert excluded.info["error_kind"] == "unknown_tool" and "not available: sharing needs" in excluded.observation
    assert [c["ok"] for c in env.call_log] == [False] * 7
    assert env.state == tasks[0].initial_state


def test_step_accepts_toolcall_and_json_string_arguments(env: Environment, tasks: list[Task]) -> None:
    env.reset(tasks[0])
    a = env.step(ToolCall(name="get_todo", arguments={"todo_id": "t1"}, call_id="c1"))
    b = env.step({"name": "get_todo", "arguments": '{"todo_id": "t1"}'})
    assert a.observation == b.observation == '{"complete": false, "id": "t1", "title": "write report"}'
    observation, done, info = b
    assert isinstance(b, StepResult) and done is False and info["result"]["id"] == "t1"


def test_ids_come_from_the_state(env: Environment, tasks: list[Task]) -> None:
    ids = []
    for _ in range(2):
        env.reset(tasks[0])
        ids.append(env.step({"name": "create_todo", "arguments": {"title": "x"}}).info["result"]["id"])
    assert ids == ["t3", "t3"]


def test_copy_on_write_shares_untouched_parts(env: Environment, tasks: list[Task]) -> None:
    task = tasks[0]
    env.reset(task)
    assert env.state is task.initial_state  # reset copies nothing
    env.step({"name": "update_todo", "arguments": {"todo_id": "t1", "title": "new"}})
    assert env.state is not task.initial_state
    assert env.state["todos"]["t2"] is task.initial_state["todos"]["t2"]  # sibling still shared
    assert env.state["todos"]["t1"]["title"] == "new" and task.initial_state["todos"]["t1"]["title"] == "write report"
    assert env.changed_paths() == ["/todos/t1/title"]
    other = Environment(MINI)
    other.reset(task)
    assert other.step({"name": "get_todo", "arguments": {"todo_id": "t1"}}).info["result"]["title"] == "write report"


def test_results_and_arguments_are_not_aliased_with_the_state(tasks: list[Task]) -> None:
    source = (
        "def tag(state, todo_id, tags):\n"
        "    state['todos'][todo_id]['tags'] = tags\n"
        "    return state['todos'][todo_id]\n"
    )
    spec = ToolSpec(
        name="tag",
        description="",
        parameters={
            "type": "object",
            "properties": {"todo_id": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}},
        },
    )
    env = Environment.from_parts("tagger", [spec], {"tag": "tag"}, source, {"type": "object"})
    env.reset(tasks[0])
    tags = ["a"]
    result = env.step({"name": "tag", "arguments": {"todo_id": "t1", "tags": tags}})
    tags.append("b")
    result.info["result"]["title"] = "changed by the caller"
    assert env.state["todos"]["t1"] == {"id": "t1", "title": "write report", "complete": False, "tags": ["a"]}
    assert env.call_log[0]["arguments"]["tags"] is tags


SPECS = {
    "partial_then_fail": (
        "state['todos']['t1']['title'] = 'half'\n    state['next_id'] += 10\n    raise ToolError('stop')"
    ),
    "partial_then_crash": "state['todos']['t2']['complete'] = False\n    state['log'] = []\n    return {}['x']",
    "partial_then_set": "state['next_id'] = 99\n    return {1, 2}",
    "bulk_complete": (
        "for todo in state['todos'].values():\n        todo['complete'] = True\n    return len(state['todos'])"
    ),
    "move": "todo = state['todos'].pop('t1')\n    state['archive'] = {'t1': todo}\n    return 1",
    "edit_archive": "state['archive']['t1']['title'] = 'archived'\n    return state['archive']['t1']",
    "append_note": "state['notes'].append(len(state['notes']))\n    return state['notes']",
}
SOURCE = "\n\n".join(f"def {name}(state):\n    {body}" for name, body in SPECS.items()) + "\n"


@pytest.fixture
def scratch() -> Environment:
    specs = [ToolSpec(name=n, description=n, parameters={"type": "object", "properties": {}}) for n in SPECS]
    return Environment.from_parts("scratch", specs, {n: n for n in SPECS}, SOURCE, {"type": "object"})


def big_state(n: int = 50) -> dict:
    return {
        "todos": {f"t{i}": {"id": f"t{i}", "title": f"todo {i}", "complete": False} for i in range(1, n + 1)},
        "next_id": n + 1,
        "notes": [0],
    }


@pytest.mark.parametrize(
    "tool, kind, text",
    [
        ("partial_then_fail", "tool_error", "Error: stop"),
        ("partial_then_crash", "exception", "Error: internal error in partial_then_crash: KeyError: 'x'"),
        ("partial_then_set", "non_json", "Error: internal error in partial_then_set: result is not JSON-serializable"),
    ],
)
def test_failed_calls_leave_the_state_as_it_was(scratch: Environment, tool: str, kind: str, text: str) -> None:
    initial = big_state()
    snapshot = copy.deepcopy(initial)
    scratch.reset(initial_state=initial)
    scratch.step({"name": "append_note", "arguments": {}})  # the state is partly owned already
    before = copy.deepcopy(scratch.state)
    result = scratch.step({"name": tool, "arguments": {}})
    assert result.info["error_kind"] == kind and result.observation.startswith(text)
    assert scratch.state == before and initial == snapshot
    if kind == "exception":
        assert "line" in result.info["detail"]


def test_many_writes_in_one_call_fall_back_to_one_copy(scratch: Environment) -> None:
    initial = big_state(100)
    snapshot = copy.deepcopy(initial)
    scratch.reset(initial_state=initial)
    assert scratch.step({"name": "bulk_complete", "arguments": {}}).observation == "100"
    assert all(t["complete"] for t in scratch.state["todos"].values())
    assert initial == snapshot
    assert len(scratch.changed_paths()) == 100
    assert scratch._owned_all  # internal: the call gave up copying paths one by one and copied everything


def test_moved_shared_record_is_copied_correctly(scratch: Environment) -> None:
    initial = big_state(3)
    snapshot = copy.deepcopy(initial)
    scratch.reset(initial_state=initial)
    scratch.step({"name": "move", "arguments": {}})
    edited = scratch.step({"name": "edit_archive", "arguments": {}})
    assert edited.info["result"]["title"] == "archived"
    assert scratch.state["archive"]["t1"]["title"] == "archived" and "t1" not in scratch.state["todos"]
    assert initial == snapshot


def test_shared_lists_are_copied_on_write(scratch: Environment) -> None:
    initial = big_state(2)
    scratch.reset(initial_state=initial)
    assert scratch.step({"name": "append_note", "arguments": {}}).observation == "[0, 1]"
    assert scratch.step({"name": "append_note", "arguments": {}}).observation == "[0, 1, 2]"
    assert initial["notes"] == [0]


def test_state_hash_is_canonical(env: Environment) -> None:
    a = {"b": [1, {"y": "é", "x": None}], "a": 1.5}
    b = {"a": 1.5, "b": [1, {"x": None, "y": "é"}]}
    expected = hashlib.sha256('{"a":1.5,"b":[1,{"x":null,"y":"é"}]}'.encode()).hexdigest()
    assert env.state_hash(a) == env.state_hash(b) == state_hash(a) == expected


def test_instances_share_one_compiled_definition() -> None:
    first, second = Environment(MINI), Environment(MINI)
    assert first.definition is second.definition
    assert first.definition.functions["create_todo"] is second.definition.functions["create_todo"]


def test_from_parts_matches_the_folder(tasks: list[Task]) -> None:
    manifest = json.loads((MINI / "manifest.json").read_text())
    tools = [ToolSpec.from_dict(t) for t in manifest["tools"]]
    env = Environment.from_parts(
        "mini_todo",
        tools,
        {t["name"]: t["function"] for t in manifest["tools"]},
        (MINI / "env.py").read_text(),
        manifest["state_schema"],
    )
    env.reset(tasks[1])
    env.run_actions(tasks[1].gold_actions)
    assert env.state == tasks[1].gold_final_state


def test_bad_folders_raise_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="env.py: .*file not found"):
        Environment(tmp_path)
    folder = tmp_path / "env"
    shutil.copytree(MINI, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["tools"][0]["function"] = "no_such_function"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(InputError, match="function 'no_such_function' is not defined"):
        Environment(folder)
    (folder / "env.py").write_text("import os\n")
    with pytest.raises(InputError, match="refused by the sandbox: .*import of 'os'"):
        Environment(folder)
    (folder / "env.py").write_text((MINI / "env.py").read_text())
    (folder / "manifest.json").write_text("{broken")
    with pytest.raises(InputError, match="manifest.json: line 1"):
        Environment(folder)


def test_reset_rejects_a_non_object_state(env: Environment) -> None:
    with pytest.raises(TypeError):
        env.reset(initial_state=[1, 2])  # type: ignore[arg-type]


def test_many_instances_are_cheap(tasks: list[Task]) -> None:
    import time

    Environment(MINI)  # compile once
    start = time.perf_counter()
    envs = [Environment(MINI) for _ in range(500)]
    for env in envs:
        env.reset(tasks[0])
    elapsed = time.perf_counter() - start
    print(f"500 instances + resets: {elapsed * 1000:.0f} ms")
    assert elapsed < 5.0
    assert len({id(e.definition) for e in envs}) == 1
