"""Hand-written twins of the benchmarked environments: plain Python functions on the same state layout.

Each twin module has `ENV_ID`, `TOOLS` (tool name -> `fn(state, **arguments)`), `LIST_TOOLS` (the tools
whose cost grows with the number of records), `make_state(n, seed)`
(a state with n records in the environment's layout) and `make_calls(state, count, rng)` (a valid mix
of reads, writes and a few failing calls) and `write_call(state)`. They are written the way a person would write
the tools by hand (tau-bench style: mutate the dict, return the result, serialize it), with no sandbox, no
argument validation beyond what the logic needs, and no copy-on-write.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any, Callable


class HandError(Exception):
    """A domain failure of a hand-written tool (the agent would see `Error: <message>`)."""


def call(
    tools: dict[str, Callable[..., Any]], state: dict[str, Any], name: str, arguments: dict[str, Any]
) -> tuple[bool, str]:
    """Run one hand-written tool; (ok, observation text) like the runtime's step."""
    fn = tools.get(name)
    if fn is None:
        return False, f"Error: unknown tool {name!r}"
    try:
        return True, json.dumps(fn(state, **arguments), sort_keys=True, ensure_ascii=False)
    except HandError as err:
        return False, f"Error: {err}"


TWINS = ("todo_api", "mcp_memory")


def twin(env_id: str) -> ModuleType:
    """The twin module of an environment id (KeyError-like SystemExit when there is none)."""
    if env_id not in TWINS:
        raise SystemExit(f"no hand-written twin for {env_id!r}; have: {', '.join(TWINS)}")
    return importlib.import_module(f"bench.handwritten.{env_id}")
