"""Loaders on the small native-format fixtures of tests/data/tooldocs_good/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from synth.errors import InputError
from synth.tooldocs import detect_format, load_docs, load_file

GOOD = Path(__file__).resolve().parent / "data" / "tooldocs_good"

FIXTURES = {  # file -> (format, tool names in document order)
    "mcp_notes_rpc.json": ("mcp", ["list_notebooks", "write_note", "purge_notebook", "count_words"]),
    "mcp_plain.json": ("mcp", ["get_forecast", "set_alert"]),
    "bfcl_library.json": ("bfcl", ["borrow_book", "library.search"]),
    "bfcl_lines.jsonl": ("bfcl", ["feed_cat", "cat_mood"]),
    "openai_bare.json": ("openai", ["convert_currency", "list_currencies", "tree_depth"]),
    "notes_tools.md": ("markdown", ["create_note", "search_notes", "delete_note"]),
    "kennel_reference.md": ("markdown", ["get_dog", "quote_stay"]),
    "openapi_library.yaml": (
        "openapi",
        [
            "listBooks",
            "post_books",
            "getBook",
            "updateBook",
            "deleteBook",
            "replaceMember",
            "uploadAvatar",
            "login",
            "ping",
            "get_stats_year",
        ],
    ),
    "openapi_tiny31.json": ("openapi", ["findItems", "createItem"]),
}


def tools_by_name(name: str) -> dict:
    return {t.name: t for t in load_file(GOOD / name).tools}


def test_every_fixture_is_listed():
    assert {p.name for p in GOOD.iterdir()} == set(FIXTURES)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_fixture_loads(name):
    fmt, names = FIXTURES[name]
    assert detect_format(GOOD / name) == fmt
    docs = load_file(GOOD / name)
    assert [t.name for t in docs.tools] == names
    for tool in docs.tools:
        Draft202012Validator.check_schema(tool.parameters)
        assert tool.parameters["type"] == "object"
        assert tool.source.format == fmt
        for example in tool.examples:
            Draft202012Validator(tool.parameters).validate(example["arguments"])
    # ToolSpec survives a JSON round trip
    from synth.spec import ToolSpec

    for tool in docs.tools:
        assert ToolSpec.from_dict(json.loads(json.dumps(tool.to_dict()))) == tool


def test_mcp_native_annotations_and_output_schema():
    tools = tools_by_name("mcp_notes_rpc.json")
    assert tools["list_notebooks"].mutates is False
    assert tools["list_notebooks"].returns["properties"]["notebooks"]["type"] == "array"
    assert tools["write_note"].mutates is True
    assert tools["write_note"].parameters["required"] == ["notebook_id", "text"]
    assert tools["purge_notebook"].mutates is True  # destructiveHint without readOnlyHint
    assert tools["count_words"].mutates is None
    assert tools["count_words"].description == "Count the words of a note"  # title stands in
    assert tools["list_notebooks"].source.pointer == "/result/tools/0"
    plain = tools_by_name("mcp_plain.json")
    assert plain["get_forecast"].mutates is False and plain["set_alert"].mutates is None


def test_bfcl_types_are_mapped():
    tools = tools_by_name("bfcl_library.json")
    borrow = tools["borrow_book"]
    assert borrow.parameters["properties"]["weeks"]["type"] == "number"
    assert borrow.returns == {
        "type": "object",
        "properties": {
            "due_date": {"type": "string", "description": "Return date, YYYY-MM-DD."},
            "fee": {"type": "number"},
        },
    }
    search = tools["library.search"].parameters["properties"]
    assert search["years"] == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "integer"}],
        "description": "(from, to)",
    }
    assert search["filters"]["type"] == "object"
    assert search["filters"]["properties"]["extra"] == {}  # BFCL "any": no type constraint
    assert "type" not in search["anything"]
    assert "dict" not in json.dumps([t.to_dict() for t in tools.values()])
    lines = tools_by_name("bfcl_lines.jsonl")
    assert lines["cat_mood"].returns["properties"]["mood"] == {"type": "string"}


def test_openai_bare_entries():
    tools = tools_by_name("openai_bare.json")
    assert tools["list_currencies"].parameters == {"type": "object", "properties": {}}
    assert tools["tree_depth"].parameters["properties"]["tree"] == {"$ref": "#/$defs/node"}  # recursive refs kept


def test_markdown_tools():
    tools = tools_by_name("notes_tools.md")
    create = tools["create_note"]
    assert create.description == "Create a note in the notebook. The note starts unpinned."
    props = create.parameters["properties"]
    assert props["title"] == {"type": "string", "description": "Title of the note."}
    assert props["tags"]["items"] == {"type": "string"}
    assert props["meta"]["properties"]["colour"]["type"] == "string"
    assert props["meta"]["required"] == ["colour"]
    assert create.parameters["required"] == ["title"]
    assert create.mutates is True
    assert create.returns == {"type": "object", "properties": {"note_id": {"type": "string"}}}
    assert create.examples == ({"arguments": {"title": "Groceries", "tags": ["home"]}},)
    search = tools["search_notes"]
    assert search.parameters["required"] == ["word"] and search.mutates is False
    delete = tools["delete_note"]
    assert delete.parameters == {
        "type": "object",
        "properties": {"note_id": {"type": "string", "description": "The note to delete."}},
        "required": ["note_id"],
    }
    assert delete.description == "Delete a note for good.\n\nErrors: Fails when the note does not exist."
    assert delete.source.pointer.startswith("line ")


def test_markdown_reference_with_parameter_tables_returns_and_errors():
    """A vendor's README-style reference: parameter tables, `**Returns** ...` prose (a sentence that starts with
    "Returns" is description, not a label), errors kept as an `Errors:` paragraph, the prose around the tool
    sections kept as policy text."""
    doc = load_file(GOOD / "kennel_reference.md")
    tools = {t.name: t for t in doc.tools}
    dog = tools["get_dog"]
    assert dog.parameters["required"] == ["dog_id"]
    assert dog.parameters["properties"]["with_history"] == {"type": "boolean", "description": "Include past stays."}
    assert dog.description == (
        "Returns one dog's card.\n\nReturns the Dog object.\n\n"
        "Errors: - `dog '<id>' not found` \u2014 no dog has this id."
    )
    quote = tools["quote_stay"]
    props = quote.parameters["properties"]
    assert quote.parameters["required"] == ["dog_id"]  # "Required." in its description
    assert props["nights"]["type"] == "integer" and props["arrival"]["type"] == "string"
    assert quote.description == "Prices a stay without booking it.\n\nReturns {dog_id, total}"
    assert "Opening hours" in doc.policy and "**Dog**" in doc.policy and "get_dog" not in doc.policy


def test_openapi_folding_rules():
    tools = tools_by_name("openapi_library.yaml")
    books = tools["listBooks"]
    assert set(books.parameters["properties"]) == {"q", "limit"}  # header and cookie skipped
    assert books.parameters["properties"]["limit"] == {"type": "integer", "minimum": 1, "exclusiveMaximum": 100}
    assert books.examples == ({"arguments": {"q": "dune"}},)
    assert books.description == "List books.\n\nBooks of the catalogue, optionally filtered by a search string."
    post = tools["post_books"]  # no operationId: method + path
    assert "id" not in post.parameters["properties"]  # readOnly
    assert post.parameters["properties"]["year"]["type"] == ["integer", "null"]  # nullable
    assert post.parameters["properties"]["shelf"]["enum"] == ["A", "B", "C", None]
    assert post.examples == ({"arguments": {"title": "Emma", "year": 1815, "tags": ["novel"]}},)  # invalid one dropped
    assert tools["getBook"].parameters["required"] == ["bookId"]  # path-level $ref parameter
    assert tools["getBook"].description == "One book.\n\nErrors: 404: no such book."  # refusals the docs state
    patch = tools["updateBook"]  # allOf body, not required
    assert set(patch.parameters["properties"]) == {"bookId", "title", "year", "note"}
    assert patch.parameters["required"] == ["bookId"]
    assert tools["deleteBook"].returns is None
    member = tools["replaceMember"]  # body field `id` clashes with the path parameter
    assert set(member.parameters["properties"]) == {"id", "body"}
    assert member.parameters["required"] == ["id", "body"]
    assert member.parameters["properties"]["body"]["description"] == "The new member record."
    avatar = tools["uploadAvatar"]
    assert avatar.parameters["properties"]["body"] == {"type": "string", "format": "binary"}
    login = tools["login"]  # form body folded
    assert login.parameters["required"] == ["username", "password"] and login.mutates is True
    assert login.returns == {"type": "string", "description": "a session token"}  # the response's own words
    assert tools["ping"].mutates is False and tools["ping"].http == {"method": "head", "path": "/ping"}
    stats = tools["get_stats_year"]  # templated path parameter that was never declared
    assert stats.parameters["required"] == ["year"]
    assert stats.returns == {"type": "object", "additionalProperties": {"type": "integer"}, "description": "counts"}


def test_openapi_31():
    tools = tools_by_name("openapi_tiny31.json")
    assert tools["findItems"].parameters["properties"]["tag"] == {"type": ["string", "null"]}
    assert tools["findItems"].returns["items"]["required"] == ["label"]  # response $ref
    create = tools["createItem"]  # requestBody $ref
    assert create.parameters["required"] == ["label"]
    assert create.examples == ({"arguments": {"label": "bolt", "qty": 3}},)
    assert load_file(GOOD / "openapi_tiny31.json").title == "Tiny 3.1"


def test_load_docs_merges_and_rejects_duplicates(tmp_path):
    docs = load_docs([GOOD / "mcp_plain.json", GOOD / "notes_tools.md", GOOD / "openapi_tiny31.json"])
    assert [t.name for t in docs.tools][:2] == ["get_forecast", "set_alert"]
    assert docs.title == "Tiny 3.1"
    assert docs.policy.startswith("# Notebook API") and docs.policy.endswith("before `delete_note`.")
    copy = tmp_path / "again.md"
    copy.write_text((GOOD / "notes_tools.md").read_text())
    with pytest.raises(InputError) as info:
        load_docs([GOOD / "notes_tools.md", copy])
    assert str(info.value).startswith(f"{copy}: line 5: duplicate tool name 'create_note' (also in ")


def test_format_override_and_policy_markdown(tmp_path):
    policy = tmp_path / "rules.md"
    policy.write_text("# House rules\n\n## Refunds\n\nRefunds take five days.\n")
    docs = load_docs([policy])
    assert docs.tools == [] and "Refunds take five days." in docs.policy
    with pytest.raises(InputError, match="unknown format 'soap'"):
        load_file(GOOD / "mcp_plain.json", fmt="soap")


def test_sources_hash_the_bytes(tmp_path):
    import hashlib

    path = GOOD / "mcp_plain.json"
    docs = load_file(path)
    assert docs.sources == [
        {"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "format": "mcp"}
    ]


def test_markdown_bare_returns_label_and_other_tables_stay_in_the_description():
    from synth.tooldocs.markdown import load_markdown

    text = (
        "## get_trip\n\nOne trip.\n\n**Returns:**\n\nThe trip plus its route's name.\n\n"
        "**Errors**\n\n| code | meaning |\n|---|---|\n| 404 | no such trip |\n"
    )
    (tool,) = load_markdown(text, "trips.md")
    assert (
        tool.description
        == "One trip.\n\nReturns the trip plus its route's name.\n\nErrors: code | meaning 404 | no such trip"
    )


def test_a_table_kept_as_prose_keeps_a_line_a_row() -> None:
    from synth.tooldocs.markdown import load_markdown

    text = (
        "## book_firing\n\nBooks a firing. Per kiln:\n\n| kiln | allowed when | fee (charged on firing) |\n"
        "|---|---|---|\n| `raku` | studio `open` | 25.00 |\n| `gas` | studio `open`, vent `on` | 40.00 |\n\n"
        "The new firing gets the kiln's `fee`.\n"
    )
    (tool,) = load_markdown(text, "kilns.md")
    assert tool.description == (
        "Books a firing. Per kiln:\n\nkiln | allowed when | fee (charged on firing)\n\n"
        "`raku` | studio `open` | 25.00\n`gas` | studio `open`, vent `on` | 40.00\n\n"
        "The new firing gets the kiln's `fee`."
    )


def test_a_policy_bullet_with_words_in_brackets_is_prose_not_a_parameter() -> None:
    from synth.tooldocs.markdown import load_markdown

    policy = "# Harbour rules\n\n## Dues\n\n- Dues (cash or transfer) are paid at the harbour office.\n"
    assert load_markdown(policy, "policy.md") == []
    tool = "## Charges\n\n- amount (number, required): what is charged\n"
    assert [t.name for t in load_markdown(tool, "tools.md")] == ["Charges"]
    hyphened = "# Harbour rules\n\n## Haul-out\n\n- Only boats that are `ashore` may be scrubbed.\n"
    assert load_markdown(hyphened, "policy.md") == []  # a capitalised hyphenated heading is prose
    assert [t.name for t in load_markdown("## haul-out\n\nHauls a boat out.\n", "tools.md")] == ["haul-out"]


def test_rest_style_markdown_sections_named_by_their_operation_line() -> None:
    """A REST README: headings in plain words (numbered or not), each section opening with its method and path and
    (or not) the operation's name; parameter tables with an `in` column; an example request in a code block is no
    endpoint; an example answer after `**Response 201:**` stands for the schema its values show (one with a `type`
    that is no JSON type is an example too); the prose before the first operation stays policy text."""
    from synth.tooldocs.markdown import load_markdown, non_tool_text

    text = (
        "# Marina desk\n\nMoney is in euros.\n\n## Berths\n\n### 1.1 Look up a berth\n\n"
        "GET /berths/{berth_id} (operationId: get_berth)\n\nOne berth.\n\n"
        "| parameter | in | type | required | description |\n|---|---|---|---|---|\n"
        "| `berth_id` | path | string | yes | say `B-12` |\n\n**Response 200:** a Berth.\n\n"
        "#### Example request\n\n```http\nGET /berths/B-12 HTTP/1.1\n```\n\n"
        "### 1.2 Moor a boat\n\n**POST** `/berths/{berth_id}/moorings`\n\nMoors a boat for some nights.\n\n"
        "| parameter | in | type | required | description |\n|---|---|---|---|---|\n"
        "| `berth_id` | path | string | yes | |\n| `nights` | body | integer | yes | 1 to 14 |\n"
        "| `skipper` | body | string | for visitors | who answers for the boat |\n\n"
        "**Response 201:**\n\n```json\n"
        '{"mooring_id": "M-7", "type": "sloop", "fee": 42.5, "paid": false, "crew": [{"name": "Ada"}], "note": null}\n'
        "```\n"
    )
    get, moor = load_markdown(text, "desk.md")
    assert (get.name, get.http) == ("get_berth", {"method": "get", "path": "/berths/{berth_id}"})
    assert get.parameters["required"] == ["berth_id"]
    assert get.description == "One berth.\n\nReturns a Berth."
    assert (moor.name, moor.http) == ("moor_boat", {"method": "post", "path": "/berths/{berth_id}/moorings"})
    assert moor.parameters["required"] == ["berth_id", "nights"]  # "for visitors" is no yes
    assert moor.returns == {
        "type": "object",
        "properties": {
            "mooring_id": {"type": "string"},
            "type": {"type": "string"},
            "fee": {"type": "number"},
            "paid": {"type": "boolean"},
            "crew": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
            "note": {},
        },
        "example": {
            "mooring_id": "M-7",
            "type": "sloop",
            "fee": 42.5,
            "paid": False,
            "crew": [{"name": "Ada"}],
            "note": None,
        },
    }  # the example answer is kept beside the schema it shows (example_answers reads a write's answer from it)
    assert moor.description == "Moors a boat for some nights."
    assert non_tool_text(text).startswith("# Marina desk\n\nMoney is in euros.") and "GET /" not in non_tool_text(text)


def test_an_operation_named_in_bold_after_its_path_and_prose_bullets_with_brackets_after_a_table() -> None:
    """`` `POST /path` — **tow_boat** `` names the tool (not the heading's words); after a parameter table, a bullet
    whose brackets hold no type (`- Refloat (`aground` -> `afloat`) is allowed ...`) is prose, while one that
    declares a type, even a misspelt one, is still read as a parameter (and refused with its line)."""
    from synth.tooldocs.markdown import load_markdown

    text = (
        "# Tow desk\n\n## Tow a boat to its berth\n\n`POST /boats/{boat_id}/tow` \u2014 **tow_boat**\n\n"
        "| parameter | type | required | description |\n|---|---|---|---|\n"
        "| boat_id | string | yes | |\n| berth_id | string | yes | where it goes |\n\n"
        "Effects:\n\n- Refloat (`aground` \u2192 `afloat`) is allowed within 2 days of `grounded_at`.\n"
        "- Payment (card or cash) is taken at the pier.\n\n"
        "## Hail a pilot\n\nGET /pilots \u2014 hail_pilot\n\nThe pilot on watch.\n"
    )
    tow, hail = load_markdown(text, "tow.md")
    assert (tow.name, hail.name) == ("tow_boat", "hail_pilot")
    assert list(tow.parameters["properties"]) == ["boat_id", "berth_id"]
    assert "Refloat (`aground` \u2192 `afloat`) is allowed within 2 days" in tow.description
    assert "Payment (card or cash) is taken at the pier." in tow.description
    misspelt = "## `tow_boat`\n\nTows a boat.\n\n- `boat_id` (strng): the boat\n"
    with pytest.raises(InputError, match="line 5.*unknown parameter type 'strng'"):
        load_markdown(misspelt, "tow.md")


def test_an_unlabelled_or_example_labelled_json_block_that_is_no_call_is_the_answer() -> None:
    """A REST section shows its answer as a bare JSON block, or after "Example: `GET /berths?pier=north`": a block
    whose keys are not all the tool's parameters is the answer (its schema and the example kept), not a call; a
    block of parameters only stays an example call."""
    from synth.tooldocs.markdown import load_markdown

    text = (
        "## List berths\n\n`GET /berths` \u2014 **list_berths**\n\n"
        "| parameter | type | required | description |\n|---|---|---|---|\n| pier | string | no | |\n\n"
        "Example: `GET /berths?pier=north`\n\n```json\n"
        '{"total": 1, "berths": [{"berth_id": "B-1", "pier": "north"}]}\n```\n\n'
        "## Free a berth\n\n`POST /berths/{berth_id}/free` \u2014 **free_berth**\n\n"
        "| parameter | type | required | description |\n|---|---|---|---|\n| berth_id | string | yes | |\n\n"
        "Example:\n\n```json\n"
        '{"berth_id": "B-1"}\n```\n\nFrees it.\n\n```json\n{"berth_id": "B-1", "status": "free"}\n```\n'
    )
    listed, freed = load_markdown(text, "berths.md")
    assert listed.returns["example"] == {"total": 1, "berths": [{"berth_id": "B-1", "pier": "north"}]}
    assert listed.returns["properties"]["berths"]["items"]["properties"]["pier"] == {"type": "string"}
    assert listed.examples == ()
    assert freed.returns["example"] == {"berth_id": "B-1", "status": "free"}
    assert [e["arguments"] for e in freed.examples] == [{"berth_id": "B-1"}]


def test_a_schema_after_the_returns_label_is_kept_as_written() -> None:
    from synth.tooldocs.markdown import load_markdown

    schema = '{"type": "object", "properties": {"depth": {"type": "number"}}}'
    text = f"## get_pier\n\nOne pier.\n\n**Returns**\n\n```json\n{schema}\n```\n"
    (tool,) = load_markdown(text, "piers.md")
    assert tool.returns == {"type": "object", "properties": {"depth": {"type": "number"}}}


def test_an_openapi_description_is_the_apis_policy_preamble(tmp_path):
    data = json.loads((GOOD / "openapi_tiny31.json").read_text())
    data["info"]["description"] = "Conventions: the desk works on the business date 2031-02-03.\n"
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data))
    assert load_file(path).policy == "Conventions: the desk works on the business date 2031-02-03."
    assert load_file(GOOD / "openapi_tiny31.json").policy == ""  # none given


def test_an_openapi_response_example_is_kept_beside_its_schema(tmp_path):
    data = json.loads((GOOD / "openapi_tiny31.json").read_text())
    op = next(o for ops in data["paths"].values() for o in ops.values() if o.get("operationId") == "createItem")
    code = next(c for c in op["responses"] if str(c).startswith("2"))
    media = (
        op["responses"][code].setdefault("content", {}).setdefault("application/json", {"schema": {"type": "object"}})
    )
    media["example"] = {"label": "bolt", "qty": 3}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data))
    create = next(t for t in load_file(path).tools if t.name == "createItem")
    assert create.returns["example"] == {"label": "bolt", "qty": 3}
    plain = next(t for t in load_file(GOOD / "openapi_tiny31.json").tools if t.name == "createItem")
    assert "example" not in (plain.returns or {})  # none shown, none kept
