"""Simulated users: the LLM user that knows only the task's instruction, and a scripted one for tests.

The LLM user (any OpenAI-compatible endpoint; the embedded SmolLM2 by default) sees its instruction
and the agent's plain-text replies (never tool calls, tool results or thinking). It ends the episode
by writing the stop marker. The embedded model is weak, so the wrapper is defensive: an empty reply
becomes the instruction again, a first message that says nothing becomes the instruction, and the
rollout always stops after its turn limit. An opening message must share a quarter of the
instruction's content words (else the instruction is used), since a weak model often answers the
request instead of stating it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from synth.llm import LLMClient, render
from synth.task import Task

STOP_MARKER = "###STOP###"
_ROLE_PREFIX = re.compile(r"^\s*(customer|user|me)\s*:\s*", re.IGNORECASE)


@dataclass
class UserReply:
    """What the user said, and whether it ended the episode (the marker itself is removed from `text`)."""

    text: str
    stop: bool
    fallback: str = ""  # why the raw answer was replaced ("" when it was used as is)


class UserSimulator(Protocol):
    """Opens the dialogue and answers the agent's text replies."""

    name: str

    def first_message(self, task: Task, sample_index: int = 0) -> str: ...

    def reply(self, task: Task, dialogue: list[dict[str, Any]], sample_index: int = 0) -> UserReply: ...


def visible_dialogue(dialogue: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(speaker, text) pairs the user can see: its own messages and the agent's plain text."""
    out: list[tuple[str, str]] = []
    for m in dialogue:
        text = str(m.get("content") or "").strip()
        if m.get("role") == "user" and text:
            out.append(("user", text))
        elif m.get("role") == "assistant" and text:
            out.append(("agent", text))
    return out


def split_stop(text: str, marker: str = STOP_MARKER) -> tuple[str, bool]:
    """Remove the stop marker; tell whether it was there."""
    if marker in text:
        return text.replace(marker, "").strip(), True
    return text.strip(), False


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9#@._-]+", text.lower()) if len(w) >= 4 or any(c.isdigit() for c in w)}


def on_topic(text: str, instruction: str, min_overlap: float = 0.25) -> bool:
    """A usable opening: at least three words and a quarter of the instruction's content words."""
    if len(text.split()) < 3:
        return False
    wanted = _content_words(instruction)
    return not wanted or len(wanted & _content_words(text)) / len(wanted) >= min_overlap


class ScriptedUser:
    """Deterministic user for tests: states the instruction, then stops after the agent's first text reply."""

    name = "scripted"

    def first_message(self, task: Task, sample_index: int = 0) -> str:
        return task.user_instruction

    def reply(self, task: Task, dialogue: list[dict[str, Any]], sample_index: int = 0) -> UserReply:
        return UserReply(text="Thank you.", stop=True)


class LLMUser:
    """An LLM playing the user; only its instruction is known to it."""

    def __init__(
        self, client: LLMClient, max_tokens: int = 96, temperature: float | None = None, llm_first_message: bool = True
    ):
        self.client = client
        self.name = f"llm:{client.model}"
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.llm_first_message = llm_first_message

    def first_message(self, task: Task, sample_index: int = 0) -> str:
        """The opening request; the instruction itself when the model says nothing useful."""
        if not self.llm_first_message:
            return task.user_instruction
        prompt = render("user_sim_first", instruction=task.user_instruction)
        result = self.client.chat(
            [{"role": "user", "content": prompt}],
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            tag="user_sim",
        )
        text, _ = split_stop(_ROLE_PREFIX.sub("", result.text))
        return text if on_topic(text, task.user_instruction) else task.user_instruction

    def reply(self, task: Task, dialogue: list[dict[str, Any]], sample_index: int = 0) -> UserReply:
        """Answer the agent's last reply (roles flipped: the agent is the model's `user`)."""
        messages = [
            {
                "role": "system",
                "content": render("user_sim_system", instruction=task.user_instruction, stop_marker=STOP_MARKER),
            }
        ]
        for speaker, text in visible_dialogue(dialogue):
            messages.append({"role": "assistant" if speaker == "user" else "user", "content": text})
        if len(messages) == 1 or messages[-1]["role"] != "user":
            messages.append({"role": "user", "content": "(no reply)"})
        result = self.client.chat(messages, max_tokens=self.max_tokens, temperature=self.temperature, tag="user_sim")
        text, stop = split_stop(_ROLE_PREFIX.sub("", result.text))
        if stop:
            return UserReply(text=text or "Thank you.", stop=True)
        if not text:
            return UserReply(text=task.user_instruction, stop=False, fallback="empty reply; instruction repeated")
        return UserReply(text=text, stop=False)
