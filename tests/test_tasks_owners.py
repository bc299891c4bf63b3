"""One-owner tasks on a small hand-made environment: members own tickets (the data's references), a
member is found by email, a ticket is named by what the member knows (a part's label), part id lists
take the ticket's own parts and siblings of the same kit."""

from __future__ import annotations

import copy
import random

import pytest

from synth.task import Task
from synth.tasks.describe import goal_words
from synth.tasks.envmodel import model_from_parts
from synth.tasks.graph import build_graph
from synth.tasks.idlists import choose_ids, describe_id, siblings
from synth.tasks.owners import owner_links, slice_state, write_wants
from synth.tasks.pipeline import TaskGenConfig, make_task
from synth.tasks.runner import FunctionRunner
from synth.tasks.values import build_pool


def _tool(name, kind, collection, props, required, key_param=None, writes=()):
    return {
        "name": name,
        "description": name.replace("_", " "),
        "parameters": {"type": "object", "properties": props, "required": required},
        "kind": kind,
        "collection": collection,
        "reads": [collection],
        "writes": list(writes),
        "key_param": key_param,
    }


S = {"type": "string"}
TOOLS = [
    _tool("find_member_by_email", "filter", "members", {"email": S}, ["email"]),
    _tool("get_member", "get", "members", {"member_key": S}, ["member_key"], "member_key"),
    _tool("get_ticket", "get", "tickets", {"ticket_id": S}, ["ticket_id"], "ticket_id"),
    _tool(
        "close_open_ticket",
        "recorded_update",
        "tickets",
        {"ticket_id": S, "reason": {"type": "string", "enum": ["fixed", "duplicate"]}},
        ["ticket_id", "reason"],
        "ticket_id",
        ["tickets"],
    ),
    _tool(
        "swap_open_ticket_parts",
        "recorded_update",
        "tickets",
        {"ticket_id": S, "part_ids": {"type": "array", "items": S}, "new_part_ids": {"type": "array", "items": S}},
        ["ticket_id", "part_ids", "new_part_ids"],
        "ticket_id",
        ["tickets"],
    ),
]
TOOLS.append(
    _tool(
        "move_ticket_site",
        "update",
        "tickets",
        {"ticket_id": S, "street": S, "city": S, "zip": S},
        ["ticket_id", "street", "city", "zip"],
        "ticket_id",
        ["tickets"],
    )
)
SITES = [
    {"street": "1 Elm Road", "city": "Avalon", "zip": "11111"},
    {"street": "2 Oak Road", "city": "Brindle", "zip": "22222"},
    {"street": "3 Ash Road", "city": "Corvale", "zip": "33333"},
    {"street": "4 Fir Road", "city": "Dunmore", "zip": "44444"},
]
SCHEMA = {
    "type": "object",
    "properties": {
        "members": {"type": "object", "additionalProperties": {"type": "object", "properties": {"email": S}}},
        "tickets": {
            "type": "object",
            "additionalProperties": {"type": "object", "properties": {"ticket_id": S, "status": S, "member": S}},
        },
        "kits": {"type": "object", "additionalProperties": {"type": "object", "properties": {"kit_id": S, "label": S}}},
    },
}


def _data():
    kits = {
        "K100001": {
            "kit_id": "K100001",
            "label": "Desk Lamp",
            "parts": {
                "P5000001": {"part_id": "P5000001", "options": {"color": "red"}, "in_stock": True},
                "P5000002": {"part_id": "P5000002", "options": {"color": "blue"}, "in_stock": True},
                "P5000003": {"part_id": "P5000003", "options": {"color": "green"}, "in_stock": False},
            },
        },
        "K100002": {
            "kit_id": "K100002",
            "label": "Tool Box",
            "parts": {
                "P6000001": {"part_id": "P6000001", "options": {"size": "small"}, "in_stock": True},
                "P6000002": {"part_id": "P6000002", "options": {"size": "large"}, "in_stock": True},
            },
        },
    }

    def line(kit, part):
        return {
            "kit_id": kit,
            "part_id": part,
            "label": kits[kit]["label"],
            "options": kits[kit]["parts"][part]["options"],
            "price": 10 + int(part[-1]) + (5 if kit.endswith("2") else 0),
        }

    tickets = {
        "#T1000001": {
            "ticket_id": "#T1000001",
            "status": "open",
            "member": "ann_9001",
            "lines": [line("K100001", "P5000001")],
        },
        "#T1000002": {
            "ticket_id": "#T1000002",
            "status": "closed",
            "member": "ann_9001",
            "lines": [line("K100002", "P6000001")],
        },
        "#T1000003": {
            "ticket_id": "#T1000003",
            "status": "open",
            "member": "bob_9002",
            "lines": [line("K100002", "P6000002")],
        },
        "#T1000004": {
            "ticket_id": "#T1000004",
            "status": "held",
            "member": "bob_9002",
            "lines": [line("K100001", "P5000002")],
        },
    }
    for i, t in enumerate(tickets.values()):
        t["site"] = dict(SITES[i])
    members = {
        "ann_9001": {"email": "ann@example.com", "tickets": ["#T1000001", "#T1000002"]},
        "bob_9002": {"email": "bob@example.com", "tickets": ["#T1000003", "#T1000004"]},
        "cid_9003": {"email": "cid@example.com", "tickets": []},
    }
    return {"members": members, "tickets": tickets, "kits": kits}


