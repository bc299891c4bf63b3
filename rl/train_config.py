"""The training configuration (`forgegym train CONFIG.yaml`): typed sections, strict loading.

Unknown keys and wrong types are errors that name the file and the field. Relative paths are taken
from the current directory. See docs/training.md for every field.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rl.curriculum import ORDERS, STRATEGIES, CurriculumConfig
from rl.erpo import ADVANTAGE_MODES, AGGREGATIONS
from rl.lora import LoRAConfig
from synth.errors import InputError


@dataclass
class ModelConfig:
    kind: str = "tiny"  # "tiny": rl.tiny_model (random weights, tokenizer trained offline) | "pretrained": HF folder
    path: str = ""  # HF model folder for kind "pretrained"
    tiny: dict[str, Any] = field(default_factory=dict)  # keyword arguments of the tiny builder
    # "auto": fp32 weights, bf16 autocast where the device supports it | "fp32": no autocast |
    # "bf16": weights loaded in bf16 (half the memory; LoRA adapters stay fp32) and bf16 autocast
    dtype: str = "auto"
    device: str = "auto"  # "auto" | "cpu" | "cuda"
    gradient_checkpointing: bool = False
    parallel: str = "ddp"  # under torchrun: "ddp" or "fsdp" (FSDP2 fully_shard per decoder layer)


@dataclass
class AdvantageConfig:
    mode: str = "erpo"  # erpo | grpo | reinforce++
    eps: float = 1e-6
    drop_equal_groups: bool = False  # drop tasks whose valid rewards are all equal (counted in metrics)


@dataclass
class LossConfig:
    clip_low: float = 0.2
    clip_high: float = 0.28
    agg: str = "traj-mean-token-mean"  # the paper's; "token-mean" and the others in rl/erpo.py remain
    kl_coef: float = 0.0  # > 0 keeps a frozen copy of the initial policy as reference
    # truncated importance sampling against the sampler's logprobs; None ("auto"): on in the asynchronous
    # mode (its samples are up to max_staleness versions old), off otherwise (turn on for the vLLM backend)
    tis: bool | None = None
    tis_cap: float = 2.0


@dataclass
class OptimConfig:
    lr: float = 1e-5
    weight_decay: float = 0.0
    betas: list[float] = field(default_factory=lambda: [0.9, 0.999])
    grad_clip: float = 1.0
    micro_batch_size: int = 4  # trajectories per forward/backward pass
    mini_batches: int = 1  # optimizer steps per training step (> 1: later ones are off-policy, clipping matters)
    warmup_steps: int = 0
    logprob_chunk: int = 1024  # agent positions per LM-head chunk in the update (0: full logits of every position)


@dataclass
class SFTConfig:
    steps: int = 0  # 0 = no warm start
    lr: float = 1e-3
    batch_size: int = 8
    weight_decay: float = 0.0
    grad_clip: float = 1.0
    schedule: str = "constant"  # "constant" | "cosine" (decays to 10% of lr over the steps)
    save_every: int = (
        50  # steps between saved SFT states (output_dir/sft_state), so a killed warm start resumes; 0: never
    )


@dataclass
class AsyncConfig:
    """The asynchronous mode (rl/async_rl/): rollout workers and the trainer run at once.

    A config's `async:` section turns it on (`async: {}` for the defaults); `enabled: false` keeps it off.
    """

    enabled: bool = False
    max_staleness: int = 1  # a group whose oldest turn is more than this many versions behind is dropped
    queue_size: int = 0  # finished trajectories waiting for the trainer (0: 2 x tasks_per_step x rollouts_per_task)
    workers: int = 0  # rollout workers, each running one K-sample group at a time (0: tasks_per_step)

    def resolved_queue_size(self, tasks_per_step: int, k: int) -> int:
        return self.queue_size if self.queue_size > 0 else 2 * tasks_per_step * k

    def resolved_workers(self, tasks_per_step: int) -> int:
        return self.workers if self.workers > 0 else tasks_per_step


@dataclass
class TrainConfig:
    envs: list[str] = field(default_factory=list)  # environment folders, or roots holding them (envs_generated/)
    output_dir: str = "runs/train"
    seed: int = 0
    steps: int = 10
    tasks_per_step: int = 4
    rollouts_per_task: int = 4  # K
    heldout_fraction: float = 0.0  # share of each environment's tasks kept out of training, for evaluation
    split_seed: int = -1  # seed of the train/held-out split (-1: `seed`); fix it to compare runs of several seeds
    max_train_tasks: int = 0  # > 0: train on the first N training tasks of each environment (tasks.jsonl order)
    eval_every: int = 0  # evaluate on held-out tasks every N steps (0: only before and after)
    eval_rollouts: int = 1
    eval_temperature: float = 0.0  # 0: greedy
    eval_max_tasks: int = 0  # > 0: evaluations use the first N held-out tasks of each environment (0: all)
    backend: str = "transformers"  # "transformers" | "vllm"
    checkpoint_every: int = 1
    keep_checkpoints: int = 2
    resume: bool = True  # continue from output_dir's latest checkpoint when there is one
    plots: bool = True
    torch_threads: int = 0  # > 0: torch.set_num_threads (0: torch's default)
    model: ModelConfig = field(default_factory=ModelConfig)
    advantage: AdvantageConfig = field(default_factory=AdvantageConfig)
    loss: LossConfig = field(default_factory=LossConfig)
    optim: OptimConfig = field(default_factory=OptimConfig)
    sft: SFTConfig = field(default_factory=SFTConfig)
    lora: LoRAConfig = field(default_factory=LoRAConfig)  # rank > 0: RL updates train low-rank adapters only
    curriculum: CurriculumConfig = field(default_factory=CurriculumConfig)
    rollout: dict[str, Any] = field(default_factory=dict)  # passed to the rollout loop's config
    user: dict[str, Any] = field(default_factory=dict)  # simulated user settings
    judge: dict[str, Any] = field(default_factory=dict)  # user-error judge: {mode: none | prior | llm | prior+llm}
    llm: dict[str, Any] = field(default_factory=dict)  # LLMConfig fields for the user simulator and judge endpoint
    vllm: dict[str, Any] = field(
        default_factory=dict
    )  # VLLMPolicy engine options (backend "vllm"), e.g. gpu_memory_utilization
    async_rl: AsyncConfig = field(default_factory=AsyncConfig)  # YAML key `async` (a Python keyword)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_CHOICES = {
    "advantage.mode": ADVANTAGE_MODES,
    "loss.agg": AGGREGATIONS,
    "curriculum.order": ORDERS,
    "curriculum.strategy": STRATEGIES,
    "model.kind": ("tiny", "pretrained"),
    "sft.schedule": ("constant", "cosine"),
    "model.dtype": ("auto", "fp32", "bf16", "float32", "bfloat16"),
    "model.device": ("auto", "cpu", "cuda"),
    "model.parallel": ("ddp", "fsdp"),
    "backend": ("transformers", "vllm"),
}
_POSITIVE = {
    "steps",
    "tasks_per_step",
    "rollouts_per_task",
    "optim.micro_batch_size",
    "optim.mini_batches",
    "eval_rollouts",
}
_NON_NEGATIVE = {
    "optim.logprob_chunk",
    "max_train_tasks",
    "eval_max_tasks",
    "sft.save_every",
    "lora.rank",
    "async.max_staleness",
    "async.queue_size",
    "async.workers",
}
# YAML keys that are not Python names: key -> field
_ALIASES = {"async": "async_rl"}


def _build(cls: type, data: Any, path: str, prefix: str) -> Any:
    if not isinstance(data, dict):
        raise InputError(path, prefix or "(document)", "expected a mapping")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    defaults = cls()
    for key, value in data.items():
        where = f"{prefix}{key}"
        if not prefix and key in _ALIASES:
            key = _ALIASES[key]
            if isinstance(value, dict):  # the section's presence turns the mode on
                value = {"enabled": True, **value}
            elif value is None:
                value = {"enabled": True}
        if key not in fields:
            names = {f: k for k, f in _ALIASES.items()} if not prefix else {}
            raise InputError(
                path, where, f"unknown field (known: {', '.join(sorted(names.get(f, f) for f in fields))})"
            )
        default = getattr(defaults, key)
        if dataclasses.is_dataclass(default):
            kwargs[key] = _build(type(default), value if value is not None else {}, path, where + ".")
            continue
        if where == "loss.tis" and not (value is None or isinstance(value, bool)):
            raise InputError(
                path,
                where,
                f"expected bool (or null: on in the asynchronous mode), got {type(value).__name__} {value!r}",
            )
        kwargs[key] = _check_type(value, default, path, where)
        if where in _CHOICES and kwargs[key] not in _CHOICES[where]:
            raise InputError(path, where, f"{value!r} is not one of {', '.join(_CHOICES[where])}")
        if where in _POSITIVE and kwargs[key] < 1:
            raise InputError(path, where, f"must be at least 1, got {value!r}")
        if where in _NON_NEGATIVE and kwargs[key] < 0:
            raise InputError(path, where, f"must be 0 or more, got {value!r}")
        if where == "lora.alpha" and kwargs[key] <= 0:
            raise InputError(path, where, f"must be above 0, got {value!r}")
        if where == "lora.targets" and (not kwargs[key] or not all(isinstance(t, str) and t for t in kwargs[key])):
            raise InputError(path, where, f"list one or more module names, got {value!r}")
    try:
        return cls(**kwargs)
    except ValueError as err:
        raise InputError(path, prefix.rstrip(".") or "(document)", str(err)) from err


def _check_type(value: Any, default: Any, path: str, where: str) -> Any:
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, str):
        ok = isinstance(value, str)
    elif isinstance(default, list):
        ok = isinstance(value, list)
    elif isinstance(default, dict):
        ok = isinstance(value, dict)
    else:
        ok = True
    if not ok:
        raise InputError(path, where, f"expected {type(default).__name__}, got {type(value).__name__} {value!r}")
    return value


def load_train_config(path: str | Path, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Read and validate a YAML training config; `overrides` are dotted keys ("optim.lr": 1e-4)."""
    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text()) or {}
    except OSError as err:
        raise InputError(str(p), "(file)", f"cannot read: {err.strerror}") from err
    except yaml.YAMLError as err:
        raise InputError(str(p), "(document)", f"not valid YAML: {err}") from err
    for dotted, value in (overrides or {}).items():
        node = data
        *parents, last = dotted.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    config = _build(TrainConfig, data, str(p), "")
    if not config.envs:
        raise InputError(str(p), "envs", "list at least one environment folder (or a root such as envs_generated/)")
    return config


def config_from_dict(data: dict[str, Any], source: str = "(dict)") -> TrainConfig:
    """Same validation as `load_train_config`, for configs built in code (flows, benchmarks, tests)."""
    return _build(TrainConfig, data, source, "")
