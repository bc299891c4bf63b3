"""TRL and verifiers adapters, each driven through one episode per task by the gold policy.

What is exercised:
- TRL (installed, 1.16): the generated `environment_factory` class as TRL uses it: tools found with
  `inspect.getmembers` on the class, tool schemas made by transformers' `get_json_schema` from the
  methods, `reset(**row)` with a dataset row, tool calls `method(**arguments)`, `get_reward()` and the
  `forgegym_reward(completions, environments)` reward function. The slow test builds a real
  `GRPOTrainer(environment_factory=...)` with a tiny random model, runs one training step (TRL calls
  reset and get_reward itself), parses gold tool calls with TRL's `parse_response` and runs them through
  the same per-rollout tool dict TRL builds.
- verifiers (not installed here: its dependencies are heavy): the framework-free core
  `VerifiersEpisodes` with both OpenAI-dict and attribute-style (pydantic-like) messages, the way the
  classic `MultiTurnEnv` loop calls it (setup_state, env_response, stop condition, rubric). The wrapper
  `load_environment` runs only where verifiers' classic API is importable (skipped otherwise).
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from synth.interop.catalog import EnvCatalog
from synth.interop.export import final_reply
from synth.interop.trl_adapter import ForgegymTRLEnv, forgegym_reward, trl_environment_factory, trl_rows
from synth.interop.verifiers_adapter import VerifiersEpisodes

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "envs" / "mini_todo"
GENERATED = (
    sorted(p for p in (ROOT / "envs_generated").glob("*") if (p / "tasks.jsonl").is_file())
    if (ROOT / "envs_generated").is_dir()
    else []
)


@pytest.fixture(scope="module")
def env_dirs(tmp_path_factory) -> list[Path]:
    """The fixture plus a copy of it holding one read-only task with a required fact."""
    env_dir = tmp_path_factory.mktemp("envs") / "facts_todo"
    shutil.copytree(FIXTURE, env_dir)
    manifest = json.loads((env_dir / "manifest.json").read_text())
    manifest["env_id"] = "facts_todo"
    (env_dir / "manifest.json").write_text(json.dumps(manifest))
    tasks = [json.loads(line) for line in (env_dir / "tasks.jsonl").read_text().splitlines()]
    facts = {
        **tasks[0],
        "task_id": "facts-0001",
        "env_id": "facts_todo",
        "gold_actions": [{"name": "list_todos", "arguments": {"complete": True}}],
        "gold_outputs": ['[{"complete": true, "id": "t2", "title": "call mom"}]'],
        "gold_final_state": tasks[0]["initial_state"],
        "checks": {"exempt_paths": [], "required_facts": ["call mom"]},
        "user_instruction": "You want to know the titles of the todos that are already complete.",
    }
    copies = [{**t, "env_id": "facts_todo", "user_instruction": "(copy) " + t["user_instruction"]} for t in tasks]
    (env_dir / "tasks.jsonl").write_text("\n".join(json.dumps(t) for t in [*copies, facts]) + "\n")
    return [FIXTURE, env_dir, *GENERATED]


def _trl_tool_dict(instance) -> dict:
    """The tool dict TRL builds for one rollout: public functions of the class, minus reset/get_reward."""
    return {
        name: getattr(instance, name)
        for name, _ in inspect.getmembers(type(instance), predicate=inspect.isfunction)
        if name not in ("reset", "get_reward") and not name.startswith("_")
    }


def test_trl_environment_class_runs_gold_episodes(env_dirs):
    from transformers.utils import get_json_schema

    catalog = EnvCatalog(env_dirs)
    factories = trl_environment_factory(catalog)
    assert isinstance(factories, dict) and set(factories) == set(catalog.env_ids())
    rows = trl_rows(catalog)
    assert len(rows) == len(catalog.all_tasks())
    for row in rows:
        entry = catalog.get(row["environment"])
        task = entry.task(row["task_id"])
        instance = factories[row["environment"]]()
        tools = _trl_tool_dict(instance)
        published = {s.name: s for s in entry.definition.tools}
        assert set(tools) == set(published) - set(type(instance).skipped_tools)
        for name, method in tools.items():
            schema = get_json_schema(method)["function"]
            spec = published[name]
            assert schema["name"] == name
            assert set(schema["parameters"].get("required", [])) == set(spec.parameters.get("required", []))
            assert set(schema["parameters"]["properties"]) == set(spec.parameters.get("properties", {}))
        assert instance.reset(**row) is None
        completion = []
        for i, action in enumerate(task.gold_actions):
            observation = tools[action.name](**action.arguments)
            assert not observation.startswith("Error"), observation
            completion += [
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": f"call_{i}",
                            "type": "function",
                            "function": {"name": action.name, "arguments": action.arguments},
                        }
                    ],
                },
                {"role": "tool", "content": observation},
            ]
        completion.append({"role": "assistant", "content": final_reply(task)})
        assert forgegym_reward([completion], [instance]) == [1.0]
        # get_reward sees only the state: facts the agent must say are not checked there
        assert instance.get_reward() == (0.0 if task.checks.required_facts else 1.0)
        assert forgegym_reward([completion[:-1]], [instance]) == [0.0 if task.checks.required_facts else 1.0]
        instance.reset(**row)  # a fresh episode with nothing done fails a task that changes state
        if task.gold_final_state != task.initial_state:
            assert instance.get_reward() == 0.0
    with pytest.raises(ValueError, match="task_id"):
        factories["mini_todo"]().reset(prompt=[])
    assert forgegym_reward([[]], [object()]) == [None]


def test_trl_single_environment_factory_and_bad_names():
    from synth.interop.trl_adapter import tool_method
    from synth.spec import ToolSpec

    cls = trl_environment_factory([FIXTURE], own_reward=False)
    assert isinstance(cls, type) and issubclass(cls, ForgegymTRLEnv) and not hasattr(cls, "get_reward")
    assert tool_method(ToolSpec("get-pet", "", {"type": "object", "properties": {}})) is None
    assert tool_method(ToolSpec("find", "", {"type": "object", "properties": {"from": {"type": "string"}}})) is None
    assert tool_method(ToolSpec("reset", "", {"type": "object", "properties": {}})) is None
    method = tool_method(
        ToolSpec(
            "pick",
            "Pick one.\nArgs: none",
            {
                "type": "object",
                "required": ["color"],
                "properties": {
                    "color": {"type": "string", "enum": ["red", "blue"]},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "n": {"type": ["integer", "null"]},
                },
            },
        )
    )
    from transformers.utils import get_json_schema

    schema = get_json_schema(method)["function"]["parameters"]
    assert schema["required"] == ["color"] and schema["properties"]["color"]["enum"] == ["red", "blue"]
    assert schema["properties"]["tags"] == {"type": "array", "items": {"type": "string"}, "description": "The tags."}


@pytest.mark.slow
def test_trl_grpo_trainer_accepts_the_factory(tmp_path):
    """A real GRPOTrainer: init, one step (TRL calls reset/get_reward), then gold calls parsed by TRL."""
    pytest.importorskip("trl", reason="TRL is an optional dependency")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from trl import GRPOConfig, GRPOTrainer
    from trl.chat_template_utils import parse_response, qwen3_template

    from rl.tiny_model import build_model, build_tokenizer
    from synth.interop.trl_adapter import trl_dataset

    tok = build_tokenizer()
    tok.padding_side = "left"
    tok.response_template = qwen3_template  # our Hermes/ChatML template writes tool calls like Qwen3
    model = build_model(tok, size="test", seed=0)
    args = GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=8,
        report_to=[],
        use_cpu=True,
        max_steps=1,
        save_strategy="no",
        logging_steps=1,
    )
    trainer = GRPOTrainer(
        model=model,
        args=args,
        train_dataset=trl_dataset([FIXTURE]),
        processing_class=tok,
        environment_factory=trl_environment_factory([FIXTURE]),
    )
    assert "Forgegym_mini_todo" in trainer.reward_func_names
    assert {t.__name__ for t in trainer.tools} == {
        "list_todos",
        "get_todo",
        "create_todo",
        "update_todo",
        "delete_todo",
    }
    trainer.train()
    assert "rewards/Forgegym_mini_todo/mean" in trainer.state.log_history[0]
    catalog = EnvCatalog([FIXTURE])
    prefix = tok("<|im_start|>assistant\n", add_special_tokens=False)["input_ids"]
    for env in trainer.environments:  # instances TRL created and reset with dataset rows
        task = env._task
        tools = _trl_tool_dict(env)
        env.reset(task_id=task.task_id)
        for action in task.gold_actions:
            text = "<tool_call>\n" + json.dumps(action.to_dict()) + "\n</tool_call><|im_end|>\n"
            parsed = parse_response(tok, tok(text, add_special_tokens=False)["input_ids"], prefix=prefix)
            (call,) = parsed["tool_calls"]
            assert not tools[call["function"]["name"]](**call["function"]["arguments"]).startswith("Error")
        assert env.get_reward() == 1.0
        assert task.task_id in catalog.get("mini_todo").tasks


class _Obj(SimpleNamespace):
    """Attribute-style message, like verifiers' pydantic messages."""


