"""A value that depends on one argument or one field of the record, learned from recorded calls (--traces): a fee of
0 for some reasons and the record's daily rate for the others, a status that depends on a yes/no argument.

The samples are split by the value of one splitter (a text or yes/no argument other than the record's key, or a
text or yes/no field of the record before the call); each part must have one source of its own (`source_of`: an
argument, a record path, a constant, a computed number), and the parts must come down to two different sources.
Kept only with at least three samples, one part holding two or more, so that one call per value proves nothing.
The result is a `switch` source ({when, then, else}; codegen renders the guard, evaluated before the call's sets).
"""

from __future__ import annotations

from typing import Any, Callable

Sample = tuple[Any, dict[str, Any], dict[str, Any], dict[str, Any]]
Source = Callable[[list[Sample], str], "dict[str, Any] | None"]


def _splitters(samples: list[Sample], key_param: str) -> list[tuple[str, str]]:
    """("arg" | "field", name) of every text or yes/no value the samples all hold (the key argument aside)."""
    _, args0, record0, _ = samples[0]
    out = [("arg", n) for n in sorted(args0) if n != key_param and isinstance(args0[n], (str, bool))]
    out += [("field", n) for n in sorted(record0) if isinstance(record0[n], (str, bool))]
    return out


def _value(kind: str, name: str, sample: Sample) -> Any:
    _, args, record, _ = sample
    return args.get(name) if kind == "arg" else record.get(name)


def learn_switch(
    samples: list[Sample], key_param: str, source_of: Source, fits: Callable[[dict[str, Any], list[Sample]], bool]
) -> dict[str, Any] | None:
    """A `switch` source giving the recorded value in every sample, or None (`fits`: whether a source gives every
    value of a part; a small part takes a bigger part's source when it fits, since one call fits many)."""
    if len(samples) < 3:
        return None
    for kind, name in _splitters(samples, key_param):
        parts: dict[str, list[Sample]] = {}
        for sample in samples:
            value = _value(kind, name, sample)
            if not isinstance(value, (str, bool)):
                break
            parts.setdefault(repr(value), []).append(sample)
        else:
            if len(parts) < 2 or max(len(p) for p in parts.values()) < 2:
                continue
            found: dict[str, dict[str, Any] | None] = {}
            for k in sorted(parts, key=lambda k: (-len(parts[k]), k)):  # a part of one call may fit a bigger one's
                found[k] = next((src for src in found.values() if src and fits(src, parts[k])), None)
                found[k] = found[k] or source_of(parts[k], key_param)
            if any(src is None for src in found.values()):
                continue
            distinct = {repr(src): src for src in found.values()}
            if len(distinct) != 2:
                continue
            then_src = found[min(parts, key=lambda k: (len(parts[k]), k))]  # the rarer part's source
            values = [_value(kind, name, p[0]) for k, p in sorted(parts.items()) if found[k] == then_src]
            else_src = next(src for src in distinct.values() if src != then_src)
            when = {"arg": name, "in": values} if kind == "arg" else {"field": name, "in": values}
            return {"from": "switch", "when": when, "then": then_src, "else": else_src}
    return None


MAX_CASES = 4  # values of one splitter worth a chain of switches


def learn_cases(samples: list[Sample], key_param: str, source_of: Source) -> dict[str, Any] | None:
    """A chain of `switch` sources, one per value of one argument (a text written differently for each payment
    method: "Paid 41.50 by card", "Billed 96.00 to <club>"), when every value has two samples or more and a
    source of its own (`source_of` may write texts); the most common value's source is the last `else`. None when
    one source or a two-way switch would do, or no argument splits the samples so."""
    for kind, name in _splitters(samples, key_param):
        if kind != "arg":
            continue
        parts: dict[Any, list[Sample]] = {}
        for sample in samples:
            value = _value(kind, name, sample)
            if not isinstance(value, str):
                break
            parts.setdefault(value, []).append(sample)
        else:
            if not 2 <= len(parts) <= MAX_CASES or min(len(p) for p in parts.values()) < 2:
                continue
            found = {v: source_of(p, key_param) for v, p in parts.items()}
            if any(src is None for src in found.values()) or len({repr(s) for s in found.values()}) < 2:
                continue
            order = sorted(parts, key=lambda v: (-len(parts[v]), v))  # the most common value last, as the else
            chain = found[order[0]]
            for value in order[1:]:
                chain = {"from": "switch", "when": {"arg": name, "in": [value]}, "then": found[value], "else": chain}
            return chain
    return None


__all__ = ["learn_cases", "learn_switch"]
