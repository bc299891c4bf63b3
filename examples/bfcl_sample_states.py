"""Write the BFCL file-system trajectories' initial states as a JSONL of sample states (one state a line).

    python examples/bfcl_sample_states.py ../shared/references/bfcl_file_system/trajectories.jsonl \
        --out runs/data/bfcl_file_system_states.jsonl

Identical states are written once, in first-seen order; keys are sorted, so the output is byte-identical.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from synth.fsio import write_text_atomic


def sample_states(trajectories: Path) -> list[dict]:
    """The distinct `initial_state` objects of a trajectories JSONL, in order."""
    seen: set[str] = set()
    out = []
    for n, line in enumerate(trajectories.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        state = json.loads(line).get("initial_state")
        if not isinstance(state, dict):
            raise SystemExit(f"{trajectories}: line {n}: no initial_state object")
        text = json.dumps(state, sort_keys=True, ensure_ascii=False)
        if text not in seen:
            seen.add(text)
            out.append(state)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trajectories", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    states = sample_states(args.trajectories)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(args.out, "".join(json.dumps(s, sort_keys=True, ensure_ascii=False) + "\n" for s in states))
    print(f"{len(states)} sample states -> {args.out}")


if __name__ == "__main__":
    main()
