"""Seeded sampling of schema-valid states and tool arguments (for tests, property checks and tasks). Dates are
real dates; two date parameters make a short span, as a real call's start and end would."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

from synth.tasks.typed_values import sample_pattern

WORDS = (
    "alpha",
    "bravo",
    "cedar",
    "delta",
    "ember",
    "fjord",
    "garnet",
    "harbor",
    "indigo",
    "juniper",
    "kestrel",
    "lumen",
    "maple",
    "nectar",
    "onyx",
    "pebble",
    "quartz",
    "raven",
    "saffron",
    "tundra",
)


def collections_of(state_schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{collection name: its schema entry} for object-of-records properties."""
    props = state_schema.get("properties") or {}
    return {k: v for k, v in props.items() if isinstance(v, dict) and isinstance(v.get("additionalProperties"), dict)}


def key_field_of(entry: dict[str, Any]) -> str | None:
    return entry.get("x-key-field")


RANGE = re.compile(r"(?<![\d:.])(?:between\s+)?(\d+(?:\.\d+)?)\s*(?:to|and|-|\u2013)\s*(\d+(?:\.\d+)?)(?![\d:])")


def documented_range(schema: dict[str, Any]) -> tuple[float, float] | None:
    """The bounds a number's description gives ("2 to 5 crane shifts", "between 2 and 6"), or None (not times
    such as "08:00-21:00")."""
    found = RANGE.search(str(schema.get("description") or ""))
    if found and float(found.group(1)) <= float(found.group(2)):
        return float(found.group(1)), float(found.group(2))
    return None


LISTED_VALUES = re.compile(  # two or more backticked values joined by commas or "or", each perhaps remarked on
    r"`[^`\s]{1,40}`(?:\s*\([^()]{0,40}\))?(?:(?:\s*,\s*(?:or\s+)?|\s+or\s+)`[^`\s]{1,40}`(?:\s*\([^()]{0,40}\))?)+"
)


def is_dated(schema: dict[str, Any]) -> bool:
    """A day: `format: date`, or a string the description gives as `YYYY-MM-DD`."""
    return schema.get("format") == "date" or (
        schema.get("type") in ("string", None) and "YYYY-MM-DD" in str(schema.get("description") or "")
    )


