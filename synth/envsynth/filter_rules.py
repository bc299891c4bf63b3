"""What the docs say about a filter's parameters beyond "equals a field": its documented default applies when the
call leaves it out ("status: 'active' (default)"), an enum value the records never hold keeps every record
('all'), and a parameter naming another collection's record is refused when no such record exists, if the docs
list a not-found error. A parameter the docs say matches part of the field ("Part of the member's name",
"a case-insensitive substring") matches so, ignoring case; one they call case-insensitive ignores case. Other
parameters that map onto a field (filter_map.py: another word form, a bound, a referenced record's field) filter
too, and a boolean flag keeps the records its docs say it keeps (flag_rules.py)."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.filter_map import map_param, referenced_collection
from synth.envsynth.flag_counts import flag_counts
from synth.envsynth.flag_rules import flag_filters, flag_inverses, flag_sentences
from synth.envsynth.include_flags import include_flags
from synth.envsynth.plan import ToolPlan
from synth.envsynth.ranked_filters import ranked_params
from synth.envsynth.schema_figures import LEFT_WORDS
from synth.spec import ToolSpec, field_by_words, schema_types
from synth.words import singular

NOT_FOUND = re.compile(r"\b(not found|does not exist|no such)\b", re.IGNORECASE)
PARTIAL = re.compile(r"\b(part of|substring|partial|contains?)\b", re.IGNORECASE)
CASELESS = re.compile(r"\bcase[- ]insensitive", re.IGNORECASE)


def param_clauses(spec: ToolSpec, name: str, spaced: bool = False) -> list[str]:
    """What the docs say of one parameter: its own description, then the clauses of the tool's description that
    name it (`spaced`: also as words, `min_depth` -> "min depth")."""
    own = str(((spec.parameters.get("properties") or {}).get(name) or {}).get("description") or "")
    names = [name.replace("_", " "), name] if spaced else [name]
    spoken = re.compile("|".join(rf"\b{re.escape(n)}\b" for n in names), re.IGNORECASE)
    return [own] + [x for x in re.split(r"(?<=[.;])\s+|,\s+", spec.description) if spoken.search(x)]


def _match_modes(spec: ToolSpec, name: str) -> tuple[bool, bool]:
    """(partial, caseless): the parameter matches part of the field, ignoring case (the docs of the parameter,
    or a sentence of the description that names it)."""
    sentences = param_clauses(spec, name, spaced=True)
    partial = any(PARTIAL.search(x) for x in sentences)
    return partial, partial or any(CASELESS.search(x) for x in sentences)


def _list_named(spec: ToolSpec, name: str, record: dict[str, Any]) -> str | None:
    """The one list field of plain values the parameter's docs name ("Only trips that list this sailor in their
    crew", "sailor_id matches trips whose crew holds the sailor" -> `crew`): the parameter matches when the list
    holds its value."""
    text = " ".join(param_clauses(spec, name))
    lists = [
        f
        for f, s in sorted(record.items())
        if isinstance(s, dict) and s.get("type") == "array" and (s.get("items") or {}).get("type") == "string"
    ]
    named = [f for f in lists if re.search(rf"\b{re.escape(singular(f).replace('_', ' '))}s?\b", text, re.I)]
    return named[0] if len(named) == 1 else None


AT_LEAST = re.compile(
    r"\b(?:at\s+least|or\s+more|or\s+later|on\s+or\s+after|earliest|minimum|no\s+less\s+than)\b", re.I
)
AT_MOST = re.compile(
    r"\b(?:at\s+most|or\s+less|or\s+fewer|or\s+earlier|on\s+or\s+before|at\s+or\s+below|latest|maximum|up\s+to|"
    r"no\s+more\s+than)\b",
    re.I,
)


def _described_bound(spec: ToolSpec, name: str, record: dict[str, Any]) -> dict[str, Any] | None:
    """A bound the parameter's own description states on the one number or date field it names ("Only units whose
    `bay_count` is at least this", "Latest pickup date"): {"path", "op": "min" | "max"}, or None."""
    text = str(((spec.parameters.get("properties") or {}).get(name) or {}).get("description") or "")
    ops = [op for op, rx in (("min", AT_LEAST), ("max", AT_MOST)) if rx.search(text)]
    if len(ops) != 1:
        return None
    named = [
        f
        for f, s in sorted(record.items())
        if isinstance(s, dict)
        and (s.get("type") in ("number", "integer") or s.get("format") in ("date", "date-time"))
        and re.search(rf"(?<![\w-])(?:{re.escape(f)}|{re.escape(f.replace('_', ' '))})(?![\w-])", text, re.I)
    ]
    if not named:  # `min_stock`, "at least this many sheets on hand": the one number field sharing its other word
        words = set(name.lower().split("_")) - {"min", "max", "minimum", "maximum", "from", "to"}
        words = words & LEFT_WORDS or words  # `min_free_berths` counts what is left: a stored number saying so
        named = [
            f
            for f, s in sorted(record.items())
            if isinstance(s, dict) and s.get("type") in ("number", "integer") and words & set(f.lower().split("_"))
        ]
    if len(named) != 1:
        return None
    return {"path": named, "via": None, "collection": None, "op": ops[0]}


