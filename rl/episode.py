"""One episode as a state machine: agent turns, tool calls, user turns, budgets, and its trajectory.

The rollout loop (rl/rollout.py) drives many episodes at once: it asks each episode in the `agent`
phase for its context, samples all of them in one batch, hands each its turn (`add_agent_turn`),
then collects user replies for episodes in the `user` phase (`add_user_reply`).

Stop reasons: `rl.types.StopReason`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rl.backends.base import Sample
from rl.context import Block, TrainingSequence, extend_sequences, select_view
from rl.parse import THINK_CLOSE, ParsedTurn, parse_turn
from rl.render import ChatRenderer
from rl.types import (
    Dialogue,
    EpisodeId,
    JudgeVerdict,
    Outcome,
    RolloutSetup,
    StopReason,
    TokenRow,
    TokenStream,
    Trajectory,
)
from rl.user_sim import UserReply, UserSimulator
from synth.llm import render
from synth.task import Task, observation_text

AGENT, USER, DONE = "agent", "user", "done"


@dataclass
class RolloutConfig:
    """Budgets, sampling and context settings of rollouts (see docs/rollouts.md)."""

    max_turns: int = 16  # assistant turns per episode
    max_user_turns: int = 6  # user replies before the episode is cut
    max_tool_calls: int = 16  # ToRL's C: calls beyond it are not run and end the episode
    max_new_tokens: int = 384
    max_context_tokens: int = 4096
    min_new_tokens: int = 16  # stop with context_full when less room than this is left
    temperature: float = 1.0
    top_p: float = 1.0
    seed: int = 0
    interleaved_thinking: bool = True  # keep earlier turns' <think> in context (off: the ablation)
    context_policy: str = "keep_all"  # default for every environment
    context_policies: dict[str, str] = field(default_factory=dict)  # env_id -> policy
    context_window: int = 6  # (assistant, observation) pairs kept by sliding_window / summary
    tool_error_last_line: bool = False  # cut tool error messages to their last line
    on_parse_error: str = "feedback"  # "feedback": tell the agent and go on; "end": stop the episode
    parse_error_reward: float | None = None  # when set, the reward of an episode with a parse error
    chat_format: str = "auto"  # auto | template | hermes
    max_batch: int = 16  # rows per generation batch (transformers)
    prefix_cache_mb: float = 1024.0  # transformers: KV caches kept across turns (0: encode every prompt whole)
    user_concurrency: int = 4  # simultaneous user-simulator / text-policy calls

    def policy_for(self, env_id: str) -> str:
        return self.context_policies.get(env_id, self.context_policy)


def env_title_and_policy(env: Any) -> tuple[str, str]:
    """The environment's title and domain policy (manifest `policy`), for the system prompt."""
    definition = getattr(env, "definition", None)
    manifest = getattr(definition, "manifest", None) or {}
    title = getattr(definition, "title", None) or getattr(env, "title", "") or ""
    policy = manifest.get("policy") or manifest.get("domain_policy") or getattr(env, "policy", "") or ""
    return str(title), str(policy)


def is_error_observation(text: str, info: dict[str, Any] | None) -> bool:
    return bool((info or {}).get("error")) or text.startswith("Error")


def last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else text


