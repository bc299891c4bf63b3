"""Policy backends: transformers and vLLM (token-in, token-out), OpenAI-compatible endpoints and scripted policies
(text)."""

from rl.backends.base import Sample, SamplingParams, TextPolicy, TokenPolicy, is_token_policy

__all__ = ["Sample", "SamplingParams", "TextPolicy", "TokenPolicy", "is_token_policy"]
