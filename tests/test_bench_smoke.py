"""Smoke tests of the benchmarks in the bench package: each runs with --quick and reports its figures.

They prove the scripts run and their JSON carries the figures docs/benchmarks.md quotes; they say
nothing about speed. The --quick benchmarks run as `python -m bench.NAME` child processes (they time and
trace memory, and some start children of their own); the learning benchmark's scripts run in this process
through their `main(argv)`. synth_cost drives the embedded model, so it is marked `embedded`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _env(**extra: str) -> dict[str, str]:
    """Child environment: the repository root on PYTHONPATH, so `python -m bench.NAME` runs from any folder."""
    paths = [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PREFECT_SERVER_ANALYTICS_ENABLED="false", **extra)


def run_bench(script: str, tmp_path: Path, *extra: str, timeout: int = 300) -> dict:
    out = tmp_path / f"{script}.json"
    proc = subprocess.run(
        [sys.executable, "-m", f"bench.{script}", "--quick", "--json", str(out), *extra],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_env(),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "RESULT {" in proc.stdout
    figures = json.loads(out.read_text())
    assert figures["benchmark"] == script
    assert figures["machine"]["cpus"] >= 1
    return figures


def test_env_step_quick(tmp_path: Path) -> None:
    f = run_bench("env_step", tmp_path)
    todo = f["step"]["todo_api"]
    assert todo["calls_per_side"] > 0
    assert set(todo["calls_per_s"]) == {"step", "restricted", "hand"}
    assert all(v > 0 for v in todo["calls_per_s"].values())
    assert "getTodo" not in todo["left_out"], todo["left_out"]  # the twin matches the runtime on plain reads
    sizes = f["sizes"]["by_size"]
    assert set(sizes) == {"10", "1000"}
    assert sizes["1000"]["deepcopy_ms"] > 0 and sizes["1000"]["state_hash_ms"] > 0
    assert f["sizes"]["growth_exponent"]["env_reset_us"] is not None


def test_many_episodes_quick(tmp_path: Path) -> None:
    f = run_bench("many_episodes", tmp_path)
    env, hand = f["sides"]["env"], f["sides"]["hand"]
    assert env["steps"] == hand["steps"] > 0
    assert env["ok_steps"] == hand["ok_steps"]  # same calls, same outcomes on both sides
    assert hand["traced_kib_per_episode_at_start"] > env["traced_kib_per_episode_at_start"]  # copy-on-write shares


@pytest.mark.slow
def test_rollouts_quick(tmp_path: Path) -> None:
    f = run_bench("rollouts", tmp_path)
    assert f["batched"]["episodes"] == f["one_at_a_time"]["episodes"] == 8  # 4 episodes, 2 passes
    assert f["batched"]["sampled_tokens"] > 0 and f["one_at_a_time"]["sampled_tokens"] > 0
    assert f["speedup_episodes_per_s"] is not None
    cached, batched = f["cached"], f["batched"]
    assert cached["prompt_tokens_reused"] > 0 and batched["prompt_tokens_reused"] == 0  # later turns reuse the KV cache
    assert cached["prompt_tokens_encoded"] < batched["prompt_tokens_encoded"]
    # every later turn finds its prefix and no first turn does, not even in the second pass
    assert f["prefix_cache"]["hits"] == cached["agent_turns"] - cached["episodes"]
    # the cache changes what is computed, not what is sampled: same seeds, same episodes
    assert cached["sampled_tokens"] == batched["sampled_tokens"] and cached["agent_turns"] == batched["agent_turns"]


@pytest.mark.embedded
@pytest.mark.slow
def test_synth_cost_quick(tmp_path: Path) -> None:
    f = run_bench("synth_cost", tmp_path, timeout=1200)
    assert f["cold"]["env"]["llm_calls"] > 0
    assert f["warm"]["env"]["llm_calls"] == 0  # every request of the rerun came from the cache
    assert f["calls_saved_share"] == 1.0


@pytest.mark.slow
def test_update_step_quick(tmp_path: Path) -> None:
    f = run_bench("update_step", tmp_path, timeout=600)
    erpo, full, trl, lora = f["variants"]
    assert erpo["variant"] == "erpo" and erpo["tokens_per_s"] > 0
    assert full["variant"] == "erpo-full" and f["chunked_same_offpolicy_loss"] is True  # chunked = full logits
    assert 0 < erpo["logits_peak_mib"] < full["logits_peak_mib"]
    assert "error" not in trl, trl  # TRL is in the dev extra
    assert f["same_offpolicy_loss"] is True  # both sides compute the same clipped token-mean loss
    assert lora["variant"] == "erpo-lora" and 0 < lora["trainable_m"] < erpo["trainable_m"]
    assert erpo["trainable_m"] == pytest.approx(erpo["params_m"], abs=0.005) and lora["params_m"] > erpo["params_m"]
    assert f["lora_same_offpolicy_loss"] is True and f["lora_over_full_tokens_per_s"] > 0


@pytest.mark.slow
def test_async_rl_quick(tmp_path: Path) -> None:
    f = run_bench("async_rl", tmp_path, timeout=600)
    sync, asyn = f["modes"]["sync"], f["modes"]["async"]
    assert sync["trajectories"] == asyn["trajectories"] == f["steps"] * f["tasks_per_step"] * f["k"]  # the same work
    assert sync["steps_per_hour"] > 0 and asyn["steps_per_hour"] > 0 and f["speedup"] > 0
    assert 0 <= asyn["trainer_idle_share"] <= 1 and 0 <= asyn["rollout_idle_share"] <= 1
    assert sum(asyn["staleness_histogram"].values()) == f["steps"] * f["tasks_per_step"]
    assert all(0 <= int(s) <= f["max_staleness"] for s in asyn["staleness_histogram"])
    assert sync["episodes"] == asyn["episodes"] > 0 and 0 <= asyn["success"] <= 1


@pytest.fixture
def in_root(monkeypatch):
    """Run in the repository root (learning.py's default --envs are relative) and restore torch's thread count."""
    import torch

    threads = torch.get_num_threads()
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    yield
    torch.set_num_threads(threads)


def _out(capfd) -> str:
    """What the code under test printed since the last call."""
    return capfd.readouterr().out


@pytest.mark.slow
def test_learning_smoke(tmp_path: Path, in_root, capfd) -> None:
    """bench.learning end to end at toy size: shared SFT, one RL step per mode, merged summary and plots."""
    from bench import gold_accuracy, learning, sampled_success

    out = tmp_path / "learn"
    args = [
        "--size",
        "test",
        "--make-tasks",
        "6",
        "--sft-steps",
        "2",
        "--rl-steps",
        "1",
        "--seeds",
        "0",
        "--tasks-per-step",
        "2",
        "--k",
        "2",
        "--max-new-tokens",
        "16",
        "--max-turns",
        "2",
        "--rl-tasks",
        "2",
        "--curriculum",
        "weighted",
        "--mini-batches",
        "1",
        "--rl-warmup",
        "1",
        "--out",
        str(out),
    ]
    learning.main(args)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sft"]["tasks"]["train"] > 0 and summary["sft"]["tasks"]["heldout"] > 0
    assert {r["mode"] for r in summary["runs"]} == {"erpo", "grpo"}
    assert all(len(r["success_curve"]) == 1 for r in summary["runs"])
    assert all(0.0 <= r["before"]["train"] <= 1.0 for r in summary["runs"])  # --rl-tasks: SFT measured on the subset
    assert {"after_sft/train", "after_sft/rl_tasks", "erpo/heldout/mean", "grpo/train/mean"} <= set(summary["mean"])
    assert (out / "learning_curves.png").stat().st_size > 0 and (out / "learning_success.png").stat().st_size > 0
    # a rerun reuses every finished phase: nothing is trained again
    _out(capfd)
    learning.main(args)
    assert "SFT warm start" not in _out(capfd)
    assert json.loads((out / "summary.json").read_text())["runs"] == summary["runs"]
    # an RL run killed after its last checkpoint but before result.json resumes there: no step is trained again,
    # and "before" is the SFT policy's figure kept from the first run, not a measure of the checkpoint
    (out / "erpo_seed0" / "result.json").unlink()
    learning.main([*args, "--modes", "erpo"])
    resumed = _out(capfd)
    assert "resumed from" in resumed and not re.search(r"^\s*step=1 ", resumed, re.M)
    first = next(r for r in summary["runs"] if r["mode"] == "erpo")
    again_erpo = json.loads((out / "erpo_seed0" / "result.json").read_text())
    assert again_erpo["before"] == first["before"] and again_erpo["success_curve"] == first["success_curve"]
    # sampled success of the SFT policy and of each RL run's final policy, with one sampling seed
    sample = ["--out", str(out), "--k", "2", "--max-new-tokens", "16", "--max-turns", "2"]
    sampled_success.main([*sample, "--rl-tasks", "2"])
    result = json.loads((out / "sampled" / "summary.json").read_text())
    assert [r["policy"] for r in result["results"]] == ["sft", "erpo_seed0", "grpo_seed0"]
    assert all(r["episodes"] == 2 * 4 and 0.0 <= r["success"] <= 1.0 for r in result["results"])
    assert {"erpo/mean", "grpo/mean", "sft"} <= set(result["success"])
    # another sampling seed draws other episodes into its own folder and leaves the first results alone
    sampled_success.main([*sample, "--rl-tasks", "2", "--sample-seed", "1"])
    seed1 = json.loads((out / "sampled_seed1" / "summary.json").read_text())
    assert [r["policy"] for r in seed1["results"]] == ["sft", "erpo_seed0", "grpo_seed0"]
    assert json.loads((out / "sampled" / "summary.json").read_text()) == result
    pooled = json.loads((out / "sampled_pooled.json").read_text())
    wins = [
        round(r["success"] * r["episodes"])
        for s in (result, seed1)
        for r in s["results"]
        if r["policy"] == "erpo_seed0"
    ]
    assert pooled["erpo_seed0"]["draws"] == 2 and pooled["erpo_seed0"]["episodes"] == 16
    assert pooled["erpo_seed0"]["successes"] == sum(wins)
    # --split heldout: the same policies on the held-out tasks, in their own folder and pool
    sampled_success.main([*sample, "--split", "heldout"])
    held_sum = json.loads((out / "sampled_heldout" / "summary.json").read_text())
    n_held = summary["sft"]["tasks"]["heldout"]
    assert all(r["split"] == "heldout" and r["episodes"] == 2 * n_held for r in held_sum["results"])
    assert json.loads((out / "sampled_heldout_pooled.json").read_text())["erpo_seed0"]["draws"] == 1
    assert json.loads((out / "sampled_pooled.json").read_text()) == pooled  # the training-task pool is untouched
    # teacher-forced accuracy of the SFT policy on gold episodes, per split
    gold_accuracy.main(["--out", str(out), "--limit", "2"])
    acc = json.loads((out / "gold_accuracy.json").read_text())
    assert acc["train"]["episodes"] == 4 and 1 <= acc["heldout"]["episodes"] <= 4
    for split in ("train", "heldout"):
        assert 0.0 <= acc[split]["accuracy"] <= 1.0 and acc[split]["tokens"] == sum(acc[split]["class_tokens"].values())
    with pytest.raises(SystemExit, match="config.json is missing"):
        gold_accuracy.main(["--out", str(tmp_path / "nothing")])
    # --base-model: the SFT phase starts from a pretrained folder (here the SFT policy just trained), not a random model
    based = tmp_path / "based"
    base_args = [
        "--base-model",
        str(out / "sft" / "sft_model"),
        "--make-tasks",
        "0",
        "--sft-only",
        "--sft-steps",
        "1",
        "--max-new-tokens",
        "16",
        "--max-turns",
        "2",
        "--out",
        str(based),
        "--envs",
        str(out / "envs" / "todo_api"),
        str(out / "envs" / "mcp_memory"),
    ]
    learning.main(base_args)
    sft_based = json.loads((based / "sft" / "summary.json").read_text())
    assert sft_based["params_m"] == summary["sft"]["params_m"] and sft_based["tasks"] == summary["sft"]["tasks"]
    assert (based / "sft" / "sft_model" / "config.json").exists() and not (based / "sft" / "model_init").exists()
    # --rl-lora-rank: RL from that SFT policy trains adapters; the final policy is a plain folder again
    lora_args = [a for a in base_args if a != "--sft-only"] + [
        "--modes",
        "erpo",
        "--seeds",
        "0",
        "--rl-steps",
        "1",
        "--k",
        "2",
        "--tasks-per-step",
        "1",
        "--rl-lora-rank",
        "2",
    ]
    learning.main(lora_args)
    lora_run = json.loads((based / "erpo_seed0" / "result.json").read_text())
    assert lora_run["lora_rank"] == 2 and len(lora_run["success_curve"]) == 1
    assert (based / "erpo_seed0" / "final" / "config.json").exists()
    with pytest.raises(SystemExit, match="config.json is missing"):
        learning.main(["--base-model", str(tmp_path / "nothing"), "--out", str(tmp_path / "bad")])
    assert not (tmp_path / "bad").exists()


def test_bench_scripts_are_modules_of_one_package() -> None:
    """Every benchmark runs as `python -m bench.NAME`: no script edits sys.path to find its neighbours."""
    scripts = sorted((ROOT / "bench").glob("*.py"))
    assert (ROOT / "bench" / "__init__.py") in scripts and len(scripts) > 5
    offenders = [p.name for p in scripts if "sys.path" in p.read_text(encoding="utf-8")]
    assert offenders == []
    for sh in ("run_all.sh", "gpu_check.sh"):
        text = (ROOT / "bench" / sh).read_text(encoding="utf-8")
        assert "-m bench." in text and not re.search(r"bench/\w+\.py", text), sh


def test_sampled_success_pools_draws_against_sft_on_the_same_draws(tmp_path: Path) -> None:
    from bench.sampled_success import pooled

    def put(draw: str, name: str, success: float, episodes: int = 100) -> None:
        (tmp_path / draw).mkdir(exist_ok=True)
        (tmp_path / draw / f"{name}.json").write_text(json.dumps({"success": success, "episodes": episodes}))

    put("sampled", "sft", 0.30)
    put("sampled", "erpo_seed0", 0.40)
    put("sampled", "grpo_seed0", 0.20)
    put("sampled_seed1", "sft", 0.20)
    put("sampled_seed1", "erpo_seed0", 0.50)  # grpo_seed0 not measured on this draw
    (tmp_path / "sampled" / "summary.json").write_text("{}")  # not a policy
    table = pooled(tmp_path)
    assert set(table) == {"erpo_seed0", "grpo_seed0"}
    erpo, grpo = table["erpo_seed0"], table["grpo_seed0"]
    assert (erpo["successes"], erpo["episodes"], erpo["sft_successes"], erpo["sft_episodes"]) == (90, 200, 50, 200)
    assert erpo["difference"] == 0.2 and erpo["standard_error"] == round(
        (0.45 * 0.55 / 200 + 0.25 * 0.75 / 200) ** 0.5, 4
    )
    assert (grpo["draws"], grpo["sft_successes"], grpo["difference"]) == (1, 30, -0.1)  # SFT on grpo's draw only


@pytest.mark.slow
def test_gpu_check_runs_at_toy_size_on_cpu(tmp_path: Path) -> None:
    """The GPU script's code paths (update step, generate, multi-turn rollouts) at toy size; no speed claim."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.gpu_check",
            "--size",
            "tiny",
            "--device",
            "cpu",
            "--batch",
            "2",
            "--seq",
            "64",
            "--steps",
            "1",
            "--gen-batch",
            "2",
            "--prompt",
            "32",
            "--new-tokens",
            "8",
            "--policy-batch",
            "2",
            "--turns",
            "3",
            "--added",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=_env(OUT=str(tmp_path)),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((tmp_path / "gpu_check.json").read_text())
    assert [u["grad_checkpointing"] for u in summary["update"]] == [False, True]
    assert all(u["tokens_per_s"] > 0 for u in summary["update"]) and summary["generate"][0]["tokens_per_s"] > 0
    plain, cached = summary["rollouts"]
    assert (plain["prefix_cache"], cached["prefix_cache"]) == (False, True)
    assert plain["reused_share"] == 0 and cached["reused_share"] > 0.5  # turns 2 and 3 reuse most of their prompt