def sample_value(schema: dict[str, Any], rng: random.Random, name: str = "", depth: int = 0) -> Any:
    """A value valid against a (cleaned) field schema; grounded `examples` (from sample data) come first."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if schema.get("examples") or schema.get("x-enum"):
        return copy.deepcopy(rng.choice(schema.get("examples") or schema["x-enum"]))
    typ = schema.get("type", "string")
    if isinstance(typ, list):
        typ = next((t for t in typ if t != "null"), "string")
    bounds = documented_range(schema) if typ in ("integer", "number") else None
    if bounds is not None and rng.random() < 0.8:  # mostly inside what the docs allow, sometimes outside
        low, high = bounds
        return rng.randint(int(low), int(high)) if typ == "integer" else round(rng.uniform(low, high), 2)
    if typ == "integer":
        return rng.randint(1, 30)
    if typ == "number":
        return round(rng.uniform(1, 100), 2)
    if typ == "boolean":
        return rng.random() < 0.5
    if typ == "array":
        items = schema.get("items") or {"type": "string"}
        return [sample_value(items, rng, name, depth + 1) for _ in range(rng.randint(0, 2) if depth < 2 else 0)]
    if typ == "object":
        props = schema.get("properties") or {}
        req = set(schema.get("required") or [])
        return {
            k: sample_value(v, rng, k, depth + 1)
            for k, v in props.items()
            if k in req or (depth < 2 and rng.random() < 0.7)
        }
    listed = None if is_dated(schema) else LISTED_VALUES.search(str(schema.get("description") or ""))
    if listed:  # "`add` or `remove`", "`card` (default), `cash` or `wire`": one of the values the docs list
        return rng.choice(re.findall(r"`([^`\s]{1,40})`", listed.group(0)))
    if schema.get("format") == "uuid":
        n = rng.randint(1, 999)
        return "%08d-0000-4000-8000-%012d" % (n, n)
    if is_dated(schema):
        return "2025-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28))
    if schema.get("format") == "date-time":
        return "2024-%02d-%02dT09:00:00Z" % (rng.randint(1, 12), rng.randint(1, 28))
    patterned = sample_pattern(schema["pattern"], rng) if isinstance(schema.get("pattern"), str) else None
    if patterned is not None:  # "^\\d{3}-\\d{3}-\\d{4}$": a value of that shape, not a word it refuses
        return patterned
    return f"{rng.choice(WORDS)}-{rng.randint(1, 99)}"


def sample_record(entry: dict[str, Any], rng: random.Random, key_value: Any) -> dict[str, Any]:
    rec_schema = entry["additionalProperties"]
    rec = sample_value({**rec_schema, "type": "object"}, rng)
    kf = key_field_of(entry)
    if kf:
        rec[kf] = key_value
    return rec


def record_key(entry: dict[str, Any], record: dict[str, Any]) -> str:
    kf = key_field_of(entry)
    if kf:
        return str(record[kf])
    return "|".join(str(record.get(f, "")) for f in entry.get("x-composite-key", []))


def sample_state(state_schema: dict[str, Any], rng: random.Random, max_records: int = 4) -> dict[str, Any]:
    """A state valid against the schema, with 0..max_records records per collection.

    A grounded schema (sample data) carries whole example states: one of them, copied, is the state.
    """
    if state_schema.get("examples"):
        return copy.deepcopy(rng.choice(state_schema["examples"]))
    state: dict[str, Any] = {}
    cols = collections_of(state_schema)
    for name, entry in cols.items():
        recs: dict[str, Any] = {}
        kf = key_field_of(entry)
        ktype = ((entry["additionalProperties"].get("properties") or {}).get(kf or "", {}) or {}).get("type", "string")
        for i in range(rng.randint(0, max_records)):
            key_value: Any = (
                i + 1
                if ktype == "integer"
                else (sample_value(entry["additionalProperties"]["properties"][kf], rng) if kf else None)
            )
            rec = sample_record(entry, rng, key_value)
            recs[record_key(entry, rec)] = rec
        state[name] = recs
    for name, schema in (state_schema.get("properties") or {}).items():
        if name not in cols:
            state[name] = sample_value({**schema, "required": list((schema.get("properties") or {}).keys())}, rng)
    return state


def existing_keys(state: dict[str, Any], state_schema: dict[str, Any]) -> dict[str, list[str]]:
    return {name: sorted(state.get(name, {})) for name in collections_of(state_schema)}


def _is_keyish(pname: str, state_schema: dict[str, Any]) -> list[str]:
    """Collections whose keys a parameter named `pname` likely carries."""
    low = pname.lower()
    out = []
    for name, entry in collections_of(state_schema).items():
        kf = (key_field_of(entry) or "").lower()
        res = name.lower().rstrip("s")
        if (
            low == kf
            or (low.startswith(res[: max(3, len(res) - 1)]) and low.endswith(("id", "name")))
            or low in ("id", "name")
        ):
            out.append(name)
    return out


def typed_key(drawn: Any, key: str) -> Any:
    """A record's key, as an integer when the drawn argument was one."""
    return int(key) if isinstance(drawn, int) and key.isdigit() else key


def named_records_exist(
    args: dict[str, Any], state: dict[str, Any], state_schema: dict[str, Any], rng: random.Random, made: str
) -> None:
    """A happy create's references name records the state holds (`skipper_id`-like arguments of a collection other
    than the `made` one, whose value the state does not hold, take one of its keys)."""
    for name in sorted(args):
        cols = [c for c in _is_keyish(name, state_schema) if c != made]
        keys = sorted({k for c in cols if isinstance(state.get(c), dict) for k in state[c]})
        if keys and isinstance(args[name], (str, int)) and str(args[name]) not in keys:
            key = rng.choice(keys)
            args[name] = typed_key(args[name], key)