REFS = [
    {"collection": "members", "field": "tickets[]", "target": "tickets"},
    {"collection": "tickets", "field": "member", "target": "members"},
    {"collection": "tickets", "field": "lines[]/kit_id", "target": "kits"},
]


def _model():
    model = model_from_parts("shop_desk", TOOLS, SCHEMA, "Shop Desk API")
    model.data_refs = copy.deepcopy(REFS)
    model.data = _data()
    return model


class Closed(Exception):
    pass


def _runner():
    def find(state, email):
        keys = [k for k, m in state["members"].items() if m["email"] == email]
        if not keys:
            raise KeyError(email)
        return keys[0]

    def get_member(state, member_key):
        return copy.deepcopy(state["members"][member_key])

    def get_ticket(state, ticket_id):
        return copy.deepcopy(state["tickets"][ticket_id])

    def close(state, ticket_id, reason):
        t = state["tickets"][ticket_id]
        if t["status"] != "open":
            raise Closed(f"{ticket_id} is {t['status']}")
        t["status"], t["reason"] = "closed", reason
        return copy.deepcopy(t)

    def swap(state, ticket_id, part_ids, new_part_ids):
        t = state["tickets"][ticket_id]
        if t["status"] != "open":
            raise Closed(f"{ticket_id} is {t['status']}")
        for old, new in zip(part_ids, new_part_ids):
            line = next(x for x in t["lines"] if x["part_id"] == old)
            kit = state["kits"][line["kit_id"]]
            if new not in kit["parts"]:
                raise KeyError(f"{new} is not a part of {kit['kit_id']}")
            line["part_id"], line["options"] = new, kit["parts"][new]["options"]
        return copy.deepcopy(t)

    def move(state, ticket_id, street, city, zip):
        state["tickets"][ticket_id]["site"] = {"street": street, "city": city, "zip": zip}
        return copy.deepcopy(state["tickets"][ticket_id])

    return FunctionRunner(
        {
            "move_ticket_site": move,
            "find_member_by_email": find,
            "get_member": get_member,
            "get_ticket": get_ticket,
            "close_open_ticket": close,
            "swap_open_ticket_parts": swap,
        }
    )


def test_owner_link_comes_from_the_data_references():
    links = owner_links(_model())
    assert [(x.owner, x.owned, x.list_field, x.finders, x.get_owner, x.get_owned) for x in links] == [
        ("members", "tickets", "tickets", ["find_member_by_email"], "get_member", "get_ticket")
    ]
    bare = _model()
    bare.data_refs = []
    assert owner_links(bare) == []
    nodata = _model()
    del nodata.data["tickets"]
    assert owner_links(nodata) == []


def test_write_wants_reads_a_state_word_from_the_tool_name():
    model = _model()
    link = owner_links(model)[0]
    assert write_wants(model, link, ["close_open_ticket"]) == {"status": "open"}
    assert write_wants(model, link, ["get_ticket"]) == {}


