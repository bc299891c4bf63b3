"""Run-time guards that RestrictedPython's rewritten code calls (`_getattr_`, `_write_`, ...).

`restricted_globals(frozen)` builds the globals of one compiled module. `frozen` holds the ids of the
module's own constant containers (module-level lists/dicts), which are read-only at run time: functions
are shared by every episode in the process, so a write there would leak between episodes.
"""

from __future__ import annotations

import datetime
import functools
import operator
import string
from typing import Any, Callable

from synth.errors import ToolError
from synth.sandbox.errors import SandboxViolation
from synth.sandbox.journal import MUTABLE_TYPES, THREAD
from synth.sandbox.policy import (
    ALLOWED_MODULES,
    BLOCKED_ATTRS,
    CLOCK_ATTRS,
    MUTATOR_ATTRS,
    SAFE_MODULES,
    base_builtins,
)

_MISSING = object()
_SPECIAL_ATTRS = MUTATOR_ATTRS | CLOCK_ATTRS | {"format"}
_WRITE_TYPES = MUTABLE_TYPES - {set}
_FORMATTER = string.Formatter()

_INPLACE_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+=": operator.iadd,
    "-=": operator.isub,
    "*=": operator.imul,
    "/=": operator.itruediv,
    "//=": operator.ifloordiv,
    "%=": operator.imod,
    "**=": operator.ipow,
    "<<=": operator.ilshift,
    ">>=": operator.irshift,
    "&=": operator.iand,
    "|=": operator.ior,
    "^=": operator.ixor,
    "@=": operator.imatmul,
}


_ATTR_KINDS: dict[str, int] = {}  # attribute name -> 0 plain, 1 needs a closer look, 2 blocked


def _classify_attr(name: str) -> int:
    kind = 2 if (name[:1] == "_" or name in BLOCKED_ATTRS) else 1 if name in _SPECIAL_ATTRS else 0
    if len(_ATTR_KINDS) < 100_000:
        _ATTR_KINDS[name] = kind
    return kind


@functools.lru_cache(maxsize=4096)
def _check_format_string(fmt: str) -> None:
    """Refuse `{0.attr}` / `{0[key]}` fields (attribute walks through str.format), also in nested specs."""
    for _literal, field, spec, _conv in _FORMATTER.parse(fmt):
        if field and ("." in field or "[" in field):
            raise SandboxViolation(f"format field {{{field}}} is not allowed: only plain positional or named fields")
        if spec and "{" in spec:
            _check_format_string(spec)


def _safe_format(fmt: str, *args: Any, **kwargs: Any) -> str:
    _check_format_string(fmt)
    return fmt.format(*args, **kwargs)


def _unpack(iterable: Any, spec: Any, getiter: Any) -> Any:
    """Sequence unpacking: RestrictedPython re-iterates through `_getiter_`, which is plain `iter` here,
    so Python's own unpacking is equivalent and much faster."""
    return iterable


def _apply(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return func(*args, **kwargs)


class NullPrinter:
    """`print` inside sandboxed code: accepted and discarded."""

    def __init__(self, _getattr: Any = None) -> None:
        pass

    def __call__(self) -> str:
        return ""

    def _call_print(self, *objects: Any, **kwargs: Any) -> None:
        return None


def _guarded_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
    if level != 0:
        raise SandboxViolation("relative imports are not allowed")
    if name not in ALLOWED_MODULES:
        raise SandboxViolation(f"import of {name!r} is not allowed (allowed: {', '.join(ALLOWED_MODULES)})")
    return SAFE_MODULES[name]


def restricted_globals(frozen: set[int], module_name: str = "env") -> dict[str, Any]:
    """The globals dict for one restricted module; `frozen` may be filled in after the module body ran."""

    def check_write(obj: Any) -> None:
        if frozen and id(obj) in frozen:
            raise SandboxViolation("module-level constants are read-only (they are shared by every episode)")
        ctx = THREAD.ctx
        if ctx is not None:
            ctx.touch(obj)

    def special_attr(obj: Any, name: str) -> Any:
        if name in MUTATOR_ATTRS:
            if type(obj) in MUTABLE_TYPES:
                if frozen and id(obj) in frozen:
                    raise SandboxViolation("module-level constants are read-only (they are shared by every episode)")
                ctx = THREAD.ctx
                if ctx is not None:
                    ctx.touch(obj)
            elif isinstance(obj, type):
                raise SandboxViolation(f"call {name}() on the object, not on the class {obj.__name__}")
        elif name in CLOCK_ATTRS:
            if obj is datetime.datetime or obj is datetime.date or isinstance(obj, datetime.date):
                raise SandboxViolation(f"datetime {name}() is not available: times and ids must derive from the state")
        elif name == "format":
            if isinstance(obj, str):
                return functools.partial(_safe_format, obj)
            if isinstance(obj, type) and issubclass(obj, str):
                raise SandboxViolation("str.format on the class is not allowed; call it on a string")
        return getattr(obj, name)

    kind_of = _ATTR_KINDS.get

    def guarded_getattr(obj: Any, name: str) -> Any:
        kind = kind_of(name)
        if kind is None:
            kind = _classify_attr(name)
        if kind == 0:
            return getattr(obj, name)
        if kind == 1:
            return special_attr(obj, name)
        raise SandboxViolation(f"access to attribute {name!r} is not allowed")

    def builtin_getattr(obj: Any, name: str, default: Any = _MISSING) -> Any:
        if type(name) is not str:
            raise TypeError("attribute name must be a string")
        if default is _MISSING:
            return guarded_getattr(obj, name)
        try:
            return guarded_getattr(obj, name)
        except AttributeError:
            return default

    def builtin_hasattr(obj: Any, name: str) -> bool:
        if type(name) is not str:
            raise TypeError("attribute name must be a string")
        if name[:1] == "_" or name in BLOCKED_ATTRS:
            return False
        return hasattr(obj, name)

    def guarded_write(obj: Any) -> Any:
        kind = type(obj)
        if kind is dict or kind is list or kind in _WRITE_TYPES:
            if frozen and id(obj) in frozen:
                raise SandboxViolation("module-level constants are read-only (they are shared by every episode)")
            ctx = THREAD.ctx
            if ctx is not None:
                ctx.touch(obj)
            return obj
        raise SandboxViolation(f"writing attributes or items of {kind.__name__} objects is not allowed")

    def guarded_inplace(op: str, target: Any, value: Any) -> Any:
        if type(target) in MUTABLE_TYPES:
            check_write(target)
        return _INPLACE_OPS[op](target, value)

    builtins = base_builtins()
    builtins.update(
        {
            "getattr": builtin_getattr,
            "hasattr": builtin_hasattr,
            "__import__": _guarded_import,
            "ToolError": ToolError,
        }
    )
    return {
        "__builtins__": builtins,
        "__name__": module_name,
        "_getattr_": guarded_getattr,
        "_getitem_": operator.getitem,
        "_getiter_": iter,
        "_write_": guarded_write,
        "_inplacevar_": guarded_inplace,
        "_iter_unpack_sequence_": _unpack,
        "_unpack_sequence_": _unpack,
        "_apply_": _apply,
        "_print_": NullPrinter,
        "ToolError": ToolError,
    }
