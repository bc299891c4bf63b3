"""synth/data: loading sample data, inferring the state schema, reconciling it with the docs (small hand-made data)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from synth.data.formats import id_format, id_pattern, string_format
from synth.data.infer import infer_layout
from synth.data.load import load_sample_data
from synth.data.reconcile import cut_states, grounded_schema
from synth.errors import InputError
from synth.spec import DocSet, ToolSpec

NAMES = ["ann_lee", "bo_kim", "cyd_ma", "dee_ortiz", "eli_park", "fay_wu"]


def orders_state() -> dict:
    users = {
        f"{NAMES[i]}_{1000 + i}": {
            "email": f"ann{i}@example.com",
            "name": {"first": "Ann", "last": f"Lee{i}"},
            "orders": [f"#W{1000000 + i}"],
        }
        for i in range(6)
    }
    orders = {
        f"#W{1000000 + i}": {
            "order_id": f"#W{1000000 + i}",
            "user_id": f"{NAMES[i]}_{1000 + i}",
            "status": ["pending", "delivered"][i % 2],
            "placed": f"2024-03-0{i + 1}",
            "items": [{"item_id": f"{5000 + i}", "price": 10.5 + i}],
            "total": 10 + i,
        }
        for i in range(6)
    }
    return {"users": users, "orders": orders, "settings": {"currency": "USD", "open": True}}


def tree_state(extra: str = "notes.txt") -> dict:
    return {
        "root": {
            "home": {
                "type": "dir",
                "contents": {
                    "docs": {"type": "dir", "contents": {extra: {"type": "file", "content": "hello"}}},
                    "a.txt": {"type": "file", "content": "x"},
                },
            }
        }
    }


def test_formats_ids_emails_dates_become_patterns():
    assert id_pattern(["#W0000001", "#W1234567", "#W7654321"]) == r"^\#W[0-9]{7}$"
    assert id_pattern(["ann_lee_1001", "bo_kim_2002", "cy_ma_3003"]) == r"^[a-z]+_[a-z]+_[0-9]{4}$"
    assert id_pattern(["free text 1", "more text 2", "x 3"]) is None  # spaces: not an id
    assert string_format(["a@b.com", "c.d@e.org"]) == {"format": "email"}
    assert string_format(["2024-01-02", "2023-12-31"])["format"] == "date"
    assert id_format(["#W0000001", "#W0000002"]) == {"prefix": "#W", "digits": 7}
    assert id_format(["a1", "b2"]) is None
    # a part that varies in one shape (a year) before one numbering: new keys continue under the latest part
    assert id_format(["BP-24-0107", "BP-25-0041", "BP-25-0042"]) == {"prefix": "BP-25-", "digits": 4}
    assert id_format(["BP-24-0107", "BP-25-41"]) is None  # numbers of two widths


def test_infer_collections_keys_enums_required_nested_and_references():
    layout = infer_layout([orders_state()], "d.json")
    assert layout.collections["orders"] == {
        "layout": "map",
        "key_field": "order_id",
        "key_format": {"prefix": "#W", "digits": 7},
    }
    assert layout.collections["users"]["key_field"] is None  # keyed by the map key only
    assert layout.objects == ["settings"]
    props = layout.state_schema["properties"]
    order = props["orders"]["additionalProperties"]
    assert order["properties"]["status"]["x-enum"] == ["delivered", "pending"]  # seen values; tools may add others
    assert order["properties"]["order_id"]["pattern"] == r"^\#W[0-9]{7}$"
    assert order["properties"]["placed"]["format"] == "date"
    assert order["properties"]["items"]["items"]["properties"]["price"] == {"type": "number"}
    assert sorted(order["required"]) == ["items", "order_id", "placed", "status", "total", "user_id"]
    assert props["users"]["additionalProperties"]["properties"]["name"]["required"] == ["first", "last"]
    assert props["users"]["propertyNames"]["pattern"] == r"^[a-z]+_[a-z]+_[0-9]{4}$"
    refs = {(r["collection"], r["field"], r["target"]) for r in layout.references}
    assert ("orders", "user_id", "users") in refs and ("users", "orders[]", "orders") in refs
    assert order["properties"]["user_id"]["x-references"] == "users"
    jsonschema.validate(orders_state(), layout.state_schema)


def test_infer_tree_and_list_collection():
    states = [tree_state(), tree_state("todo.md")]
    layout = infer_layout(states, "s.jsonl")
    assert layout.trees["root"] == {
        "children": "contents",
        "kind_field": "type",
        "branch": "dir",
        "leaf": "file",
        "text_field": "content",
    }
    for s in states:
        jsonschema.validate(s, layout.state_schema)
    bad = tree_state()
    bad["root"]["home"]["contents"]["docs"]["type"] = "link"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, layout.state_schema)
    rows = {
        "tags": [{"tag_id": "t1", "label": "red"}, {"tag_id": "t2", "label": "blue"}, {"tag_id": "t3", "label": "red"}]
    }
    layout = infer_layout([rows], "x.json")
    assert layout.collections["tags"] == {"layout": "list", "key_field": "tag_id", "key_format": None}


def write(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_load_json_jsonl_and_folder(tmp_path):
    p = write(tmp_path, "d.json", json.dumps(orders_state()))
    assert load_sample_data(p).states == [orders_state()]
    lines = "\n".join(json.dumps(tree_state(n)) for n in ("a", "b")) + "\n"
    data = load_sample_data(write(tmp_path, "s.jsonl", lines))
    assert data.kind == "jsonl" and len(data.states) == 2
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "people.csv").write_text("id,name\n1,Ann\n2,Bo\n")
    (folder / "notes.jsonl").write_text('{"id": "n1"}\n{"id": "n2"}\n')
    (folder / "README.txt").write_text("not data")
    data = load_sample_data(folder)
    assert data.states == [
        {"notes": [{"id": "n1"}, {"id": "n2"}], "people": [{"id": "1", "name": "Ann"}, {"id": "2", "name": "Bo"}]}
    ]
    assert sorted(data.files) == ["notes.jsonl", "people.csv"]


@pytest.mark.parametrize(
    "name,text,where,problem",
    [
        ("dup.json", '{"users": {"u1": {"a": 1}, "u1": {"a": 2}}}', "users", "duplicate key 'u1'"),
        ("bad.json", '{"users": ', "line 1 column 11", "invalid JSON"),
        ("top.json", "[1, 2]", "(document)", "non-empty JSON object"),
        ("lines.jsonl", '{"a": {}}\n{"b": {}}\n', "line 2", "one layout"),
        ("dupline.jsonl", '{"a": {}}\n{"a": {"x": 1, "x": 2}}\n', "line 2: a", "duplicate key 'x'"),
    ],
)
def test_bad_data_names_file_and_record(tmp_path, name, text, where, problem):
    p = write(tmp_path, name, text)
    with pytest.raises(InputError) as err:
        load_sample_data(p)
    assert err.value.path == str(p) and err.value.location == where and problem in err.value.problem


def test_missing_file_and_record_of_another_shape(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        load_sample_data(tmp_path / "nope.json")
    state = orders_state()
    state["orders"]["#W1000003"] = {"order_id": "#W1000003", "note": "odd"}
    with pytest.raises(InputError) as err:
        infer_layout([state], "d.json")
    assert err.value.location == "orders/#W1000003" and "another shape" in err.value.problem
    state = orders_state()
    state["orders"]["#W1000002"]["total"] = "ten"
    with pytest.raises(InputError) as err:
        infer_layout([state], "d.json")
    assert err.value.location == "orders/#W1000002/total"
    rows = {"tags": [{"tag_id": "t1"}, {"tag_id": "t2"}, {"tag_id": "t1"}]}
    with pytest.raises(InputError) as err:
        infer_layout([rows], "x.json")
    assert err.value.location == "tags/[2]" and "duplicate key" in err.value.problem


def test_reconcile_docs_enum_and_fields_keep_the_data_layout(tmp_path):
    p = write(tmp_path, "d.json", json.dumps(orders_state()))
    data = load_sample_data(p)
    layout = infer_layout(data.states, data.path)
    create = ToolSpec(
        name="create_order",
        description="Create an order.",
        parameters={
            "type": "object",
            "properties": {
                "user_id": {"type": "string"},
                "status": {"type": "string", "enum": ["pending", "cancelled"]},
                "gift_note": {"type": "string"},
            },
            "required": ["user_id"],
        },
    )
    result = grounded_schema(DocSet(tools=[create]), data, layout)
    order = result.state_schema["properties"]["orders"]["additionalProperties"]
    assert order["properties"]["status"]["enum"] == ["cancelled", "delivered", "pending"]
    assert "gift_note" not in order["properties"]  # the records keep the data's shape
    assert any("gift_note" in n for n in result.data["notes"])
    assert sorted(result.state_schema["properties"]) == ["orders", "settings", "users"]
    assert result.source == "data+docs" and result.collections["orders"]["key_format"] == {"prefix": "#W", "digits": 7}
    jsonschema.validate(data.states[0], result.state_schema)
    assert result.state_schema["examples"] == data.states  # one small state: kept whole
    cuts = cut_states(data, layout, max_chars=100)
    assert len(cuts) == 3 and all(len(c["orders"]) == 2 and len(c["users"]) == 2 for c in cuts)  # 6 records, 3 cuts
    assert not set(cuts[0]["orders"]) & set(cuts[1]["orders"])  # disjoint records
    for c in cuts:
        assert sorted(c) == sorted(data.states[0]) and c["settings"] == data.states[0]["settings"]
        jsonschema.validate(c, result.state_schema)


def test_numbers_stay_open_and_integer_keys_stay_integers():
    state = {"items": {str(i): {"id": i, "qty": i * 2} for i in range(1, 5)}}
    layout = infer_layout([state], "d.json")
    rec = layout.state_schema["properties"]["items"]["additionalProperties"]["properties"]
    assert rec["id"]["type"] == "integer" and rec["qty"]["type"] == "number"  # a tool may store 2.5
    assert layout.collections["items"]["key_field"] == "id"


def test_a_field_null_in_most_records_and_set_in_one_is_nullable() -> None:
    claims = {f"c{i}": {"claim_id": f"c{i}", "status": "open", "payout": None} for i in range(5)}
    claims["c3"]["payout"] = {"amount": 10.0, "method": "check"}
    layout = infer_layout([{"claims": claims}], "d.json")
    payout = layout.state_schema["properties"]["claims"]["additionalProperties"]["properties"]["payout"]
    assert "null" in payout["type"] and "object" in payout["type"]
