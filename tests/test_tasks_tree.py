"""Tasks on a tree-shaped state: names, roles, recipes and their probes on a small hand-made tree environment."""

from __future__ import annotations

import copy
import random
import re

import pytest

from synth.task import Task
from synth.tasks.envmodel import model_from_parts
from synth.tasks.probes import run_probes
from synth.tasks.runner import FunctionRunner
from synth.tasks.tree_roles import node_kind_of_param, search_paths
from synth.tasks.tree_tasks import QUESTION_RECIPES, WRITE_RECIPES, TreeContext, make_tree_task
from synth.tasks.tree_values import Vocab, leaf_text, learn_vocab, make_tree, tree_infos, tree_nodes

# A tree unlike any reference: "drawer"/"note" nodes under "items", text in "body", working path in "here".
NODE = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["drawer", "note"]},
        "items": {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}},
        "body": {"type": "string"},
    },
    "required": ["kind"],
}
TREE = {"branch": "drawer", "leaf": "note", "children": "items", "kind_field": "kind", "text_field": "body"}
SAMPLE = {
    "vault": {
        "kind": "drawer",
        "items": {
            "garden_plans": {"kind": "drawer", "items": {"seed_order.md": {"kind": "note", "body": "x"}}},
            "recipes": {"kind": "drawer", "items": {"soup_list.md": {"kind": "note", "body": "y"}}},
        },
    }
}
SCHEMA = {
    "type": "object",
    "$defs": {"node": NODE},
    "properties": {
        "shelf": {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}, "x-tree": TREE},
        "here": {"type": "array", "items": {"type": "string"}, "x-working-node-of": "shelf"},
    },
    "required": ["shelf"],
    "examples": [{"shelf": SAMPLE}],
}


def _tool(name, kind, params, required=(), key=None, returns=None, desc=""):
    return {
        "name": name,
        "kind": kind,
        "description": desc,
        "collection": "shelf",
        "reads": ["shelf"],
        "writes": ["shelf"] if kind in ("tree_move", "tree_copy", "tree_make", "tree_remove", "tree_write") else [],
        "key_param": key,
        "parameters": {"type": "object", "properties": params, "required": list(required)},
        "returns": returns,
    }


S = {"type": "string"}
TOOLS = [
    _tool(
        "locate",
        "tree_find",
        {"query": S},
        key="query",
        returns={"type": "object", "properties": {"hits": {"type": "array"}}},
    ),
    _tool("enter", "tree_cd", {"drawer": S}, ["drawer"], key="drawer"),
    _tool("listing", "tree_list", {}),
    _tool("show", "tree_read", {"note_name": S}, ["note_name"], key="note_name"),
    _tool(
        "tally",
        "tree_lines",
        {"note_name": S, "unit": {"type": "string", "description": "what to count ('l' for lines, 'w' for words)"}},
        ["note_name"],
        key="note_name",
        returns={"type": "object", "properties": {"total": {"type": "integer"}}},
    ),
    _tool("seek", "tree_search", {"note_name": S, "text": S}, ["note_name", "text"], key="note_name"),
    _tool("relocate", "tree_move", {"src": S, "dst": S}, ["src", "dst"], key="src"),
    _tool("duplicate", "tree_copy", {"src": S, "dst": S}, ["src", "dst"], key="src"),
    _tool("newdrawer", "tree_make", {"drawer_label": S}, ["drawer_label"], key="drawer_label"),
    _tool("discard", "tree_remove", {"note_name": S}, ["note_name"], key="note_name"),
    _tool("save", "tree_write", {"note_name": S, "words": S}, ["note_name", "words"], key="note_name"),
]


# ----- the environment's tools as Python functions -----------------------------------------------


def _here(state):
    top = next(iter(state["shelf"].values()))["items"]
    for part in state.get("here") or []:
        top = top[part]["items"]
    return top


def locate(state, query=""):
    out = []

    def rec(nodes, path):
        for name in sorted(nodes):
            if query in name:
                out.append(path + "/" + name)
            if nodes[name]["kind"] == "drawer":
                rec(nodes[name]["items"], path + "/" + name)

    rec(_here(state), ".")
    return {"hits": out}


def enter(state, drawer):
    node = _here(state).get(drawer)
    if not node or node["kind"] != "drawer":
        raise ValueError(f"{drawer} is not a drawer here")
    state["here"] = list(state.get("here") or []) + [drawer]
    return {"at": drawer}


def _note(state, name):
    node = _here(state).get(name)
    if not node or node["kind"] != "note":
        raise ValueError(f"{name} is not a note here")
    return node