class Episode:
    """Agent ⇄ tools ⇄ simulated user for one task sample in its own environment instance."""

    def __init__(
        self,
        env: Any,
        task: Task,
        sample_index: int,
        config: RolloutConfig,
        user: UserSimulator,
        renderer: ChatRenderer,
        tokenizer: Any = None,
        policy_name: str = "",
        retokenized: bool = False,
    ):
        self.env, self.task, self.sample_index, self.config = env, task, sample_index, config
        self.user, self.renderer, self.tokenizer = user, renderer, tokenizer
        self.policy_name, self.retokenized = policy_name, retokenized
        self.context_policy = config.policy_for(task.env_id)
        self.blocks: list[Block] = []
        self.messages: list[dict[str, Any]] = []
        self.sequences: list[TrainingSequence] = []
        self.phase = AGENT
        self.stop_reason = StopReason.NOT_STOPPED
        self.num_turns = self.num_tool_calls = self.num_user_turns = self.num_parse_errors = 0
        self.system = ""
        self.tools: list = []
        self._summaries: dict[int, Block] = {}
        self._last_context: list[int] = []
        self.turn_versions: list[int] = []  # policy version per sampled turn (asynchronous mode)

    # --- helpers --------------------------------------------------------------------------------

    def _encode(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False)) if self.tokenizer is not None else []

    def _block(self, kind: str, messages: list[dict[str, Any]], text: str) -> Block:
        ids = self._encode(text)
        return Block(kind, messages, ids, [0] * len(ids), [0.0] * len(ids))

    def _observe(self, kind: str, messages: list[dict[str, Any]]) -> None:
        """Render messages after the last assistant turn and append them to the stream."""
        text = self.renderer.continuation(self.system, self.tools, messages)
        self.blocks.append(self._block(kind, messages, text))
        self.messages.extend(messages)

    def _stop(self, reason: StopReason) -> None:
        self.stop_reason = self.stop_reason or reason
        self.phase = DONE

    # --- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Reset the environment, get the user's opening message, render the head of the stream."""
        self.env.reset(task=self.task)
        self.tools = list(self.env.tools)
        title, policy = env_title_and_policy(self.env)
        self.system = self.renderer.system_content(self.tools, policy=policy, title=title)
        first = self.user.first_message(self.task, self.sample_index)
        head_messages = [{"role": "system", "content": self.system}, {"role": "user", "content": first}]
        self.blocks.append(self._block("head", head_messages, self.renderer.prompt(self.system, self.tools, [first])))
        self.messages.extend(head_messages)
        self.phase = AGENT

    def view(self):
        """The blocks the policy sees now (context policy and thinking switch applied)."""
        return select_view(
            self.blocks,
            self.context_policy,
            self.config.context_window,
            self.config.interleaved_thinking,
            self._summary_head,
        )

    def context_ids(self) -> list[int]:
        """Token ids of the next turn's context; remembered for the training sequence."""
        self._last_context = self.view().token_ids()
        return self._last_context

    @property
    def last_context(self) -> list[int]:
        """The token context computed by the latest `context_ids` (or `room`) call."""
        return self._last_context

    def context_messages(self) -> list[dict[str, Any]]:
        """Chat messages of the next turn's context (text policies); full history for scripted ones."""
        return self.view().messages()

    def room(self) -> int:
        """How many new tokens fit; 0 means the context is full (the episode is stopped)."""
        if self.tokenizer is None:
            return self.config.max_new_tokens
        room = min(self.config.max_new_tokens, self.config.max_context_tokens - len(self.context_ids()))
        if room < min(self.config.min_new_tokens, self.config.max_new_tokens):
            self._stop(StopReason.CONTEXT_FULL)
            return 0
        return room

    def _summary_head(self, dropped: list[list[Block]]) -> Block:
        """Head re-rendered with a note summarizing the dropped turns (cached per number dropped)."""
        if len(dropped) not in self._summaries:
            lines = []
            for group in dropped:
                for block in group:
                    for m in block.messages:
                        lines.append(_summary_line(m))
            note = render("agent_context_summary", lines=[ln for ln in lines if ln])
            first_user = self.blocks[0].messages[1]["content"]
            text = self.renderer.prompt(self.system, self.tools, [first_user, note])
            msgs = list(self.blocks[0].messages) + [{"role": "user", "content": note}]
            self._summaries[len(dropped)] = self._block("head", msgs, text)
        return self._summaries[len(dropped)]

    # --- agent turns ----------------------------------------------------------------------------

    def add_agent_turn(self, text: str, sample: Sample | None = None) -> ParsedTurn:
        """Record one assistant turn (sampled ids, or text to tokenize for text policies) and act on it."""
        self.num_turns += 1
        parsed = parse_turn(text, (self.renderer.end_of_turn,))
        block = self._assistant_block(text, parsed, sample)
        if sample is not None and sample.policy_version >= 0:
            self.turn_versions.append(sample.policy_version)
        if self.tokenizer is not None:
            extend_sequences(self.sequences, self._last_context, block)
        self.blocks.append(block)
        self.messages.append(parsed.to_message())
        if not parsed.ok:
            self.num_parse_errors += 1
            if self.config.on_parse_error == "end":
                self._stop(StopReason.PARSE_ERROR)
            else:
                feedback = render("agent_parse_error", error=parsed.parse_error)
                self._observe("feedback", [{"role": "tool", "content": feedback, "name": "parse_error"}])
                self._after_agent_action()
            return parsed
        if parsed.tool_calls:
            self._run_tools(parsed)
            return parsed
        if self.num_user_turns >= self.config.max_user_turns or self.num_turns >= self.config.max_turns:
            self._stop(StopReason.MAX_TURNS)
        else:
            self.phase = USER
        return parsed

    def _assistant_block(self, text: str, parsed: ParsedTurn, sample: Sample | None) -> Block:
        msg = [
            {
                "role": "assistant",
                "content": text.split(self.renderer.end_of_turn)[0].rstrip() if self.renderer.end_of_turn else text,
                "tool_calls": [c.to_dict() for c in parsed.tool_calls],
            }
        ]
        think_chars = _thinking_chars(msg[0]["content"]) if parsed.thinking else 0
        if self.tokenizer is None:
            return Block("assistant", msg, thinking_chars=think_chars)
        if sample is not None:
            ids, lps = list(sample.token_ids), list(sample.logprobs)
            mask = [1] * len(ids)
            think_tokens = _thinking_tokens(ids, self.tokenizer) if parsed.thinking else 0
            if sample.finish_reason != "stop":  # close the turn so the stream stays well formed
                close = self._encode(self.renderer.end_of_turn)
                ids, mask, lps = ids + close, mask + [0] * len(close), lps + [0.0] * len(close)
            return Block("assistant", msg, ids, mask, lps, think_tokens, think_chars)
        body = msg[0]["content"]
        head = self._encode(body[:think_chars]) if think_chars else []
        ids = head + self._encode(body[think_chars:] + self.renderer.end_of_turn)
        return Block("assistant", msg, ids, [1] * len(ids), [0.0] * len(ids), len(head), think_chars)

    def _run_tools(self, parsed: ParsedTurn) -> None:
        results: list[dict[str, Any]] = []
        env_done = False
        for call in parsed.tool_calls:
            if self.num_tool_calls >= self.config.max_tool_calls:
                self._stop(StopReason.MAX_TOOL_CALLS)
                break
            step = self.env.step(call)
            self.num_tool_calls += 1
            text = observation_text(step.observation)
            if self.config.tool_error_last_line and is_error_observation(text, getattr(step, "info", None)):
                text = last_line(text)
            results.append({"role": "tool", "content": text, "name": call.name, "arguments": call.arguments})
            if getattr(step, "done", False):
                env_done = True
                break
        if results:
            self._observe("tool", results)
        if env_done:
            self._stop(StopReason.ENV_DONE)
        if self.phase != DONE:
            self._after_agent_action()

    def _after_agent_action(self) -> None:
        if self.num_turns >= self.config.max_turns:
            self._stop(StopReason.MAX_TURNS)
        else:
            self.phase = AGENT

    # --- user turns -----------------------------------------------------------------------------

    def add_user_reply(self, reply: UserReply) -> None:
        """The user's answer to the agent's last text reply; the stop marker ends the episode."""
        self.num_user_turns += 1
        message = {"role": "user", "content": reply.text}
        if reply.fallback:
            message["fallback"] = reply.fallback
        if reply.stop:
            self.messages.append(dict(message, stop=True))
            self._stop(StopReason.USER_STOP)
            return
        self._observe("user", [message])
        self.phase = AGENT

    # --- result ---------------------------------------------------------------------------------

    def agent_replies(self) -> list[dict[str, str]]:
        """The agent's plain-text replies, as the verifier reads them."""
        return [
            {"role": "assistant", "content": m.get("content", "")}
            for m in self.messages
            if m.get("role") == "assistant" and m.get("content")
        ]

    def trajectory(self, reward: float, breakdown: dict[str, Any], state_hash: str = "") -> Trajectory:
        """The finished episode: the whole stream, its spans, the dialogue and the outcome."""
        ids: list[int] = []
        mask: list[int] = []
        lps: list[float] = []
        spans: list[tuple[int, int, str]] = []
        for block in self.blocks:
            start = len(ids)
            ids.extend(block.token_ids)
            mask.extend(block.loss_mask)
            lps.extend(block.logprobs)
            spans.append((start, len(ids), "prompt" if block.kind == "head" else block.kind))
        seqs = self.sequences
        single = len(seqs) == 1 and ids[: len(seqs[0].token_ids)] == seqs[0].token_ids
        if self.num_parse_errors and self.config.parse_error_reward is not None:
            breakdown = dict(breakdown, parse_error_override=True)
            reward = float(self.config.parse_error_reward)
        rows = [] if (single or not seqs) else [TokenRow(**s.to_dict()) for s in seqs]
        return Trajectory(
            ident=EpisodeId(self.task.env_id, self.task.task_id, self.sample_index),
            tokens=TokenStream(
                ids, mask, lps, spans, rows, retokenized=self.retokenized, turn_versions=list(self.turn_versions)
            ),
            dialogue=Dialogue(
                self.messages, self.stop_reason, self.num_turns, self.num_tool_calls, self.num_parse_errors
            ),
            outcome=Outcome(float(reward), breakdown, state_hash),
            verdict=JudgeVerdict(),
            setup=RolloutSetup(
                policy=self.policy_name,
                user=getattr(self.user, "name", ""),
                chat_format=self.renderer.name,
                context_policy=self.context_policy,
                thinking_interleaved=self.config.interleaved_thinking,
            ),
        )


