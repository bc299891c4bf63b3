"""What the trainer needs before its first step: environments and task splits, the policy model and
tokenizer, the rollout settings, the simulated user and the user-error judge."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rl.episode import RolloutConfig
from rl.train_config import TrainConfig
from synth.errors import InputError
from synth.fsio import staged_folder
from synth.task import Task, load_tasks


@dataclass
class EnvEntry:
    """One environment of the run: its folder and its tasks, split into training and held-out."""

    env_id: str
    env_dir: Path
    train: list[Task] = field(default_factory=list)
    heldout: list[Task] = field(default_factory=list)


def _env_id(env_dir: Path) -> str:
    manifest = env_dir / "manifest.json"
    if manifest.exists():
        try:
            return str(json.loads(manifest.read_text()).get("env_id") or env_dir.name)
        except json.JSONDecodeError as err:
            raise InputError(str(manifest), "(document)", f"not valid JSON: {err}") from err
    return env_dir.name


def discover_envs(paths: list[str], source: str = "config") -> list[Path]:
    """Environment folders (those with tasks.jsonl) named directly or found one level below a root."""
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.is_dir():
            raise InputError(source, "envs", f"{raw}: not a folder")
        if (p / "tasks.jsonl").exists():
            found.append(p)
            continue
        children = sorted(c for c in p.iterdir() if c.is_dir() and (c / "tasks.jsonl").exists())
        if not children:
            raise InputError(source, "envs", f"{raw}: no tasks.jsonl in it or in its sub-folders")
        found.extend(children)
    return found


def split_heldout(tasks: list[Task], fraction: float, seed: int) -> tuple[list[Task], list[Task]]:
    """Deterministic split by a seeded hash of the task id; at least one task stays for training."""
    if fraction <= 0 or len(tasks) < 2:
        return list(tasks), []
    ranked = sorted(tasks, key=lambda t: hashlib.sha256(f"{seed}:{t.task_id}".encode()).hexdigest())
    n_held = min(len(tasks) - 1, max(1, math.floor(fraction * len(tasks) + 0.5)))
    held = {t.task_id for t in ranked[:n_held]}
    return [t for t in tasks if t.task_id not in held], [t for t in tasks if t.task_id in held]


def load_env_entries(config: TrainConfig, source: str = "config") -> list[EnvEntry]:
    """Every environment of the config with its split tasks (task order as in tasks.jsonl)."""
    entries: list[EnvEntry] = []
    seen: set[str] = set()
    for env_dir in discover_envs(config.envs, source):
        env_id = _env_id(env_dir)
        if env_id in seen:
            raise InputError(source, "envs", f"environment {env_id!r} is listed twice")
        seen.add(env_id)
        try:
            tasks = load_tasks(env_dir / "tasks.jsonl")
        except (json.JSONDecodeError, TypeError) as err:
            raise InputError(str(env_dir / "tasks.jsonl"), "(lines)", f"cannot read tasks: {err}") from err
        tasks = [t if t.env_id else dataclasses.replace(t, env_id=env_id) for t in tasks]
        if not tasks:
            raise InputError(str(env_dir / "tasks.jsonl"), "(document)", "no tasks")
        split_seed = config.split_seed if config.split_seed >= 0 else config.seed
        train, held = split_heldout(tasks, config.heldout_fraction, split_seed)
        if config.max_train_tasks > 0:  # after the split, so the held-out tasks do not depend on it
            train = train[: config.max_train_tasks]
        entries.append(EnvEntry(env_id, env_dir, train, held))
    return entries


def rollout_config(config: TrainConfig, source: str = "config") -> RolloutConfig:
    """RolloutConfig from the `rollout:` section (unknown keys are errors)."""
    known = {f.name for f in dataclasses.fields(RolloutConfig)}
    bad = sorted(set(config.rollout) - known)
    if bad:
        raise InputError(source, f"rollout.{bad[0]}", f"unknown field (known: {', '.join(sorted(known))})")
    return RolloutConfig(**config.rollout)


# ---- the tokenizer corpus and the policy model --------------------------------------------------


def tokenizer_corpus(entries: list[EnvEntry]) -> list[str]:
    """Texts a tiny model's tokenizer is trained on: tool schemas, instructions, gold calls and outputs."""
    from rl.tiny_model import default_corpus
    from synth.runtime import Environment

    texts = list(default_corpus())
    for entry in entries:
        env = Environment(entry.env_dir)
        for tool in env.tools:
            texts.append(json.dumps(tool.openai_schema(), ensure_ascii=False))
        for task in entry.train + entry.heldout:
            texts.append(task.user_instruction)
            for action in task.gold_actions:
                texts.append(
                    "<tool_call>\n"
                    + json.dumps(action.to_dict(), sort_keys=True, ensure_ascii=False)
                    + "\n</tool_call>"
                )
            for out in task.gold_outputs:
                texts.append(out if isinstance(out, str) else json.dumps(out, sort_keys=True, ensure_ascii=False))
    return texts


