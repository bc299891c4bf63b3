"""rl.parse: Hermes-style assistant turns -> thinking, text, tool calls; failures are outcomes, not exceptions."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rl.parse import parse_turn
from synth.spec import ToolCall

END = ("<|im_end|>",)


def test_thinking_text_and_two_calls():
    raw = (
        "<think>\nFirst look up, then cancel.\n</think>\n\nLet me check.\n"
        '<tool_call>\n{"name": "get_order", "arguments": {"order_id": "#W1"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "cancel", "arguments": {"order_id": "#W1", "reason": "no longer needed"}}\n'
        "</tool_call><|im_end|>"
    )
    turn = parse_turn(raw, END)
    assert turn.ok, turn.parse_error
    assert turn.thinking == "First look up, then cancel."
    assert turn.text == "Let me check."
    assert turn.tool_calls == [
        ToolCall("get_order", {"order_id": "#W1"}),
        ToolCall("cancel", {"order_id": "#W1", "reason": "no longer needed"}),
    ]
    assert turn.raw == raw


def test_plain_text_reply_has_no_calls():
    turn = parse_turn("Your order is on its way.<|im_end|>", END)
    assert turn.ok and turn.tool_calls == [] and turn.text == "Your order is on its way." and turn.thinking == ""


def test_arguments_given_as_json_string_are_decoded():
    turn = parse_turn('<tool_call>{"name": "f", "arguments": "{\\"x\\": 1}"}</tool_call>')
    assert turn.ok and turn.tool_calls == [ToolCall("f", {"x": 1})]


def test_bare_close_tag_from_template_opened_thinking():
    turn = parse_turn("reasoning here</think>\nDone.")
    assert turn.ok and turn.thinking == "reasoning here" and turn.text == "Done."


@pytest.mark.parametrize(
    "raw, problem",
    [
        ('<tool_call>{"name": "f", "arguments": {"x": 1}</tool_call>', "not valid JSON"),
        ('<tool_call>{"arguments": {}}</tool_call>', 'lacks a string "name"'),
        ('<tool_call>{"name": "f", "arguments": [1]}</tool_call>', "must be a JSON object"),
        ('<tool_call>["f"]</tool_call>', "must be a JSON object"),
        ('<tool_call>{"name": "f", "arguments": {}}', "unterminated <tool_call>"),
        ("</tool_call> stray", "without <tool_call>"),
        ("<think>never closed", "unterminated <think>"),
        ("text <think>late</think>", "<think> must open the turn"),
        ("<think>a</think><think>b</think>", "more than one <think>"),
    ],
)
def test_parse_failures_keep_raw_text(raw, problem):
    turn = parse_turn(raw)
    assert not turn.ok
    assert problem in turn.parse_error
    assert turn.raw == raw
    assert turn.tool_calls == []


def test_to_message_records_everything():
    turn = parse_turn('<think>t</think><tool_call>{"name": "f", "arguments": {}}</tool_call>')
    msg = turn.to_message()
    assert msg["role"] == "assistant" and msg["thinking"] == "t"
    assert msg["tool_calls"] == [{"name": "f", "arguments": {}}] and msg["parse_error"] is None


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(
    thinking=st.text(max_size=30).filter(lambda s: "<" not in s and s.strip() == s),
    name=st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
    args=st.dictionaries(st.text(max_size=6), _json_values, max_size=3),
)
def test_roundtrip_of_rendered_calls(thinking, name, args):
    raw = (
        f"<think>\n{thinking}\n</think>\n" if thinking else ""
    ) + f"<tool_call>\n{json.dumps({'name': name, 'arguments': args})}\n</tool_call>"
    turn = parse_turn(raw + "<|im_end|>", END)
    assert turn.ok and turn.thinking == thinking and turn.tool_calls == [ToolCall(name, args)]
