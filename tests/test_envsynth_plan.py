"""Doc priors, collections and structured plans on the real tool docs (no LLM)."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
from fakes.scripted_llm import ScriptedLLM

from synth.envsynth.codegen import function_name, render_tool
from synth.envsynth.collections import draft_collections, singleton_candidates, state_schema_from
from synth.envsynth.plan import PlanContext, decide_plan
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import build_state_schema, proposal_problems
from synth.sandbox import check_source
from synth.tooldocs import load_docs
from synth.words import plural, singular, split_words

TOOLDOCS = Path(__file__).resolve().parents[1].parent / "shared" / "tooldocs"
pytestmark = pytest.mark.skipif(not TOOLDOCS.is_dir(), reason="../shared/tooldocs is not beside the repository")


def plans_for(doc: str):
    ds = load_docs([TOOLDOCS / doc])
    pri = {t.name: tool_priors(t) for t in ds.tools}
    cols = draft_collections(ds.tools, pri)
    sing = singleton_candidates(ds.tools, pri, cols)
    ctx = PlanContext(cols, sing, None)
    return ds, cols, sing, {t.name: decide_plan(t, pri[t.name], ctx) for t in ds.tools}


def test_words_and_number():
    assert split_words("getPetById") == ["get", "pet", "by", "id"]
    assert split_words("create_entities") == ["create", "entities"]
    assert singular("entities") == "entity" and plural("entity") == "entities"
    assert plural("todos") == "todos" and singular("pets") == "pet"
    assert plural("batch") == "batches" and singular("batches") == "batch" and singular("wishes") == "wish"
    assert singular("caches") == "cache"  # a singular that ends in -che keeps it
    assert function_name("class") == "tool_class" and function_name("_x-y") == "x_y"


def test_todo_plans():
    _, cols, sing, plans = plans_for("openapi_todo_redhat.yaml")
    assert list(cols) == ["todos"] and cols["todos"].key_field == "id"
    assert "user_profile" in sing
    kinds = {n: p.kind for n, p in plans.items()}
    assert kinds == {
        "gettodos": "list",
        "createTodo": "create",
        "getTodo": "get",
        "updateTodo": "update",
        "deleteTodo": "delete",
        "getUserProfile": "singleton_get",
    }
    assert plans["createTodo"].id_type == "uuid"
    assert plans["getTodo"].key_param == "todoId"


def test_memory_plans_use_list_fields():
    _, cols, _, plans = plans_for("mcp_memory_tools.json")
    assert set(cols) == {"entities", "relations"}
    assert cols["entities"].key_field == "name" and cols["relations"].composite_key == ["from", "relationType", "to"]
    assert plans["add_observations"].kind == "list_append" and plans["add_observations"].list_field == "observations"
    assert plans["delete_observations"].kind == "list_remove"
    assert plans["read_graph"].kind == "dump" and plans["open_nodes"].kind == "get_many"
    assert plans["create_entities"].kind == "batch_create"


def test_petstore_plans():
    _, cols, _, plans = plans_for("openapi_petstore_v3.yaml")
    assert set(cols) == {"pets", "orders", "users"}
    assert cols["users"].key_field == "username"
    assert plans["updatePetWithForm"].kind == "update"  # POST to /pet/{petId}
    assert plans["getInventory"].kind == "count_by" and plans["getInventory"].collection == "pets"
    assert plans["findPetsByStatus"].kind == "filter" and plans["findPetsByStatus"].filter_params == ["status"]
    assert plans["updateUser"].payload_param == "body"
    assert plans["addPet"].kind == "create"


@pytest.mark.parametrize("doc", ["openapi_todo_redhat.yaml", "mcp_memory_tools.json", "openapi_petstore_v3.yaml"])
def test_rendered_code_passes_the_sandbox_checks(doc):
    from synth.envsynth.codegen import header_source

    ds, cols, sing, plans = plans_for(doc)
    schema = state_schema_from(cols, sing)
    jsonschema.Draft202012Validator.check_schema(schema)
    source = header_source("t", "0") + "".join("\n\n" + render_tool(t, plans[t.name], schema) for t in ds.tools)
    assert check_source(source) == []


def test_state_schema_llm_proposal_is_checked_and_reasked():
    ds = load_docs([TOOLDOCS / "openapi_todo_redhat.yaml"])
    answers = [
        {"collections": [{"name": "items", "key": "id", "fields": []}]},
        {
            "collections": [
                {
                    "name": "todos",
                    "key": "id",
                    "fields": [
                        {"name": f, "type": "string"}
                        for f in ("id", "title", "description", "created", "dueDate", "author")
                    ]
                    + [{"name": "complete", "type": "boolean"}, {"name": "priority", "type": "integer"}],
                }
            ]
        },
    ]
    llm = ScriptedLLM(json_responder=lambda tag, prompt: answers.pop(0))
    res = build_state_schema(ds, llm)
    assert len(res.attempts) == 2
    assert any("collection `todos` is missing" in p for p in res.attempts[0]["problems"])
    assert res.attempts[1]["problems"] == []
    assert "previous answer had these problems" in llm.calls[1][1]
    assert res.source == "llm+docs"
    assert res.state_schema["properties"]["todos"]["additionalProperties"]["properties"]["priority"] == {
        "type": "integer"
    }


def test_state_schema_falls_back_to_docs_when_llm_never_fits():
    ds = load_docs([TOOLDOCS / "openapi_todo_redhat.yaml"])
    llm = ScriptedLLM(json_responder=lambda tag, prompt: {"collections": []})
    res = build_state_schema(ds, llm)
    assert res.source == "docs" and len(res.attempts) == 2
    assert "todos" in res.state_schema["properties"]
    assert proposal_problems({"collections": []}, res.drafts())


def test_a_find_id_tool_on_a_top_level_field_returns_the_key(tmp_path) -> None:
    import json

    def fn(name: str, desc: str, params: dict) -> dict:
        return {
            "type": "function",
            "function": {"name": name, "description": desc, "parameters": {"type": "object", "properties": params}},
        }

    tools = [
        fn("find_member_id_by_mail", "Find a member id by mail.", {"mail": {"type": "string"}}),
        fn("get_member_details", "Get a member.", {"member_id": {"type": "string"}}),
        fn(
            "set_member_mail",
            "Set a member's mail.",
            {"member_id": {"type": "string"}, "mail": {"type": "string"}},
        ),
    ]
    (tmp_path / "m.json").write_text(json.dumps(tools))
    ds = load_docs([tmp_path / "m.json"])
    pri = {t.name: tool_priors(t) for t in ds.tools}
    cols = draft_collections(ds.tools, pri)
    plan = decide_plan(ds.tools[0], pri[ds.tools[0].name], PlanContext(cols, {}, None))
    assert plan.kind == "filter" and plan.filter_params == ["mail"] and plan.return_key


def test_a_create_on_records_with_nullable_fields_renders_and_starts_them_empty() -> None:
    from synth.envsynth.plan import ToolPlan
    from synth.spec import ToolSpec

    record = {
        "type": "object",
        "properties": {
            "visit_id": {"type": "string"},
            "bill": {"type": ["object", "null"]},
            "tag": {"type": ["integer", "string"]},
            "pet": {"type": "string"},
        },
        "required": ["visit_id", "bill", "tag", "pet"],
    }
    schema = {"type": "object", "properties": {"visits": {"type": "object", "additionalProperties": record}}}
    spec = ToolSpec("book", "Book a visit.", {"type": "object", "properties": {"pet": {"type": "string"}}})
    plan = ToolPlan(kind="create", collection="visits", key_field="visit_id", fields=["pet"])
    source = render_tool(spec, plan, schema)
    assert "{'bill': None, 'tag': 0, 'pet': ''}" in source
    assert check_source(source) == []


def test_a_search_whose_docs_answer_an_empty_list_is_not_tested_for_a_not_found_error() -> None:
    from synth.envsynth.testgen import no_match_is_empty
    from synth.spec import ToolSpec

    params = {"type": "object", "properties": {"name": {"type": "string"}}}
    listing = {"type": "array", "items": {"type": "object"}}
    assert no_match_is_empty(ToolSpec("findPeople", "Search people by name.", params, listing))
    assert no_match_is_empty(ToolSpec("find", "Search people; an empty list means no match.", params, {}))
    assert not no_match_is_empty(ToolSpec("find", "Search people. Errors: 404: person not found.", params, listing))
    assert not no_match_is_empty(ToolSpec("getPerson", "One person by name.", params, {"type": "object"}))


def test_a_parameter_naming_a_key_of_a_nullable_object_sets_it_there():
    from synth.envsynth.collections import CollectionDraft
    from synth.envsynth.plan import _nested_fields

    S = {"type": "string"}
    col = CollectionDraft(
        name="accounts",
        resource="account",
        key_field="account_id",
        fields={"account_id": S, "autopay": {"type": ["object", "null"], "properties": {"bank": S, "day": S}}},
    )
    assert _nested_fields(["account_id", "day"], col) == {"day": "autopay.day"}
