"""`forgegym tools PATH... [--json]`: load tool docs and print the ToolSpecs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List

import typer


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add the `tools` command to the app."""

    @app.command("tools")
    def tools(
        paths: List[Path] = typer.Argument(
            ..., help="Tool-doc files: OpenAI JSON, OpenAPI YAML/JSON, MCP, BFCL, markdown."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON list of ToolSpecs instead of a table."),
    ) -> None:
        """Load tool docs and list the tools they define (bad input exits 2)."""
        from synth.tooldocs import load_docs

        docs = load_docs(paths)
        if as_json:
            typer.echo(json.dumps([t.to_dict() for t in docs.tools], indent=2, ensure_ascii=False))
            return
        print_table(docs)


def print_table(docs) -> None:
    """A rich table: name / mutates / #params / source, then the sources and policy size."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{docs.title}: {len(docs.tools)} tools")
    for column in ("name", "mutates", "#params", "source"):
        table.add_column(column, overflow="fold")
    for tool in docs.tools:
        mutates = "?" if tool.mutates is None else ("yes" if tool.mutates else "no")
        source = f"{Path(tool.source.file).name}#{tool.source.pointer}" if tool.source else ""
        table.add_row(tool.name, mutates, str(len(tool.parameters.get("properties", {}))), source)
    console = Console(width=max(Console().width, 100))
    console.print(table)
    for src in docs.sources:
        console.print(f"{src['path']} ({src['format']}) sha256 {src['sha256'][:12]}", highlight=False)
    if docs.policy:
        console.print(f"policy text: {len(docs.policy)} characters", highlight=False)
