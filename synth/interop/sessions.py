"""Episodes served to remote agents: one isolated runtime Environment per session, reclaimed when idle.

Thread-safe: the HTTP server calls it from a thread pool. Each session has its own lock, so concurrent
requests to one session run one at a time while different sessions run side by side. The runtime's
write guard is per thread, and sessions share only the read-only compiled definition and initial state.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from synth.interop.catalog import EnvCatalog, EnvEntry
from synth.task import Task


class SessionError(Exception):
    """A request the session manager refuses; `status` is the HTTP status it maps to."""

    status = 400

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class NotFound(SessionError):
    status = 404


class TooManySessions(SessionError):
    status = 429


@dataclass
class Session:
    """One episode: the environment, its task (or None for a free-play state), and what happened so far."""

    session_id: str
    entry: EnvEntry
    task: Task | None
    env: Any  # synth.runtime.environment.Environment
    created_at: float
    last_used: float
    observation: str = ""
    steps: int = 0
    done: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def describe(self) -> dict[str, Any]:
        """The session's public facts (no state)."""
        return {
            "session_id": self.session_id,
            "env_id": self.entry.env_id,
            "task_id": self.task.task_id if self.task else None,
            "steps": self.steps,
            "done": self.done,
        }


class SessionManager:
    """Create, look up, step and close sessions; sessions idle longer than `idle_timeout_s` are reclaimed."""

    def __init__(
        self,
        catalog: EnvCatalog,
        idle_timeout_s: float = 600.0,
        max_sessions: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ):
        if idle_timeout_s <= 0:
            raise ValueError("idle_timeout_s must be positive")
        if max_sessions < 1:
            raise ValueError("max_sessions must be at least 1")
        self.catalog = catalog
        self.idle_timeout_s = float(idle_timeout_s)
        self.max_sessions = int(max_sessions)
        self.clock = clock
        self.reclaimed = 0
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    # lookup -----------------------------------------------------------------------------------
    def entry(self, env_id: str) -> EnvEntry:
        try:
            return self.catalog.get(env_id)
        except KeyError:
            known = ", ".join(self.catalog.env_ids()) or "none"
            raise NotFound(f"unknown env_id {env_id!r} (known: {known})") from None

    def task(self, env_id: str, task_id: str) -> Task:
        entry = self.entry(env_id)
        try:
            return entry.task(task_id)
        except KeyError:
            raise NotFound(
                f"unknown task_id {task_id!r} in environment {env_id!r} ({len(entry.tasks)} tasks)"
            ) from None

    def get(self, session_id: str) -> Session:
        """The live session (its idle clock restarts); NotFound when unknown, closed or reclaimed."""
        now = self.clock()
        with self._lock:
            self._reap_locked(now)
            session = self._sessions.get(session_id)
            if session is None:
                raise NotFound(
                    f"unknown session {session_id!r}: never created, closed, or reclaimed after "
                    f"{self.idle_timeout_s:g} s idle"
                )
            session.last_used = now
            return session

    def list_sessions(self) -> list[dict[str, Any]]:
        with self._lock:
            self._reap_locked(self.clock())
            return [s.describe() for s in self._sessions.values()]

    # lifecycle --------------------------------------------------------------------------------
    def create(self, env_id: str, task_id: str | None = None, initial_state: dict[str, Any] | None = None) -> Session:
        """Start an episode of `task_id` (or from `initial_state`, or the empty state) in a fresh Environment."""
        entry = self.entry(env_id)
        task = self.task(env_id, task_id) if task_id is not None else None
        if task is not None and initial_state is not None:
            raise SessionError("give task_id or initial_state, not both")
        env = entry.new_environment()
        observation = env.reset(task=task, initial_state=initial_state)
        now = self.clock()
        with self._lock:
            self._reap_locked(now)
            if len(self._sessions) >= self.max_sessions:
                raise TooManySessions(
                    f"{len(self._sessions)} sessions are open, the limit is {self.max_sessions}: "
                    "close some (DELETE /sessions/ID) or wait for idle ones to be reclaimed"
                )
            session_id = secrets.token_hex(12)
            session = Session(session_id, entry, task, env, created_at=now, last_used=now, observation=observation)
            self._sessions[session_id] = session
        return session

    def step(self, session_id: str, tool_call: dict[str, Any]) -> tuple[Session, Any]:
        """Run one tool call (`{"name", "arguments"}`) in the session; returns (session, StepResult)."""
        session = self.get(session_id)
        with session.lock:
            result = session.env.step(tool_call)
            session.observation = result.observation
            session.steps += 1
            session.done = session.done or bool(result.done)
            session.last_used = self.clock()
        return session, result

    def verify(self, session_id: str, agent_messages: list[Any] | None = None) -> tuple[Session, Any]:
        """Score the session's current state against its task; returns (session, Reward)."""
        from synth.verify import score_episode

        session = self.get(session_id)
        if session.task is None:
            raise SessionError(f"session {session_id!r} was started without a task: nothing to verify against")
        with session.lock:
            reward = score_episode(session.task, session.env.state, agent_messages or [])
        return session, reward

    def close(self, session_id: str) -> Session:
        """End a session and free its environment; NotFound when it is not open."""
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is None:
            raise NotFound(f"unknown session {session_id!r}: never created, already closed, or reclaimed")
        return session

    def reap(self) -> int:
        """Reclaim sessions idle past the limit now; returns how many."""
        with self._lock:
            return self._reap_locked(self.clock())

    def _reap_locked(self, now: float) -> int:
        stale = [
            sid for sid, s in self._sessions.items() if now - s.last_used > self.idle_timeout_s and not s.lock.locked()
        ]
        for sid in stale:
            del self._sessions[sid]
        self.reclaimed += len(stale)
        return len(stale)
