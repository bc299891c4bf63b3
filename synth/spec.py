"""Data contracts shared by every stage: ToolSpec and DocSet (see docs/architecture.md)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


def schema_types(schema: Any) -> list[str]:
    """The JSON types a field's schema allows: `"string"` -> ["string"], `["object", "null"]` as it is."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    return list(kind) if isinstance(kind, list) else [kind] if kind else []


def record_props(cols: dict[str, Any], name: str) -> dict[str, Any]:
    """The field schemas of one record of the state schema's collection `name` (`cols`: its `properties`)."""
    return ((cols.get(name) or {}).get("additionalProperties") or {}).get("properties") or {}


def field_by_words(words: str, props: dict[str, Any]) -> str | None:
    """The field a run of words names: all of them joined ("start date" -> `start_date`), else the longest tail that
    is a field ("current balance" -> `balance`), else the field whose `x-called` holds them ("arrival date")."""
    parts = words.lower().split()
    found = next((f for f in ("_".join(parts[i:]) for i in range(len(parts))) if f in props), None)
    return found or field_called(words, props)


def field_called(words: str, props: dict[str, Any]) -> str | None:
    """The field whose `x-called` holds the words ("arrival date": what the docs' parameters call it,
    envsynth.field_words)."""
    said = " ".join(words.lower().split())
    return next((f for f, s in props.items() if isinstance(s, dict) and said in (s.get("x-called") or [])), None)


def list_by_words(words: str, props: dict[str, Any]) -> str | None:
    """The list field a run of words names, joined or in the plural ("banned rig" -> `banned_rigs`)."""
    from synth.words import plural

    joined = "_".join(words.lower().split())
    return next((f for f in dict.fromkeys((joined, plural(joined))) if "array" in schema_types(props.get(f))), None)


def known_values(schema: Any) -> list[str]:
    """The values a closed field's schema lists (`enum`, else the sample data's `x-enum`), as text."""
    values = (schema.get("enum") or schema.get("x-enum") or []) if isinstance(schema, dict) else []
    return [str(v) for v in values]


@dataclass(frozen=True)
class ToolSource:
    """Where a tool was read from: the file, its format, and a pointer into it."""

    file: str
    format: str  # "openai" | "openapi" | "mcp" | "bfcl" | "markdown"
    pointer: str  # JSON pointer or heading, e.g. "/paths/~1pet/post" or "#3"


@dataclass(frozen=True)
class ToolSpec:
    """One tool: a name, what it does, its JSON-Schema parameters and (optional) returns.

    `mutates` is True/False when the doc says so (HTTP method, MCP annotations), None when unknown.
    `examples` holds example calls from the docs: [{"arguments": {...}, "result": ...}].
    """

    name: str
    description: str
    parameters: dict[str, Any]
    returns: dict[str, Any] | None = None
    mutates: bool | None = None
    source: ToolSource | None = None
    http: dict[str, str] | None = None  # {"method": "post", "path": "/pet"} for OpenAPI operations
    examples: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["examples"] = list(self.examples)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ToolSpec":
        src = d.get("source")
        return cls(
            name=d["name"],
            description=d.get("description", ""),
            parameters=d["parameters"],
            returns=d.get("returns"),
            mutates=d.get("mutates"),
            source=ToolSource(**src) if src else None,
            http=d.get("http"),
            examples=tuple(d.get("examples") or ()),
        )

    def openai_schema(self) -> dict[str, Any]:
        """The tool as an OpenAI `tools` entry."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


@dataclass
class DocSet:
    """Everything loaded from one or more tool-doc files: tools, domain policy text, source hashes."""

    tools: list[ToolSpec]
    policy: str = ""
    title: str = ""
    sources: list[dict[str, str]] = field(default_factory=list)  # [{"path":..., "sha256":...}]


@dataclass(frozen=True)
class ToolCall:
    """A parsed tool call: the one structured form every parser produces."""

    name: str
    arguments: dict[str, Any]
    call_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """`{"name", "arguments"}`: the form of a gold action in tasks.jsonl (the call id is not kept)."""
        return {"name": self.name, "arguments": self.arguments}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ToolCall:
        """Inverse of `to_dict`; missing arguments mean none. A call without a string name is a TypeError."""
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            raise TypeError(f"a tool call is {{'name': str, 'arguments': {{...}}}}, not {d!r:.80}")
        arguments = d.get("arguments") or {}
        if not isinstance(arguments, dict):
            raise TypeError(f"tool call {d['name']!r}: arguments must be an object, not {type(arguments).__name__}")
        return cls(name=d["name"], arguments=arguments)
