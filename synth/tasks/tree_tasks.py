"""Tasks on a tree-shaped state (a file system): what a user asks of their files.

Each candidate gets a fresh seeded tree (tree_values.make_tree) and one recipe: a change (move a file
into the folder beside it, copy it there, delete it, rename it, make a folder beside it and move the file
in, create a file with a line of text inside a named folder, replace a file's text, save a file's line
count in a new file) or a question (how many lines a file has, how many items a folder holds, the line
of a file that mentions a word, a file's first line, which folder holds a file and its size, which files
inside a named folder have names containing a word). The user names files and folders (a file perhaps
only by a part of its name), never where they are: the gold run first searches the tree by name and
walks into the folders the search shows (data edges from the search result), as an agent must.
Questions carry their answers as required facts, each with the answers it could be confused with
(other files' counts, the file's other lines, files outside the folder).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from synth.llm.prompts import render
from synth.spec import ToolCall
from synth.task import Checks, Task
from synth.tasks.dag import ArgSource, DagNode, TaskDAG
from synth.tasks.difficulty import dag_measures
from synth.tasks.envmodel import EnvModel, display_name
from synth.tasks.instantiate import Dropped
from synth.tasks.runner import Runner
from synth.tasks.state_fill import check_state
from synth.tasks.tree_roles import Role, TreeRoles, search_paths, tree_roles
from synth.tasks.tree_values import (
    TreeInfo,
    Vocab,
    branch_name,
    is_branch,
    leaf_name,
    leaf_text,
    learn_vocab,
    make_tree,
    tree_nodes,
)
from synth.verify import escape_segment, states_match

WRITE_RECIPES = ("move", "copy", "remove", "rename", "new_branch_move", "new_leaf", "overwrite", "save_count")
QUESTION_RECIPES = ("count_lines", "line_with", "count_children", "first_line", "where", "named_like")
NAME_PARTS = re.compile(r"[_\-. ]+|(?<=[a-z])(?=[A-Z0-9])")  # "BudgetQ1" -> Budget, Q1; "plan_ideas" -> plan, ideas
NEEDS = {  # the roles each recipe needs besides locate and enter
    "move": ("move",),
    "copy": ("copy",),
    "remove": ("remove_leaf",),
    "rename": ("move",),
    "new_branch_move": ("make_branch", "move"),
    "new_leaf": ("write",),
    "overwrite": ("write",),
    "save_count": ("tally", "write"),
    "count_lines": ("tally",),
    "line_with": ("search",),
    "count_children": ("listing",),
    "first_line": ("read",),
    "where": ("listing",),
    "named_like": (),
}


@dataclass
class TreePlan:
    """A recipe made concrete: the gold calls with their argument sources, the clause and the facts."""

    recipe: str
    clause: str
    target: str = ""  # the name of the node the search must show
    calls: list[DagNode] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    options: dict[str, list[str]] = field(default_factory=dict)


class TreeContext:
    """What every tree candidate reads: the tree, its tools by role, the vocabulary, the tool names to avoid."""

    def __init__(self, model: EnvModel, info: TreeInfo, samples: list[dict[str, Any]] | None = None):
        self.model = model
        self.info = info
        self.roles: TreeRoles = tree_roles(model, info)
        avoid = {n.lower() for n in model.tools if len(n) > 3}
        examples = list(model.state_schema.get("examples") or []) + list(samples or [])
        self.vocab: Vocab = learn_vocab(examples, info, avoid)

    def recipes(self, question: bool) -> list[str]:
        """Recipes this environment's tools can carry out (searching and entering branches are needed by all)."""
        if self.roles.locate is None or self.roles.enter is None:
            return []
        pool = QUESTION_RECIPES if question else WRITE_RECIPES
        return [r for r in pool if all(getattr(self.roles, x) is not None for x in NEEDS[r])]


def _words(info: TreeInfo) -> dict[str, str]:
    leaf = info.leaf.lower() if info.leaf.isalpha() else "item"
    branch = info.branch.lower() if info.branch.isalpha() else "group"
    return {"leaf": leaf, "branch": branch}


def clause(recipe: str, info: TreeInfo, a: str, b: str = "", text: str = "", like: str = "") -> str:
    """One clause of the request (tasks_tree_clause.j2); `like`: the part of a's name the user remembers."""
    out = render("tasks_tree_clause.j2", recipe=recipe, a=a, b=b, text=text, like=like, **_words(info))
    return re.sub(r"\s+", " ", out).strip()


