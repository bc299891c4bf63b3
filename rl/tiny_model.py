"""A tiny, randomly initialized causal LM and a byte-level BPE tokenizer, built offline and seeded.

For tests and benchmarks that need a real model without hub access: the tokenizer is trained with the
`tokenizers` library on a small corpus (a built-in one covering the chat format, or texts you pass),
wrapped in `PreTrainedTokenizerFast` with our ChatML/Hermes chat template; the model is a Llama of a
size you choose (`TINY_SIZES`: "test" ~0.1M parameters, "small" ~3-4M).

    tok = build_tokenizer()                      # or build_tokenizer(corpus=texts, vocab_size=2048)
    model = build_model(tok, size="test", seed=0)
    save_tiny(model, tok, "out/tiny")            # loadable with from_pretrained
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from rl.render import hermes_template_source

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
FORMAT_TOKENS = ("<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>")

TINY_SIZES: dict[str, dict[str, int]] = {
    "test": {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128},
    "small": {"hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 4, "intermediate_size": 688},
}


def default_corpus() -> list[str]:
    """A few strings in the chat format so common pieces become single tokens."""
    call = {"name": "get_item", "arguments": {"item_id": "A-1", "quantity": 2}}
    tool = {
        "type": "function",
        "function": {
            "name": "get_item",
            "description": "Look up an item by id.",
            "parameters": {"type": "object", "properties": {"item_id": {"type": "string"}}},
        },
    }
    lines = [
        "<|im_start|>system\nYou are a customer-service agent. Help the user by calling the tools.<|im_end|>\n",
        "<|im_start|>user\nPlease cancel my order #W1234 and tell me the refund amount.<|im_end|>\n",
        "<|im_start|>assistant\n<think>\nI should look up the order first.\n</think>\n\n<tool_call>\n"
        + json.dumps(call)
        + "\n</tool_call><|im_end|>\n",
        '<|im_start|>tool\n<tool_response>\n{"item_id": "A-1", "price": 12.5, "status": "pending"}\n'
        "</tool_response><|im_end|>\n",
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n<tools>\n"
        + json.dumps(tool)
        + "\n</tools>\n",
        "The order was cancelled. The refund of 12.50 dollars goes back to your card. ###STOP###",
        "Thanks, that is all. Is there anything else I can help with? Done. Here is what I found:",
        "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 {}[]():,.\"'-_#@/",
    ]
    return lines * 4


def build_tokenizer(
    corpus: Iterable[str] | None = None,
    vocab_size: int = 512,
    chat_template: str | None = None,
    split_digits: bool = False,
) -> Any:
    """Train a byte-level BPE on `corpus` (default: `default_corpus()`); returns a PreTrainedTokenizerFast.

    `<|im_start|>`, `<|im_end|>` (end of turn, also eos) and `<|endoftext|>` (padding) are special tokens;
    the think/tool tags are single ordinary tokens. With `split_digits` every digit is its own token (as in
    Llama's and Qwen's tokenizers), so ids are copied digit by digit instead of as corpus-specific chunks.
    Training is deterministic for a given corpus.
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    texts = list(corpus) if corpus is not None else default_corpus()
    tok = Tokenizer(models.BPE())
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False)
    if split_digits:
        tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), byte_level])
    else:
        tok.pre_tokenizer = byte_level
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in FORMAT_TOKENS])
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        clean_up_tokenization_spaces=False,
    )
    fast.chat_template = chat_template if chat_template is not None else hermes_template_source()
    return fast


def build_model(
    tokenizer: Any, size: str | dict[str, int] = "test", seed: int = 0, max_position_embeddings: int = 4096
) -> Any:
    """A randomly initialized LlamaForCausalLM (float32, eval mode) matching the tokenizer's vocabulary."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    dims = dict(TINY_SIZES[size]) if isinstance(size, str) else dict(size)
    heads = dims["num_attention_heads"]
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        max_position_embeddings=max_position_embeddings,
        num_key_value_heads=heads,
        bos_token_id=None,
        eos_token_id=tokenizer.convert_tokens_to_ids("<|im_end|>"),
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
        **dims,
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    model.eval()
    return model


def parameter_count(model: Any) -> int:
    """Number of parameters of a torch module."""
    return sum(p.numel() for p in model.parameters())


def build_tiny(
    size: str | dict[str, int] = "test", corpus: Iterable[str] | None = None, vocab_size: int = 512, seed: int = 0
) -> tuple[Any, Any]:
    """(model, tokenizer) in one call."""
    tok = build_tokenizer(corpus=corpus, vocab_size=vocab_size)
    return build_model(tok, size=size, seed=seed), tok


def save_tiny(model: Any, tokenizer: Any, out_dir: str | Path) -> Path:
    """Save both with save_pretrained so `from_pretrained(out_dir)` loads them."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