def test_slice_keeps_owners_with_all_their_records_and_referenced_ones():
    model = _model()
    link = owner_links(model)[0]
    for seed in range(6):
        state, focus = slice_state(model, link, random.Random(seed), {"status": "open"}, owners=2)
        assert focus in ("ann_9001", "bob_9002")  # cid owns nothing
        for k, m in state["members"].items():
            assert set(m["tickets"]) <= set(state["tickets"])
        kits = {ln["kit_id"] for t in state["tickets"].values() for ln in t["lines"]}
        assert kits == set(state["kits"])
    state, _focus = slice_state(model, link, random.Random(0), {}, owners=5)  # more than own anything
    assert sorted(state["members"]) == ["ann_9001", "bob_9002"]


def test_part_ids_come_from_the_ticket_and_new_ones_from_the_same_kit():
    state = copy.deepcopy(_data())
    ticket = state["tickets"]["#T1000001"]
    rng = random.Random(0)
    args = {"ticket_id": "#T1000001"}
    args["part_ids"] = choose_ids("part_ids", {"type": "array"}, ticket, state, args, rng)
    assert args["part_ids"] == ["P5000001"]
    new = choose_ids("new_part_ids", {"type": "array"}, ticket, state, args, rng)
    assert new == ["P5000002"]  # the other in-stock part of the same kit (P5000003 is out of stock)
    assert siblings(state, "P6000001") == ["P6000002"]
    assert describe_id(state, "P5000002", "part_id") == "Desk Lamp with color blue"


def test_goal_words_drop_the_resource_and_the_record_state():
    tool = _model().tools["close_open_ticket"]
    assert goal_words(tool, "ticket", {"open"}) == ("close", "")
    swap = _model().tools["swap_open_ticket_parts"]
    assert goal_words(swap, "ticket", {"open"}) == ("swap", "parts")
    form = dict(TOOLS[-1], name="update_ticket_with_form")
    from synth.tasks.envmodel import tool_info

    assert goal_words(tool_info(form, _model().collections), "ticket", set()) == ("update", "")


@pytest.fixture(scope="module")
def made():
    model = _model()
    runner = _runner()
    graph = build_graph(model, None, "none")
    pool = build_pool(model, None, per_field=2, seed=0)
    cfg = TaskGenConfig(n=10, seed=0)
    return model, [make_task(i, model, graph, runner, pool, None, cfg) for i in range(10)]


def test_owner_tasks_look_the_record_up_and_name_no_internal_id(made):
    model, out = made
    kept = [t for t in out if isinstance(t, Task)]
    assert len(kept) >= 5
    for t in kept:
        names = [a.name for a in t.gold_actions]
        assert names[:3] == ["find_member_by_email", "get_member", "get_ticket"]
        text = t.user_instruction
        assert "@example.com" in text
        for key in list(t.initial_state["tickets"]) + list(t.initial_state["members"]):
            assert key.lower() not in text.lower()
        assert not any(n in text for n in model.tools)
        nodes = t.provenance["dag"]["nodes"]
        assert any(n["op"] == "identify" for n in nodes)
        assert t.difficulty["depth"] >= 4


def test_owner_writes_fit_the_tool_name_and_parts_are_described(made):
    _model_, out = made
    kept = [t for t in out if isinstance(t, Task)]
    writes = [a for t in kept for a in t.gold_actions if a.name in ("close_open_ticket", "swap_open_ticket_parts")]
    assert writes
    for t in kept:
        for a in t.gold_actions:
            if a.name in ("close_open_ticket", "swap_open_ticket_parts"):
                assert t.initial_state["tickets"][a.arguments["ticket_id"]]["status"] == "open"
            if a.name == "swap_open_ticket_parts":
                assert not any(p in t.user_instruction for p in a.arguments["new_part_ids"])
                assert " with " in t.user_instruction


def test_owner_question_asks_about_the_identified_record(made):
    model, out = made
    questions = [
        t for t in out if isinstance(t, Task) and not any(model.tools[a.name].is_write for a in t.gold_actions)
    ]
    assert questions
    for q in questions:
        assert q.checks.required_facts and all(q.checks.fact_options.get(f) for f in q.checks.required_facts)


def test_parts_of_one_object_come_whole_from_another_record():
    from synth.tasks.args import whole_object
    from synth.tasks.state_fill import GenContext

    model = _model()
    state = copy.deepcopy(model.data)
    for seed in range(5):
        ctx = GenContext(model=model, rng=random.Random(seed), pool=None, state=state)
        got = whole_object(model.tools["move_ticket_site"], ["street", "city", "zip"], ctx, {"ticket_id": "#T1000001"})
        assert got in [s for s in SITES[1:]]  # one other site, all three parts from it
    ctx = GenContext(model=model, rng=random.Random(0), pool=None, state=state)
    assert whole_object(model.tools["move_ticket_site"], ["city"], ctx, {"ticket_id": "#T1000001"}) == {}