def _call(i: int, role: Role, args: dict[str, ArgSource]) -> DagNode:
    return DagNode(id=f"n{i}", kind="call", tool=role.tool, args=args)


def _navigate(ctx: TreeContext, target: str, path: list[str], into: bool, query: str = "") -> list[DagNode]:
    """Search for `target` by name (or by `query`, a part of it), then walk into each folder the search shows
    (and into the target itself when `into`): the walk's folder names are data edges from the search result."""
    r = ctx.roles
    assert r.locate is not None and r.enter is not None
    what = query or target
    nodes = [_call(0, r.locate, {r.locate.name_param: ArgSource("user", value=what)} if r.locate.name_param else {})]
    for part in path + ([target] if into else []):
        nodes.append(
            _call(
                len(nodes),
                r.enter,
                {r.enter.name_param: ArgSource("output", node="n0", value=part, path=r.locate.result_field)},
            )
        )
    return nodes


def _leaves_and_branches(state: dict[str, Any], info: TreeInfo):
    all_nodes = tree_nodes(state, info)
    leaves = [(p, n, x) for p, n, x in all_nodes if not is_branch(x, info)]
    branches = [(p, n, x) for p, n, x in all_nodes if is_branch(x, info)]
    return leaves, branches


def _lines(node: dict[str, Any], info: TreeInfo) -> list[str]:
    text = node.get(info.text_field or "", "") if info.text_field else ""
    return text.splitlines() if isinstance(text, str) else []


def plan_recipe(ctx: TreeContext, recipe: str, state: dict[str, Any], rng: random.Random) -> TreePlan | None:
    """The gold plan of `recipe` on `state`, or None when the tree offers no fitting files or folders."""
    info, r = ctx.info, ctx.roles
    leaves, branches = _leaves_and_branches(state, info)
    taken = {n for _, n, _ in leaves + branches}
    if recipe in ("move", "copy"):  # a file with a folder beside it
        leaves = [x for x in leaves if any(q == x[0] for q, _, _ in branches)]
    if recipe in ("count_lines", "first_line", "line_with"):  # a file with a few lines to tell apart
        leaves = [x for x in leaves if len(_lines(x[2], info)) >= 2] or leaves
    if not leaves:
        return None
    nested = [x for x in leaves if x[0]]  # the user does not know where a nested file is: a lookup
    p, f, node = rng.choice(nested if nested and rng.random() < 0.85 else leaves)
    like = name_part(f, taken, ctx.vocab.avoid, rng) if rng.random() < 0.4 else ""
    name = ArgSource("output", node="n0", value=f, path=r.locate.result_field) if like else ArgSource("user", value=f)
    plan = TreePlan(recipe, "", target=f)

    def go() -> list[DagNode]:
        return _navigate(ctx, f, p, False, like)

    if recipe in ("move", "copy"):
        here = [n for q, n, _ in branches if q == p]
        if not here:
            return None
        target = rng.choice(here)
        role = r.move if recipe == "move" else r.copy
        plan.calls = go()
        plan.calls.append(
            _call(len(plan.calls), role, {role.name_param: name, role.other_param: ArgSource("user", value=target)})
        )
        plan.clause = clause(recipe, info, f, target, like=like)
        return plan
    if recipe == "remove":
        plan.calls = go()
        plan.calls.append(_call(len(plan.calls), r.remove_leaf, {r.remove_leaf.name_param: name}))
        plan.clause = clause(recipe, info, f, like=like)
        return plan
    if recipe == "rename":
        ext = f.rpartition(".")[2] if "." in f else None
        new = leaf_name(rng, ctx.vocab, set(taken), ext)
        plan.calls = go()
        plan.calls.append(
            _call(len(plan.calls), r.move, {r.move.name_param: name, r.move.other_param: ArgSource("user", value=new)})
        )
        plan.clause = clause(recipe, info, f, new, like=like)
        return plan
    if recipe == "new_branch_move":
        new = branch_name(rng, ctx.vocab, set(taken))
        plan.calls = go()
        plan.calls.append(
            _call(len(plan.calls), r.make_branch, {r.make_branch.name_param: ArgSource("user", value=new)})
        )
        plan.calls.append(
            _call(len(plan.calls), r.move, {r.move.name_param: name, r.move.other_param: ArgSource("user", value=new)})
        )
        plan.clause = clause(recipe, info, f, new, like=like)
        return plan
    if recipe == "save_count":
        c, w = r.tally, r.write
        new = leaf_name(rng, ctx.vocab, set(taken), "txt" if "txt" in ctx.vocab.exts else None)
        plan.calls = go()
        args = {c.name_param: name}
        if c.other_param:
            args[c.other_param] = ArgSource("user", value=c.modes["lines"])
        plan.calls.append(_call(len(plan.calls), c, args))
        count = str(len(_lines(node, info)))
        src = ArgSource("output", node=plan.calls[-1].id, value=count, path=ctx.roles.tally_field)
        plan.calls.append(_call(len(plan.calls), w, {w.name_param: ArgSource("user", value=new), w.other_param: src}))
        plan.clause = clause(recipe, info, f, new, like=like)
        return plan
    if recipe in ("new_leaf", "overwrite"):
        text = leaf_text(rng, "x.txt", ctx.vocab.avoid, lines=1)
        w = r.write
        if recipe == "overwrite":
            if text in _lines(node, info):
                return None
            plan.calls = go()
            plan.calls.append(
                _call(len(plan.calls), w, {w.name_param: name, w.other_param: ArgSource("user", value=text)})
            )
            plan.clause = clause(recipe, info, f, text=text, like=like)
            return plan
        if not branches:
            return None
        bp, b, _ = rng.choice(branches)
        new = leaf_name(rng, ctx.vocab, set(taken), "txt" if "txt" in ctx.vocab.exts else None)
        nodes = _navigate(ctx, b, bp, True)
        nodes.append(
            _call(
                len(nodes),
                w,
                {w.name_param: ArgSource("user", value=new), w.other_param: ArgSource("user", value=text)},
            )
        )
        return TreePlan(recipe, clause(recipe, info, b, new, text), b, nodes)
    return plan_question(ctx, recipe, state, rng, leaves, branches, (p, f, node), like)


