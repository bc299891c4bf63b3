"""rl.render: Hermes/ChatML rendering, the model-template route, and the prefix-preservation check."""

from __future__ import annotations

import pytest

from rl.parse import parse_turn
from rl.render import TemplateError, check_prefix_preserving, hermes_renderer, make_renderer, stop_token_id
from rl.tiny_model import build_tokenizer
from synth.spec import ToolCall, ToolSpec

TOOL = ToolSpec("get_item", "Look up an item.", {"type": "object", "properties": {"item_id": {"type": "string"}}})

# A template in the style of reasoning models that strip earlier turns' thinking: not prefix-preserving.
STRIPPING_TEMPLATE = (
    "{%- set ns = namespace(last=-1) -%}{%- for m in messages -%}"
    "{%- if m['role'] == 'user' -%}{%- set ns.last = loop.index0 -%}{%- endif -%}{%- endfor -%}"
    "{%- for m in messages -%}{%- set c = m['content'] or '' -%}"
    "{%- if m['role'] == 'assistant' and loop.index0 < ns.last and '</think>' in c -%}"
    "{%- set c = c.split('</think>')[-1].lstrip('\\n') -%}{%- endif -%}"
    "{{- '<|im_start|>' + m['role'] + '\\n' + c -}}"
    "{%- if m['tool_calls'] is defined and m['tool_calls'] -%}{%- for t in m['tool_calls'] -%}"
    "{{- '\\n<tool_call>\\n{\"name\": ' + (t['function']['name'] | tojson) + ', \"arguments\": ' "
    "+ (t['function']['arguments'] | tojson) + '}\\n</tool_call>' -}}"
    "{%- endfor -%}{%- endif -%}{{- '<|im_end|>\\n' -}}{%- endfor -%}"
    "{%- if tools -%}{%- endif -%}{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)

# Tool calls as bare JSON (no <tool_call> tags): our parser cannot read them back.
BARE_JSON_TEMPLATE = (
    "{%- for m in messages -%}{{- '<|im_start|>' + m['role'] + '\\n' + (m['content'] or '') -}}"
    "{%- if m['tool_calls'] is defined and m['tool_calls'] -%}"
    "{%- for t in m['tool_calls'] -%}{{- t['function'] | tojson -}}{%- endfor -%}{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}{%- endfor -%}{%- if tools -%}{%- endif -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)


@pytest.fixture(scope="module")
def tokenizer():
    return build_tokenizer()


def test_hermes_pieces_are_chatml():
    r = hermes_renderer()
    assert (
        r.prompt("SYS", [], ["hi"])
        == "<|im_start|>system\nSYS<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    )
    cont = r.continuation("SYS", [], [{"role": "tool", "content": "{}"}, {"role": "user", "content": "ok"}])
    assert (
        cont == "\n<|im_start|>tool\n<tool_response>\n{}\n</tool_response><|im_end|>\n"
        "<|im_start|>user\nok<|im_end|>\n<|im_start|>assistant\n"
    )
    body = r.assistant_text("plan", "Looking.", [ToolCall("get_item", {"item_id": "A"})])
    assert (
        body == "<think>\nplan\n</think>\n\nLooking.\n<tool_call>\n"
        '{"name": "get_item", "arguments": {"item_id": "A"}}\n</tool_call>'
    )


def test_hermes_system_prompt_lists_tools_and_policy():
    system = hermes_renderer().system_content([TOOL], policy="Never refund twice.", title="Shop")
    assert "for Shop" in system and "Never refund twice." in system
    assert '"name": "get_item"' in system and "<tool_call>" in system


def test_auto_uses_tool_capable_template_and_matches_hermes(tokenizer):
    r = make_renderer("auto", tokenizer)
    assert r.name.startswith("template:") and r.tools_in_template
    h = hermes_renderer()
    # the tiny model's template is our ChatML template: both routes render the same text
    assert r.prompt(r.system_content([TOOL]), [TOOL], ["u"]) == h.prompt(h.system_content([TOOL]), [TOOL], ["u"])
    assert stop_token_id(r, tokenizer) == tokenizer.convert_tokens_to_ids("<|im_end|>")


def test_auto_falls_back_to_hermes_without_tool_template():
    tok = build_tokenizer(chat_template="{{ messages[0]['content'] }}")
    assert make_renderer("auto", tok).name == "hermes"
    assert make_renderer("auto", None).name == "hermes"


def test_stripping_template_fails_with_clear_message():
    tok = build_tokenizer(chat_template=STRIPPING_TEMPLATE)
    with pytest.raises(TemplateError, match="not prefix-preserving.*--chat-format hermes"):
        make_renderer("template", tok)


def test_template_without_tool_call_tags_fails():
    tok = build_tokenizer(chat_template=BARE_JSON_TEMPLATE)
    with pytest.raises(TemplateError, match="does not parse back"):
        make_renderer("template", tok)


def test_end_marker_must_be_one_token():
    class SplitTokenizer:
        def encode(self, text, add_special_tokens=False):
            return [1, 2, 3]

    with pytest.raises(TemplateError, match="must be one"):
        stop_token_id(hermes_renderer(), SplitTokenizer())


def test_unknown_format_is_rejected():
    with pytest.raises(TemplateError, match="not one of"):
        make_renderer("llama3")


def test_check_passes_for_hermes_and_assistant_text_parses_back():
    r = hermes_renderer()
    check_prefix_preserving(r)
    calls = [ToolCall("a", {"x": [1, 2]}), ToolCall("b", {})]
    turn = parse_turn(r.assistant_text("why", "", calls) + r.end_of_turn, (r.end_of_turn,))
    assert turn.ok and turn.thinking == "why" and turn.tool_calls == calls and turn.text == ""
