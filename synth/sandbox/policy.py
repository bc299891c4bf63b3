"""What sandboxed code may use: the import allowlist, safe builtins, blocked names and attributes.

Allowed modules are handed out as read-only proxies (`SafeModule`) that carry only an explicit list of
public attributes: a real module object would leak its own imports (`collections.sys`, `json.codecs`).
"""

from __future__ import annotations

import builtins
import collections
import copy
import datetime
import functools
import itertools
import json
import math
import re
import string
import typing
from typing import Any

from synth.sandbox.errors import SandboxViolation

#: Modules generated code may import (only these exact names, never submodules).
ALLOWED_MODULES: tuple[str, ...] = (
    "math",
    "re",
    "copy",
    "datetime",
    "json",
    "string",
    "itertools",
    "functools",
    "collections",
    "typing",
)

#: Attribute names refused everywhere, statically and at run time (besides every name starting with "_").
BLOCKED_ATTRS: frozenset[str] = frozenset(
    {
        "mro",
        "format_map",
        # frames, code, generators, coroutines, tracebacks (the inspect module's list)
        "tb_frame",
        "tb_next",
        "f_back",
        "f_builtins",
        "f_code",
        "f_generator",
        "f_globals",
        "f_locals",
        "f_trace",
        "co_code",
        "gi_frame",
        "gi_code",
        "gi_yieldfrom",
        "cr_await",
        "cr_frame",
        "cr_code",
        "cr_origin",
        "ag_await",
        "ag_frame",
        "ag_code",
    }
)

#: Clock access: ids and times must derive from the state so that replays are exact.
CLOCK_ATTRS: frozenset[str] = frozenset({"now", "today", "utcnow"})

#: Methods that mutate a container; reaching one counts as a write (journal, copy-on-write, read-only).
MUTATOR_ATTRS: frozenset[str] = frozenset(
    {
        "append",
        "extend",
        "insert",
        "remove",
        "pop",
        "clear",
        "sort",
        "reverse",
        "update",
        "setdefault",
        "popitem",
        "add",
        "discard",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
        "appendleft",
        "extendleft",
        "popleft",
        "rotate",
        "move_to_end",
        "subtract",
    }
)

#: Builtin names that do not exist in the sandbox, with the reason given to the code's author.
FORBIDDEN_NAMES: dict[str, str] = {
    "open": "no file I/O",
    "input": "no I/O",
    "eval": "no dynamic code",
    "exec": "no dynamic code",
    "compile": "no dynamic code",
    "globals": "no namespace introspection",
    "locals": "no namespace introspection",
    "vars": "no namespace introspection",
    "dir": "no namespace introspection",
    "type": "no type introspection (use isinstance)",
    "object": "no type introspection",
    "super": "no classes",
    "classmethod": "no classes",
    "staticmethod": "no classes",
    "property": "no classes",
    "id": "not deterministic across processes",
    "hash": "not deterministic across processes",
    "exit": "not available",
    "quit": "not available",
    "help": "not available",
    "breakpoint": "not available",
    "copyright": "not available",
    "credits": "not available",
    "license": "not available",
    "setattr": "no attribute writes",
    "delattr": "no attribute writes",
    "memoryview": "not needed for JSON state",
    "bytearray": "not needed for JSON state",
    "aiter": "no async code",
    "anext": "no async code",
    "BaseException": "cannot be caught in the sandbox",
    "SystemExit": "cannot be caught in the sandbox",
    "KeyboardInterrupt": "cannot be caught in the sandbox",
    "GeneratorExit": "cannot be caught in the sandbox",
}

#: Prefix of names the sandbox's own rewrites use; generated code may not use it.
RESERVED_PREFIX = "sbx_"

_SAFE_BUILTIN_NAMES = (
    "abs",
    "all",
    "any",
    "ascii",
    "bin",
    "bool",
    "callable",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "frozenset",
    "hex",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "oct",
    "ord",
    "pow",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "str",
    "sum",
    "tuple",
    "zip",
)
_SAFE_EXCEPTIONS = (
    "Exception",
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "IndexError",
    "KeyError",
    "LookupError",
    "NameError",
    "NotImplementedError",
    "OverflowError",
    "RecursionError",
    "RuntimeError",
    "StopIteration",
    "TypeError",
    "UnicodeError",
    "ValueError",
    "ZeroDivisionError",
)


