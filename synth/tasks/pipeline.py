"""The task pipeline: graph -> walks -> DAG -> instance -> instruction -> checks -> probes -> tasks.jsonl.

Candidate i uses its own rng seeded from (seed, i), so the same seed and the same cached LLM
answers give the same tasks, byte for byte. Candidates are tried in order until `n` are kept;
every dropped one is recorded with its stage and reason (tasks_dropped.jsonl, REPORT.md section).
Rerunning with a seed replaces that seed's tasks in tasks.jsonl and keeps the others.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from synth.fsio import write_lines_atomic
from synth.task import Checks, Task, dump_jsonl_line, load_tasks
from synth.tasks.describe import describe
from synth.tasks.difficulty import Band, PassRate, dag_measures, measure_pass_rate
from synth.tasks.envmodel import EnvModel, display_name, load_model
from synth.tasks.facts import choose_facts, exempt_paths, remove_calls
from synth.tasks.graph import ToolGraph, build_graph, save_graph
from synth.tasks.graph_questions import graph_shape, make_graph_question
from synth.tasks.instantiate import Dropped, instantiate
from synth.tasks.instruction import (
    check_instruction,
    check_obtainable,
    intent_text,
    template_instruction,
    write_instruction,
)
from synth.tasks.owners import owner_links, plan_owner_dag
from synth.tasks.probes import run_probes, useless_writes
from synth.tasks.runner import Runner, RuntimeRunner
from synth.tasks.tree_tasks import TreeContext, make_tree_task
from synth.tasks.tree_values import data_states, tree_infos
from synth.tasks.values import TextPool, build_pool
from synth.tasks.walks import WalkConfig, plan_sequence
from synth.verify import states_match

PIPELINE_VERSION = "tasks-2"


@dataclass
class TaskGenConfig:
    """Knobs of one run."""

    n: int = 20
    seed: int = 0
    min_calls: int = 3
    max_candidates: int = 0  # 0: 12 * n + 20
    walk: WalkConfig = field(default_factory=WalkConfig)
    band: Band = field(default_factory=Band)
    pass_rate_k: int = 0
    pool_per_field: int = 5
    confirm: str = "all"  # which graph edges the LLM is asked about: all | weak | none
    max_replans: int = 8
    question_every: int = 5  # every k-th candidate is a question (no write, checked facts); 0: none
    refusal_every: int = 10  # with owner links: candidate k-3 of every k asks for a write the environment refuses


@dataclass
class GenReport:
    """What a run made and dropped."""

    env_id: str
    seed: int
    kept: list[Task] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    candidates: int = 0
    seconds: float = 0.0
    graph_counts: dict[str, Any] = field(default_factory=dict)
    pool_sources: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        stages: dict[str, int] = {}
        for d in self.dropped:
            stages[d["stage"]] = stages.get(d["stage"], 0) + 1
        sizes = sorted(t.difficulty.get("dag_size", 0) for t in self.kept)
        sources: dict[str, int] = {}
        for t in self.kept:
            s = t.provenance.get("instruction_source", "?")
            sources[s] = sources.get(s, 0) + 1
        return {
            "env_id": self.env_id,
            "seed": self.seed,
            "kept": len(self.kept),
            "candidates": self.candidates,
            "dropped": len(self.dropped),
            "dropped_by_stage": stages,
            "dag_sizes": sizes,
            "instruction_sources": sources,
            "graph": self.graph_counts,
            "seconds": round(self.seconds, 2),
        }


def candidate_rng(seed: int, index: int) -> random.Random:
    """The rng of candidate `index` under `seed`."""
    return random.Random(f"forgegym-tasks:{seed}:{index}")


def make_task(
    index: int,
    model: EnvModel,
    graph: ToolGraph,
    runner: Runner,
    pool: TextPool,
    client: Any | None,
    cfg: TaskGenConfig,
    pass_rate: PassRate | None = None,
    tree: TreeContext | None = None,
) -> Task | Dropped:
    """Candidate `index`: a kept Task, or Dropped with its stage and reason. `tree`: the context of a
    tree-shaped state (a file system), whose candidates are recipes on a generated tree, not walks."""
    rng = candidate_rng(cfg.seed, index)
    if tree is not None:
        question = is_question(index, cfg)
        least = max(2, cfg.min_calls - 1) if question else cfg.min_calls
        out = make_tree_task(index, tree, runner, rng, question, cfg.seed, index, least)
        return screen(out, runner, model, cfg, pass_rate) if isinstance(out, Task) else out
    links = owner_links(model) if model.data else []
    refusal = bool(links) and cfg.refusal_every > 0 and index % cfg.refusal_every == cfg.refusal_every - 3
    question = is_question(index, cfg) or refusal
    shape = graph_shape(model) if question and not links else None
    if shape is not None:  # a graph-shaped state (nodes and links): questions that follow a link
        out = make_graph_question(index, model, shape, runner, rng, pool, cfg.seed, max(2, cfg.min_calls - 1))
        return screen(out, runner, model, cfg, pass_rate) if isinstance(out, Task) else out
    dag = prov = None
    min_calls = max(2, cfg.min_calls - 1) if question else cfg.min_calls
    for _ in range(cfg.max_replans * (3 if question else 1)):
        if links:  # one owner per task: the user says who they are, the agent looks their records up
            d, p = plan_owner_dag(model, rng.choice(links), rng, question, refusal=refusal)
        else:
            d, p = plan_sequence(graph, model, rng, cfg.walk)
        if question:
            d = reads_before_first_write(d, model)
        calls = d.calls()
        if len(calls) >= min_calls and (question or any(model.tools[c.tool].is_write for c in calls)):
            dag, prov = d, p
            break
    if dag is None:
        what = "reads before any write" if question else "calls and a write"
        return Dropped("walk", f"no walk with >= {min_calls} {what} in {cfg.max_replans} tries")
    inst = instantiate(dag, model, runner, rng, pool)
    if isinstance(inst, Dropped):
        return inst
    facts, sinks = choose_facts(inst, model, rng)
    remove_calls(inst, sinks, model)
    if len(inst.gold_actions) < min_calls:
        return Dropped("size", f"{len(inst.gold_actions)} gold actions after removing unused reads (< {min_calls})")
    exempt = exempt_paths(model)
    if question and not (facts and all(f.options for f in facts)):
        return Dropped("facts", "a question needs facts, each with answers it could be confused with")
    if not question and states_match(inst.initial_state, inst.final_state, exempt):
        return Dropped("state", "the writes change nothing outside the exempt paths")
    needs = describe(inst, model, facts)
    draft = template_instruction(needs, display_name(model), persona=index)
    problems = check_instruction(draft, needs, facts, list(model.tools)) + check_obtainable(inst, draft)
    if problems:
        return Dropped("instruction", "the template cannot state the task: " + "; ".join(problems[:4]))
    env_id = model.env_id
    task = Task(
        task_id=f"{env_id}-s{cfg.seed}-{index:04d}",
        env_id=env_id,
        user_instruction=draft,
        intent=intent_text(needs),
        initial_state=inst.initial_state,
        gold_actions=inst.gold_actions,
        gold_final_state=inst.final_state,
        checks=Checks(
            exempt_paths=exempt,
            required_facts=[f.value for f in facts],
            fact_options={f.value: f.options for f in facts if f.options},
        ),
        difficulty=dag_measures(inst.dag, model),
        gold_outputs=inst.gold_outputs,
        provenance={
            "pipeline": PIPELINE_VERSION,
            "seed": cfg.seed,
            "index": index,
            **(prov or {}),
            "repairs": inst.repairs,
            **(
                {"refused_calls": [{"name": n.tool, "arguments": a, "error": e} for n, a, e in inst.refused]}
                if inst.refused
                else {}
            ),
            "facts": [
                {"node": f.node, "collection": f.collection, "record": f.record, "field": f.field} for f in facts
            ],
            "dag": inst.dag.to_dict(),
        },
    )
    report = run_probes(task, runner, model)
    if not report.ok:
        return Dropped("probes", "; ".join(report.problems())[:400])
    useless = useless_writes(task, runner, model)
    if useless:
        return Dropped("useless_write", "without gold action(s) %s the final state is the same" % useless)
    ok, why = cfg.band.admits({**task.difficulty, "pass_rate": None})
    if not ok:
        return Dropped("band", why)
    # only now ask the model to word the request (candidates dropped above cost no LLM call)
    instruction, source, seen = write_instruction(needs, facts, model, client, persona=index)
    problems = check_instruction(instruction, needs, facts, list(model.tools), draft=draft)
    problems += check_obtainable(inst, instruction)
    if problems:  # cannot happen for the template; an LLM text that passed check_instruction may still miss one
        instruction, source, seen = draft, "template", seen + [f"obtainable: {p}" for p in problems[:4]]
    task.user_instruction = instruction
    task.provenance["instruction_source"] = source
    task.provenance["instruction_problems"] = seen[:8]
    if pass_rate is not None and cfg.pass_rate_k > 0:
        measure_pass_rate(task, pass_rate, cfg.pass_rate_k)
        ok, why = cfg.band.admits(task.difficulty)
        if not ok:
            return Dropped("band", why)
    return task


def screen(
    task: Task, runner: Runner, model: EnvModel, cfg: TaskGenConfig, pass_rate: PassRate | None = None
) -> Task | Dropped:
    """The task when its gold scores 1, every probe 0, no write is useless and it lies in the band (by its
    measured pass rate too, when `pass_rate` is given and cfg.pass_rate_k > 0)."""
    report = run_probes(task, runner, model)
    if not report.ok:
        return Dropped("probes", "; ".join(report.problems())[:400])
    useless = useless_writes(task, runner, model)
    if useless:
        return Dropped("useless_write", "without gold action(s) %s the final state is the same" % useless)
    ok, why = cfg.band.admits({**task.difficulty, "pass_rate": None})
    if ok and pass_rate is not None and cfg.pass_rate_k > 0:
        measure_pass_rate(task, pass_rate, cfg.pass_rate_k)
        ok, why = cfg.band.admits(task.difficulty)
    return task if ok else Dropped("band", why)


def is_question(index: int, cfg: TaskGenConfig) -> bool:
    """Whether candidate `index` is a question (reads and checked facts, no write)."""
    k = cfg.question_every
    return k > 0 and index % k == k - 1


def reads_before_first_write(dag: Any, model: EnvModel) -> Any:
    """The DAG cut before its first write call (nothing earlier depends on a later node)."""
    for i, node in enumerate(dag.nodes):
        if node.kind == "call" and model.tools[node.tool].is_write:
            dag.nodes = dag.nodes[:i]
            break
    while True:  # reasoning steps left without a consumer (they chose a record for a cut write)
        idle = [n for n in dag.nodes if n.kind == "reason" and not dag.consumers(n.id)]
        if not idle:
            return dag
        dag.nodes = [n for n in dag.nodes if n not in idle]


def generate_tasks(
    env_dir: str | Path,
    n: int = 20,
    seed: int = 0,
    client: Any | None = None,
    config: TaskGenConfig | None = None,
    runner: Runner | None = None,
    pass_rate: PassRate | None = None,
    progress: Callable[[int, int], None] | None = None,
    write: bool = True,
) -> GenReport:
    """Make up to `n` tasks for an environment folder; write graph.json, tasks.jsonl, tasks_dropped.jsonl, REPORT.md.

    With `pass_rate` (task -> the reference agent's mean reward over `config.pass_rate_k` rollouts) and
    pass_rate_k > 0, each candidate's measured pass rate must also lie in the band."""
    t0 = time.time()
    cfg = config or TaskGenConfig()
    cfg.n, cfg.seed = n, seed
    env_dir = Path(env_dir)
    model = load_model(env_dir)
    runner = runner or RuntimeRunner.from_dir(str(env_dir))
    graph = build_graph(model, client, cfg.confirm)
    if write:
        save_graph(graph, env_dir)
    pool = build_pool(model, client, per_field=cfg.pool_per_field, seed=seed)
    report = GenReport(env_id=model.env_id, seed=seed, graph_counts=graph.to_dict()["counts"], pool_sources=pool.source)
    limit = cfg.max_candidates or 12 * n + 20
    trees = tree_infos(model.state_schema)
    tree = TreeContext(model, trees[0], data_states(env_dir)) if trees else None
    index = 0
    while len(report.kept) < n and index < limit:
        out = make_task(index, model, graph, runner, pool, client, cfg, pass_rate, tree=tree)
        if isinstance(out, Task):
            report.kept.append(out)
        else:
            report.dropped.append(
                {
                    "task_id": f"{model.env_id}-s{seed}-{index:04d}",
                    "seed": seed,
                    "index": index,
                    "stage": out.stage,
                    "reason": out.reason,
                }
            )
        index += 1
        if progress:
            progress(len(report.kept), n)
    report.candidates = index
    report.seconds = time.time() - t0
    if write:
        write_outputs(env_dir, report)
    return report


# ---------------------------------------------------------------------------------------------
# files


def _seed_of(task_id: str, provenance: dict[str, Any] | None) -> int | None:
    if provenance and isinstance(provenance.get("seed"), int):
        return provenance["seed"]
    m = re.search(r"-s(\d+)-\d+$", task_id)
    return int(m.group(1)) if m else None


def merge_tasks(existing: list[Task], new: list[Task], seed: int) -> list[Task]:
    """Existing tasks of other seeds (in their order), then this run's tasks."""
    keep = [t for t in existing if _seed_of(t.task_id, t.provenance) != seed]
    ids = {t.task_id for t in new}
    return [t for t in keep if t.task_id not in ids] + list(new)


def write_outputs(env_dir: Path, report: GenReport) -> None:
    """tasks.jsonl (canonical lines), tasks_dropped.jsonl and the REPORT.md section for this seed."""
    tasks_path = env_dir / "tasks.jsonl"
    merged = merge_tasks(load_tasks(tasks_path), report.kept, report.seed)
    write_lines_atomic(tasks_path, [dump_jsonl_line(t) for t in merged])
    dpath = env_dir / "tasks_dropped.jsonl"
    old = []
    if dpath.exists():
        old = [json.loads(x) for x in dpath.read_text().splitlines() if x.strip()]
    rows = [d for d in old if d.get("seed") != report.seed] + report.dropped
    write_lines_atomic(dpath, [json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False) for d in rows])
    write_report_section(env_dir / "REPORT.md", report)