def _assistant(calls, style):
    if style == "dict":
        return {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                for cid, n, a in calls
            ],
        }
    return _Obj(
        role="assistant", content="", tool_calls=[_Obj(id=cid, name=n, arguments=json.dumps(a)) for cid, n, a in calls]
    )


@pytest.mark.parametrize("style", ["dict", "attribute"])
def test_verifiers_core_runs_gold_episodes(env_dirs, style):
    episodes = VerifiersEpisodes(env_dirs)
    rows = episodes.rows()
    tasks = {(e.env_id, t.task_id): t for e, t in episodes.catalog.all_tasks()}
    assert len(rows) == len(tasks)
    for row in rows:
        info = json.loads(row["info"])
        task = tasks[(info["env_id"], info["task_id"])]
        assert [d["name"] for d in info["tool_defs"]] == [
            s.name for s in episodes.catalog.get(info["env_id"]).definition.tools
        ]
        state = {"info": row["info"], "prompt": row["prompt"], "trajectory": []}
        episodes.start(state)
        messages = list(row["prompt"])
        completion = []
        for i, action in enumerate(task.gold_actions):
            assistant = _assistant([(f"call_{i}", action.name, action.arguments)], style)
            messages.append(assistant)
            completion.append(assistant)
            state["trajectory"].append({"completion": [assistant]})
            assert not VerifiersEpisodes.finished(state)
            replies = episodes.respond(messages, state)
            assert len(replies) == 1 and replies[0]["tool_call_id"] == f"call_{i}"
            assert not replies[0]["content"].startswith("Error"), replies[0]
            tool_messages = replies if style == "dict" else [_Obj(**r) for r in replies]
            messages += tool_messages
            completion += tool_messages
        final = {"role": "assistant", "content": final_reply(task)}
        final = final if style == "dict" else _Obj(**final, tool_calls=None)
        completion.append(final)
        state["trajectory"].append({"completion": [final]})
        assert VerifiersEpisodes.finished(state)
        assert episodes.score(completion, state) == 1.0
        if task.checks.required_facts:
            assert episodes.score(completion[:-1], state) == 0.0  # the fact was never said
    with pytest.raises(ValueError, match="env_id and task_id"):
        episodes.start({"info": "{}"})
    assert episodes.score([], {}) == 0.0