def sample_arguments(
    parameters: dict[str, Any],
    rng: random.Random,
    state: dict[str, Any],
    state_schema: dict[str, Any],
    p_existing: float = 0.7,
    today: str | None = None,
) -> dict[str, Any]:
    """Arguments valid against the tool's parameters; key-like values often name existing records. With `today`
    (the business date the docs state), a date parameter falls on a working day of the next two weeks, as a real
    call's would."""

    def fill(schema: dict[str, Any], name: str, depth: int) -> Any:
        typ = schema.get("type")
        if typ == "object" and depth < 3:
            props = schema.get("properties") or {}
            req = set(schema.get("required") or [])
            return {k: fill(v, k, depth + 1) for k, v in props.items() if k in req or rng.random() < 0.6}
        if typ == "array" and depth < 3:
            items = schema.get("items") or {"type": "string"}
            if not items.get("properties") and items.get("type") in ("object", None):  # "lines of {a, b}"
                items = record_items(state_schema, name) or items
            return [fill(items, name, depth + 1) for _ in range(rng.randint(1, 2))]
        cols = _is_keyish(name, state_schema) if typ in ("string", "integer", None) else []
        keys = [k for c in cols if isinstance(state.get(c), dict) for k in state[c] if typ != "integer" or k.isdigit()]
        if keys and rng.random() < p_existing and "enum" not in schema:
            k = rng.choice(sorted(keys))
            return int(k) if typ == "integer" and k.isdigit() else k
        grounded = field_examples(state_schema).get(name) if typ in ("string", "integer", "number", None) else None
        if grounded and "enum" not in schema and rng.random() < p_existing:
            value = rng.choice(grounded)
            if typ is None or _json_kind(value) == typ or (typ == "number" and _json_kind(value) == "integer"):
                return copy.deepcopy(value)
        return sample_value(schema, rng, name, depth)

    return _paired_dates(parameters, _near(parameters, fill({**parameters, "type": "object"}, "", 0), rng, today), rng)


def _near(parameters: dict[str, Any], args: dict[str, Any], rng: random.Random, today: str | None) -> dict[str, Any]:
    """The date arguments moved to a working day 1 to 14 days after the business date (a weekend moves on to the
    Monday); unchanged without one."""
    from synth.envsynth.date_runtime import fg_add_days, fg_day_number

    if today is None or fg_day_number(today) is None:
        return args
    props = parameters.get("properties") or {}
    for p in sorted(props):
        if isinstance(props[p], dict) and is_dated(props[p]) and p in args:
            day = fg_add_days(today, rng.randint(1, 14))
            weekday = (fg_day_number(day) + 2) % 7  # 0 Monday .. 6 Sunday
            args[p] = fg_add_days(day, 7 - weekday) if weekday >= 5 else day
    return args


def _paired_dates(parameters: dict[str, Any], args: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Two date parameters (a start and an end) make a span: the later one falls 1 to 7 days after the earlier,
    as a real call's would, when the values drawn do not already make a span of at most 30 days."""
    from synth.envsynth.date_runtime import fg_add_days, fg_day_number

    props = parameters.get("properties") or {}
    dated = [p for p, s in props.items() if isinstance(s, dict) and is_dated(s) and p in args]
    if len(dated) != 2:
        return args
    first, second = (fg_day_number(args[p]) for p in dated)
    if first is not None and (second is None or not 0 < second - first <= 30):
        args[dated[1]] = fg_add_days(args[dated[0]], rng.randint(1, 7))
    return args


def record_items(state_schema: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The entry schema of the records' list field of this name (entries with fields), in the first collection
    that has one: what a parameter documented only as "an array of objects" holds."""
    for entry in collections_of(state_schema).values():
        field = ((entry.get("additionalProperties") or {}).get("properties") or {}).get(name)
        items = field.get("items") if isinstance(field, dict) else None
        if isinstance(items, dict) and items.get("type") == "object" and items.get("properties"):
            return items
    return None


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string" if isinstance(value, str) else "object"


_EXAMPLES_CACHE: dict[int, tuple[dict[str, Any], dict[str, list[Any]]]] = {}


def field_examples(state_schema: dict[str, Any]) -> dict[str, list[Any]]:
    """{field name: grounded values} from the `examples` and `enum` of a grounded schema's leaf fields."""
    if not state_schema.get("examples"):
        return {}
    hit = _EXAMPLES_CACHE.get(id(state_schema))
    if hit is not None and hit[0] is state_schema:
        return hit[1]
    out: dict[str, list[Any]] = {}

    def walk(node: Any, name: str) -> None:
        if not isinstance(node, dict):
            return
        values = node.get("enum") or node.get("x-enum") or node.get("examples")
        if name and values and node.get("type") not in ("object", "array"):
            out.setdefault(name, [])
            out[name] += [v for v in values if v not in out[name]]
        for key, sub in (node.get("properties") or {}).items():
            walk(sub, key)
        for key in ("additionalProperties", "items"):
            walk(node.get(key), name)
        for key, sub in (node.get("$defs") or {}).items():
            walk(sub, "")

    walk({k: v for k, v in state_schema.items() if k != "examples"}, "")
    if len(_EXAMPLES_CACHE) > 64:
        _EXAMPLES_CACHE.clear()
    _EXAMPLES_CACHE[id(state_schema)] = (state_schema, out)
    return out