def name_part(name: str, taken: set[str], avoid: set[str], rng: random.Random) -> str:
    """A part of a file's name ("Budget" of "BudgetQ1.csv") that no other node's name contains, or ""."""
    stem = name.rpartition(".")[0] or name
    parts = [x for x in NAME_PARTS.split(stem) if len(x) >= 4]
    parts = [x for x in parts if x.lower() not in avoid and [t for t in taken if x in t] == [name]]
    return rng.choice(sorted(set(parts))) if parts and len(parts[0]) < len(stem) else ""


def _distinct(values: list[str], fact: str) -> list[str]:
    out: list[str] = []
    for v in values:
        if v != fact and v not in out and v.lower() not in fact.lower() and fact.lower() not in v.lower():
            out.append(v)
    return out


def plan_question(ctx, recipe, state, rng, leaves, branches, chosen, like: str = "") -> TreePlan | None:
    """A question's plan: the reads, the fact the user asks for and the answers it could be confused with.
    `like`: the part of the file's name the user remembers (the name is then read from the search result)."""
    info, r = ctx.info, ctx.roles
    p, f, node = chosen
    name = ArgSource("output", node="n0", value=f, path=r.locate.result_field) if like else ArgSource("user", value=f)
    lines = _lines(node, info)
    if recipe == "count_lines":
        fact = str(len(lines))
        others = [str(len(_lines(x, info))) for _, n, x in leaves if n != f]
        others += [str(len(" ".join(lines).split()))]
        nodes = _navigate(ctx, f, p, False, like)
        c = r.tally
        args = {c.name_param: name}
        if c.other_param:
            args[c.other_param] = ArgSource("user", value=c.modes["lines"])
        nodes.append(_call(len(nodes), c, args))
        plan = TreePlan(recipe, clause(recipe, info, f, like=like), f, nodes, [fact])
        plan.options[fact] = _distinct(others, fact)
        return plan
    if recipe == "first_line":
        if len(lines) < 2:
            return None
        nodes = _navigate(ctx, f, p, False, like)
        nodes.append(_call(len(nodes), r.read, {r.read.name_param: name}))
        plan = TreePlan(recipe, clause(recipe, info, f, like=like), f, nodes, [lines[0]])
        plan.options[lines[0]] = _distinct(lines[1:], lines[0])
        return plan
    if recipe == "line_with":
        words: dict[str, list[str]] = {}
        for line in lines:
            for w in set(re.findall(r"[A-Za-z]{4,}", line)):
                words.setdefault(w, []).append(line)
        unique = sorted(w for w, ls in words.items() if len(ls) == 1 and w.lower() not in ctx.vocab.avoid)
        if len(lines) < 2 or not unique:
            return None
        word = rng.choice(unique)
        fact = words[word][0]
        nodes = _navigate(ctx, f, p, False, like)
        s = r.search
        nodes.append(_call(len(nodes), s, {s.name_param: name, s.other_param: ArgSource("user", value=word)}))
        plan = TreePlan(recipe, clause(recipe, info, f, word, like=like), f, nodes, [fact])
        plan.options[fact] = _distinct(lines, fact)
        return plan
    if recipe == "count_children":
        if not branches:
            return None
        bp, b, bnode = rng.choice(branches)
        kids = bnode.get(info.children) or {}
        fact = str(len(kids))
        others = [str(len(x.get(info.children) or {})) for _, n, x in branches if n != b]
        nodes = _navigate(ctx, b, bp, True)
        nodes.append(_call(len(nodes), r.listing, {}))
        plan = TreePlan(recipe, clause(recipe, info, b), b, nodes, [fact])
        plan.options[fact] = _distinct(others, fact)
        return plan
    if recipe == "named_like":  # the files inside folder D whose names contain X; files outside D match X too
        return _named_like(ctx, recipe, rng, leaves, branches)
    if recipe == "where":  # the folder holding a file, and how many items that folder holds
        if not p:
            return None
        holder = next(x for q, n, x in branches if q + [n] == p)
        facts = [p[-1], str(len(holder.get(info.children) or {}))]
        nodes = _navigate(ctx, f, p, False, like)
        nodes.append(_call(len(nodes), r.listing, {}))
        plan = TreePlan(recipe, clause(recipe, info, f, like=like), f, nodes, facts)
        plan.options[facts[0]] = _distinct([n for _, n, _ in branches], facts[0])
        counts = [str(len(x.get(info.children) or {})) for q, n, x in branches if q + [n] != p]
        plan.options[facts[1]] = _distinct(counts, facts[1])
        return plan
    return None


