"""`forgegym synth --data`: a grounded environment keeps the data's layout; bad data exits 2 and writes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from synth.envsynth.pipeline import SynthConfig, synthesize_environment
from synth.runtime.environment import Environment

ROOT = Path(__file__).resolve().parents[1]

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Get the details of an order.",
            "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "create_order",
            "description": "Create a new order for a user.",
            "parameters": {
                "type": "object",
                "properties": {"user_id": {"type": "string"}, "total": {"type": "number"}},
                "required": ["user_id"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "delete_order",
            "description": "Delete an order.",
            "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_user",
            "description": "Get a user by id.",
            "parameters": {"type": "object", "properties": {"user_id": {"type": "string"}}, "required": ["user_id"]},
        },
    },
]
NAMES = ["ann_lee", "bo_kim", "cyd_ma", "dee_ortiz", "eli_park", "fay_wu"]


def data_state() -> dict:
    users = {f"{NAMES[i]}_{1000 + i}": {"email": f"u{i}@example.com", "orders": [f"#W{1000000 + i}"]} for i in range(6)}
    orders = {
        f"#W{1000000 + i}": {
            "order_id": f"#W{1000000 + i}",
            "user_id": f"{NAMES[i]}_{1000 + i}",
            "status": ["pending", "delivered"][i % 2],
            "total": 10 + i,
        }
        for i in range(6)
    }
    return {"orders": orders, "users": users}


def forgegym(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "synth.cli.main", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_grounded_environment_keeps_the_layout(tmp_path):
    docs = tmp_path / "shop_tools.json"
    docs.write_text(json.dumps(TOOLS))
    data = tmp_path / "shop.json"
    data.write_text(json.dumps(data_state(), indent=1))
    out = tmp_path / "envs" / "shop"
    config = SynthConfig(env_id="shop", route="structured", data=str(data))
    draft = synthesize_environment([docs], out, None, config)
    assert draft.manifest["data"]["files"] == ["data/shop.json"]
    assert (out / "data" / "shop.json").read_text() == data.read_text()  # carried byte for byte
    schema = json.loads((out / "state_schema.json").read_text())
    assert sorted(schema["properties"]) == ["orders", "users"]
    assert schema["properties"]["orders"]["x-key-field"] == "order_id"
    env = Environment(out)
    state = data_state()
    env.reset(initial_state=state)
    assert env.state == data_state()
    jsonschema.validate(state, schema)
    assert (
        env.step({"name": "get_order", "arguments": {"order_id": "#W1000002"}}).info["result"]["user_id"]
        == "cyd_ma_1002"
    )
    made = env.step({"name": "create_order", "arguments": {"user_id": "bo_kim_1001", "total": 3}})
    assert made.info["ok"], made.observation
    assert made.info["result"]["order_id"] == "#W1000006"  # the data's id format, next number
    assert sorted(env.state) == ["orders", "users"] and "#W1000006" in env.state["orders"]
    jsonschema.validate(env.state, schema)
    assert state == data_state()  # copy-on-write: the initial state is untouched
    from synth.data import load_data_states

    assert load_data_states(out) == [data_state()]
    assert "## Sample data" in (out / "REPORT.md").read_text()


@pytest.mark.parametrize(
    "name,text,where",
    [
        ("dup.json", '{"orders": {"#W1": {"a": 1}, "#W1": {"a": 2}}}', "orders: duplicate key '#W1'"),
        (
            "shape.json",
            json.dumps({"orders": {**data_state()["orders"], "#W9": {"order_id": "#W9", "odd": 1}}}),
            "orders/#W9: record of another shape",
        ),
        ("missing.json", None, "(document): file not found"),
    ],
)
def test_bad_data_exits_2_naming_file_and_record_and_writes_nothing(tmp_path, name, text, where):
    docs = tmp_path / "shop_tools.json"
    docs.write_text(json.dumps(TOOLS))
    data = tmp_path / name
    if text is not None:
        data.write_text(text)
    out = tmp_path / "envs" / "shop"
    run = forgegym("synth", str(docs), "--data", str(data), "--out", str(out), "--engine", "plain")
    assert run.returncode == 2, run.stderr
    assert f"{data}: {where}" in run.stderr
    assert not (tmp_path / "envs").exists()


TREE_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": name,
            "description": desc,
            "parameters": {
                "type": "object",
                "properties": {p: {"type": "string"} for p in params},
                "required": list(params),
            },
        },
    }
    for name, desc, params in [
        ("list_here", "List the contents of the current folder.", []),
        ("open_file", "Display the text of a file.", ["file_name"]),
        ("grep_file", "Search for lines of a file that contain a pattern.", ["file_name", "pattern"]),
        ("new_dir", "Create a new directory here.", ["dir_name"]),
        ("drop_file", "Remove a file.", ["file_name"]),
        ("put_text", "Write content to a file.", ["file_name", "content"]),
        ("copy_thing", "Copy a file or directory.", ["source", "destination"]),
        ("go_to", "Change the current working directory to the given folder.", ["folder"]),
        ("where_am_i", "Return the current working directory path.", []),
        ("shift", "Move a file or directory from one location to another.", ["source", "destination"]),
        ("mirror", "Make a twin of the node under two names.", ["first", "second"]),
        ("order_lines", "Sort the contents of a file line by line.", ["file_name"]),
        ("compare", "Compare two files line by line.", ["file_name1", "file_name2"]),
        ("locate", "Find files or directories under a path whose name contains a text.", ["path", "name"]),
    ]
]


def tree(name: str) -> dict:
    return {
        "root": {
            "home": {
                "type": "dir",
                "contents": {
                    "docs": {"type": "dir", "contents": {}},
                    name: {"type": "file", "content": "alpha\nbeta gamma\n"},
                },
            }
        }
    }


def test_grounded_tree_tools(tmp_path):
    docs = tmp_path / "fs_tools.json"
    docs.write_text(json.dumps(TREE_TOOLS))
    data = tmp_path / "states.jsonl"
    data.write_text("".join(json.dumps(tree(n)) + "\n" for n in ("a.txt", "b.txt", "c.txt")))
    out = tmp_path / "envs" / "fs"
    draft = synthesize_environment([docs], out, None, SynthConfig(env_id="fs", route="structured", data=str(data)))
    kinds = {t["name"]: t["kind"] for t in draft.manifest["tools"]}
    assert kinds == {
        "list_here": "tree_list",
        "open_file": "tree_read",
        "grep_file": "tree_search",
        "new_dir": "tree_make",
        "drop_file": "tree_remove",
        "put_text": "tree_write",
        "copy_thing": "tree_copy",
        "go_to": "tree_cd",
        "where_am_i": "tree_pwd",
        "shift": "tree_move",
        "order_lines": "tree_lines",
        "compare": "tree_lines",
        "locate": "tree_find",
    }
    assert [e["name"] for e in draft.manifest["excluded_tools"]] == ["mirror"]
    assert "mirror" in (out / "REPORT.md").read_text()
    env = Environment(out)
    env.reset(initial_state=tree("a.txt"))
    assert json.loads(env.step({"name": "list_here", "arguments": {}}).observation) == ["a.txt", "docs"]
    assert json.loads(
        env.step({"name": "grep_file", "arguments": {"file_name": "a.txt", "pattern": "gam"}}).observation
    ) == ["beta gamma"]
    assert (
        json.loads(env.step({"name": "order_lines", "arguments": {"file_name": "a.txt"}}).observation)
        == "alpha\nbeta gamma"
    )
    assert json.loads(env.step({"name": "locate", "arguments": {"path": ".", "name": "a."}}).observation) == ["./a.txt"]
    assert (
        json.loads(
            env.step({"name": "compare", "arguments": {"file_name1": "a.txt", "file_name2": "a.txt"}}).observation
        )
        == ""
    )
    assert env.step({"name": "new_dir", "arguments": {"dir_name": "tmp"}}).info["ok"]
    assert env.step({"name": "put_text", "arguments": {"file_name": "n.md", "content": "hi"}}).info["ok"]
    assert env.step({"name": "drop_file", "arguments": {"file_name": "a.txt"}}).info["ok"]
    assert not env.step({"name": "drop_file", "arguments": {"file_name": "docs"}}).info["ok"]  # a dir, not a file
    home = env.state["root"]["home"]["contents"]
    assert home["tmp"] == {"type": "dir", "contents": {}} and home["n.md"] == {"type": "file", "content": "hi"}
    assert "a.txt" not in home and tree("a.txt") == tree("a.txt")
    jsonschema.validate(env.state, json.loads((out / "state_schema.json").read_text()))
    # the working directory: kept beside the tree (root_cwd), used by every tree tool
    assert env.step({"name": "copy_thing", "arguments": {"source": "n.md", "destination": "docs"}}).info["ok"]
    assert env.step({"name": "shift", "arguments": {"source": "n.md", "destination": "m.md"}}).info["ok"]
    assert json.loads(env.step({"name": "go_to", "arguments": {"folder": "docs"}}).observation) == "docs"
    assert json.loads(env.step({"name": "list_here", "arguments": {}}).observation) == ["n.md"]
    assert json.loads(env.step({"name": "where_am_i", "arguments": {}}).observation) == "/home/docs"
    assert not env.step({"name": "go_to", "arguments": {"folder": "nowhere"}}).info["ok"]
    assert env.step({"name": "go_to", "arguments": {"folder": ".."}}).info["ok"]
    assert json.loads(env.step({"name": "list_here", "arguments": {}}).observation) == ["docs", "m.md", "tmp"]
    assert env.state["root_cwd"] == []
    jsonschema.validate(env.state, json.loads((out / "state_schema.json").read_text()))


def test_tree_tools_from_the_docs_alone(tmp_path):
    """No --data: tools that name files and directories get a docs-made tree (neutral layout) and their tree plans."""
    from synth.envsynth.docs_tree import branch_word, docs_tree_schema, example_tree
    from synth.tooldocs import load_docs

    docs = tmp_path / "fs_tools.json"
    docs.write_text(json.dumps(TREE_TOOLS))
    assert branch_word(load_docs([str(docs)])) == "directory"
    out = tmp_path / "envs" / "fs"
    draft = synthesize_environment([docs], out, None, SynthConfig(env_id="fs", route="structured"))
    kinds = {t["name"]: t["kind"] for t in draft.manifest["tools"]}
    assert kinds["list_here"] == "tree_list" and kinds["put_text"] == "tree_write" and kinds["go_to"] == "tree_cd"
    assert len(kinds) >= 10, kinds
    assert "docs-tree" in (out / "REPORT.md").read_text()
    env = Environment(out)
    env.reset(initial_state=example_tree("directory"))
    assert env.step({"name": "new_dir", "arguments": {"dir_name": "tmp"}}).info["ok"]
    assert env.step({"name": "go_to", "arguments": {"folder": "tmp"}}).info["ok"]
    assert env.step({"name": "put_text", "arguments": {"file_name": "n.md", "content": "hi"}}).info["ok"]
    assert json.loads(env.step({"name": "open_file", "arguments": {"file_name": "n.md"}}).observation) == "hi"
    assert json.loads(env.step({"name": "list_here", "arguments": {}}).observation) == ["n.md"]
    jsonschema.validate(env.state, json.loads((out / "state_schema.json").read_text()))
    (tmp_path / "notes.json").write_text(json.dumps(TOOLS))
    assert docs_tree_schema(load_docs([str(tmp_path / "notes.json")])) is None  # records, not files: no tree