class SafeModule:
    """A read-only stand-in for an allowed module, holding only its allowed attributes."""

    def __init__(self, name: str, attrs: dict[str, Any]) -> None:
        object.__setattr__(self, "__name__", name)
        for key, value in attrs.items():
            object.__setattr__(self, key, value)

    def __getattr__(self, name: str) -> Any:  # only called for names that are not there
        raise SandboxViolation(f"{self.__name__}.{name} is not available in the sandbox")

    def __setattr__(self, name: str, value: Any) -> None:
        raise SandboxViolation(f"module {self.__name__} is read-only")

    def __delattr__(self, name: str) -> None:
        raise SandboxViolation(f"module {self.__name__} is read-only")

    def __repr__(self) -> str:
        return f"<sandbox module {self.__name__}>"


def _deepcopy(value: Any) -> Any:
    """copy.deepcopy without the `memo` argument (deepcopy writes into memo, bypassing write guards)."""
    return copy.deepcopy(value)


def _public(module: Any, names: list[str] | tuple[str, ...] | None = None) -> dict[str, Any]:
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return {n: getattr(module, n) for n in names if hasattr(module, n)}


def _module_attrs() -> dict[str, dict[str, Any]]:
    return {
        "math": _public(math),
        "re": _public(
            re,
            (
                "compile",
                "search",
                "match",
                "fullmatch",
                "split",
                "findall",
                "finditer",
                "sub",
                "subn",
                "escape",
                "error",
                "Pattern",
                "Match",
                "A",
                "ASCII",
                "I",
                "IGNORECASE",
                "M",
                "MULTILINE",
                "S",
                "DOTALL",
                "X",
                "VERBOSE",
                "U",
                "UNICODE",
                "NOFLAG",
            ),
        ),
        "copy": {"copy": copy.copy, "deepcopy": _deepcopy, "Error": copy.Error},
        "datetime": _public(
            datetime, ("date", "datetime", "time", "timedelta", "timezone", "MINYEAR", "MAXYEAR", "UTC")
        ),
        "json": {"dumps": json.dumps, "loads": json.loads, "JSONDecodeError": json.JSONDecodeError},
        "string": _public(
            string,
            (
                "ascii_letters",
                "ascii_lowercase",
                "ascii_uppercase",
                "digits",
                "hexdigits",
                "octdigits",
                "punctuation",
                "printable",
                "whitespace",
                "capwords",
            ),
        ),
        "itertools": _public(
            itertools,
            (
                "accumulate",
                "batched",
                "chain",
                "combinations",
                "combinations_with_replacement",
                "compress",
                "count",
                "cycle",
                "dropwhile",
                "filterfalse",
                "groupby",
                "islice",
                "pairwise",
                "permutations",
                "product",
                "repeat",
                "starmap",
                "takewhile",
                "tee",
                "zip_longest",
            ),
        ),
        "functools": {"reduce": functools.reduce, "partial": functools.partial, "cmp_to_key": functools.cmp_to_key},
        "collections": _public(collections, ("Counter", "OrderedDict", "defaultdict", "deque", "namedtuple")),
        "typing": _public(
            typing,
            (
                "Any",
                "Optional",
                "Union",
                "List",
                "Dict",
                "Tuple",
                "Set",
                "FrozenSet",
                "Iterable",
                "Iterator",
                "Sequence",
                "Mapping",
                "Callable",
                "Literal",
            ),
        ),
    }


MODULE_ATTRS: dict[str, dict[str, Any]] = _module_attrs()
SAFE_MODULES: dict[str, SafeModule] = {name: SafeModule(name, attrs) for name, attrs in MODULE_ATTRS.items()}

#: Calls allowed in module-level assignments (bounded work, no user code): builtins and module.attr names.
MODULE_LEVEL_CALLS: frozenset[str] = frozenset(
    {
        "frozenset",
        "set",
        "tuple",
        "list",
        "dict",
        "str",
        "int",
        "float",
        "bool",
        "re.compile",
        "json.loads",
        "datetime.date",
        "datetime.datetime",
        "datetime.time",
        "datetime.timedelta",
        "datetime.timezone",
        "collections.namedtuple",
        "collections.OrderedDict",
        "collections.Counter",
        "collections.defaultdict",
        "collections.deque",
    }
)


def base_builtins() -> dict[str, Any]:
    """Plain safe builtins (guarded getattr/hasattr/__import__ are added per module by the guards)."""
    out: dict[str, Any] = {name: getattr(builtins, name) for name in _SAFE_BUILTIN_NAMES + _SAFE_EXCEPTIONS}
    out.update({"None": None, "True": True, "False": False, "Ellipsis": Ellipsis, "NotImplemented": NotImplemented})
    return out
