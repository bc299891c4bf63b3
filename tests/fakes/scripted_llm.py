"""A scripted stand-in for synth.llm.LLMClient (a fake: no model behind it).

`responder(tag, prompt_text) -> str` decides each chat answer; json() answers come from
`json_responder(tag, prompt_text) -> dict`. Every call is recorded for assertions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class FakeResult:
    text: str
    data: Any = None
    cached: bool = False


@dataclass
class ScriptedLLM:
    responder: Callable[[str, str], str] = lambda tag, prompt: "yes"
    json_responder: Callable[[str, str], Any] | None = None
    calls: list[tuple[str, str]] = field(default_factory=list)

    def chat(self, messages: list[dict], *, max_tokens: int = 256, tag: str = "", **kw: Any) -> FakeResult:
        prompt = messages[-1]["content"]
        self.calls.append((tag, prompt))
        return FakeResult(self.responder(tag, prompt))

    def json(
        self, messages: list[dict], schema: dict, *, max_tokens: int = 512, tag: str = "", **kw: Any
    ) -> FakeResult:
        prompt = messages[-1]["content"]
        self.calls.append((tag, prompt))
        if self.json_responder is None:
            raise RuntimeError("no JSON answer scripted")
        data = self.json_responder(tag, prompt)
        return FakeResult(json.dumps(data), data)

    def tags(self) -> list[str]:
        return [t for t, _ in self.calls]
