"""Fidelity reports as text: a rich table for the terminal and a markdown section for REPORT.md."""

from __future__ import annotations

import json
from typing import Any

from synth.fidelity.report import FidelityReport

TOTALS = (
    ("ok_agreement", "ok agreement"),
    ("output_agreement", "output agreement"),
    ("change_agreement", "change agreement"),
    ("call_fidelity", "call fidelity"),
    ("final_state_exact", "final state exact"),
    ("resynced_call_fidelity", "call fidelity, resynced"),
)
SHOWN = 160  # characters of an argument or result shown in an example


def fmt(share: float | None) -> str:
    """A share as a percentage with one decimal, or '-' when there was nothing to count."""
    return "-" if share is None else f"{100 * share:.1f}%"


def short(value: Any, width: int = SHOWN) -> str:
    """Compact JSON of a value, cut to `width` characters."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def example_lines(ex: dict[str, Any]) -> list[str]:
    """A disagreeing call in three or four lines."""
    ref, env = ex["reference"], ex["environment"]
    lines = [
        f"{ex['trajectory']} call {ex['call']}: disagrees on {', '.join(ex['disagrees'])}",
        f"arguments: {short(ex['arguments'])}",
        f"reference: {'ok' if ref['ok'] else 'fails'} {short(ref['output'])}",
        f"environment: {'ok' if env['ok'] else 'fails'} {short(env['output'])}",
    ]
    if "reference_changes" in ex:
        lines.append(
            f"changes: reference {short(ex['reference_changes'], 120)} / "
            f"environment {short(ex['environment_changes'], 120)}"
        )
    return lines


def print_table(report: FidelityReport, console: Any = None) -> None:
    """Totals, then the tools worst first with one disagreeing call each."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    data = report.to_dict()
    console.print(
        f"{report.env_id} against {report.reference}: {data['trajectories']} trajectories, {data['calls']} calls"
    )
    console.print("  ".join(f"{label} {fmt(data[key])}" for key, label in TOTALS if key in data))
    table = Table(show_lines=True)
    for column in ("tool", "calls", "ok", "output", "change", "all", "a disagreeing call"):
        table.add_column(column, overflow="fold")
    for name in report.worst_first():
        row = data["per_tool"][name]
        ex = report.examples.get(name)
        table.add_row(
            name,
            str(row["calls"]),
            fmt(row["ok"]),
            fmt(row["output"]),
            fmt(row["change"]),
            fmt(row["all"]),
            "\n".join(example_lines(ex)) if ex else "",
        )
    console.print(table)


def markdown_section(report: FidelityReport) -> str:
    """The REPORT.md section (between fidelity markers); deterministic: no timings."""
    data = report.to_dict()
    lines = [
        "<!-- fidelity -->",
        f"## Fidelity against the reference `{report.reference}`",
        "",
        f"Replayed {data['trajectories']} reference trajectories ({data['calls']} calls) on this environment "
        "and on the real implementation, in lock step (`forgegym fidelity`; figures in `fidelity.json`).",
        "",
        "| measure | value |",
        "|---|---|",
    ]
    lines += [f"| {label} | {fmt(data[key])} |" for key, label in TOTALS if key in data]
    lines += ["", "| tool | calls | ok | output | change | all |", "|---|---|---|---|---|---|"]
    for name in report.worst_first():
        row = data["per_tool"][name]
        lines.append(
            f"| {name} | {row['calls']} | {fmt(row['ok'])} | {fmt(row['output'])} | {fmt(row['change'])} "
            f"| {fmt(row['all'])} |"
        )
    shown = [name for name in report.worst_first() if name in report.examples][:10]
    if shown:
        lines += ["", "Disagreeing calls (the first of each tool, worst tools first):", ""]
        for name in shown:
            first, *rest = example_lines(report.examples[name])
            lines.append(f"- **{name}**, {first}")
            lines += [f"  - {line.replace('|', '/')}" for line in rest]
    lines.append("<!-- /fidelity -->")
    return "\n".join(lines) + "\n"