def _named_like(ctx: TreeContext, recipe: str, rng: random.Random, leaves, branches) -> TreePlan | None:
    """Search for folder D, walk into it, search it for X: the facts are the files under D whose names contain
    X, the options every other file (those outside D that contain X too, so a search of the whole tree fails)."""
    info, r = ctx.info, ctx.roles
    choices = []
    for bp, b, _ in branches:
        inside = [(q, n) for q, n, _ in leaves if q[: len(bp) + 1] == bp + [b]]
        parts = {x for _, n in inside for x in NAME_PARTS.split(n.rpartition(".")[0] or n) if len(x) >= 4}
        for x in sorted(parts):
            if x.lower() in ctx.vocab.avoid or any(x in n for _, n, _ in branches):
                continue
            hits = [n for q, n in inside if x in n]
            outside = [n for q, n, _ in leaves if x in n and n not in hits]
            if 1 <= len(hits) <= 3 and outside:
                choices.append((bp, b, x, sorted(hits)))
    if not choices:
        return None
    bp, b, x, hits = rng.choice(choices)
    nodes = _navigate(ctx, b, bp, True)
    nodes.append(_call(len(nodes), r.locate, {r.locate.name_param: ArgSource("user", value=x)}))
    plan = TreePlan(recipe, clause(recipe, info, b, x), b, nodes, hits)
    others = [n for _, n, _ in leaves if n not in hits]
    for fact in hits:
        plan.options[fact] = _distinct(others, fact)
    return plan


def initial_tree_state(ctx: TreeContext, rng: random.Random) -> dict[str, Any]:
    """A fresh state: the generated tree and, when the schema has one, an empty working path."""
    info = ctx.info
    state: dict[str, Any] = {info.key: make_tree(info, rng, ctx.vocab)}
    if info.cwd_key:
        state[info.cwd_key] = []
    return dict(sorted(state.items()))


def tree_exempt(info: TreeInfo) -> list[str]:
    """The working path is where the agent stands, not part of the outcome."""
    return ["/" + escape_segment(info.cwd_key)] if info.cwd_key else []


