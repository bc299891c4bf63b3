"""The whole task pipeline on the mini_todo fixture (runtime + fake LLM), determinism, and the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from synth.task import load_tasks
from synth.tasks.envmodel import load_model
from synth.tasks.pipeline import TaskGenConfig, generate_tasks
from synth.tasks.probes import run_probes, summarize
from synth.tasks.quality import quality_summary
from synth.tasks.runner import RuntimeRunner
from synth.tasks.testing import FakeLLM

FIXTURE = Path(__file__).parent / "data" / "envs" / "mini_todo"


def _copy_env(tmp_path: Path, name: str = "mini_todo") -> Path:
    d = tmp_path / name
    shutil.copytree(FIXTURE, d)
    (d / "tasks.jsonl").unlink(missing_ok=True)
    return d


def test_measured_pass_rate_goes_through_the_band(tmp_path):
    from synth.tasks.difficulty import Band
    from synth.tasks.pipeline import TaskGenConfig

    env = _copy_env(tmp_path)
    asked = []

    def rate(value):
        return lambda task: asked.append(task.task_id) or value

    easy = generate_tasks(
        env,
        n=2,
        seed=0,
        client=None,
        pass_rate=rate(1.0),
        write=False,
        config=TaskGenConfig(pass_rate_k=3, band=Band(max_pass=0.5), max_candidates=3),
    )
    band = [d for d in easy.dropped if d["stage"] == "band"]
    assert easy.kept == [] and len(band) == len(asked) > 0 and all("pass_rate 1.0" in d["reason"] for d in band)
    measured = len(asked)
    hard = generate_tasks(
        env,
        n=2,
        seed=0,
        client=None,
        pass_rate=rate(0.0),
        write=False,
        config=TaskGenConfig(pass_rate_k=3, band=Band(max_pass=0.5)),
    )
    assert [(t.difficulty["pass_rate"], t.difficulty["rollouts"]) for t in hard.kept] == [(0.0, 3), (0.0, 3)]
    unmeasured = generate_tasks(
        env,
        n=1,
        seed=0,
        client=None,
        pass_rate=rate(1.0),
        write=False,
        config=TaskGenConfig(pass_rate_k=0, band=Band(max_pass=0.5)),
    )
    assert unmeasured.kept[0].difficulty["pass_rate"] is None and len(asked) == measured + 2


def test_pipeline_makes_verified_multi_step_tasks(tmp_path):
    env = _copy_env(tmp_path)
    report = generate_tasks(env, n=8, seed=0, client=FakeLLM())
    assert len(report.kept) == 8
    tasks = load_tasks(env / "tasks.jsonl")
    assert [t.task_id for t in tasks] == [t.task_id for t in report.kept]
    model = load_model(env)
    questions = 0
    for t in tasks:
        writes = [a for a in t.gold_actions if model.tools[a.name].is_write]
        if writes:
            assert len(t.gold_actions) >= 3
        else:  # a question: at least two calls and facts, each with the answers it could be confused with
            questions += 1
            assert len(t.gold_actions) >= 2 and t.checks.required_facts
            assert all(t.checks.fact_options.get(f) for f in t.checks.required_facts)
        assert t.user_instruction and t.intent
        assert model.env_id not in t.user_instruction
        assert not any(name in t.user_instruction for name in model.tools)
        assert t.difficulty["dag_size"] >= len(t.gold_actions)
        assert t.provenance["dag"]["nodes"] and t.provenance["instruction_source"] in ("llm", "llm_retry", "template")
        assert len(t.gold_outputs) == len(t.gold_actions)
    assert len({t.difficulty["dag_size"] for t in tasks}) >= 2
    runner = RuntimeRunner.from_dir(str(env))
    summary = summarize([run_probes(t, runner, model) for t in tasks])
    assert questions == 0  # mini_todo records hold no text besides the title a question would name them by
    assert summary == {
        "tasks": 8,
        "gold_pass": 8,
        "ok": 8,
        "probes": {"noop": 8, "drop_last_write": 8, "perturb_write_arg": 8, "sibling_swap": 8},
    }
    graph = json.loads((env / "graph.json").read_text())
    assert graph["counts"]["kept"] > 0 and all("evidence" in e for e in graph["edges"])
    assert "<!-- tasks:seed=0 -->" in (env / "REPORT.md").read_text()


def test_same_seed_and_cached_answers_give_identical_bytes_and_seeds_extend(tmp_path):
    a, b = _copy_env(tmp_path / "a"), _copy_env(tmp_path / "b")
    generate_tasks(a, n=5, seed=3, client=FakeLLM())
    generate_tasks(b, n=5, seed=3, client=FakeLLM())
    first = (a / "tasks.jsonl").read_bytes()
    assert first == (b / "tasks.jsonl").read_bytes()
    assert (a / "graph.json").read_bytes() == (b / "graph.json").read_bytes()
    assert (a / "REPORT.md").read_bytes() == (b / "REPORT.md").read_bytes()
    # rerun of the same seed replaces; another seed extends
    generate_tasks(a, n=5, seed=3, client=FakeLLM())
    assert (a / "tasks.jsonl").read_bytes() == first
    generate_tasks(a, n=2, seed=4, client=FakeLLM())
    ids = [t.task_id for t in load_tasks(a / "tasks.jsonl")]
    assert len(ids) == 7 and ids[:5] == [t.task_id for t in load_tasks(b / "tasks.jsonl")]
    assert sum("-s4-" in i for i in ids) == 2
    assert (a / "REPORT.md").read_text().count("## Tasks (seed") == 2


def _run(*args: str):
    """The CLI in-process (fast); returns (exit code, stdout)."""
    from typer.testing import CliRunner

    from synth.cli.main import build_app

    res = CliRunner().invoke(build_app(), list(args))
    if res.exception and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.stdout


def test_cli_tasks_and_verify_json(tmp_path):
    env = _copy_env(tmp_path)
    code, stdout = _run("tasks", str(env), "--n", "4", "--seed", "1", "--no-llm", "--json")
    assert code == 0, stdout
    assert json.loads(stdout)["kept"] == 4
    code, stdout = _run("verify", str(env), "--json")
    assert code == 0, stdout
    data = json.loads(stdout)
    assert data["tasks"] == 4 and data["gold_pass"] == 4
    assert data["probes"] == {"noop": 4, "drop_last_write": 4, "perturb_write_arg": 4, "sibling_swap": 4}
    q = data["quality"]
    assert q["tasks"] == 4 and q["placeholder_tasks"] == 0 and q["meets"]["probes_ok_share_min"] is True
    # a corrupted gold state is caught
    lines = (env / "tasks.jsonl").read_text().splitlines()
    t = json.loads(lines[0])
    t["gold_final_state"]["extra"] = 1
    lines[0] = json.dumps(t)
    (env / "tasks.jsonl").write_text("\n".join(lines) + "\n")
    code, stdout = _run("verify", str(env), "--json")
    assert code == 1
    assert json.loads(stdout)["gold_pass"] == 3


def test_cli_rejects_a_folder_that_is_not_an_environment(tmp_path, capsys):
    from fakes.cli import run_cli

    out = run_cli(capsys, "verify", str(tmp_path))
    assert out.returncode == 2 and "manifest.json" in out.stderr


@pytest.mark.embedded
@pytest.mark.timeout(1800)
def test_embedded_model_makes_tasks_that_verify(tmp_path):
    from synth.llm import LLMConfig, open_client
    from synth.tasks.pipeline import TaskGenConfig

    env = _copy_env(tmp_path)
    with open_client(LLMConfig(cache_path=str(tmp_path / "llm.sqlite"))) as client:
        report = generate_tasks(env, n=3, seed=0, client=client, config=TaskGenConfig(pool_per_field=3))
    assert len(report.kept) == 3
    graph = json.loads((env / "graph.json").read_text())
    assert all(e["llm"] and e["llm"]["answer"] for e in graph["edges"])
    model = load_model(env)
    runner = RuntimeRunner.from_dir(str(env))
    assert all(run_probes(t, runner, model).ok for t in load_tasks(env / "tasks.jsonl"))


ENVS = Path(__file__).resolve().parent.parent / "envs_generated"


@pytest.mark.parametrize("env_id", ["mcp_memory", "petstore", "todo_api", "tau_retail", "bfcl_file_system"])
def test_pipeline_on_committed_environments_with_a_fake_model(tmp_path, env_id):
    src = ENVS / env_id
    if not (src / "manifest.json").exists():
        pytest.skip(f"envs_generated/{env_id} is not built in this checkout")
    env = tmp_path / env_id
    shutil.copytree(src, env)
    (env / "tasks.jsonl").unlink(missing_ok=True)
    # tau_retail: its cancel/return/exchange tools change nothing yet (environment fidelity), so few candidates survive
    n, cfg = (2, TaskGenConfig(max_candidates=300)) if env_id == "tau_retail" else (6, None)
    report = generate_tasks(env, n=n, seed=0 if env_id == "tau_retail" else 11, client=FakeLLM(), config=cfg)
    assert len(report.kept) == n, report.to_dict()
    model = load_model(env)
    runner = RuntimeRunner.from_dir(str(env))
    for t in report.kept:
        if any(model.tools[a.name].is_write for a in t.gold_actions):
            assert len(t.gold_actions) >= 3
        else:
            assert len(t.gold_actions) >= 2 and t.checks.required_facts
        assert run_probes(t, runner, model).ok
        assert model.env_id not in t.user_instruction and quality_summary([t], model)["placeholder_tasks"] == 0


def test_cli_measures_a_reference_agents_pass_rate_through_the_rollout_loop(tmp_path, capsys):
    from fakes.cli import run_cli
    from fakes.fault_server import FaultServer

    env = _copy_env(tmp_path)
    missing = run_cli(capsys, "tasks", str(env), "--n", "1", "--no-llm", "--pass-rate-k", "2")
    assert missing.returncode == 2 and "--agent-base-url and --agent-model" in missing.stderr
    with FaultServer("All done, nothing else to do.") as srv:  # an agent that never calls a tool
        args = [
            "tasks",
            str(env),
            "--n",
            "2",
            "--no-llm",
            "--json",
            "--pass-rate-k",
            "2",
            "--agent-base-url",
            srv.base_url,
            "--agent-model",
            "ref",
        ]
        kept = run_cli(capsys, *args)
        assert kept.returncode == 0, kept.stderr
        assert srv.count == 4 and {(r["temperature"], r["max_tokens"]) for r in srv.requests} == {(0.7, 512)}
        assert [(t.difficulty["pass_rate"], t.difficulty["rollouts"]) for t in load_tasks(env / "tasks.jsonl")] == [
            (0.0, 2)
        ] * 2
        banded = run_cli(capsys, *args[:2], "--n", "1", *args[4:], "--min-pass", "0.5")
    assert banded.returncode == 1 and json.loads(banded.stdout)["kept"] == 0
    assert json.loads(banded.stdout)["dropped_by_stage"]["band"] > 0