def report_section(report: GenReport) -> str:
    """The markdown section of one run (no timings, so reruns give the same bytes)."""
    d = report.to_dict()
    lines = [
        f"<!-- tasks:seed={report.seed} -->",
        f"## Tasks (seed {report.seed})",
        "",
        f"- kept {d['kept']} of {d['candidates']} candidates; dropped {d['dropped']}",
        f"- tool graph: {d['graph']}",
        f"- DAG sizes of kept tasks: {d['dag_sizes']}",
        f"- instruction written by: {d['instruction_sources']}",
        f"- dropped by stage: {d['dropped_by_stage']}",
    ]
    recipes: dict[str, int] = {}
    for t in report.kept:  # tree and graph tasks come from recipes, not walks
        if t.provenance.get("recipe"):
            recipes[t.provenance["recipe"]] = recipes.get(t.provenance["recipe"], 0) + 1
    if recipes:
        lines.append(f"- recipes of kept tasks: {dict(sorted(recipes.items()))}")
    lines += [
        "- text pool (LLM answers kept / seeded fallbacks): "
        + ", ".join(f"{k} {v['llm']}/{v['fallback']}" for k, v in sorted(report.pool_sources.items())),
        "",
    ]
    if report.dropped:
        lines += ["| candidate | stage | reason |", "|---|---|---|"]
        for x in report.dropped[:40]:
            reason = x["reason"].replace("|", "/").replace("\n", " ")[:160]
            lines.append(f"| {x['task_id']} | {x['stage']} | {reason} |")
        if len(report.dropped) > 40:
            lines.append(f"| ... | | {len(report.dropped) - 40} more in tasks_dropped.jsonl |")
    lines.append(f"<!-- /tasks:seed={report.seed} -->")
    return "\n".join(lines) + "\n"


def write_report_section(path: Path, report: GenReport) -> None:
    """Replace (or append) this seed's section of REPORT.md."""
    text = path.read_text() if path.exists() else ""
    section = report_section(report)
    pat = re.compile(rf"<!-- tasks:seed={report.seed} -->.*?<!-- /tasks:seed={report.seed} -->\n?", re.S)
    if pat.search(text):
        text = pat.sub(lambda _m: section, text)
    else:
        text = (text.rstrip("\n") + "\n\n" if text.strip() else "") + section
    write_lines_atomic(path, text.rstrip("\n").split("\n"))
