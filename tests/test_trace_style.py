"""The message style learned from recorded tools and applied to tools nobody recorded (trace_style.py)."""

from __future__ import annotations

import json
from pathlib import Path

from synth.envsynth.pipeline import SynthConfig, synthesize_environment, traces_digest
from synth.envsynth.trace_style import MessageStyle, lead_verb, learn_style, past_participle, styled_output
from synth.runtime import Environment
from synth.spec import ToolSpec

PRE = "Part of the shelf service, which keeps boxes and labels. Tool description: "
MESSAGE = {"type": "object", "properties": {"result": {"type": "string", "description": "What happened."}}}


def _spec(name: str, text: str, params: list[str], returns: dict | None = MESSAGE) -> ToolSpec:
    props = {p: {"type": "string", "description": f"The {p}."} for p in params}
    return ToolSpec(name, PRE + text, {"type": "object", "properties": props, "required": params}, returns)


SPECS = [
    _spec("shift", "Move a label from one box to another.", ["source", "destination"]),
    _spec("dup", "Copy a label into another box.", ["source", "destination"]),
    _spec("drop", "Remove a label.", ["label_name"]),
    _spec(
        "peek", "Show a label's text.", ["label_name"], {"type": "object", "properties": {"text": {"type": "string"}}}
    ),
]


def test_past_participles() -> None:
    pairs = {"remove": "removed", "copy": "copied", "move": "moved", "list": "listed", "stop": "stopped"}
    pairs.update({"delete": "deleted", "open": "opened", "play": "played", "write": "written", "fix": "fixed"})
    assert {v: past_participle(v) for v in pairs} == pairs


def test_the_shared_preamble_is_not_the_verb() -> None:
    assert [lead_verb(s, PRE) for s in SPECS] == ["move", "copy", "remove", "show"]


MOVES = [({"source": "a", "destination": "b"}, {"result": "'a' moved to 'b'"})]
COPIES = [({"source": "c", "destination": "d"}, {"result": "'c' copied to 'd/c'"})]


def test_two_tools_sharing_the_style_teach_it_to_a_third() -> None:
    style = learn_style(SPECS, dict(shift=MOVES, dup=COPIES))
    assert style == MessageStyle(key="result", quote="'")
    assert styled_output(SPECS[2], SPECS, style) == {"key": "result", "quote": "'", "participle": "removed"}
    assert styled_output(SPECS[3], SPECS, style) is None  # its docs promise `text`, not a message


def test_no_style_from_one_tool_or_from_tools_that_disagree() -> None:
    assert learn_style(SPECS, dict(shift=MOVES)) is None
    other = [({"source": "c", "destination": "d"}, {"result": "done"})]
    assert learn_style(SPECS, dict(shift=MOVES, dup=other)) is None
    unquoted = [({"source": "c", "destination": "d"}, {"result": "c copied to d"})]
    assert learn_style(SPECS, dict(shift=MOVES, dup=unquoted)) is None  # two quotes are no one style
    wrong_verb = [({"source": "c", "destination": "d"}, {"result": "'c' moved to 'd'"})]  # dup says "Copy"
    assert learn_style(SPECS, dict(shift=MOVES, dup=wrong_verb)) is None


def _tree(labels: dict[str, str]) -> dict:
    kids = {n: {"kind": "label", "text": t} for n, t in labels.items()}
    kids["spare"] = {"kind": "box", "items": {}}
    return {"shelf": {"main": {"kind": "box", "items": kids}}}


def test_an_unrecorded_remove_answers_in_the_recorded_style(tmp_path: Path) -> None:
    docs = tmp_path / "shelf.json"
    docs.write_text(
        json.dumps(
            [
                {
                    "type": "function",
                    "function": {"name": s.name, "description": s.description, "parameters": s.parameters},
                    "returns": s.returns,
                }
                for s in SPECS
            ]
        )
    )
    data = tmp_path / "data.jsonl"
    states = [_tree({"a.txt": "one", "b.txt": "two"}), _tree({"c.txt": "three", "d.txt": "four", "e.txt": "x"})]
    data.write_text("".join(json.dumps(s) + "\n" for s in states))
    calls = []
    for i, (tool, src, dst, shown, verb) in enumerate(
        [
            ("shift", "a.txt", "spare", "spare/a.txt", "moved"),
            ("shift", "b.txt", "z.txt", "z.txt", "moved"),
            ("dup", "a.txt", "spare", "spare/a.txt", "copied"),
            ("dup", "b.txt", "y.txt", "y.txt", "copied"),
        ]
    ):
        calls.append(
            {
                "format": "forgegym-traces/1",
                "id": f"t{i}",
                "initial_state": states[0],
                "calls": [
                    {
                        "name": tool,
                        "arguments": {"destination": dst, "source": src},
                        "ok": True,
                        "output": {"result": f"'{src}' {verb} to '{shown}'"},
                        "changes": [],
                    }
                ],
            }
        )
    traces = tmp_path / "traces.jsonl"
    traces.write_text("".join(json.dumps(c, sort_keys=True) + "\n" for c in calls))
    config = SynthConfig(
        env_id="shelf", route="structured", data=str(data), traces=str(traces), traces_sha256=traces_digest(traces)
    )
    synthesize_environment([docs], tmp_path / "env", None, config)
    manifest = json.loads((tmp_path / "env" / "manifest.json").read_text())
    assert "drop" in [t["name"] for t in manifest["tools"]], manifest.get("excluded_tools")
    env = Environment(tmp_path / "env")
    env.reset(initial_state=states[0])
    result = env.step({"name": "drop", "arguments": {"label_name": "a.txt"}})
    assert json.loads(result.observation) == {"result": "'a.txt' removed"}, result