def _described_text(spec: ToolSpec, name: str, record: dict[str, Any]) -> dict[str, Any] | None:
    """The one text field of the record, of two words or more, that the parameter's own description names in words
    ("Part of the holder name" -> `holder_name`): {"path": [field], "op": "eq"}, or None."""
    text = str(((spec.parameters.get("properties") or {}).get(name) or {}).get("description") or "")
    named = [
        f
        for f, s in sorted(record.items())
        if "_" in f
        and isinstance(s, dict)
        and "string" in schema_types(s)
        and re.search(rf"(?<![\w-])(?:{re.escape(f)}|{re.escape(f.replace('_', ' '))})(?![\w-])", text, re.I)
    ]
    return {"path": named, "via": None, "collection": None, "op": "eq"} if len(named) == 1 else None


SEPARATORS = {"space": " ", "dash": "-", "hyphen": "-", "slash": "/", "colon": ":", "dot": ".", "comma": ","}


def _described_part(spec: ToolSpec, name: str, record: dict[str, Any]) -> dict[str, Any] | None:
    """ "<param> matches the ... of the <field words> (the part before the space)": the part of that text field
    before (or after) the first such separator is the value ({"op": "head" | "tail", "sep"}), or None."""
    said = re.search(
        rf"\b{re.escape(name)}\s+matches\s+the\s+[\w -]+?\s+of\s+the\s+(?P<words>[\w ]+?)\s*\(the\s+part\s+"
        r"(?P<side>before|after)\s+the\s+(?:first\s+)?(?P<sep>[a-z]+)\b",
        " ".join(spec.description.split()),
        re.I,
    )
    field = field_by_words(said.group("words"), record) if said else None
    sep = SEPARATORS.get(said.group("sep").lower()) if said else None
    if not field or sep is None or "string" not in schema_types(record.get(field) or {}):
        return None
    op = "head" if said.group("side").lower() == "before" else "tail"
    return {"path": [field], "via": None, "collection": None, "op": op, "sep": sep}


ONE_FILTER = re.compile(r"\bat\s+least\s+one\s+(?:filter|search\s+parameter)\s+is\s+required\b", re.I)
WILDCARD_WORDS = {"all", "any", "both", "every", "everything", "*"}  # a value that filters nothing ("status=all")


