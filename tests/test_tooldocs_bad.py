"""The malformed-doc corpus of tests/data/tooldocs_bad/: each file fails with `PATH: location: problem`."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from synth.errors import InputError
from synth.tooldocs import load_docs, load_file

BAD = Path(__file__).resolve().parent / "data" / "tooldocs_bad"
GOOD = Path(__file__).resolve().parent / "data" / "tooldocs_good"
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "tooldocs"

# file -> (location, a piece of the problem text)
EXPECTED_ERRORS = {
    "invalid_json.json": ("line 3, column 29", "invalid JSON: Expecting property name"),
    "invalid_yaml.yaml": ("line 5, column 1", "invalid YAML"),
    "empty_file.json": ("(document)", "file is empty"),
    "not_utf8.json": ("byte 14", "not UTF-8 text"),
    "unknown_format.json": ("(document)", "unrecognised tool-doc format"),
    "empty_list.json": ("(document)", "no tools found"),
    "openai_missing_name.json": ("/1/function/name", "missing tool name"),
    "openai_duplicate_names.json": ("/2", "duplicate tool name 'lookup' (first at /0)"),
    "openai_params_array.json": ("/0/function/parameters", "parameters must be a JSON Schema object (type is 'array')"),
    "openai_bad_schema.json": (
        "/0/function/parameters/properties/path/type",
        "invalid JSON Schema: 'dict' is not valid",
    ),
    "openai_bad_name.json": ("/0/function/name", "invalid tool name 'get weather!'"),
    "openai_required_unknown.json": ("/0/parameters/required/1", "required lists unknown parameter 'port'"),
    "openai_wrong_tool_type.json": ("/0/type", "unsupported tool type 'retrieval'"),
    "openai_dangling_local_ref.json": ("/0/parameters/properties/node/$ref", "$ref '#/$defs/missing' points nowhere"),
    "openapi_dangling_ref.yaml": (
        "/paths/~1things/post/requestBody/content/application~1json/schema/$ref",
        "$ref '#/components/schemas/Thing' points nowhere",
    ),
    "openapi_cyclic_ref.yaml": (
        "/components/schemas/Child/properties/parent/$ref",
        "$ref cycle: #/components/schemas/Node -> #/components/schemas/Child -> #/components/schemas/Node"
        " (reached from /paths/~1nodes/get/parameters/0/schema)",
    ),
    "openapi_param_ref_loop.yaml": (
        "/components/parameters/P2/$ref",
        "$ref cycle: #/components/parameters/P1 -> #/components/parameters/P2 -> #/components/parameters/P1",
    ),
    "openapi_remote_ref.yaml": (
        "/paths/~1pets/get/responses/200/content/application~1json/schema/$ref",
        "only local $ref supported",
    ),
    "swagger2.json": ("/swagger", "Swagger 2.0 is not supported; convert to OpenAPI 3"),
    "openapi_bad_version.yaml": ("/openapi", "unsupported OpenAPI version '4.0.0'"),
    "openapi_param_no_name.yaml": ("/paths/~1items/get/parameters/0", "parameter has no name"),
    "openapi_schema_not_object.yaml": ("/paths/~1items~1{itemId}/get/parameters/0/schema", "schema must be an object"),
    "openapi_duplicate_operation_id.yaml": ("/paths/~1b/get", "duplicate tool name 'fetch' (first at /paths/~1a/get)"),
    "openapi_duplicate_key.yaml": ("line 8, column 3", "duplicate key '/a'"),
    "openapi_no_operations.yaml": ("(document)", "no tools found in this openapi document"),
    "openapi_bad_param_in.yaml": ("/paths/~1a/get/parameters/0/in", "'in' must be one of path, query, header, cookie"),
    "mcp_missing_input_schema.json": ("/tools/1", "tool 'shout': missing inputSchema"),
    "mcp_input_schema_string.json": ("/result/tools/0/inputSchema", "inputSchema must be a JSON Schema object"),
    "mcp_bad_annotation.json": ("/tools/0/annotations/readOnlyHint", "readOnlyHint must be true or false"),
    "bfcl_unknown_type.json": ("/0/parameters/properties/who/type", "unknown BFCL type 'strng'"),
    "markdown_bad_type.md": ("line 7", "unknown parameter type 'strng'"),
    "markdown_bad_json_block.md": ("line 8", "invalid JSON in code block"),
    "markdown_duplicate_tools.md": ("line 5", "duplicate tool name 'beep' (first at line 1)"),
}


def test_corpus_is_large_and_fully_listed():
    files = {p.name for p in BAD.iterdir()}
    assert len(files) >= 15
    assert files == set(EXPECTED_ERRORS)


@pytest.mark.parametrize("name", sorted(EXPECTED_ERRORS))
def test_bad_doc_error_text(name):
    location, problem = EXPECTED_ERRORS[name]
    path = BAD / name
    with pytest.raises(InputError) as info:
        load_file(path)
    err = info.value
    assert str(err).startswith(f"{path}: {location}: "), str(err)
    assert problem in err.problem, str(err)
    with pytest.raises(InputError) as again:  # same through load_docs, next to a good file
        load_docs([GOOD / "mcp_plain.json", path])
    assert str(again.value) == str(err)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match=r"nope\.json: \(file\): cannot read"):
        load_file(tmp_path / "nope.json")
    with pytest.raises(InputError, match=r": \(file\): is a directory"):
        load_file(tmp_path)
    with pytest.raises(InputError, match="no tool-doc files given"):
        load_docs([])


def _mutations(data, rng: random.Random, count: int):
    """Copies of `data` with one random node replaced by a value of the wrong kind (or removed)."""
    spots = []

    def walk(node, trail):
        if isinstance(node, dict):
            for k, v in node.items():
                spots.append(trail + [k])
                walk(v, trail + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                spots.append(trail + [i])
                walk(v, trail + [i])

    walk(data, [])
    junk = [None, 7, "text", [], {}, [1, "a"], {"$ref": "#/nowhere"}, {"type": "dict"}, True]
    for _ in range(count):
        copy = json.loads(json.dumps(data))
        trail = rng.choice(spots)
        parent = copy
        for step in trail[:-1]:
            parent = parent[step]
        if isinstance(parent, dict) and rng.random() < 0.3:
            del parent[trail[-1]]
        else:
            parent[trail[-1]] = rng.choice(junk)
        yield copy


@pytest.mark.parametrize(
    "source",
    ["openapi_library.yaml", "mcp_notes_rpc.json", "bfcl_library.json", "openai_bare.json", "openapi_tiny31.json"],
)
def test_mutated_docs_never_crash(source, tmp_path):
    """A damaged doc either loads or raises InputError; never another exception."""
    from synth.tooldocs.reader import read_file

    data = read_file(GOOD / source).data
    rng = random.Random(source)
    outcomes = {"ok": 0, "error": 0}
    for i, copy in enumerate(_mutations(data, rng, 120)):
        path = tmp_path / f"m{i}.json"
        path.write_text(json.dumps(copy))
        try:
            docs = load_file(path)
        except InputError as err:
            assert err.path == str(path) and err.problem
            outcomes["error"] += 1
        else:
            assert all(t.parameters["type"] == "object" for t in docs.tools)
            outcomes["ok"] += 1
    assert outcomes["error"] > 0 and outcomes["ok"] > 0, outcomes
