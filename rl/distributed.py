"""torchrun support: process group, DDP / FSDP wrapping, sharding of rollouts, gathering of statistics.

Launched plainly (no WORLD_SIZE in the environment) everything here is a no-op on one process, so the
trainer has one code path. Under `torchrun --nproc_per_node N -m synth.cli.main train CONFIG` every rank
samples the same tasks (same seeds), rolls out its share, gathers the rewards of all ranks so the
advantage statistics see the whole batch, and DDP (or FSDP) averages the gradients.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, TypeVar

import torch
import torch.distributed as dist

T = TypeVar("T")


@dataclass(frozen=True)
class DistInfo:
    rank: int = 0
    world_size: int = 1
    local_rank: int = 0

    @property
    def enabled(self) -> bool:
        return self.world_size > 1

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def init_distributed() -> DistInfo:
    """Join the torchrun process group when launched under torchrun; otherwise a single process."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return DistInfo()
    rank, local = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
    if not dist.is_initialized():
        backend = "nccl" if torch.cuda.is_available() else "gloo"
        if torch.cuda.is_available():
            torch.cuda.set_device(local)
        dist.init_process_group(backend=backend)
    return DistInfo(rank=rank, world_size=world, local_rank=local)


def shutdown(info: DistInfo) -> None:
    if info.enabled and dist.is_initialized():
        dist.destroy_process_group()


def wrap_model(model: torch.nn.Module, info: DistInfo, strategy: str = "ddp") -> torch.nn.Module:
    """DDP (default) or FSDP2 (`fully_shard`, for models that do not fit one device) around `model`."""
    if not info.enabled:
        return model
    if strategy == "fsdp":
        from torch.distributed.fsdp import fully_shard

        for module in model.modules():  # shard each decoder layer, then the root
            if module.__class__.__name__.endswith("DecoderLayer"):
                fully_shard(module)
        fully_shard(model)
        return model
    from torch.nn.parallel import DistributedDataParallel as DDP

    device_ids = [info.local_rank] if torch.cuda.is_available() else None
    return DDP(model, device_ids=device_ids)


def is_sharded(model: torch.nn.Module, info: DistInfo) -> bool:
    """True for an FSDP-sharded model (DDP keeps whole copies under `.module`)."""
    return info.enabled and not hasattr(model, "module")


def full_state_dict(model: torch.nn.Module, info: DistInfo, every_rank: bool = False) -> dict[str, torch.Tensor]:
    """The complete (unsharded) state dict, for checkpoints and weight sync.

    Under FSDP the shards are gathered: by default onto rank 0's CPU (the other ranks get an empty
    dict), with `every_rank` onto every rank's device (all ranks must call it). Unsharded models
    return their own state dict on every rank.
    """
    if is_sharded(model, info):
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

        opts = StateDictOptions(full_state_dict=True, cpu_offload=not every_rank)
        return get_model_state_dict(model, options=opts)
    return getattr(model, "module", model).state_dict()


def optimizer_state(model: torch.nn.Module, optimizer: torch.optim.Optimizer, info: DistInfo) -> dict[str, Any]:
    """The optimizer's full state dict (gathered from the shards under FSDP)."""
    if is_sharded(model, info):
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict

        return get_optimizer_state_dict(
            model, optimizer, options=StateDictOptions(full_state_dict=True, cpu_offload=True)
        )
    return optimizer.state_dict()


def load_optimizer_state(
    model: torch.nn.Module, optimizer: torch.optim.Optimizer, state: dict[str, Any] | None, info: DistInfo
) -> None:
    """Inverse of `optimizer_state` (None: nothing to load)."""
    if state is None:
        return
    if is_sharded(model, info):
        from torch.distributed.checkpoint.state_dict import StateDictOptions, set_optimizer_state_dict

        set_optimizer_state_dict(model, optimizer, state, options=StateDictOptions(full_state_dict=True))
        return
    optimizer.load_state_dict(state)


def shard(items: list[T], info: DistInfo) -> list[T]:
    """This rank's share, round-robin."""
    return items[info.rank :: info.world_size] if info.enabled else list(items)


def gather_objects(obj: Any, info: DistInfo) -> list[Any]:
    """[obj of rank 0, obj of rank 1, ...] on every rank."""
    if not info.enabled:
        return [obj]
    out: list[Any] = [None] * info.world_size
    dist.all_gather_object(out, obj)
    return out


def all_reduce_sum(value: float, info: DistInfo) -> float:
    """Sum of a number over ranks."""
    if not info.enabled:
        return value
    t = torch.tensor([value], dtype=torch.float64, device="cuda" if torch.cuda.is_available() else "cpu")
    dist.all_reduce(t)
    return float(t.item())


def barrier(info: DistInfo) -> None:
    if info.enabled:
        dist.barrier()
