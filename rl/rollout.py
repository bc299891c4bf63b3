"""The rollout loop: many episodes at once, one generation batch per round, then verification and judging.

    trajs = run_episodes(policy, [(env_dir, task), ...], user, RolloutConfig(), k=4, judge=judge)

Token policies (transformers, vLLM) get every waiting episode's context in one `generate` call (the
backend splits it into batches of `max_batch`); text policies (endpoints, scripted) and the simulated
user are called from a small thread pool. Each episode has its own environment instance.
`render_gold_trajectory` turns a task's gold actions into the same token stream (SFT data).
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable

from rl.backends.base import SamplingParams, is_token_policy
from rl.backends.scripted import GoldPolicy
from rl.context import View
from rl.episode import AGENT, DONE, USER, Episode, RolloutConfig
from rl.judge import UserErrorJudge
from rl.render import ChatRenderer, make_renderer, stop_token_id
from rl.types import JudgeVerdict, StopReason, Trajectory
from rl.user_sim import ScriptedUser, UserSimulator
from synth.spec import ToolCall, ToolSpec
from synth.task import Task, result_text
from synth.verify import score_episode

EnvSource = Any  # a folder (str | Path) or a zero-argument factory returning an Environment

__all__ = ["RolloutConfig", "run_episodes", "render_gold_trajectory", "open_env", "load_env_tasks"]


def open_env(source: EnvSource, definitions: dict[str, Any] | None = None) -> Any:
    """A fresh environment instance for one episode; folders are loaded once per `definitions` cache."""
    if callable(source):
        return source()
    from synth.runtime import Environment
    from synth.runtime.loader import load_env_folder

    key = str(Path(source).resolve())
    if definitions is None:
        return Environment(Path(source))
    if key not in definitions:
        definitions[key] = load_env_folder(Path(source))
    return Environment(definition=definitions[key])


def load_env_tasks(env_dir: str | Path) -> list[Task]:
    """The tasks of an environment folder (tasks.jsonl)."""
    from synth.task import load_tasks

    return load_tasks(Path(env_dir) / "tasks.jsonl")


def _stop_ids(renderer: ChatRenderer, tokenizer: Any) -> tuple[int, ...]:
    ids = {stop_token_id(renderer, tokenizer)}
    if getattr(tokenizer, "eos_token_id", None) is not None:
        ids.add(int(tokenizer.eos_token_id))
    return tuple(sorted(ids))


def _state_hash(env: Any) -> str:
    fn = getattr(env, "state_hash", None)
    try:
        return str(fn()) if callable(fn) else ""
    except Exception:  # the hash is informative only
        return ""


def run_episodes(
    policy: Any,
    envs_and_tasks: Iterable[tuple[EnvSource, Task]],
    user: UserSimulator,
    config: RolloutConfig | None = None,
    k: int = 1,
    judge: UserErrorJudge | None = None,
    tokenizer: Any = None,
    on_done: Callable[[Trajectory], None] | None = None,
) -> list[Trajectory]:
    """Run every (environment, task) pair k times; trajectories come back in pair order, then sample order.

    `tokenizer` is only for text policies (to record a retokenized stream); token policies bring theirs.
    With a `judge`, every trajectory whose user simulator is an LLM gets a user-error verdict.
    A policy's cache across turns is emptied first, so a call's samples depend on its inputs only.
    """
    config = config or RolloutConfig()
    if hasattr(policy, "reset_prefix_cache"):
        policy.reset_prefix_cache()
    token_mode = is_token_policy(policy)
    tokenizer = policy.tokenizer if token_mode else tokenizer
    renderer = make_renderer(config.chat_format, tokenizer)
    if hasattr(policy, "bind_renderer"):
        policy.bind_renderer(renderer)
    stop_ids = _stop_ids(renderer, tokenizer) if tokenizer is not None else ()
    definitions: dict[str, Any] = {}
    episodes = [
        Episode(
            open_env(src, definitions),
            task,
            i,
            config,
            user,
            renderer,
            tokenizer,
            policy_name=getattr(policy, "name", type(policy).__name__),
            retokenized=not token_mode,
        )
        for src, task in envs_and_tasks
        for i in range(k)
    ]
    with ThreadPoolExecutor(max_workers=max(1, config.user_concurrency)) as pool:
        list(pool.map(lambda ep: ep.start(), episodes))
        rounds = 0
        while True:
            waiting = [ep for ep in episodes if ep.phase == AGENT]
            budgets = [ep.room() for ep in waiting]  # also stops episodes whose context is full
            waiting = [(ep, b) for ep, b in zip(waiting, budgets) if ep.phase == AGENT]
            if waiting:
                _agent_round(policy, waiting, config, token_mode, tokenizer, stop_ids, rounds, pool)
            asking = [ep for ep in episodes if ep.phase == USER]
            if asking:
                replies = list(pool.map(lambda ep: ep.user.reply(ep.task, ep.messages, ep.sample_index), asking))
                for ep, reply in zip(asking, replies):
                    ep.add_user_reply(reply)
            if not waiting and not asking:
                break
            rounds += 1
        trajs = [_finish(ep) for ep in episodes]
        if judge is not None:
            judged = [(t, ep.task) for t, ep in zip(trajs, episodes) if not isinstance(ep.user, ScriptedUser)]
            verdicts = list(pool.map(lambda tt: judge.judge(tt[1].user_instruction, tt[0].dialogue.messages), judged))
            for (t, _), v in zip(judged, verdicts):
                t.verdict = JudgeVerdict(v.user_error, v.rationale)
    for t in trajs:
        if on_done is not None:
            on_done(t)
    return trajs


def _agent_round(policy, waiting, config, token_mode, tokenizer, stop_ids, rounds, pool) -> None:
    """One assistant turn for every waiting episode."""
    if token_mode:
        groups: dict[int, list] = {}
        for ep, budget in waiting:  # one batch per token budget keeps max_new_tokens exact per episode
            groups.setdefault(budget, []).append(ep)
        for budget, eps in groups.items():
            params = SamplingParams(
                max_new_tokens=budget,
                temperature=config.temperature,
                top_p=config.top_p,
                stop_token_ids=stop_ids,
                seed=config.seed * 1_000_003 + rounds * 7919 + budget,
            )
            samples = policy.generate([ep.last_context for ep in eps], params)
            for ep, sample in zip(eps, samples):
                text = tokenizer.decode(sample.token_ids, skip_special_tokens=False)
                ep.add_agent_turn(text, sample)
        return
    full = getattr(policy, "sees_full_history", False)

    def respond(ep: Episode) -> str:
        msgs = View([(b, False) for b in ep.blocks]).messages() if full else ep.context_messages()
        return policy.respond(msgs, ep.task, ep.sample_index)

    texts = list(pool.map(respond, [ep for ep, _ in waiting]))
    for (ep, _), text in zip(waiting, texts):
        ep.add_agent_turn(text)


def _finish(ep: Episode) -> Trajectory:
    if ep.phase != DONE:
        ep._stop(StopReason.MAX_TURNS)
    result = score_episode(ep.task, ep.env.state, ep.agent_replies())
    return ep.trajectory(result.reward, dict(result.breakdown), _state_hash(ep.env))


# --- gold trajectories for SFT --------------------------------------------------------------------


@dataclasses.dataclass
class _Step:
    observation: Any
    done: bool = False
    info: dict = dataclasses.field(default_factory=dict)


class _ReplayEnv:
    """Stands in for the environment when only the tools are at hand: replays `task.gold_outputs`."""

    def __init__(self, tools: list[ToolSpec], task: Task, title: str = "", policy: str = ""):
        self.tools, self.task, self._i = list(tools), task, 0
        self.title, self.policy = title, policy
        self.state: dict = task.initial_state

    def reset(self, task: Task) -> str:
        self._i, self.state = 0, task.initial_state
        return ""

    def step(self, call: ToolCall) -> _Step:
        outputs = self.task.gold_outputs
        text = result_text(outputs[self._i]) if self._i < len(outputs) else ""
        self._i += 1
        if self._i >= len(self.task.gold_actions):
            self.state = self.task.gold_final_state
        return _Step(observation=text)


def render_gold_trajectory(
    tokenizer: Any,
    task: Task,
    env_tools: list[ToolSpec],
    config: RolloutConfig | None = None,
    env: Any = None,
    title: str = "",
    policy: str = "",
) -> Trajectory:
    """The gold episode of `task` as a token stream with rollout masks (gold tool calls masked 1).

    Runs the scripted gold policy through the real loop with a scripted user. With `env` (a folder,
    factory or instance) the system prompt and observations are the environment's, exactly as in
    rollouts (recommended). Without it, `env_tools`, `title`, `policy` build the system prompt and the
    observations are `task.gold_outputs`.
    """
    config = config or RolloutConfig()
    source: Any
    if env is None:
        replay = _ReplayEnv(env_tools, task, title, policy)
        source = lambda: replay  # noqa: E731
    elif hasattr(env, "step"):
        source = lambda: env  # noqa: E731
    else:
        source = env
    [traj] = run_episodes(GoldPolicy(), [(source, task)], ScriptedUser(), config, k=1, tokenizer=tokenizer)
    return traj