def make_tree_task(
    index: int,
    ctx: TreeContext,
    runner: Runner,
    rng: random.Random,
    question: bool,
    seed: int,
    persona: int,
    min_calls: int = 1,
) -> Task | Dropped:
    """Candidate `index` on a tree environment: a kept Task, or Dropped with its stage and reason
    (stage `size` when its gold run has fewer than `min_calls` calls)."""
    recipes = ctx.recipes(question)
    if not recipes:
        return Dropped("walk", "the tree's tools cannot search and walk into folders, or carry out any recipe")
    recipe = recipes[index // 5 % len(recipes)] if question else rng.choice(recipes)
    try:
        state = initial_tree_state(ctx, rng)
    except ValueError as ex:
        return Dropped("state", f"tree names: {ex}")
    bad = check_state(ctx.model, state)
    if bad:
        return Dropped("state", f"the generated tree breaks the state schema at {bad}")
    plan = plan_recipe(ctx, recipe, state, rng)
    if plan is None:
        return Dropped("walk", f"recipe {recipe}: no fitting file or folder in the generated tree")
    if len(plan.calls) < min_calls:
        return Dropped("size", f"recipe {recipe}: {len(plan.calls)} gold calls (< {min_calls})")
    runner.reset(state)
    outputs: list[Any] = []
    actions: list[ToolCall] = []
    for n in plan.calls:
        args = {k: s.value for k, s in n.args.items()}
        out = runner.call(n.tool, args)
        if not out.ok:
            return Dropped("execute", f"{n.id} {n.tool} fails: {out.error}"[:300])
        if n.id == "n0" and plan.target and not _shows(out.result, n, plan):
            return Dropped("execute", f"the search result does not show the path walked: {str(out.result)[:120]}")
        outputs.append(out.result)
        actions.append(ToolCall(name=n.tool, arguments=args))
    final = runner.state()
    exempt = tree_exempt(ctx.info)
    if not question and states_match(state, final, exempt):
        return Dropped("state", "the writes change nothing outside the exempt paths")
    if question and not all(plan.options.get(f) for f in plan.facts):
        return Dropped("facts", "a question needs facts, each with answers it could be confused with")
    if question and not _answer_shown(plan, outputs):
        return Dropped("facts", "the answer is not in what the reads show")
    dag = TaskDAG(nodes=plan.calls)
    text = re.sub(
        r"\s+",
        " ",
        render(
            "tasks_request.j2", service=display_name(ctx.model), persona=persona, identity=[], clauses=[plan.clause]
        ),
    ).strip()
    env_id = ctx.model.env_id
    return Task(
        task_id=f"{env_id}-s{seed}-{index:04d}",
        env_id=env_id,
        user_instruction=text,
        intent=f"(1) {plan.clause}.",
        initial_state=state,
        gold_actions=actions,
        gold_final_state=final,
        checks=Checks(exempt_paths=exempt, required_facts=list(plan.facts), fact_options=dict(plan.options)),
        difficulty=dag_measures(dag, ctx.model),
        gold_outputs=outputs,
        provenance={
            "pipeline": "tasks-tree-1",
            "seed": seed,
            "index": index,
            "recipe": recipe,
            "instruction_source": "template",
            "instruction_problems": [],
            "dag": dag.to_dict(),
        },
    )


def _shows(result: Any, search: DagNode, plan: TreePlan) -> bool:
    """True when the search result points at one node, the one meant, and shows the folders the walk enters."""
    query = next((a.value for a in search.args.values()), plan.target)
    named = [p for p in search_paths(result) if p and str(query) in p[-1]]
    if len(named) != 1 or named[0][-1] != plan.target:
        return False
    readers = [a for n in plan.calls for a in n.args.values() if a.node == search.id]
    if not readers:  # a question answered by the search itself
        return True
    return named[0][:-1] == [a.value for a in readers if a.value != plan.target]


def _answer_shown(plan: TreePlan, outputs: list[Any]) -> bool:
    """True when every fact appears in some gold output (as text, or as a count of a listed result)."""
    for fact in plan.facts:
        seen = False
        for out in outputs:
            text = str(out)
            if fact in text:
                seen = True
            vals = out.values() if isinstance(out, dict) else [out]
            if any(isinstance(v, list) and str(len(v)) == fact for v in vals):
                seen = True
        if not seen:
            return False
    return True
