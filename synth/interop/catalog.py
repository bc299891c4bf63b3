"""Find environment folders and load their tools and tasks once, for servers, exporters and adapters."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from synth.errors import InputError
from synth.task import Task


@dataclass
class EnvEntry:
    """One environment folder: its compiled definition (shared by every episode) and its tasks by id."""

    env_dir: Path
    definition: Any  # synth.runtime.loader.EnvDefinition
    tasks: dict[str, Task] = field(default_factory=dict)

    @property
    def env_id(self) -> str:
        return self.definition.env_id

    @property
    def title(self) -> str:
        return self.definition.title

    @property
    def policy(self) -> str:
        manifest = self.definition.manifest or {}
        return str(manifest.get("policy") or manifest.get("domain_policy") or "")

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The published tools as OpenAI `tools` entries."""
        return [spec.openai_schema() for spec in self.definition.tools]

    def new_environment(self) -> Any:
        """A fresh runtime Environment sharing this entry's compiled definition."""
        from synth.runtime.environment import Environment

        return Environment(definition=self.definition)

    def task(self, task_id: str) -> Task:
        """The task with this id; KeyError when there is none."""
        return self.tasks[task_id]


def discover_env_dirs(paths: Iterable[str | Path]) -> list[Path]:
    """Environment folders named by `paths`: a folder with manifest.json, or a folder of such folders."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            raise InputError(str(path), "(folder)", "not a folder")
        if (path / "manifest.json").is_file():
            found.append(path)
            continue
        children = sorted(p for p in path.iterdir() if p.is_dir() and (p / "manifest.json").is_file())
        if not children:
            raise InputError(
                str(path), "(folder)", "no manifest.json here or in its subfolders: not an environment folder"
            )
        found.extend(children)
    return found


def _read_tasks(env_dir: Path, env_id: str) -> dict[str, Task]:
    path = env_dir / "tasks.jsonl"
    tasks: dict[str, Task] = {}
    if not path.exists():
        return tasks
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            task = Task.from_dict(json.loads(line))
        except (ValueError, TypeError, KeyError) as err:
            raise InputError(str(path), f"line {lineno}", f"not a task: {err}") from None
        if task.task_id in tasks:
            raise InputError(str(path), f"line {lineno}", f"duplicate task_id {task.task_id!r}")
        if task.env_id and task.env_id != env_id:
            raise InputError(str(path), f"line {lineno}: env_id", f"{task.env_id!r} but the folder holds {env_id!r}")
        tasks[task.task_id] = task
    return tasks


class EnvCatalog:
    """Every environment under some folders, by env_id (ids must be unique)."""

    def __init__(self, paths: Iterable[str | Path]):
        from synth.runtime.loader import load_env_folder

        self.entries: dict[str, EnvEntry] = {}
        for env_dir in discover_env_dirs(paths):
            definition = load_env_folder(env_dir)
            if definition.env_id in self.entries:
                other = self.entries[definition.env_id].env_dir
                raise InputError(
                    str(env_dir / "manifest.json"), "env_id", f"{definition.env_id!r} is also the id of {other}"
                )
            self.entries[definition.env_id] = EnvEntry(env_dir, definition, _read_tasks(env_dir, definition.env_id))

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, env_id: object) -> bool:
        return env_id in self.entries

    def get(self, env_id: str) -> EnvEntry:
        """The entry for `env_id`; KeyError when there is none."""
        return self.entries[env_id]

    def env_ids(self) -> list[str]:
        return sorted(self.entries)

    def all_tasks(self) -> list[tuple[EnvEntry, Task]]:
        """Every (entry, task), sorted by env_id then task_id."""
        return [
            (self.entries[e], self.entries[e].tasks[t]) for e in self.env_ids() for t in sorted(self.entries[e].tasks)
        ]