def test_owner_question_facts_name_object_parts_plainly(made):
    _model_, out = made
    facts = [
        (t.user_instruction, f, t.provenance["facts"][i]["field"])
        for t in out
        if isinstance(t, Task)
        for i, f in enumerate(t.checks.required_facts)
    ]
    assert facts
    for text, value, fld in facts:
        assert value.lower() not in text.lower()
        if fld.startswith("site/"):
            assert f"the {fld.split('/')[1]} of the site of my ticket" in text


def test_a_second_write_needs_the_state_its_name_asks_for():
    from synth.tasks.owners import still_fits

    model = _model()
    link = owner_links(model)[0]
    state = copy.deepcopy(model.data)
    assert still_fits(model, link, "close_open_ticket", {"ticket_id": "#T1000001"}, state)
    state["tickets"]["#T1000001"]["status"] = "closed"
    assert not still_fits(model, link, "close_open_ticket", {"ticket_id": "#T1000001"}, state)
    assert still_fits(model, link, "move_ticket_site", {"ticket_id": "#T1000001"}, state)  # its name asks for nothing


def test_kept_tasks_never_write_a_record_an_earlier_write_closed():
    from synth.tasks.instantiate import Dropped

    model, runner = _model(), _runner()
    graph, pool = build_graph(model, None, "none"), build_pool(model, None, per_field=2, seed=0)
    out = [make_task(i, model, graph, runner, pool, None, TaskGenConfig(n=40, seed=1)) for i in range(40)]
    assert any(isinstance(d, Dropped) and "no longer has the state" in d.reason for d in out)
    for t in out:
        if isinstance(t, Task):
            names = [a.name for a in t.gold_actions]
            if "close_open_ticket" in names:
                assert "swap_open_ticket_parts" not in names[names.index("close_open_ticket") :]


def test_refusal_asks_for_a_write_the_environment_refuses_and_checks_the_reason():
    model, runner = _model(), _runner()
    graph, pool = build_graph(model, None, "none"), build_pool(model, None, per_field=2, seed=0)
    cfg = TaskGenConfig(n=40, seed=0)
    out = [make_task(i, model, graph, runner, pool, None, cfg) for i in range(7, 40, cfg.refusal_every)]
    refusals = [t for t in out if isinstance(t, Task)]
    assert refusals
    for t in refusals:
        assert not any(model.tools[a.name].is_write for a in t.gold_actions)
        (call,) = t.provenance["refused_calls"]
        assert call["name"] in ("close_open_ticket", "swap_open_ticket_parts")
        ticket = t.initial_state["tickets"][call["arguments"]["ticket_id"]]
        assert ticket["status"] != "open"
        assert t.checks.required_facts == [ticket["status"]]
        assert "open" not in t.checks.fact_options[ticket["status"]]
        assert t.checks.fact_options[ticket["status"]]
        assert ticket["status"] not in t.user_instruction
        runner.reset(t.initial_state)
        assert not runner.call(call["name"], call["arguments"]).ok


def test_owner_questions_ask_for_a_price_of_a_listed_thing_with_options_outside_the_owner():
    model, runner = _model(), _runner()
    graph, pool = build_graph(model, None, "none"), build_pool(model, None, per_field=2, seed=0)
    cfg = TaskGenConfig(n=60, seed=0)
    out = [make_task(i, model, graph, runner, pool, None, cfg) for i in range(4, 60, cfg.question_every)]
    priced = [t for t in out if isinstance(t, Task) and t.provenance["facts"][0]["field"] == "lines/price"]
    assert priced
    for t in priced:
        (value,) = t.checks.required_facts
        assert "the price of '" in t.user_instruction and value not in t.user_instruction
        email = t.gold_actions[0].arguments["email"]
        owner = next(m for m in t.initial_state["members"].values() if m["email"] == email)
        mine = {str(ln["price"]) for k in owner["tickets"] for ln in t.initial_state["tickets"][k]["lines"]}
        assert value in mine and not set(t.checks.fact_options[value]) & mine
