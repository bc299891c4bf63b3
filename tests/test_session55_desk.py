"""The session-55 readers through the whole pipeline, on a harbour desk (harbour words only): a purse top-up logs the
entry the data logs for top-ups, with the next reference of their series and the bonus the policy's threshold
earns; a tab is paid by card or from the skipper's purse, which must cover the amount, and is `paid` once what is
paid meets its total, as the data's tabs show. With recorded calls, a list of tabs is answered inside the object the
real desk wraps it in (the skipper answered back, the tabs, and what they still owe added up)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synth.envsynth.pipeline import SynthConfig, synthesize_environment, traces_digest
from synth.runtime.environment import Environment
from tests.desks import harbour_desk

S, N = {"type": "string"}, {"type": "number"}


def _tool(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": props, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


TOOLS = [
    _tool(
        "top_up",
        "Add credit to a skipper's purse by card. Returns the top-up reference, any bonus and the new purse.",
        {"skipper_id": S, "amount": N},
        ["skipper_id", "amount"],
    ),
    _tool(
        "pay_tab",
        "Take a payment against an open or overdue tab, by card or from the skipper's purse. Returns the tab.",
        {"tab_id": S, "amount": N, "method": {"type": "string", "enum": ["card", "skipper_purse"]}},
        ["tab_id", "amount", "method"],
    ),
    _tool("list_tabs", "List a skipper's tabs.", {"skipper_id": S}, ["skipper_id"]),
]
POLICY = """# Harbour desk policy

The desk works on its business date (today: 2031-03-01).

## 1. Skippers
- Look a skipper up before any change.

## 2. Purse top-ups
- A top-up of 40 or more earns 2.00 bonus credit.
"""


def _data() -> dict[str, Any]:
    tops = {
        "S1": [("PT-0101", 20.0, 0.0)],
        "S2": [("PT-0102", 50.0, 2.0), ("PT-0104", 10.0, 0.0)],
        "S3": [("PT-0103", 5.0, 0.0)],
    }
    skippers = {}
    for i, name in enumerate(["Ines", "Tomas", "Ada", "Bram"], start=1):
        key = f"S{i}"
        history = [{"date": "2031-01-0" + str(i), "event": "joined"}]
        history += [
            {"date": "2031-02-1" + str(n), "event": "top_up", "ref": ref, "amount": amount, "bonus": bonus}
            for n, (ref, amount, bonus) in enumerate(tops.get(key, []))
        ]
        skippers[key] = {"skipper_id": key, "name": name, "purse": float(10 * i), "history": history}
    tabs = {}
    for i, (skipper, status, total, paid) in enumerate(
        [
            ("S1", "paid", 40.0, 40.0),
            ("S1", "open", 30.0, 0.0),
            ("S2", "paid", 12.5, 12.5),
            ("S2", "overdue", 25.0, 5.0),
            ("S3", "paid", 8.0, 8.0),
            ("S3", "disputed", 9.0, 0.0),
            ("S4", "open", 16.0, 0.0),
        ],
        start=1,
    ):
        payments = (
            [{"payment_id": f"TP-000{i}", "amount": paid, "method": "card", "date": "2031-02-20"}] if paid else []
        )
        key = f"T{i}"
        tabs[key] = {"tab_id": key, "skipper_id": skipper, "status": status, "total": total, "amount_paid": paid}
        tabs[key]["payments"] = payments
    return {"skippers": skippers, "tabs": tabs}


def _write_docs(tmp_path: Path) -> tuple[Path, Path, Path]:
    docs, policy, data = tmp_path / "harbour_tools.json", tmp_path / "harbour_policy.md", tmp_path / "harbour.json"
    docs.write_text(json.dumps(TOOLS))
    policy.write_text(POLICY)
    data.write_text(json.dumps(_data()))
    return docs, policy, data


def _desk(tmp_path: Path) -> Environment:
    return harbour_desk(tmp_path, TOOLS, _data(), POLICY)


def test_a_top_up_logs_the_next_reference_and_the_bonus_its_amount_earns(tmp_path: Path) -> None:
    env = _desk(tmp_path)
    small = env.step({"name": "top_up", "arguments": {"skipper_id": "S1", "amount": 10}})
    assert small.info["ok"], small.observation
    skipper = env.state["skippers"]["S1"]
    assert skipper["purse"] == 20.0
    assert skipper["history"][-1] == {
        "date": "2031-03-01",
        "event": "top_up",
        "ref": "PT-0105",
        "amount": 10,
        "bonus": 0.0,
    }
    large = env.step({"name": "top_up", "arguments": {"skipper_id": "S4", "amount": 40}})
    assert large.info["ok"], large.observation
    entry = env.state["skippers"]["S4"]["history"][-1]
    assert (entry["ref"], entry["bonus"]) == ("PT-0106", 2.0)


def test_a_tab_paid_from_the_purse_must_be_covered_and_is_paid_once_its_total_is_met(tmp_path: Path) -> None:
    env = _desk(tmp_path)
    short = env.step({"name": "pay_tab", "arguments": {"tab_id": "T2", "amount": 30.0, "method": "skipper_purse"}})
    assert not short.info["ok"]  # Ines's purse holds 10.00
    part = env.step({"name": "pay_tab", "arguments": {"tab_id": "T2", "amount": 10.0, "method": "skipper_purse"}})
    assert part.info["ok"], part.observation
    assert env.state["skippers"]["S1"]["purse"] == 0.0
    assert env.state["tabs"]["T2"]["amount_paid"] == 10.0 and env.state["tabs"]["T2"]["status"] == "open"
    rest = env.step({"name": "pay_tab", "arguments": {"tab_id": "T2", "amount": 20.0, "method": "card"}})
    assert rest.info["ok"], rest.observation
    assert env.state["tabs"]["T2"]["status"] == "paid" and env.state["skippers"]["S1"]["purse"] == 0.0
    assert [p["payment_id"] for p in env.state["tabs"]["T2"]["payments"]] == ["TP-0006", "TP-0007"]


def _answer(state: dict[str, Any], skipper: str) -> dict[str, Any]:
    tabs = [dict(t, owed=t["total"] - t["amount_paid"]) for t in state["tabs"].values() if t["skipper_id"] == skipper]
    return {"skipper_id": skipper, "tabs": tabs, "total_owed": sum(t["owed"] for t in tabs)}


def test_a_list_answered_inside_the_object_the_recorded_calls_show(tmp_path: Path) -> None:
    docs, policy, data = _write_docs(tmp_path)
    state = _data()
    trajectories = [
        {
            "format": "forgegym-traces/1",
            "id": f"t{i}",
            "calls": [
                {
                    "name": "list_tabs",
                    "arguments": {"skipper_id": s},
                    "ok": True,
                    "output": _answer(state, s),
                    "changes": [],
                }
            ],
        }
        for i, s in enumerate(["S1", "S2", "S3"])
    ]
    traces = tmp_path / "traces.jsonl"
    traces.write_text("".join(json.dumps(t, sort_keys=True) + "\n" for t in trajectories))
    config = SynthConfig(
        env_id="harbour", route="structured", data=str(data), traces=str(traces), traces_sha256=traces_digest(traces)
    )
    out = tmp_path / "traced"
    synthesize_environment([docs, policy], out, None, config)
    env = Environment(out)
    env.reset(initial_state=_data())
    found = env.step({"name": "list_tabs", "arguments": {"skipper_id": "S4"}})
    assert found.info["ok"], found.observation
    assert found.info["result"] == _answer(_data(), "S4")  # a skipper no recorded call named
