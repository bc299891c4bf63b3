"""Fidelity (synth/fidelity): every metric on hand-made environments with known answers, the normalisation
rules, changed leaves, the CLI, traces, the synthesis step, and each dev reference measured against itself."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from synth.errors import InputError
from synth.fidelity import fidelity_step, measure_fidelity, record_traces
from synth.fidelity.diff import DELETED, change_list, compose, leaf_changes, pointer
from synth.fidelity.normalize import canonical, normalize, same
from synth.fidelity.reference import load_data, load_reference, load_trajectories
from synth.fidelity.replay import compare, measure_reference_against_itself
from synth.fidelity.report import FidelityReport
from synth.fidelity.sides import ReferenceSide
from synth.runtime.state import copy_state

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "fidelity"
REF = DATA / "ref_store"
ENV = DATA / "env_store"
SHARED_REFS = ROOT.parent / "shared" / "references"
METRICS = ("ok_agreement", "output_agreement", "change_agreement", "call_fidelity", "final_state_exact")


def variant(tmp_path: Path, name: str, old: str = "", new: str = "", drop_tool: str = "") -> Path:
    """A copy of the faithful environment with one text replaced in env.py, or one tool left out."""
    out = tmp_path / name
    shutil.copytree(ENV, out)
    if old:
        source = (out / "env.py").read_text()
        assert old in source, old
        (out / "env.py").write_text(source.replace(old, new))
    if drop_tool:
        manifest = json.loads((out / "manifest.json").read_text())
        manifest["tools"] = [t for t in manifest["tools"] if t["name"] != drop_tool]
        (out / "manifest.json").write_text(json.dumps(manifest))
    return out


def figures(env_dir: Path, **kw) -> dict:
    return measure_fidelity(env_dir, REF, **kw).to_dict()


# ----- metrics on hand-made environments ---------------------------------------------------------------------


def test_faithful_environment_scores_one_everywhere() -> None:
    out = figures(ENV, resync=True)
    assert out["trajectories"] == 3 and out["calls"] == 11
    assert all(out[m] == 1.0 for m in METRICS)
    assert out["resynced_call_fidelity"] == 1.0
    assert out["per_tool"]["get_item"] == {"calls": 4, "ok": 1.0, "output": 1.0, "change": 1.0, "all": 1.0}
    assert set(out["per_tool"]) == {"get_item", "add_item", "set_qty", "sell", "remove_item"}


def test_dropped_write_lowers_change_agreement_only(tmp_path: Path) -> None:
    env = variant(tmp_path, "dropped", '    state["sold"] = state["sold"] + n\n', "")
    report = measure_fidelity(env, REF)
    out = report.to_dict()
    assert out["ok_agreement"] == 1.0 and out["output_agreement"] == 1.0
    assert out["change_agreement"] == round(9 / 11, 6) == out["call_fidelity"]
    assert out["final_state_exact"] == round(1 / 3, 6)  # only t3, whose sale fails on both sides
    assert out["per_tool"]["sell"]["change"] == round(1 / 3, 6)
    ex = report.examples["sell"]
    assert ex["trajectory"] == "t1" and ex["call"] == 2 and ex["disagrees"] == ["change"]
    assert {"path": "/sold", "value": 2} in ex["reference_changes"]
    assert all(row["path"] != "/sold" for row in ex["environment_changes"])
    assert report.worst_first()[0] == "sell"


def test_failing_tool_lowers_ok_agreement(tmp_path: Path) -> None:
    env = variant(tmp_path, "no_get", drop_tool="get_item")
    report = measure_fidelity(env, REF)
    out = report.to_dict()
    assert out["ok_agreement"] == round(8 / 11, 6) == out["output_agreement"] == out["call_fidelity"]
    assert out["change_agreement"] == 1.0 and out["final_state_exact"] == 1.0
    assert out["per_tool"]["get_item"] == {"calls": 4, "ok": 0.25, "output": 0.25, "change": 1.0, "all": 0.25}
    ex = report.examples["get_item"]
    assert (ex["trajectory"], ex["call"], ex["reference"]["ok"], ex["environment"]["ok"]) == ("t1", 0, True, False)
    assert "unknown tool" in ex["environment"]["output"]


def test_output_in_other_key_order_agrees(tmp_path: Path) -> None:
    env = variant(
        tmp_path,
        "key_order",
        "    return dict(find_item(state, item_id))\n",
        "    item = find_item(state, item_id)\n"
        '    return {"price": item["price"], "qty": item["qty"], "name": item["name"], "id": item["id"]}\n',
    )
    out = figures(env)
    assert out["output_agreement"] == 1.0 and out["call_fidelity"] == 1.0


def test_wrong_value_disagrees_on_output(tmp_path: Path) -> None:
    env = variant(tmp_path, "names", '"name": name,', '"name": name.upper(),')
    out = figures(env)
    assert out["per_tool"]["add_item"]["output"] == 0.0 and out["per_tool"]["add_item"]["change"] == 0.0
    assert out["per_tool"]["add_item"]["ok"] == 1.0


def test_lock_step_carries_errors_on_and_resync_isolates_them(tmp_path: Path) -> None:
    env = variant(tmp_path, "wrong_qty", 'item["qty"] = qty\n', 'item["qty"] = qty + 1\n')
    out = figures(env, resync=True)
    # lock step: set_qty writes 6, then the sale reports 4 left (not 3), then get_item shows 4
    assert out["call_fidelity"] == round(8 / 11, 6)
    assert out["per_tool"]["sell"]["output"] == round(2 / 3, 6)
    # resynced from the reference's state before each call, only set_qty itself is wrong
    assert out["resynced_call_fidelity"] == round(10 / 11, 6)


def test_bookkeeping_beside_the_reference_layout_is_not_compared(tmp_path: Path) -> None:
    env = variant(
        tmp_path,
        "counter",
        '    item["qty"] = qty\n',
        '    item["qty"] = qty\n    state["writes"] = state.get("writes", 0) + 1\n',
    )
    out = figures(env)
    assert out["change_agreement"] == 1.0 and out["final_state_exact"] == 1.0
    env = variant(tmp_path, "stray", '    item["qty"] = qty\n', '    item["qty"] = qty\n    state["sold"] = -1\n')
    assert figures(env)["per_tool"]["set_qty"]["change"] == 0.0


def test_limit_replays_the_first_trajectories() -> None:
    out = figures(ENV, limit=1)
    assert out["trajectories"] == 1 and out["calls"] == 4


def test_skip_splits_the_trajectories_into_halves(tmp_path: Path) -> None:
    first, second = figures(ENV, limit=2), figures(ENV, skip=2)
    assert (first["trajectories"], second["trajectories"]) == (2, 1)
    assert first["calls"] + second["calls"] == 11
    assert [t.id for t in load_trajectories(REF, limit=1, skip=1)] == ["t2"]
    with pytest.raises(InputError, match="no trajectories"):
        load_trajectories(REF, skip=3)
    out = tmp_path / "second.jsonl"
    assert record_traces(REF, out, skip=1)["trajectories"] == 2
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["t2", "t3"]


def test_layout_mismatch_is_a_measurement_not_an_error(tmp_path: Path) -> None:
    env = variant(tmp_path, "layout", 'state["items"]', 'state["products"]')
    out = figures(env)
    assert out["ok_agreement"] < 0.5 and out["final_state_exact"] < 1.0


# ----- normalisation and changed leaves ----------------------------------------------------------------------


def test_normalize_parses_json_out_of_strings() -> None:
    assert normalize('{"b": [1, "2"], "a": " x "}') == {"b": [1, 2], "a": "x"}
    assert same('{"a": 1}', {"a": 1}) and same("4.5", 4.5)
    assert normalize("not json {") == "not json {" and normalize("007") == "007"
    assert normalize("NaN") == "NaN" and normalize("Infinity") == "Infinity"


def test_normalize_ignores_key_order() -> None:
    assert canonical({"a": 1, "b": {"c": 2, "d": 3}}) == canonical({"b": {"d": 3, "c": 2}, "a": 1})
    assert not same({"a": 1}, {"a": 1, "b": 2})


def test_normalize_rounds_floats_to_six_decimals() -> None:
    assert same(0.1 + 0.2, 0.3) and same(1.0000004, 1.0) and same(2.0, 2)
    assert not same(1.00001, 1.0) and not same(0.3, 0.31)
    assert normalize(float("nan")) == "nan"


def test_normalize_strips_strings_and_keeps_booleans_apart() -> None:
    assert same("  done\n", "done") and same({"s": " x"}, {"s": "x"})
    assert not same(True, 1) and not same(False, 0) and not same(None, 0)
    assert canonical([True, 1]) == "[true,1]"


def test_same_on_large_equal_states_with_a_float_deep_inside() -> None:
    left = {"items": {str(i): {"qty": i, "price": 0.1 * 3} for i in range(200)}}
    right = copy_state(left)
    right["items"]["7"]["price"] = 0.3
    assert same(left, right)
    right["items"]["8"]["qty"] = -1
    assert not same(left, right)


def test_leaf_changes_of_writes_adds_and_deletes() -> None:
    before = {"a": {"x": 1, "y": [1, 2]}, "b": {}, "c": "keep"}
    after = {"a": {"x": 2, "y": [1]}, "b": {"k": {"v": True}}, "d": []}
    changes = leaf_changes(before, after)
    assert {pointer(p): v for p, v in changes.items()} == {
        "/a/x": 2,
        "/a/y/1": DELETED,
        "/b": DELETED,
        "/b/k/v": True,
        "/c": DELETED,
        "/d": [],
    }
    assert change_list({("a", "x"): 2, ("c",): DELETED}) == [
        {"path": "/a/x", "value": 2},
        {"path": "/c", "deleted": True},
    ]
    assert leaf_changes(before, copy_state(before)) == {}
    assert pointer(("a/b", "t~")) == "/a~1b/t~0"


def _mutate(state: dict, rng: random.Random) -> dict:
    """A copy-on-write style step: replace containers on the way down, change one thing."""
    new = dict(state)
    key = rng.choice(["p", "q", "r"])
    sub = dict(new.get(key) or {}) if isinstance(new.get(key), dict) else {}
    op = rng.randrange(4)
    leaf = rng.choice(["u", "v", "w"])
    if op == 0:
        sub[leaf] = rng.randrange(3)
    elif op == 1:
        sub.pop(leaf, None)
    elif op == 2:
        sub[leaf] = {"z": [rng.randrange(2)] * rng.randrange(3)}
    else:
        new[key] = rng.choice([{}, [], 0])
        return new
    new[key] = sub
    return new


def test_compose_against_initial_equals_the_direct_change() -> None:
    rng = random.Random(7)
    for _ in range(200):
        initial = {"p": {"u": 1}, "q": {}, "r": [1, {"v": 2}]}
        state, previous = initial, {}
        for _ in range(6):
            after = _mutate(state, rng)
            current = leaf_changes(initial, after)
            assert compose(initial, previous, current) == leaf_changes(copy_state(state), copy_state(after))
            state, previous = after, current


# ----- reference loading and errors --------------------------------------------------------------------------


def test_trajectories_and_data_load() -> None:
    trajectories = load_trajectories(REF)
    assert [t.id for t in trajectories] == ["t1", "t2", "t3"]
    assert trajectories[2].initial_state == {"items": {}, "sold": 0}
    assert trajectories[0].context == {"instruction": "Look at a, restock it to 5, sell 2."}
    assert load_data(REF, trajectories)["sold"] == 0
    assert load_data(REF, trajectories[2:]) is None


def test_bad_reference_folders_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="reference folder not found"):
        load_reference(tmp_path / "nowhere")
    bad = tmp_path / "bad"
    shutil.copytree(REF, bad)
    (bad / "adapter.py").write_text("def build():\n    return None\n")
    with pytest.raises(InputError, match=r"adapter\.py: make: missing"):
        load_reference(bad)
    (bad / "adapter.py").write_text("import not_a_module_anywhere\n")
    with pytest.raises(InputError, match="import failed"):
        load_reference(bad)
    (bad / "adapter.py").write_text(
        "class R:\n    def reset(self, s):\n        raise KeyError('root')\n"
        "    def call(self, n, a):\n        return {}\n    def state(self):\n        return {}\n"
        "def make():\n    return R()\n"
    )
    with pytest.raises(InputError, match=r"adapter\.py: reset\(\): failed: KeyError"):
        measure_fidelity(ENV, bad)
    (bad / "trajectories.jsonl").write_text(
        '{"calls": [{"name": "x", "arguments": {}}]}\n{"calls": [{"arguments": {}}]}\n'
    )
    with pytest.raises(InputError, match=r"trajectories\.jsonl: line 2/calls/0/name"):
        load_trajectories(bad)
    (bad / "data.json").unlink()
    (bad / "trajectories.jsonl").write_text('{"id": "q", "calls": []}\n')
    with pytest.raises(InputError, match=r"data\.json.*'q' has no initial_state"):
        load_data(bad, load_trajectories(bad))


def test_reference_measured_against_itself_on_the_fixture() -> None:
    out = measure_reference_against_itself(REF, resync=True).to_dict()
    assert all(out[m] == 1.0 for m in METRICS) and out["resynced_call_fidelity"] == 1.0


def _dev_references() -> list[str]:
    if not SHARED_REFS.is_dir():
        return []
    return sorted(p.name for p in SHARED_REFS.iterdir() if (p / "adapter.py").is_file())


@pytest.mark.parametrize("name", _dev_references() or ["(none)"])
def test_dev_reference_against_itself_scores_one(name: str) -> None:
    if name == "(none)":
        pytest.skip(f"no dev references under {SHARED_REFS} (../shared is outside the repository)")
    ref_dir = SHARED_REFS / name
    first = load_reference(ref_dir)
    trajectories = load_trajectories(ref_dir)
    sample = trajectories[:: max(1, len(trajectories) // 10)]  # spread over the file, a few seconds each
    report = compare(
        ReferenceSide(first),
        ReferenceSide(load_reference(ref_dir)),
        sample,
        load_data(ref_dir, sample),
        FidelityReport(name, name),
    )
    out = report.to_dict()
    assert out["calls"] > 0 and all(out[m] == 1.0 for m in METRICS), report.examples
    assert all(row["all"] == 1.0 for row in out["per_tool"].values())


# ----- traces, the synthesis step, the CLI -------------------------------------------------------------------


def test_record_writes_reference_traces(tmp_path: Path) -> None:
    out = tmp_path / "traces" / "store.jsonl"
    counts = record_traces(REF, out)
    assert counts == {"trajectories": 3, "calls": 11, "failed_calls": 2}
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["id"] for x in lines] == ["t1", "t2", "t3"] and "initial_state" not in lines[0]
    assert lines[2]["initial_state"] == {"items": {}, "sold": 0}
    sale = lines[0]["calls"][2]
    assert sale["ok"] is True and sale["output"]["total"] == 1.0
    assert sale["changes"] == [{"path": "/items/a/qty", "value": 3}, {"path": "/sold", "value": 2}]
    assert lines[1]["calls"][2]["changes"][0] == {"path": "/items/a/id", "deleted": True}
    assert lines[1]["calls"][3] == {
        "name": "get_item",
        "arguments": {"item_id": "a"},
        "ok": False,
        "output": "Error: item a not found",
        "changes": [],
    }
    first = out.read_bytes()
    record_traces(REF, out)
    assert out.read_bytes() == first


def test_fidelity_step_writes_json_and_report_section_deterministically(tmp_path: Path) -> None:
    env = variant(tmp_path, "published", '    state["sold"] = state["sold"] + n\n', "")
    (env / "REPORT.md").write_text("# store: synthesis report\n\nTools passing their tests: 5/5\n")
    summary = fidelity_step(env, REF)
    assert summary["change_agreement"] == round(9 / 11, 6)
    saved = json.loads((env / "fidelity.json").read_text())
    assert saved["call_fidelity"] == summary["call_fidelity"] and "sell" in saved["examples"]
    report = (env / "REPORT.md").read_text()
    assert report.startswith("# store: synthesis report") and report.count("<!-- fidelity -->") == 1
    assert "| sell | 3 | 100.0% | 100.0% | 33.3% | 33.3% |" in report
    before = {name: (env / name).read_bytes() for name in ("fidelity.json", "REPORT.md")}
    fidelity_step(env, REF)
    assert {name: (env / name).read_bytes() for name in before} == before


def forgegym(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "COLUMNS": "200", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "synth.cli.main", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_cli_json_table_and_record(tmp_path: Path) -> None:
    run = forgegym("fidelity", str(ENV), "--reference", str(REF), "--json", "--resync")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert set(out) == {
        "trajectories",
        "calls",
        "ok_agreement",
        "output_agreement",
        "change_agreement",
        "call_fidelity",
        "final_state_exact",
        "resynced_call_fidelity",
        "per_tool",
    }
    env = variant(tmp_path, "no_get", drop_tool="get_item")
    run = forgegym("fidelity", str(env), "--reference", str(REF))
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if "│" in line and "%" in line]
    assert rows and rows[0].split("│")[1].strip() == "get_item"  # worst first
    assert "unknown tool" in run.stdout and "call fidelity 72.7%" in run.stdout
    traces = tmp_path / "traces.jsonl"
    run = forgegym("fidelity", "--reference", str(REF), "--record", str(traces))
    assert run.returncode == 0, run.stderr
    assert len(traces.read_text().splitlines()) == 3


def test_cli_bad_paths_exit_2_naming_them(tmp_path: Path) -> None:
    missing = tmp_path / "no_env"
    run = forgegym("fidelity", str(missing), "--reference", str(REF))
    assert run.returncode == 2 and str(missing) in run.stderr
    run = forgegym("fidelity", str(ENV), "--reference", str(tmp_path / "no_ref"))
    assert run.returncode == 2 and str(tmp_path / "no_ref") in run.stderr
    (tmp_path / "not_env").mkdir()
    run = forgegym("fidelity", str(tmp_path / "not_env"), "--reference", str(REF))
    assert run.returncode == 2 and "manifest.json" in run.stderr
    bad = tmp_path / "bad_ref"
    shutil.copytree(REF, bad)
    (bad / "adapter.py").write_text("raise RuntimeError('broken')\n")
    run = forgegym("fidelity", str(ENV), "--reference", str(bad))
    assert run.returncode == 2 and str(bad / "adapter.py") in run.stderr and "broken" in run.stderr
    run = forgegym("fidelity", "--reference", str(REF))
    assert run.returncode == 2 and "ENV_DIR" in run.stderr


def test_plain_synthesis_with_a_reference_measures_the_published_environment(tmp_path: Path) -> None:
    from fakes.fault_server import FaultServer

    from synth.cli.synth_cmd import run_plain
    from synth.envsynth.pipeline import SynthConfig
    from synth.llm import LLMConfig

    notes = ROOT / "tests" / "data" / "tooldocs_small" / "notes_api.json"
    out = tmp_path / "notes"
    with FaultServer("{}") as srv:
        result = run_plain(
            [notes],
            out,
            LLMConfig(base_url=srv.base_url, model="fake-model", cache_path=None),
            SynthConfig(env_id="notes"),
            0,
            REF,
        )
    # the notes environment has none of the store's tools: only the two calls the store fails too agree
    assert result["fidelity"]["calls"] == 11 and result["fidelity"]["ok_agreement"] == round(2 / 11, 6)
    assert json.loads((out / "fidelity.json").read_text())["call_fidelity"] == round(2 / 11, 6)
    assert "<!-- fidelity -->" in (out / "REPORT.md").read_text()


def test_parallel_replay_gives_the_serial_report(tmp_path: Path) -> None:
    """Slices merged in order give the same figures and the same example calls as one serial replay."""
    from synth.fidelity.parallel import merge, slices

    assert slices(3, 10, 4) == [(3, 3), (6, 3), (9, 2), (11, 2)]
    assert slices(0, 2, 8) == [(0, 1), (1, 1)]
    env = variant(tmp_path, "no_sell", drop_tool="sell")  # disagreements, so examples are compared too
    serial = measure_fidelity(env, REF).to_dict(examples=True)
    assert serial["call_fidelity"] < 1.0 and serial["examples"]
    assert measure_fidelity(env, REF, workers=2).to_dict(examples=True) == serial
    parts = [measure_fidelity(env, REF, skip=s, limit=n) for s, n in slices(0, 3, 3)]
    assert merge(parts).to_dict(examples=True) == serial