def listing(state):
    return sorted(_here(state))


def show(state, note_name):
    return {"text": _note(state, note_name)["body"]}


def tally(state, note_name, unit="l"):
    body = _note(state, note_name)["body"]
    return {"total": len(body.splitlines()) if unit == "l" else len(body.split())}


def seek(state, note_name, text):
    return [x for x in _note(state, note_name)["body"].splitlines() if text in x]


def _place(state, src, dst, keep):
    nodes = _here(state)
    if src not in nodes:
        raise ValueError(f"{src} not found")
    into, name = nodes, dst
    if dst in nodes and nodes[dst]["kind"] == "drawer":
        into, name = nodes[dst]["items"], src
    if name in into:
        raise ValueError(f"{name} exists")
    into[name] = copy.deepcopy(nodes[src])
    if not keep:
        del nodes[src]


def relocate(state, src, dst):
    _place(state, src, dst, keep=False)


def duplicate(state, src, dst):
    _place(state, src, dst, keep=True)


def newdrawer(state, drawer_label):
    if drawer_label in _here(state):
        raise ValueError("exists")
    _here(state)[drawer_label] = {"kind": "drawer", "items": {}}


def discard(state, note_name):
    _note(state, note_name)
    del _here(state)[note_name]


def save(state, note_name, words):
    _here(state)[note_name] = {"kind": "note", "body": words}


FUNCS = {
    f.__name__: f for f in (locate, enter, listing, show, tally, seek, relocate, duplicate, newdrawer, discard, save)
}


@pytest.fixture()
def ctx():
    model = model_from_parts("shelf_env", copy.deepcopy(TOOLS), copy.deepcopy(SCHEMA), "Note Shelf")
    return TreeContext(model, tree_infos(model.state_schema)[0])


# ----- tests ---------------------------------------------------------------------------------------


def test_tree_info_comes_from_the_schema():
    (info,) = tree_infos(SCHEMA)
    assert (info.key, info.branch, info.leaf, info.children, info.text_field, info.cwd_key) == (
        "shelf", "drawer", "note", "items", "body", "here",
    )  # fmt: skip
    assert tree_infos({"properties": {"a": {"type": "object"}}}) == []


def test_roles_follow_kinds_and_parameter_names(ctx):
    r = ctx.roles
    assert (r.locate.tool, r.enter.tool, r.move.tool, r.copy.tool) == ("locate", "enter", "relocate", "duplicate")
    assert r.locate.result_field == "hits" and r.listing.tool == "listing" and r.read.tool == "show"
    assert (r.move.name_param, r.move.other_param) == ("src", "dst")
    assert r.make_branch.tool == "newdrawer" and r.make_leaf is None  # "drawer_label" names the branch kind
    assert r.remove_leaf.tool == "discard" and r.remove_branch is None
    assert r.tally.tool == "tally" and r.tally.modes == {"lines": "l", "words": "w"} and r.tally_field == "total"
    assert (r.write.name_param, r.write.other_param) == ("note_name", "words")
    assert node_kind_of_param("dir_id", tree_infos(SCHEMA)[0]) is None
    assert search_paths({"hits": ["./a/b.md", "./c"]}) == [["a", "b.md"], ["c"]]


def test_vocab_learns_words_and_extensions_from_samples():
    info = tree_infos(SCHEMA)[0]
    v = learn_vocab([{"shelf": SAMPLE}], info, avoid={"relocate"})
    assert "garden" in v.folder_words and "recipes" in v.folder_words
    assert "seed" in v.file_words and "soup" in v.file_words
    assert v.exts == ["md"] and v.tops == ["vault"]


def test_generated_trees_have_unique_realistic_names_and_are_seeded():
    info = tree_infos(SCHEMA)[0]
    vocab = Vocab(avoid={"relocate", "locate"})
    t1 = make_tree(info, random.Random(3), vocab)
    assert t1 == make_tree(info, random.Random(3), vocab)
    assert t1 != make_tree(info, random.Random(4), vocab)
    nodes = tree_nodes({"shelf": t1}, info)
    names = [n for _, n, _ in nodes]
    assert len(names) == len(set(names)) and len(names) >= 5
    for a in names:  # a name search finds exactly one node
        assert [b for b in names if a in b] == [a]
    for _, name, node in nodes:
        if node["kind"] == "note":
            assert re.fullmatch(r"[A-Za-z0-9_-]+\.(txt|md|csv|log)", name)
            assert " " not in name and len(name.split(".")[0]) <= 40
            lines = node["body"].splitlines()
            assert lines and len(lines) == len(set(lines))
        else:
            assert re.fullmatch(r"[A-Za-z0-9_-]+", name)


