"""Sample data that grounds a synthesized environment: load it, infer its state schema, reconcile with the docs."""

from __future__ import annotations

from typing import Any

DATA_DIR = "data"  # where an environment folder carries its sample data


def load_grounding(path: str) -> tuple[Any, Any]:
    """(SampleData, DataLayout) of --data PATH; InputError (exit 2) for bad input."""
    from synth.data.infer import infer_layout
    from synth.data.load import load_sample_data

    data = load_sample_data(path)
    return data, infer_layout(data.states, data.path)


def grounded_state_schema(docset: Any, path: str) -> Any:
    """The SchemaResult of an environment grounded in the sample data at `path`."""
    from synth.data.reconcile import grounded_schema

    data, layout = load_grounding(path)
    return grounded_schema(docset, data, layout)


def attach_data(draft: Any, schema: Any, path: str) -> None:
    """Carry the data files in the environment folder (data/NAME), record them in the manifest and report."""
    from synth.data.load import load_sample_data

    data = load_sample_data(path)
    files = {f"{DATA_DIR}/{name}": text for name, text in sorted(data.files.items())}
    draft.extra_files.update(files)
    info = schema.data or {}
    draft.manifest["data"] = {
        "kind": data.kind,
        "files": sorted(files),
        "sha256": data.sha256(),
        "states": len(data.states),
        "collections": info.get("collections", {}),
        "trees": info.get("trees", {}),
        "references": info.get("references", []),
    }
    notes = info.get("notes") or []
    refs = info.get("references") or []
    lines = [
        "",
        "## Sample data",
        "",
        f"Grounded in `{DATA_DIR}/` ({data.kind}, {len(data.states)} sample state(s)); the state keeps its layout.",
        "",
    ]
    lines += [f"- reference: `{r['collection']}.{r['field']}` -> `{r['target']}`" for r in refs]
    lines += [f"- {n}" for n in notes]
    draft.report = draft.report.rstrip("\n") + "\n" + "\n".join(lines) + "\n"


def load_data_states(env_dir: Any) -> list[dict[str, Any]]:
    """The sample states an environment folder carries (empty when it has none)."""
    import json
    from pathlib import Path

    from synth.data.load import load_sample_data

    root = Path(env_dir)
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    info = manifest.get("data")
    if not info:
        return []
    files = info.get("files") or []
    target = root / DATA_DIR if info.get("kind") == "folder" else root / files[0]
    return load_sample_data(target).states
