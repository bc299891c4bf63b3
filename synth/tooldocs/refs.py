"""JSON pointers and local `$ref` resolution with cycle detection."""

from __future__ import annotations

import copy
from typing import Any

from synth.errors import InputError


def escape(token: Any) -> str:
    """Escape one JSON-pointer token (`~` -> `~0`, `/` -> `~1`)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """Undo `escape`."""
    return token.replace("~1", "/").replace("~0", "~")


def join(pointer: str, *tokens: Any) -> str:
    """Append tokens to a JSON pointer: join("/paths", "/pet") == "/paths/~1pet"."""
    return pointer + "".join("/" + escape(t) for t in tokens)


def lookup_pointer(doc: Any, pointer: str) -> tuple[bool, Any]:
    """Follow a JSON pointer ("" or "/a/0/b") into `doc`; returns (found, value)."""
    if pointer == "":
        return True, doc
    if not pointer.startswith("/"):
        return False, None
    node = doc
    for raw in pointer[1:].split("/"):
        token = unescape(raw)
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False, None
    return True, node


class RefResolver:
    """Resolves local `$ref`s (`#/...`) of one document; remote refs, dangling refs and cycles are InputErrors."""

    def __init__(self, doc: Any, path: str):
        self.doc = doc
        self.path = path
        self._memo: dict[str, Any] = {}

    def target(self, ref: Any, loc: str) -> tuple[Any, str]:
        """The node a `$ref` string points to, and its pointer."""
        if not isinstance(ref, str):
            raise InputError(self.path, join(loc, "$ref"), "$ref must be a string")
        if not ref.startswith("#"):
            raise InputError(self.path, join(loc, "$ref"), f"only local $ref supported (got {ref!r})")
        pointer = ref[1:]
        found, node = lookup_pointer(self.doc, pointer)
        if not found:
            raise InputError(self.path, join(loc, "$ref"), f"$ref {ref!r} points nowhere")
        return node, pointer

    def deref(self, node: Any, loc: str) -> tuple[Any, str]:
        """Follow a chain of `$ref`s (for parameters, bodies, responses); returns the final node and its pointer."""
        chain: list[str] = []
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if ref in chain:
                raise InputError(self.path, join(loc, "$ref"), "$ref cycle: " + " -> ".join(chain + [ref]))
            chain.append(ref)
            node, loc = self.target(ref, loc)
        return node, loc

    def inline(self, node: Any, loc: str) -> Any:
        """A deep copy of `node` with every local `$ref` replaced by its (recursively inlined) target.

        Sibling keywords next to a `$ref` (e.g. `description`) override the target's.
        """
        try:
            return self._inline(node, loc, ())
        except InputError as err:
            if err.problem.startswith("$ref cycle") and not err.location.startswith(loc):
                raise InputError(err.path, err.location, f"{err.problem} (reached from {loc})") from None
            raise

    def _inline(self, node: Any, loc: str, chain: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [self._inline(v, join(loc, i), chain) for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        if "$ref" not in node:
            return {k: self._inline(v, join(loc, k), chain) for k, v in node.items()}
        ref = node["$ref"]
        if not isinstance(ref, str):
            raise InputError(self.path, join(loc, "$ref"), "$ref must be a string")
        if ref in chain:
            raise InputError(self.path, join(loc, "$ref"), "$ref cycle: " + " -> ".join(chain + (ref,)))
        if ref in self._memo:
            resolved = copy.deepcopy(self._memo[ref])
        else:
            target, pointer = self.target(ref, loc)
            resolved = self._inline(target, pointer, chain + (ref,))
            self._memo[ref] = copy.deepcopy(resolved)
        siblings = {k: self._inline(v, join(loc, k), chain) for k, v in node.items() if k != "$ref"}
        if not siblings:
            return resolved
        if isinstance(resolved, dict):
            return {**resolved, **siblings}
        return siblings if resolved is True else resolved


def check_local_refs(schema: Any, path: str, loc: str) -> None:
    """Check that every `$ref` inside a standalone JSON Schema is local and resolves inside it.

    Recursive schemas are legal JSON Schema, so cycles are allowed here (nothing is inlined).
    """
    stack: list[tuple[Any, str]] = [(schema, loc)]
    while stack:
        node, here = stack.pop()
        if isinstance(node, list):
            stack.extend((v, join(here, i)) for i, v in enumerate(node))
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if ref is not None:
                if not isinstance(ref, str):
                    raise InputError(path, join(here, "$ref"), "$ref must be a string")
                if not ref.startswith("#"):
                    raise InputError(path, join(here, "$ref"), f"only local $ref supported (got {ref!r})")
                found, _ = lookup_pointer(schema, ref[1:])
                if not found:
                    raise InputError(path, join(here, "$ref"), f"$ref {ref!r} points nowhere")
            for key, value in node.items():
                if key in ("enum", "const", "examples", "default", "example"):
                    continue  # data, not schema
                stack.append((value, join(here, key)))