def test_file_text_fits_the_extension_and_avoids_words():
    rng = random.Random(1)
    csv = leaf_text(rng, "stock.csv", lines=3).splitlines()
    assert csv[0] == "item,quantity,price" and len(csv) == 4 and all(x.count(",") == 2 for x in csv)
    log = leaf_text(rng, "run.log", lines=4).splitlines()
    assert all(re.match(r"2024-\d\d-\d\d \d\d:\d\d (INFO|WARN|ERROR) ", x) for x in log)
    for seed in range(30):
        text = leaf_text(random.Random(seed), "a.txt", avoid={"call", "send"}).lower()
        assert not re.search(r"\b(call|send)\b", text)


def _task(ctx, recipe, question, seed=0):
    """The first kept task of `recipe` over a few seeded candidates."""
    runner = FunctionRunner(FUNCS)
    ctx.recipes = lambda q: [recipe]  # this recipe only
    for i in range(40):
        out = make_tree_task(
            i * 5 + (4 if question else 0), ctx, runner, random.Random(f"{seed}:{i}"), question, seed, 0
        )
        if isinstance(out, Task):
            return out, runner
    raise AssertionError(f"no {recipe} task in 40 tries")


def test_move_task_searches_walks_and_moves_with_lookups(ctx):
    task, runner = _task(ctx, "move", question=False)
    names = [a.name for a in task.gold_actions]
    assert names[0] == "locate" and names[-1] == "relocate" and set(names[1:-1]) <= {"enter"}
    dag = task.provenance["dag"]["nodes"]
    walked = [n["args"]["drawer"] for n in dag if n["tool"] == "enter"]
    assert walked and all(s["source"] == "output" and s["node"] == "n0" for s in walked)
    src, dst = task.gold_actions[-1].arguments["src"], task.gold_actions[-1].arguments["dst"]
    assert f"'{src}'" in task.user_instruction and f"'{dst}'" in task.user_instruction
    assert "relocate" not in task.user_instruction and "shelf_env" not in task.user_instruction
    assert task.checks.exempt_paths == ["/here"]
    assert run_probes(task, runner, ctx.model).ok


def test_count_question_has_the_count_as_fact_and_other_counts_as_options(ctx):
    task, runner = _task(ctx, "count_lines", question=True)
    (fact,) = task.checks.required_facts
    last = task.gold_actions[-1]
    assert last.name == "tally" and last.arguments["unit"] == "l"
    assert fact == str(task.gold_outputs[-1]["total"])
    opts = task.checks.fact_options[fact]
    assert opts and fact not in opts
    assert task.gold_final_state["shelf"] == task.initial_state["shelf"]
    report = run_probes(task, runner, ctx.model)
    assert report.ok and report.probes["perturb_write_arg"].reward == 0.0


def test_line_question_asks_for_the_one_line_with_a_word(ctx):
    task, runner = _task(ctx, "line_with", question=True)
    (fact,) = task.checks.required_facts
    word = task.gold_actions[-1].arguments["text"]
    assert word in fact and f"'{word}'" in task.user_instruction
    assert all(word not in o for o in task.checks.fact_options[fact])
    assert run_probes(task, runner, ctx.model).ok


def test_a_tree_without_a_search_tool_makes_no_task():
    tools = [t for t in copy.deepcopy(TOOLS) if t["kind"] != "tree_find"]
    model = model_from_parts("shelf_env", tools, copy.deepcopy(SCHEMA), "Note Shelf")
    c = TreeContext(model, tree_infos(model.state_schema)[0])
    out = make_tree_task(0, c, FunctionRunner(FUNCS), random.Random(0), False, 0, 0)
    assert not isinstance(out, Task) and out.stage == "walk"


def test_a_file_named_by_part_of_its_name_is_read_from_the_search(ctx):
    seen = 0
    for seed in range(6):
        task, runner = _task(ctx, "remove", question=False, seed=seed)
        m = re.search(r"whose name contains '([^']+)'", task.user_instruction)
        if not m:
            continue
        seen += 1
        part, gone = m.group(1), task.gold_actions[-1].arguments["note_name"]
        assert task.gold_actions[0].arguments == {"query": part} and part in gone and part != gone
        assert f"'{gone}'" not in task.user_instruction
        src = task.provenance["dag"]["nodes"][-1]["args"]["note_name"]
        assert src["source"] == "output" and src["node"] == "n0"
        assert run_probes(task, runner, ctx.model).ok
    assert seen


