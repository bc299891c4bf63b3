"""The environment-synthesis pipeline with a scripted (fake) LLM: both code routes, repair, exclusion, publishing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes.scripted_llm import ScriptedLLM

from synth.envsynth.check import check_environment
from synth.envsynth.pipeline import SynthConfig, build_state_schema, build_tool, ingest, synthesize_environment
from synth.errors import ForgeError

NOTES = Path(__file__).parent / "data" / "envsynth" / "notes.json"

GOOD_DELETE = """
def delete_note(state, **arguments):
    notes = state.get("notes") or {}
    key = str(arguments.get("note_id"))
    if key not in notes:
        raise ToolError("note %s not found" % key)
    del notes[key]
    return {"deleted": key}
"""
WRONG_DELETE = """
def delete_note(state, **arguments):
    return {"deleted": str(arguments.get("note_id"))}
"""
HOSTILE_DELETE = """
import os
def delete_note(state, **arguments):
    os.system("echo pwned")
    return {}
"""


def answers_yes_no(tag: str, prompt: str) -> str:
    """A sensible weak model: write tools modify data, unknown ids fail, the weather is not notes."""
    if tag == "plan.uses":
        return "no"
    if tag in ("plan.mutates", "tests.mutates"):
        return "yes" if any(w in prompt for w in ("create_note", "delete_note")) else "no"
    if tag == "tests.arbiter":
        return "code"
    return "yes"


def test_structured_route_publishes_and_excludes_with_reason(tmp_path):
    llm = ScriptedLLM(responder=answers_yes_no)
    out = tmp_path / "notes"
    draft = synthesize_environment([NOTES], out, llm, SynthConfig(env_id="notes"))
    manifest = json.loads((out / "manifest.json").read_text())
    assert [t["name"] for t in manifest["tools"]] == ["create_note", "get_note", "list_notes", "delete_note"]
    assert manifest["excluded_tools"][0]["name"] == "get_weather"
    assert "no part of the state serves this tool" in manifest["excluded_tools"][0]["error"]
    assert "get_weather" in (out / "REPORT.md").read_text()
    create = next(t for t in manifest["tools"] if t["name"] == "create_note")
    assert create["writes"] == ["notes"] and create["kind"] == "create"
    assert check_environment(out).ok
    assert draft.manifest["counts"]["tools_passed"] == 4
    # the LLM was asked small questions, never for code
    assert "code.free_form" not in llm.tags() and "plan.mutates" in llm.tags()


def test_rerun_is_byte_identical(tmp_path):
    for name in ("a", "b"):
        synthesize_environment(
            [NOTES], tmp_path / name, ScriptedLLM(responder=answers_yes_no), SynthConfig(env_id="notes")
        )
    for f in ("manifest.json", "state_schema.json", "env.py", "tests.json", "REPORT.md"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f


def _setup(strong: bool, route: str = "auto"):
    ds = ingest([NOTES])
    cfg = SynthConfig(env_id="notes", strong_model=strong, route=route, max_repairs=1)
    spec = next(t for t in ds.tools if t.name == "delete_note")
    return ds, cfg, spec


def test_free_form_route_repairs_with_the_exact_error():
    codes = [WRONG_DELETE, GOOD_DELETE]

    def responder(tag, prompt):
        if tag == "code.free_form":
            return "```python\n" + codes.pop(0) + "```"
        return answers_yes_no(tag, prompt)

    llm = ScriptedLLM(responder=responder)
    ds, cfg, spec = _setup(strong=True)
    schema = build_state_schema(ds, None, cfg)
    build = build_tool(spec, ds, schema, llm, cfg)
    assert build.status == "passed" and build.route == "code"
    code_prompts = [p for t, p in llm.calls if t == "code.free_form"]
    assert len(code_prompts) == 2
    assert "Your previous code failed" in code_prompts[1] and "still exists" in code_prompts[1]
    assert build.attempts[0]["error"] and not build.attempts[1]["error"]


def test_free_form_falls_back_to_structured_and_hostile_code_is_refused():
    llm = ScriptedLLM(
        responder=lambda tag, prompt: (
            "```python\n" + HOSTILE_DELETE + "```" if tag == "code.free_form" else answers_yes_no(tag, prompt)
        )
    )
    ds, cfg, spec = _setup(strong=True)
    schema = build_state_schema(ds, None, cfg)
    build = build_tool(spec, ds, schema, llm, cfg)
    assert build.status == "passed" and build.route == "structured"
    code_attempts = [a for a in build.attempts if a["route"] == "code"]
    assert len(code_attempts) == 2 and all("sandbox refused" in a["error"] for a in code_attempts)
    assert "os" not in build.source.split("def delete_note")[0]


def test_code_only_route_fails_with_last_error():
    llm = ScriptedLLM(
        responder=lambda tag, prompt: (
            "```python\n" + WRONG_DELETE + "```" if tag == "code.free_form" else answers_yes_no(tag, prompt)
        )
    )
    ds, cfg, spec = _setup(strong=True, route="code")
    schema = build_state_schema(ds, None, cfg)
    build = build_tool(spec, ds, schema, llm, cfg)
    assert build.status == "failed" and "still exists" in build.last_error


def test_arbiter_may_drop_a_wrong_test_but_never_a_property():
    ds, cfg, spec = _setup(strong=False)
    schema = build_state_schema(ds, None, cfg)
    # the test writer believes an unknown id is fine; the code raises: the arbiter blames the test
    llm = ScriptedLLM(
        responder=lambda tag, prompt: (
            "no" if tag == "tests.missing" else ("test" if tag == "tests.arbiter" else answers_yes_no(tag, prompt))
        )
    )
    build = build_tool(spec, ds, schema, llm, cfg)
    assert build.status == "passed"
    assert len(build.dropped_tests) == 1 and "expects success" in build.dropped_tests[0]["failure"]
    assert all(t["origin"] != "property" for t in (d["case"] for d in build.dropped_tests))


def test_not_published_when_too_few_tools_pass(tmp_path):
    out = tmp_path / "notes"
    llm = ScriptedLLM(responder=answers_yes_no)
    with pytest.raises(ForgeError, match="not published.*notes.unpublished.md"):
        synthesize_environment([NOTES], out, llm, SynthConfig(env_id="notes", min_tools=5))
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["notes.unpublished.md"]
    report = (tmp_path / "notes.unpublished.md").read_text()
    assert "NOT PUBLISHED" in report and "| tool | status |" in report  # every tool's status, beside OUT
