"""Load an environment folder (manifest.json, state_schema.json, env.py) into an `EnvDefinition`.

Definitions are cached per folder path and env.py hash, and per source hash for in-memory parts, so
thousands of Environment instances in one process share one compiled module and one set of validators.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from synth.errors import InputError
from synth.runtime.validate import ArgumentValidator
from synth.sandbox import SandboxViolation, load_module
from synth.spec import ToolSpec


@dataclass
class EnvDefinition:
    """Everything an Environment needs, shared between instances: tools, compiled functions, validators."""

    env_id: str
    title: str
    tools: list[ToolSpec]  # published tools only
    functions: dict[str, Callable[..., Any]]  # tool name -> compiled function
    excluded: dict[str, str]  # excluded tool name -> the reason
    state_schema: dict[str, Any]
    manifest: dict[str, Any] = field(default_factory=dict)
    source_sha256: str = ""
    filename: str = "env.py"
    validators: dict[str, ArgumentValidator] = field(default_factory=dict, repr=False)
    accepted: dict[str, frozenset[str] | None] = field(default_factory=dict, repr=False)  # None: **kwargs

    def __post_init__(self) -> None:
        for spec in self.tools:
            self.validators[spec.name] = _validator(spec.parameters)
            self.accepted[spec.name] = _accepted_names(self.functions[spec.name])


def _validator(schema: dict[str, Any]) -> ArgumentValidator:
    return ArgumentValidator(schema)


def _accepted_names(fn: Callable[..., Any]) -> frozenset[str] | None:
    params = list(inspect.signature(fn).parameters.values())[1:]  # skip `state`
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


_CACHE: dict[tuple[str, str], EnvDefinition] = {}
_CACHE_SIZE = 256


def _remember(key: tuple[str, str], definition: EnvDefinition) -> EnvDefinition:
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = definition
    return definition


def clear_cache() -> None:
    """Forget every loaded definition."""
    _CACHE.clear()


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(str(path), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(str(path), "", f"cannot read: {err}") from None
    except json.JSONDecodeError as err:
        raise InputError(str(path), f"line {err.lineno} column {err.colno}", f"invalid JSON: {err.msg}") from None


def _build(
    env_id: str,
    title: str,
    tools: list[ToolSpec],
    function_names: dict[str, str],
    source: str,
    state_schema: dict[str, Any],
    excluded: dict[str, str],
    manifest: dict[str, Any],
    where: str,
    filename: str = "env.py",
) -> EnvDefinition:
    try:
        module = load_module(source, filename)
    except SandboxViolation as err:
        raise InputError(where, filename, f"env.py refused by the sandbox: {err.reason}") from None
    functions: dict[str, Callable[..., Any]] = {}
    seen: set[str] = set()
    for spec in tools:
        if spec.name in seen:
            raise InputError(where, f"tools/{spec.name}", "duplicate tool name")
        seen.add(spec.name)
        fn_name = function_names.get(spec.name, spec.name)
        if fn_name not in module.functions:
            raise InputError(where, f"tools/{spec.name}", f"function {fn_name!r} is not defined in {filename}")
        functions[spec.name] = module.functions[fn_name]
    try:
        return EnvDefinition(
            env_id=env_id,
            title=title,
            tools=list(tools),
            functions=functions,
            excluded=excluded,
            state_schema=state_schema,
            manifest=manifest,
            source_sha256=module.sha256,
        )
    except Exception as err:  # jsonschema.SchemaError for a bad parameters schema
        raise InputError(where, "tools", f"invalid parameters schema: {getattr(err, 'message', err)}") from None


def load_env_folder(env_dir: str | Path) -> EnvDefinition:
    """Read and compile an environment folder.

    Cached by env.py's path, mtime and size, then by path and sha256. Only env.py is watched: after
    editing manifest.json or state_schema.json alone in a running process, call `clear_cache()`.
    """
    root = Path(env_dir).resolve()
    code_path = root / "env.py"
    try:
        stat = code_path.stat()
        quick_key = (str(code_path), f"{stat.st_mtime_ns}:{stat.st_size}")
        cached = _CACHE.get(quick_key)
        if cached is not None:
            return cached
        source = code_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(code_path), "", "file not found") from None
    key = (str(root), hashlib.sha256(source.encode("utf-8")).hexdigest())
    cached = _CACHE.get(key)
    if cached is not None:
        return _remember(quick_key, cached)
    manifest_path = root / "manifest.json"
    manifest = _read_json(manifest_path)
    if not isinstance(manifest, dict):
        raise InputError(str(manifest_path), "", "must be a JSON object")
    for required in ("env_id", "tools"):
        if required not in manifest:
            raise InputError(str(manifest_path), required, "missing key")
    tools: list[ToolSpec] = []
    function_names: dict[str, str] = {}
    for i, raw in enumerate(manifest["tools"]):
        if not isinstance(raw, dict) or "name" not in raw or "parameters" not in raw:
            raise InputError(str(manifest_path), f"tools/{i}", "a tool needs at least name and parameters")
        spec = ToolSpec.from_dict(raw)
        tools.append(spec)
        function_names[spec.name] = raw.get("function") or spec.name
    excluded = {}
    for i, item in enumerate(manifest.get("excluded_tools") or []):
        if not isinstance(item, dict) or "name" not in item:
            raise InputError(str(manifest_path), f"excluded_tools/{i}", "needs name and error")
        excluded[item["name"]] = str(item.get("error") or "this tool is not available")
    schema = _read_json(root / "state_schema.json")
    if not isinstance(schema, dict):
        raise InputError(str(root / "state_schema.json"), "", "must be a JSON object (a JSON Schema)")
    definition = _build(
        str(manifest["env_id"]),
        str(manifest.get("title") or manifest["env_id"]),
        tools,
        function_names,
        source,
        schema,
        excluded,
        manifest,
        str(manifest_path),
    )
    _remember(quick_key, definition)
    return _remember(key, definition)


def definition_from_parts(
    env_id: str,
    tools: list[ToolSpec],
    functions: dict[str, str],
    source: str,
    state_schema: dict[str, Any],
    excluded: dict[str, str] | None = None,
    title: str = "",
) -> EnvDefinition:
    """Build (or reuse) a definition from in-memory parts; `functions` maps tool name -> function name."""
    tool_key = hashlib.sha256(
        json.dumps([t.to_dict() for t in tools], sort_keys=True, default=str).encode()
        + json.dumps(functions, sort_keys=True).encode()
        + json.dumps(state_schema, sort_keys=True).encode()
        + json.dumps(excluded or {}, sort_keys=True).encode()
    ).hexdigest()
    key = (f"<parts:{env_id}:{tool_key}>", hashlib.sha256(source.encode("utf-8")).hexdigest())
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    definition = _build(
        env_id,
        title or env_id,
        tools,
        dict(functions),
        source,
        state_schema,
        dict(excluded or {}),
        {"env_id": env_id, "title": title or env_id},
        f"<{env_id}>",
    )
    return _remember(key, definition)
