"""Every loader on the real tool docs of ../shared/tooldocs/ (counts and specific fields)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from synth.errors import InputError
from synth.tooldocs import detect_format, load_docs, load_file

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "tooldocs"
pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason=f"shared tool docs not found at {SHARED}")

EXPECTED = {  # file -> (format, tool count)
    "tau_retail_tools.json": ("openai", 16),
    "tau_retail_policy.md": ("markdown", 0),
    "openapi_petstore_v3.yaml": ("openapi", 19),
    "openapi_todo_redhat.yaml": ("openapi", 6),
    "mcp_memory_tools.json": ("openai", 9),
    "bfcl_gorilla_file_system.json": ("openai", 18),
}


def tools_by_name(path: Path) -> dict:
    return {t.name: t for t in load_file(path).tools}


def all_keys(node) -> list[str]:
    """Every mapping key anywhere inside a JSON value."""
    if isinstance(node, dict):
        return list(node) + [k for v in node.values() for k in all_keys(v)]
    if isinstance(node, list):
        return [k for v in node for k in all_keys(v)]
    return []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_shared_file_loads_with_expected_count(name):
    fmt, count = EXPECTED[name]
    path = SHARED / name
    assert detect_format(path) == fmt
    docs = load_file(path)
    assert len(docs.tools) == count
    assert docs.sources[0]["path"] == str(path) and len(docs.sources[0]["sha256"]) == 64
    for tool in docs.tools:
        Draft202012Validator.check_schema(tool.parameters)
        assert tool.parameters["type"] == "object"
        assert tool.source is not None and tool.source.file == str(path) and tool.source.format == fmt
        if tool.returns is not None:
            Draft202012Validator.check_schema(tool.returns)


def test_all_six_shared_files_are_there():
    assert set(EXPECTED) <= {p.name for p in SHARED.iterdir()}


def test_tau_policy_is_policy_text():
    docs = load_file(SHARED / "tau_retail_policy.md")
    assert docs.tools == []
    assert docs.policy.startswith("# Retail agent policy")
    assert "Cancel pending order" in docs.policy


def test_tau_tools_fields():
    tools = tools_by_name(SHARED / "tau_retail_tools.json")
    cancel = tools["cancel_pending_order"]
    assert cancel.parameters["required"] == ["order_id", "reason"]
    assert cancel.parameters["properties"]["reason"]["enum"] == ["no longer needed", "ordered by mistake"]
    assert cancel.mutates is None  # plain OpenAI specs carry no mutation hint
    assert list(tools)[0] == "calculate"  # document order


def test_petstore_add_pet_folds_body():
    tools = tools_by_name(SHARED / "openapi_petstore_v3.yaml")
    add = tools["addPet"]
    assert add.mutates is True
    assert add.http == {"method": "post", "path": "/pet"}
    assert set(add.parameters["properties"]) == {"id", "name", "category", "photoUrls", "tags", "status"}
    assert add.parameters["required"] == ["name", "photoUrls"]
    # the $ref to Category is inlined, OpenAPI `example` became JSON Schema `examples`, `xml` is gone
    category = add.parameters["properties"]["category"]
    assert category["properties"]["name"] == {"type": "string", "examples": ["Dogs"]}
    assert "$ref" not in json.dumps(add.to_dict())
    assert "xml" not in json.dumps(add.parameters)
    assert add.returns["properties"]["name"]["type"] == "string"


def test_petstore_other_operations():
    tools = tools_by_name(SHARED / "openapi_petstore_v3.yaml")
    get = tools["getPetById"]
    assert get.mutates is False
    assert get.parameters["required"] == ["petId"]
    assert get.parameters["properties"]["petId"]["type"] == "integer"
    assert get.parameters["properties"]["petId"]["description"] == "ID of pet to return"
    assert set(tools["deletePet"].parameters["properties"]) == {"petId"}  # header api_key skipped
    assert tools["deletePet"].returns is None
    assert tools["findPetsByStatus"].parameters["properties"]["status"]["default"] == "available"
    assert "required" not in tools["findPetsByStatus"].parameters
    # a non-object body goes under `body`, and so does one whose fields clash with a path parameter
    assert tools["uploadFile"].parameters["properties"]["body"] == {"type": "string", "format": "binary"}
    assert tools["createUsersWithListInput"].parameters["properties"]["body"]["type"] == "array"
    assert set(tools["updateUser"].parameters["properties"]) == {"username", "body"}
    assert tools["getInventory"].returns == {
        "type": "object",
        "additionalProperties": {"type": "integer", "format": "int32"},
        "description": "successful operation",  # the 200 response's own words
    }
    assert tools["loginUser"].returns == {"type": "string", "description": "successful operation"}
    assert list(tools)[:3] == ["updatePet", "addPet", "findPetsByStatus"]


def test_todo_operations():
    tools = tools_by_name(SHARED / "openapi_todo_redhat.yaml")
    assert list(tools) == ["gettodos", "createTodo", "getTodo", "updateTodo", "deleteTodo", "getUserProfile"]
    update = tools["updateTodo"]
    assert {"todoId", "title"} <= set(update.parameters["properties"])
    assert update.parameters["required"] == ["todoId", "title"]
    assert "created" not in update.parameters["properties"]  # readOnly fields are not sent
    assert update.parameters["properties"]["todoId"]["format"] == "uuid"
    assert not [k for k in all_keys(update.to_dict()) if k.startswith("x-")]
    create = tools["createTodo"]
    assert create.examples and create.examples[0]["arguments"]["title"] == "Example Todo"
    assert "created" not in create.examples[0]["arguments"]
    assert tools["gettodos"].returns["type"] == "array"


def test_mcp_memory_annotations():
    tools = tools_by_name(SHARED / "mcp_memory_tools.json")
    assert tools["read_graph"].mutates is False
    assert tools["search_nodes"].mutates is False
    assert tools["create_entities"].mutates is True
    assert tools["delete_entities"].mutates is True


def test_bfcl_file_system_returns():
    tools = tools_by_name(SHARED / "bfcl_gorilla_file_system.json")
    assert tools["cat"].returns == {
        "type": "object",
        "properties": {"file_content": {"type": "string", "description": "The content of the file."}},
    }
    assert tools["cat"].parameters["required"] == ["file_name"]
    assert all(t.mutates is None for t in tools.values())


def test_multi_file_docset():
    docs = load_docs([SHARED / "tau_retail_tools.json", SHARED / "tau_retail_policy.md"])
    assert len(docs.tools) == 16
    assert docs.policy.startswith("# Retail agent policy")
    assert docs.title == "tau_retail_tools"
    assert [s["format"] for s in docs.sources] == ["openai", "markdown"]
    everything = load_docs([SHARED / n for n in sorted(EXPECTED)])
    assert len(everything.tools) == 16 + 19 + 6 + 9 + 18
    assert everything.title == "Swagger Petstore - OpenAPI 3.0"


def test_duplicate_names_across_files():
    with pytest.raises(InputError) as info:
        load_docs([SHARED / "tau_retail_tools.json", SHARED / "tau_retail_tools.json"])
    err = info.value
    assert err.path == str(SHARED / "tau_retail_tools.json")
    assert err.location == "/0"
    assert "duplicate tool name 'calculate'" in err.problem


def test_petstore_and_todo_load_together():
    docs = load_docs([SHARED / "openapi_petstore_v3.yaml", SHARED / "openapi_todo_redhat.yaml"])
    assert len(docs.tools) == 25


def test_output_is_deterministic():
    paths = [SHARED / n for n in sorted(EXPECTED)]
    first = json.dumps([t.to_dict() for t in load_docs(paths).tools], sort_keys=True)
    second = json.dumps([t.to_dict() for t in load_docs(paths).tools], sort_keys=True)
    assert first == second