def _gold_client(vf, tasks_by_instruction, act: bool = True):
    """A verifiers Client whose 'model' is the gold policy: the next gold call, then the final reply
    (with act=False it only gives the final reply)."""
    from verifiers.types import Response, ResponseMessage, ToolCall

    class GoldClient(vf.Client):
        def setup_client(self, config):
            return None

        async def to_native_tool(self, tool):
            return tool

        async def to_native_prompt(self, messages):
            return list(messages), {}

        async def get_native_response(self, prompt, model, sampling_args, tools=None, **kwargs):
            user = next(m for m in prompt if m.role == "user")
            task = tasks_by_instruction[user.content]
            done = sum(len(m.tool_calls or []) for m in prompt if m.role == "assistant")
            if act and done < len(task.gold_actions):
                action = task.gold_actions[done]
                call = ToolCall(id=f"call_{done}", name=action.name, arguments=json.dumps(action.arguments))
                message = ResponseMessage(content="", tool_calls=[call], finish_reason="tool_calls", is_truncated=False)
            else:
                message = ResponseMessage(content=final_reply(task), finish_reason="stop", is_truncated=False)
            return Response(id=f"gold-{done}", created=0, model=model, message=message)

        async def raise_from_native_response(self, response):
            return None

        async def from_native_response(self, response):
            return response

        async def close(self):
            return None

    return GoldClient(None)


def test_verifiers_load_environment_with_verifiers_installed(env_dirs):
    """Only where verifiers' classic API is installed: a real `env.rollout` with a gold 'model' client,
    scored by the environment's own rubric."""
    vf = pytest.importorskip("verifiers", reason="verifiers is an optional dependency, not installed here")
    if not hasattr(vf, "MultiTurnEnv"):
        pytest.skip(f"verifiers {vf.__version__} has no classic MultiTurnEnv API (0.4 v1 stack)")
    import asyncio

    from synth.interop.verifiers_adapter import load_environment

    env = load_environment(env_dirs=env_dirs, max_turns=16)
    catalog = EnvCatalog(env_dirs)
    tasks_by_instruction = {t.user_instruction: t for _, t in catalog.all_tasks()}
    assert len(tasks_by_instruction) == len(catalog.all_tasks()) == env.dataset.num_rows

    async def run_all(client) -> list[float]:
        rewards = []
        for row in env.dataset:
            state = await env.rollout(dict(row), client, "gold", {})
            assert state.get("error") is None, state.get("error")
            await env.rubric.score_rollout(state)
            rewards.append(state["reward"])
        return rewards

    assert asyncio.run(run_all(_gold_client(vf, tasks_by_instruction))) == [1.0] * env.dataset.num_rows
    # answering without acting fails every task that changes the state
    lazy = asyncio.run(run_all(_gold_client(vf, tasks_by_instruction, act=False)))
    changes = [
        t.gold_final_state != t.initial_state
        for t in (tasks_by_instruction[r["prompt"][1]["content"]] for r in env.dataset)
    ]
    assert any(changes) and all(r == 0.0 for r, c in zip(lazy, changes) if c)