def test_save_count_writes_the_count_read_before(ctx):
    task, runner = _task(ctx, "save_count", question=False)
    *_, count, save = task.gold_actions
    assert count.name == "tally" and save.name == "save"
    assert save.arguments["words"] == str(task.gold_outputs[-2]["total"])
    content = task.provenance["dag"]["nodes"][-1]["args"]["words"]
    assert content["source"] == "output" and content["node"] == task.provenance["dag"]["nodes"][-2]["id"]
    assert task.difficulty["depth"] >= 2
    assert run_probes(task, runner, ctx.model).ok


def test_where_question_names_the_holding_folder_and_its_size(ctx):
    task, runner = _task(ctx, "where", question=True)
    folder, count = task.checks.required_facts
    assert [a.name for a in task.gold_actions][-1] == "listing" and task.gold_actions[0].name == "locate"
    assert task.initial_state["here"] == [] and task.gold_actions[-2].arguments == {"drawer": folder}
    assert count == str(len(task.gold_outputs[-1]))
    assert folder not in task.checks.fact_options[folder] and count not in task.checks.fact_options[count]
    assert run_probes(task, runner, ctx.model).ok


@pytest.mark.parametrize("recipe", WRITE_RECIPES + QUESTION_RECIPES)
def test_every_recipe_makes_a_task_that_passes_its_probes(ctx, recipe):
    question = recipe in QUESTION_RECIPES
    task, runner = _task(ctx, recipe, question=question)
    assert task.provenance["recipe"] == recipe
    assert bool(task.checks.required_facts) == question
    assert (task.gold_final_state["shelf"] == task.initial_state["shelf"]) == question
    report = run_probes(task, runner, ctx.model)
    assert report.ok, report.problems()


def test_named_like_question_searches_inside_one_folder(ctx):
    task, runner = _task(ctx, "named_like", question=True)
    part = task.gold_actions[-1].arguments["query"]
    drawer = task.gold_actions[0].arguments["query"]
    assert task.gold_actions[-2].arguments == {"drawer": drawer}  # the second search runs inside the drawer
    nodes = tree_nodes(task.initial_state, ctx.info)
    inside = [n for p, n, x in nodes if x["kind"] == "note" and drawer in p and part in n]
    outside = [n for p, n, x in nodes if x["kind"] == "note" and drawer not in p and part in n]
    assert sorted(task.checks.required_facts) == sorted(inside) and outside
    for fact in task.checks.required_facts:
        assert set(outside) <= set(task.checks.fact_options[fact])  # a search of the whole tree answers wrong
    assert f"'{part}'" in task.user_instruction and f"'{drawer}'" in task.user_instruction
    assert run_probes(task, runner, ctx.model).ok


def test_a_plan_with_too_few_calls_is_dropped_at_size(ctx):
    runner = FunctionRunner(FUNCS)
    outs = [make_tree_task(i, ctx, runner, random.Random(i), False, 0, 0, min_calls=6) for i in range(10)]
    assert all(not isinstance(o, Task) for o in outs)
    assert {o.stage for o in outs} <= {"size", "walk"} and any(o.stage == "size" for o in outs)
    kept = [make_tree_task(i, ctx, runner, random.Random(i), False, 0, 0, min_calls=3) for i in range(10)]
    assert all(len(t.gold_actions) >= 3 for t in kept if isinstance(t, Task)) and any(isinstance(t, Task) for t in kept)


def test_report_section_counts_recipes_only_when_tasks_have_them(ctx):
    from synth.tasks.pipeline import GenReport, report_section

    task, _ = _task(ctx, "move", question=False)
    with_recipes = report_section(GenReport(env_id="shelf_env", seed=0, kept=[task, task]))
    assert "- recipes of kept tasks: {'move': 2}" in with_recipes
    task.provenance.pop("recipe")
    assert "recipes of kept tasks" not in report_section(GenReport(env_id="shelf_env", seed=0, kept=[task]))


def test_screen_measures_the_pass_rate_of_recipe_tasks(ctx):
    from synth.tasks.difficulty import Band
    from synth.tasks.pipeline import TaskGenConfig, screen

    task, runner = _task(ctx, "move", question=False)
    cfg = TaskGenConfig(pass_rate_k=2, band=Band(max_pass=0.5))
    easy = screen(copy.deepcopy(task), runner, ctx.model, cfg, pass_rate=lambda t: 1.0)
    assert not isinstance(easy, Task) and easy.stage == "band"
    hard = screen(copy.deepcopy(task), runner, ctx.model, cfg, pass_rate=lambda t: 0.0)
    assert isinstance(hard, Task) and hard.difficulty["pass_rate"] == 0.0
