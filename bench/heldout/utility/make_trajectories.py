"""Write trajectories.jsonl: seeded support-desk sessions, each checked against the real adapter.

Every session starts from data.json. A scenario runs its calls on the adapter as it goes (later arguments
come from earlier outputs, as an agent's would) and states whether each call should succeed; the script
stops with exit 1 if the adapter disagrees. `--check` only verifies that the file on disk is up to date.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile

import adapter
from scenarios import SCENARIOS

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 4142026


class Session:
    """One trajectory being recorded on a live adapter."""

    def __init__(self, data: dict, rng: random.Random) -> None:
        self.desk = adapter.make()
        self.desk.reset(data)
        self.rng = rng
        self.calls: list[dict] = []

    def step(self, name: str, arguments: dict, expect: bool = True):
        """Run a call, check its outcome against `expect`, and return its output."""
        result = self.desk.call(name, arguments)
        if result["ok"] != expect:
            raise AssertionError(f"{name}({arguments}) gave {result}, expected ok={expect}")
        self.calls.append({"name": name, "arguments": arguments})
        return result["output"]


def build(data: dict) -> list[dict]:
    """All trajectories, in order."""
    rng = random.Random(SEED)
    out = []
    for index, (scenario, param) in enumerate(SCENARIOS, start=1):
        session = Session(data, random.Random(rng.randrange(1 << 30)))
        instruction = scenario(session, param)
        if not 1 <= len(session.calls) <= 5:
            raise AssertionError(f"{scenario.__name__}: {len(session.calls)} calls")
        out.append({"id": f"utility-{index:03d}", "instruction": instruction, "calls": session.calls})
    return out


def render(trajectories: list[dict]) -> str:
    """The file's text: one JSON object a line."""
    return "".join(json.dumps(t, ensure_ascii=False, sort_keys=False) + "\n" for t in trajectories)


def main(argv: list[str]) -> int:
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    text = render(build(data))
    path = os.path.join(HERE, "trajectories.jsonl")
    if "--check" in argv:
        with open(path, encoding="utf-8") as fh:
            same = fh.read() == text
        print("trajectories.jsonl is up to date" if same else "trajectories.jsonl is stale")
        return 0 if same else 1
    fd, tmp = tempfile.mkstemp(dir=HERE, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)
    n_traj, n_calls, n_err = adapter.replay(HERE)
    print(f"wrote {n_traj} trajectories, {n_calls} calls, {n_err} failing")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
