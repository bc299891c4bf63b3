"""Low-rank adapters (LoRA) for the RL updates of a pretrained policy.

    n = apply_lora(model, LoRAConfig(rank=16, alpha=32), seed=0)        # target Linears wrapped in place
    merged = merged_state_dict(model.state_dict(), lora_scalings(model))  # plain keys, W + (alpha/r)·B·A

Each target `nn.Linear` becomes a `LoRALinear`: the original layer, frozen, plus A [r, in] (random) and
B [out, r] (zeros), so the adapted model starts as the same function. Only A and B get gradients, so
AdamW's first steps cannot move the pretrained weights (docs/benchmarks.md: a fresh AdamW moved all
134.5M weights of SmolLM2 by about the learning rate and undid its SFT), the optimizer state is a few MB,
and the backward pass skips the frozen weights' gradients. Saved models and vLLM weight syncs get
`merged_state_dict`: the keys and shapes of the model without adapters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

DEFAULT_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
_A, _B, _BASE = "lora_A", "lora_B", "base"


@dataclass
class LoRAConfig:
    rank: int = 0  # 0: no adapters, every weight is trained
    alpha: float = 32.0  # the update is scaled by alpha / rank
    targets: list[str] = field(default_factory=lambda: list(DEFAULT_TARGETS))  # names of the Linear modules to adapt


class LoRALinear(torch.nn.Module):
    """y = base(x) + (alpha / r) · (x Aᵀ) Bᵀ, with `base` frozen."""

    def __init__(self, base: torch.nn.Linear, rank: int, alpha: float, generator: torch.Generator):
        super().__init__()
        self.base = base
        base.requires_grad_(False)
        self.scaling = alpha / rank
        a = torch.empty(rank, base.in_features, dtype=torch.float32)  # fp32 even on a bf16 base: trained
        bound = 1.0 / math.sqrt(base.in_features)  # kaiming-uniform with a = sqrt(5), as nn.Linear initializes
        a.uniform_(-bound, bound, generator=generator)
        self.lora_A = torch.nn.Parameter(a.to(base.weight.device))
        self.lora_B = torch.nn.Parameter(
            torch.zeros(base.out_features, rank, dtype=torch.float32, device=base.weight.device)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + (x @ self.lora_A.t().to(x.dtype)) @ (self.lora_B.t().to(x.dtype) * self.scaling)


def apply_lora(model: torch.nn.Module, config: LoRAConfig, seed: int = 0) -> int:
    """Wrap every `nn.Linear` whose own name is in `config.targets`; freeze everything else.

    Returns the number of adapted layers. Raises ValueError when the rank is below 1 or no module matches
    (a model whose projections are named otherwise needs `targets`). A's draws depend on `seed` alone.
    """
    if config.rank < 1:
        raise ValueError(f"LoRA rank must be at least 1, got {config.rank}")
    wanted = set(config.targets)
    found = [
        (name, module)
        for name, module in model.named_modules()
        if isinstance(module, torch.nn.Linear) and name.rsplit(".", 1)[-1] in wanted
    ]
    if not found:
        raise ValueError(f"no nn.Linear module named {', '.join(sorted(wanted))} in {type(model).__name__}")
    for p in model.parameters():  # a stale gradient (an SFT step's) would still count in gradient clipping
        p.requires_grad_(False)
        p.grad = None
    generator = torch.Generator().manual_seed(seed)
    for name, module in found:  # named_modules order: deterministic
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, LoRALinear(module, config.rank, config.alpha, generator))
    return len(found)


def has_lora(model: torch.nn.Module) -> bool:
    return any(isinstance(m, LoRALinear) for m in model.modules())


def lora_scalings(model: torch.nn.Module) -> dict[str, float]:
    """Module prefix ("model.layers.0.self_attn.q_proj.") -> its scaling, for `merged_state_dict`."""
    return {f"{name}.": m.scaling for name, m in model.named_modules() if isinstance(m, LoRALinear)}


def merged_state_dict(state: dict[str, torch.Tensor], scalings: dict[str, float]) -> dict[str, torch.Tensor]:
    """The state dict without adapters: `P.base.weight` + s·B·A becomes `P.weight`, `P.base.bias` `P.bias`.

    Works on any state dict of an adapted model (a local one, or one gathered from FSDP shards).
    """
    out: dict[str, torch.Tensor] = {}
    for key, value in state.items():
        head, _, leaf = key.rpartition(".")
        if leaf in (_A, _B) and head + "." in scalings:
            continue
        parent, _, last = head.rpartition(".")  # "P.base.weight" -> "P", "base"
        prefix = parent + "."
        if last != _BASE or prefix not in scalings:
            out[key] = value
            continue
        if leaf == "weight":
            a, b = state[prefix + _A], state[prefix + _B]
            value = value + scalings[prefix] * (b.to(torch.float32) @ a.to(torch.float32)).to(value.dtype)
        out[prefix + leaf] = value
    return out


def trainable_parameters(model: torch.nn.Module) -> list[torch.nn.Parameter]:
    return [p for p in model.parameters() if p.requires_grad]
