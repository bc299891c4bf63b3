"""Argument validation against a tool's parameters schema, with a fast path for simple schemas.

jsonschema costs tens of microseconds per call, more than a typical tool. Most tool schemas use a small
subset (types, enum, required, additionalProperties, string and number bounds, items, nested objects):
for those a compiled check decides validity; jsonschema is only run to word the error message, and for
schemas outside the subset.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import jsonschema
from jsonschema.exceptions import best_match

# Keywords that jsonschema enforces; any other key (description, nullable, x-...) has no effect on validity.
_ENFORCED = frozenset().union(
    *(
        set(cls.VALIDATORS)
        for cls in (
            jsonschema.Draft4Validator,
            jsonschema.Draft6Validator,
            jsonschema.Draft7Validator,
            jsonschema.Draft201909Validator,
            jsonschema.Draft202012Validator,
        )
    )
) - {"format", "$defs", "definitions"}
_Check = Callable[[Any], bool]


class _Unsupported(Exception):
    pass


def _is_integer(v: Any) -> bool:
    kind = type(v)
    return kind is int or (kind is float and v.is_integer())


_TYPE_CHECKS: dict[str, _Check] = {
    "string": lambda v: type(v) is str,
    "integer": _is_integer,
    "number": lambda v: type(v) is int or type(v) is float,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "array": lambda v: type(v) is list,
    "object": lambda v: type(v) is dict,
}


def _compile(schema: Any) -> _Check:
    if schema is True or schema == {}:
        return lambda v: True
    if not isinstance(schema, dict):
        raise _Unsupported()
    checks: list[_Check] = []
    for key in schema:
        if key in _ENFORCED and key not in _HANDLED:
            raise _Unsupported()
    kind = schema.get("type")
    if kind is not None:
        kinds = [kind] if isinstance(kind, str) else kind
        if not isinstance(kinds, list) or any(k not in _TYPE_CHECKS for k in kinds):
            raise _Unsupported()
        tests = [_TYPE_CHECKS[k] for k in kinds]
        checks.append(tests[0] if len(tests) == 1 else (lambda v, tests=tests: any(t(v) for t in tests)))
    if "enum" in schema:
        options = schema["enum"]
        if not isinstance(options, list) or any(isinstance(o, (dict, list, bool, float)) for o in options):
            raise _Unsupported()  # bool/float/containers: jsonschema's equality rules are subtle
        allowed = frozenset(options)
        checks.append(
            lambda v: type(v) is not bool and type(v) is not float and not isinstance(v, (dict, list)) and v in allowed
        )
    for key, test in (
        ("minLength", lambda v, n: type(v) is not str or len(v) >= n),
        ("maxLength", lambda v, n: type(v) is not str or len(v) <= n),
        ("minItems", lambda v, n: type(v) is not list or len(v) >= n),
        ("maxItems", lambda v, n: type(v) is not list or len(v) <= n),
    ):
        if key in schema:
            if not isinstance(schema[key], int):
                raise _Unsupported()
            checks.append(lambda v, n=schema[key], test=test: test(v, n))
    for key, test in (
        ("minimum", lambda v, n: v >= n),
        ("maximum", lambda v, n: v <= n),
        ("exclusiveMinimum", lambda v, n: v > n),
        ("exclusiveMaximum", lambda v, n: v < n),
    ):
        if key in schema:
            bound = schema[key]
            if type(bound) not in (int, float):
                raise _Unsupported()
            checks.append(lambda v, n=bound, test=test: type(v) not in (int, float) or test(v, n))
    if "pattern" in schema:
        try:
            pattern = re.compile(schema["pattern"])
        except (re.error, TypeError):
            raise _Unsupported() from None
        checks.append(lambda v: type(v) is not str or pattern.search(v) is not None)
    if "items" in schema:
        item = _compile(schema["items"])
        checks.append(lambda v: type(v) is not list or all(item(x) for x in v))
    if "properties" in schema or "required" in schema or "additionalProperties" in schema:
        checks.append(_object_check(schema))
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    return lambda v: all(c(v) for c in checks)


def _object_check(schema: dict[str, Any]) -> _Check:
    props = schema.get("properties") or {}
    if not isinstance(props, dict):
        raise _Unsupported()
    compiled = {name: _compile(sub) for name, sub in props.items()}
    required = schema.get("required") or []
    if not isinstance(required, list):
        raise _Unsupported()
    extra = schema.get("additionalProperties", True)
    if extra is not True and extra is not False:
        raise _Unsupported()
    closed = extra is False

    def check(v: Any) -> bool:
        if type(v) is not dict:
            return True  # "type" decides
        for name in required:
            if name not in v:
                return False
        for name, value in v.items():
            test = compiled.get(name)
            if test is None:
                if closed:
                    return False
            elif not test(value):
                return False
        return True

    return check


_HANDLED = frozenset(
    {
        "type",
        "enum",
        "pattern",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "items",
        "properties",
        "required",
        "additionalProperties",
    }
)


class ArgumentValidator:
    """`problem(arguments)` -> the best jsonschema error message, or None when the arguments are valid."""

    __slots__ = ("schema", "_full", "_fast")

    def __init__(self, schema: dict[str, Any]) -> None:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        cls.check_schema(schema)
        self.schema = schema
        self._full = cls(schema)
        try:
            self._fast: _Check | None = _compile(schema)
        except _Unsupported:
            self._fast = None

    @property
    def fast(self) -> bool:
        return self._fast is not None

    def problem(self, arguments: Any) -> str | None:
        if self._fast is not None and self._fast(arguments):
            return None
        error = best_match(self._full.iter_errors(arguments))
        if error is None:
            return None
        return error.message