def prepare_model_folder(config: TrainConfig, entries: list[EnvEntry], folder: Path) -> Path:
    """The initial policy as a from_pretrained folder: built (tiny) or the configured pretrained path.

    A tiny model is built once, with a tokenizer trained on the run's environments, and saved under
    `folder`, so a resumed run (and a vLLM engine) loads exactly the same model and tokenizer.
    """
    if config.model.kind == "pretrained":
        path = Path(config.model.path)
        if not (path / "config.json").exists():
            raise InputError(
                "config", "model.path", f"{config.model.path!r} is not a Hugging Face model folder (no config.json)"
            )
        return path
    if (folder / "config.json").exists():
        return folder
    from rl.tiny_model import build_model, build_tokenizer, save_tiny

    opts = dict(config.model.tiny)
    vocab = int(opts.pop("vocab_size", 1024))
    size = opts.pop("size", "test")
    max_pos = int(opts.pop("max_position_embeddings", 4096))
    split_digits = bool(opts.pop("split_digits", False))
    if opts:
        raise InputError(
            "config",
            f"model.tiny.{sorted(opts)[0]}",
            "unknown field (known: size, vocab_size, max_position_embeddings, split_digits)",
        )
    tok = build_tokenizer(corpus=tokenizer_corpus(entries), vocab_size=vocab, split_digits=split_digits)
    model = build_model(tok, size=size, seed=config.seed, max_position_embeddings=max_pos)
    with staged_folder(folder) as tmp:
        save_tiny(model, tok, tmp)
    return folder


def weight_dtype(config_dtype: str) -> Any:
    """The dtype weights are loaded in for `model.dtype`: bf16 for "bf16", fp32 otherwise ("auto" keeps fp32
    master weights and only autocasts)."""
    import torch

    return torch.bfloat16 if config_dtype in ("bf16", "bfloat16") else torch.float32


def load_policy(folder: Path, device: Any, dtype: Any = None) -> tuple[Any, Any]:
    """(model in `dtype` (default fp32) on `device`, tokenizer) from a from_pretrained folder."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(folder))
    model = AutoModelForCausalLM.from_pretrained(str(folder), dtype=dtype or torch.float32)
    return model.to(device), tok


# ---- simulated user and judge -------------------------------------------------------------------


def needs_llm(config: TrainConfig) -> bool:
    """Whether the user simulator or the judge talks to an LLM endpoint."""
    judge_mode = config.judge.get("mode", "none")
    return config.user.get("kind", "scripted") == "llm" or judge_mode in ("llm", "prior+llm")


def make_user(config: TrainConfig, client: Any) -> Any:
    from rl.user_sim import LLMUser, ScriptedUser

    opts = dict(config.user)
    kind = opts.pop("kind", "scripted")
    if kind == "scripted":
        return ScriptedUser()
    if kind == "llm":
        return LLMUser(client, **opts)
    raise InputError("config", "user.kind", f"{kind!r} is not one of scripted, llm")


def make_judge(config: TrainConfig, client: Any) -> Any:
    from rl.judge import JUDGE_MODES, UserErrorJudge

    mode = config.judge.get("mode", "none")
    if mode == "none":
        return None
    if mode not in JUDGE_MODES:
        raise InputError("config", "judge.mode", f"{mode!r} is not one of none, {', '.join(JUDGE_MODES)}")
    return UserErrorJudge(client if mode != "prior" else None, mode=mode)