def refine_filter(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan:
    """The filter plan with defaults, wildcards and reference checks the docs give (unchanged when none). A list
    plan whose parameters the docs map onto the records (a list field, a flag's condition) becomes a filter."""
    if plan.kind == "list" and plan.collection and spec.parameters.get("properties"):
        as_filter = refine_filter(spec, ToolPlan.from_dict({**plan.to_dict(), "kind": "filter"}), state_schema)
        kept = as_filter.param_map or as_filter.flag_filters or as_filter.flag_counts or as_filter.flag_includes
        return as_filter if kept else plan
    if plan.kind != "filter" or not plan.collection:
        return plan
    props = spec.parameters.get("properties") or {}
    cols = state_schema.get("properties") or {}
    record = ((cols.get(plan.collection) or {}).get("additionalProperties") or {}).get("properties") or {}
    defaults, wildcards, refs, partial, caseless = {}, {}, {}, [], []
    for name in plan.filter_params:
        part, case = _match_modes(spec, name)
        if part and (props.get(name) or {}).get("type") == "string":
            partial.append(name)
        elif case and (props.get(name) or {}).get("type") == "string":
            caseless.append(name)
        schema = props.get(name) or {}
        known = (record.get(name) or {}).get("enum") or (record.get(name) or {}).get("x-enum")
        if "default" in schema and schema["default"] is not None:
            defaults[name] = schema["default"]
        if known and isinstance(schema.get("enum"), list):
            extra = [v for v in schema["enum"] if v not in known and str(v).lower() in WILDCARD_WORDS]
            if extra and len(extra) < len(schema["enum"]):
                wildcards[name] = extra
        other = referenced_collection(name, record.get(name) or {}, plan.collection, cols)
        noun = (name[:-3] if name.endswith("_id") else name).replace("_", " ")
        unknown = re.search(rf"\bunknown\s+{re.escape(noun)}\b", spec.description, re.I)
        if other and (NOT_FOUND.search(spec.description) or unknown):  # `site_id` -> campsites ("unknown site id")
            refs[name] = other
    mapped = {}
    for name, schema in sorted(props.items()):
        if name in plan.filter_params or name in plan.field_paths or name == plan.key_param or name in plan.param_map:
            continue
        if (schema or {}).get("type") not in ("string", "integer", "number"):
            continue
        listed = _list_named(spec, name, record)
        found = {"path": [listed], "via": None, "collection": None, "op": "eq"} if listed else None
        found = found or _described_part(spec, name, record)  # "harbour matches the ... (the part before the space)"
        found = found or map_param(name, plan.collection, cols) or _described_bound(spec, name, record)
        joined_by_name = bool(found and found.get("collection") and found["path"] == [name])  # `name`, not `pier_name`
        if found is None or "*" in found["path"] or joined_by_name:
            # "Part of the holder name": the record's own `holder_name`, before another record's `name`
            found = _described_text(spec, name, record) or found
        if found is not None:
            mapped[name] = found
            part, case = _match_modes(spec, name)
            if part and (schema or {}).get("type") == "string":
                partial.append(name)
            elif case and (schema or {}).get("type") == "string":
                caseless.append(name)
    ranked = ranked_params(spec, plan.filter_params, record, {n: param_clauses(spec, n) for n in plan.filter_params})
    includes = include_flags(props, record)  # `include_closed`: what the list leaves out unless it is true
    flags = {f: c for f, c in flag_filters(spec.description, props, record).items() if f not in includes}
    counts = flag_counts(flag_sentences(spec.description, props, record), plan.collection, cols, props)
    one_of = [p for p in props if p in plan.filter_params or p in mapped] if ONE_FILTER.search(spec.description) else []
    if not (
        defaults or wildcards or refs or partial or caseless or mapped or flags or counts or one_of or includes
    ) and (not ranked):
        return plan
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "filter_defaults": defaults,
            "wildcards": wildcards,
            "ref_checks": refs,
            "partial_params": plan.partial_params + [p for p in partial if p not in plan.partial_params],
            "caseless_params": caseless,
            "filter_params": [p for p in plan.filter_params if p not in ranked],
            "param_map": {**plan.param_map, **mapped, **ranked},  # ranked: "able to take a boat of that size"
            "flag_filters": flags,
            "flag_counts": counts,
            "flag_inverse": [f for f in flag_inverses(spec.description, props, record) if f in flags],
            "flag_includes": includes,
            "one_of": one_of,
        }
    )


__all__ = ["refine_filter"]
