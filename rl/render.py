"""Chat rendering for token-in, token-out rollouts.

A rollout never re-renders what the policy wrote. It renders only: the prompt (system + first user
message + generation prompt), and after each assistant turn a *continuation*: the template's text
between the end-of-turn marker of that turn and the next generation prompt (tool results, user
turns). Continuations are computed against a dummy assistant turn, which is sound only when the chat
template is prefix-preserving; `check_prefix_preserving` proves that on a sample dialogue at start-up.

Two formats (docs/rollouts.md):
- "template": the model's own chat template (tokenizer.apply_chat_template with `tools=`), when it
  supports tools and writes tool calls in the Hermes `<tool_call>` form;
- "hermes": our ChatML template `synth/prompts/chat_chatml.j2`, tools listed in the system prompt
  (`synth/prompts/agent_system.j2`), `<tool_call>{"name":..., "arguments":...}</tool_call>`,
  thinking in `<think>...</think>` at the start of the turn, tool results in a `tool` turn.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any, Callable

from jinja2.sandbox import ImmutableSandboxedEnvironment

from rl.parse import THINK_CLOSE, THINK_OPEN, parse_turn
from synth.errors import ForgeError
from synth.llm.prompts import PROMPTS_DIR, render
from synth.spec import ToolCall, ToolSpec

HERMES_TEMPLATE_FILE = "chat_chatml.j2"
HERMES_END_OF_TURN = "<|im_end|>"
CHAT_FORMATS = ("auto", "template", "hermes")

RenderFn = Callable[[list[dict[str, Any]], "list[dict[str, Any]] | None", bool], str]


class TemplateError(ForgeError):
    """The chat template or tokenizer cannot be used for token-in, token-out rollouts."""


@functools.lru_cache(maxsize=1)
def hermes_template_source() -> str:
    """Source of the ChatML/Hermes chat template (also the tiny test model's chat template)."""
    return (PROMPTS_DIR / HERMES_TEMPLATE_FILE).read_text()


def _tojson(
    value: Any, ensure_ascii: bool = False, indent: int | None = None, separators=None, sort_keys: bool = False
) -> str:
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _raise(message: str) -> None:
    raise TemplateError(message)


@functools.lru_cache(maxsize=8)
def _compile_chat_template(source: str):
    """Compile a chat template the way Hugging Face does (sandboxed, trim_blocks, lstrip_blocks, tojson)."""
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = _tojson
    env.globals["raise_exception"] = _raise
    return env.from_string(source)


def tool_call_message(call: ToolCall) -> dict[str, Any]:
    """An OpenAI-style `tool_calls` entry for a chat template."""
    return {"type": "function", "function": {"name": call.name, "arguments": call.arguments}}


def assistant_content(thinking: str, text: str) -> str:
    """Assistant content as the model writes it: the `<think>` block first, then the text."""
    if not thinking:
        return text
    head = f"{THINK_OPEN}\n{thinking}\n{THINK_CLOSE}"
    return f"{head}\n\n{text}" if text else head


@dataclass
class ChatRenderer:
    """Renders prompts, continuations and (for scripted policies) assistant turns as text."""

    name: str
    render_fn: RenderFn
    tools_in_template: bool
    end_of_turn: str = HERMES_END_OF_TURN

    # --- whole dialogues ---------------------------------------------------------------------

    def render(self, messages: list[dict[str, Any]], tools: list[ToolSpec] | None, add_generation_prompt: bool) -> str:
        """The template's rendering of a whole dialogue (tools only where the template lists them)."""
        schemas = [t.openai_schema() for t in tools] if (tools and self.tools_in_template) else None
        return self.render_fn(messages, schemas, add_generation_prompt)

    def system_content(self, tools: list[ToolSpec], policy: str = "", title: str = "") -> str:
        """The agent's system prompt; lists the tools itself when the template does not."""
        tools_json = [] if self.tools_in_template else [_tojson(t.openai_schema()) for t in tools]
        return render("agent_system", title=title, policy=policy, tools_json=tools_json)

    # --- incremental pieces ------------------------------------------------------------------

    def prompt(self, system: str, tools: list[ToolSpec], user_messages: list[str]) -> str:
        """Text of the episode's head: system, the user's message(s), and the generation prompt."""
        msgs = [{"role": "system", "content": system}] + [{"role": "user", "content": u} for u in user_messages]
        return self.render(msgs, tools, True)

    def continuation(self, system: str, tools: list[ToolSpec], messages: list[dict[str, Any]]) -> str:
        """Text that follows an assistant turn's end marker: `messages` (tool/user) and the generation prompt."""
        head = [
            {"role": "system", "content": system},
            {"role": "user", "content": "."},
            {"role": "assistant", "content": "."},
        ]
        base = self.render(head, tools, False)
        cut = base.rfind(self.end_of_turn)
        if cut < 0:
            raise TemplateError(
                f"{self.name}: end-of-turn marker {self.end_of_turn!r} not found after an assistant turn"
            )
        base = base[: cut + len(self.end_of_turn)]
        full = self.render(head + messages, tools, True)
        if not full.startswith(base):
            raise TemplateError(
                f"{self.name}: chat template is not prefix-preserving (adding messages changed earlier text)"
            )
        return full[len(base) :]

    def assistant_text(self, thinking: str, text: str, tool_calls: list[ToolCall]) -> str:
        """An assistant turn written the way the template renders it, without the end marker.

        Used only for scripted policies and gold (SFT) trajectories; sampled turns are never re-rendered.
        """
        msgs = [{"role": "user", "content": "."}]
        prefix = self.render(msgs, None, True)
        message: dict[str, Any] = {"role": "assistant", "content": assistant_content(thinking, text)}
        if tool_calls:
            message["tool_calls"] = [tool_call_message(c) for c in tool_calls]
        full = self.render(msgs + [message], None, False)
        if not full.startswith(prefix):
            raise TemplateError(f"{self.name}: generation prompt is not a prefix of the assistant turn")
        body = full[len(prefix) :]
        end = body.rfind(self.end_of_turn)
        return body[:end] if end >= 0 else body.rstrip()


# --- construction -----------------------------------------------------------------------------


def hermes_renderer() -> ChatRenderer:
    """The documented fallback format; needs no tokenizer (endpoints and scripted policies use it too)."""
    template = _compile_chat_template(hermes_template_source())

    def render_fn(messages, tools, add_generation_prompt):
        return template.render(messages=messages, tools=tools, add_generation_prompt=add_generation_prompt)

    return ChatRenderer(name="hermes", render_fn=render_fn, tools_in_template=False, end_of_turn=HERMES_END_OF_TURN)


def template_supports_tools(tokenizer: Any) -> bool:
    """True when the tokenizer has a chat template that reads a `tools` variable."""
    source = getattr(tokenizer, "chat_template", None)
    return isinstance(source, str) and "tools" in source


def _template_renderer(tokenizer: Any) -> ChatRenderer:
    name = f"template:{getattr(tokenizer, 'name_or_path', '') or type(tokenizer).__name__}"

    def render_fn(messages, tools, add_generation_prompt):
        return tokenizer.apply_chat_template(
            messages, tools=tools, add_generation_prompt=add_generation_prompt, tokenize=False
        )

    probe = ChatRenderer(name=name, render_fn=render_fn, tools_in_template=True, end_of_turn="")
    prefix = probe.render([{"role": "user", "content": "."}], None, True)
    full = probe.render([{"role": "user", "content": "."}, {"role": "assistant", "content": "MARK"}], None, False)
    if not full.startswith(prefix) or "MARK" not in full[len(prefix) :]:
        raise TemplateError(f"{name}: the generation prompt is not a prefix of a rendered assistant turn")
    after = full[len(prefix) :].split("MARK", 1)[1].strip()
    if not after:
        raise TemplateError(f"{name}: the chat template writes no end-of-turn marker after an assistant turn")
    probe.end_of_turn = after.split()[0]
    return probe


def make_renderer(chat_format: str = "auto", tokenizer: Any = None, check: bool = True) -> ChatRenderer:
    """Pick the chat format ("auto": the model's template when it supports tools, else Hermes) and check it."""
    if chat_format not in CHAT_FORMATS:
        raise TemplateError(f"chat format {chat_format!r} is not one of {', '.join(CHAT_FORMATS)}")
    use_template = chat_format == "template" or (
        chat_format == "auto" and tokenizer is not None and template_supports_tools(tokenizer)
    )
    if use_template:
        if tokenizer is None or not getattr(tokenizer, "chat_template", None):
            raise TemplateError("chat format 'template' needs a tokenizer with a chat template")
        renderer = _template_renderer(tokenizer)
    else:
        renderer = hermes_renderer()
    if check:
        check_prefix_preserving(renderer)
    return renderer


# --- start-up checks --------------------------------------------------------------------------

_SAMPLE_TOOL = ToolSpec(
    name="get_item",
    description="Look up an item by id.",
    parameters={"type": "object", "properties": {"item_id": {"type": "string"}}, "required": ["item_id"]},
)


def _sample_dialogue() -> list[tuple[dict[str, Any], tuple[str, str, list[ToolCall]] | None]]:
    call = ToolCall(name="get_item", arguments={"item_id": "A-1"})
    return [
        ({"role": "user", "content": "What is the price of item A-1?"}, None),
        ({}, ("I should look the item up.", "", [call])),
        ({"role": "tool", "content": '{"item_id": "A-1", "price": 12.5}'}, None),
        ({}, ("The tool says 12.5.", "Item A-1 costs 12.5.", [])),
        ({"role": "user", "content": "Thanks, that is all."}, None),
        ({}, ("The user is done.", "You are welcome.", [])),
    ]


def _first_difference(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return (
        f"first difference at char {i}: incremental {a[max(0, i - 40) : i + 40]!r} "
        f"vs whole {b[max(0, i - 40) : i + 40]!r}"
    )


def check_prefix_preserving(renderer: ChatRenderer) -> None:
    """Fail with a clear message unless incremental rendering equals whole-dialogue rendering.

    Builds a sample dialogue with thinking and a tool call turn by turn (prompt, assistant turns as
    the template writes them, continuations) and compares it at every turn with the template's
    rendering of the whole dialogue so far. Templates that strip earlier thinking or rewrite earlier
    turns fail here. It also checks that an assistant turn parses back to the same calls and thinking.
    """
    system = renderer.system_content([_SAMPLE_TOOL], policy="Be brief.")
    tools = [_SAMPLE_TOOL]
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
    incremental = ""
    pending: list[dict[str, Any]] = []
    for message, turn in _sample_dialogue():
        if turn is None:
            pending.append(message)
            messages.append(message)
            continue
        if not incremental:
            incremental = renderer.prompt(system, tools, [m["content"] for m in pending])
        else:
            incremental += renderer.continuation(system, tools, pending)
        pending = []
        whole = renderer.render(messages, tools, True)
        if incremental != whole:
            raise TemplateError(
                f"{renderer.name}: chat template is not prefix-preserving before assistant turn "
                f"{sum(1 for m in messages if m['role'] == 'assistant') + 1} "
                f"({_first_difference(incremental, whole)}). "
                "Token-in, token-out rollouts need a template that keeps earlier turns (and their thinking) "
                "unchanged; use --chat-format hermes."
            )
        thinking, text, calls = turn
        body = renderer.assistant_text(thinking, text, calls)
        parsed = parse_turn(body, (renderer.end_of_turn,))
        if not parsed.ok or parsed.tool_calls != calls or parsed.thinking != thinking or parsed.text != text:
            raise TemplateError(
                f"{renderer.name}: an assistant turn rendered by the chat template does not parse back "
                f"(got thinking={parsed.thinking!r}, text={parsed.text!r}, calls={parsed.tool_calls}, "
                f"error={parsed.parse_error}); tool calls must be written as <tool_call> JSON. "
                "Use --chat-format hermes."
            )
        incremental += body + renderer.end_of_turn
        msg: dict[str, Any] = {"role": "assistant", "content": assistant_content(thinking, text)}
        if calls:
            msg["tool_calls"] = [tool_call_message(c) for c in calls]
        messages.append(msg)
    whole = renderer.render(messages, tools, False)
    if not whole.startswith(incremental) or whole[len(incremental) :].strip():
        raise TemplateError(
            f"{renderer.name}: chat template is not prefix-preserving at the end of the dialogue "
            f"({_first_difference(incremental, whole)})"
        )


def stop_token_id(renderer: ChatRenderer, tokenizer: Any) -> int:
    """The id of the end-of-turn marker; it must be a single token so sampling can stop on it."""
    ids = tokenizer.encode(renderer.end_of_turn, add_special_tokens=False)
    if len(ids) != 1:
        raise TemplateError(
            f"{renderer.name}: end-of-turn marker {renderer.end_of_turn!r} is {len(ids)} tokens for this tokenizer; "
            "it must be one (add it as a special token)"
        )
    return int(ids[0])