def _thinking_chars(content: str) -> int:
    """Length of the leading `<think>...</think>` block and the whitespace after it."""
    end = content.find(THINK_CLOSE)
    if end < 0:
        return 0
    end += len(THINK_CLOSE)
    while end < len(content) and content[end].isspace():
        end += 1
    return end


def _thinking_tokens(ids: list[int], tokenizer: Any) -> int:
    """Number of leading sampled tokens that hold the thinking block (and the whitespace after it)."""
    lo, hi = 1, len(ids)
    if THINK_CLOSE not in tokenizer.decode(ids, skip_special_tokens=False):
        return 0
    while lo < hi:  # smallest n whose decoded prefix contains </think>
        mid = (lo + hi) // 2
        if THINK_CLOSE in tokenizer.decode(ids[:mid], skip_special_tokens=False):
            hi = mid
        else:
            lo = mid + 1
    n = lo
    while n < len(ids) and not tokenizer.decode([ids[n]], skip_special_tokens=False).strip():
        n += 1
    return n


def _summary_line(message: dict[str, Any]) -> str:
    role, content = message.get("role"), str(message.get("content") or "")
    if role == "assistant":
        calls = message.get("tool_calls") or []
        said = content.split(THINK_CLOSE)[-1].split("<tool_call>")[0].strip()
        parts = [f"you called {c['name']}({json.dumps(c['arguments'], sort_keys=True)})" for c in calls]
        if said:
            parts.append(f"you said: {said[:200]}")
        return "; ".join(parts)
    if role == "tool":
        return f"{message.get('name', 'tool')} returned: {content[:200]}"
    if role == "user":
        return f"the user said: {content[:200]}"
    return ""
