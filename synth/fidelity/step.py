"""The fidelity step of synthesis (`forgegym synth ... --reference REF_DIR`): fidelity.json and a REPORT.md section."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from synth.fidelity.render import markdown_section
from synth.fidelity.replay import measure_fidelity

FIDELITY_FILE = "fidelity.json"
_SECTION = re.compile(r"<!-- fidelity -->.*?<!-- /fidelity -->\n?", re.S)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def with_section(text: str, section: str) -> str:
    """REPORT.md text with its fidelity section replaced, or appended when it has none."""
    if _SECTION.search(text):
        return _SECTION.sub(lambda _m: section, text)
    return (text.rstrip("\n") + "\n\n" if text.strip() else "") + section


def fidelity_step(env_dir: str | Path, ref_dir: str | Path, limit: int | None = None) -> dict[str, Any]:
    """Measure a published environment against a reference; write fidelity.json and the REPORT.md section.

    Both files are deterministic for the same environment and reference. Returns the `--json` figures.
    """
    report = measure_fidelity(env_dir, ref_dir, limit=limit)
    root = Path(env_dir)
    _write_atomic(
        root / FIDELITY_FILE,
        json.dumps(report.to_dict(examples=True), sort_keys=True, indent=2, ensure_ascii=False, default=str) + "\n",
    )
    report_path = root / "REPORT.md"
    old = report_path.read_text(encoding="utf-8") if report_path.exists() else ""
    _write_atomic(report_path, with_section(old, markdown_section(report)))
    return report.to_dict()
