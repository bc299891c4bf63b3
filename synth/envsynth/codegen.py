"""Tool code from both routes: templates rendered from a ToolPlan (structured), or LLM-written code (free-form)."""

from __future__ import annotations

import json
import keyword
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from synth.envsynth.ask import ChatClient
from synth.envsynth.check_reasons import check_reason
from synth.envsynth.keyed_views import view_keys
from synth.envsynth.plan import ToolPlan
from synth.envsynth.shape_code import charges as _charges
from synth.envsynth.shape_code import holds as _holds
from synth.envsynth.shape_code import moved_code
from synth.envsynth.shape_code import shape_code as _shape_code
from synth.envsynth.text_clauses import settled_flags
from synth.llm.prompts import render
from synth.spec import ToolSpec
from synth.words import singular

TEMPLATE_DIR = Path(__file__).parent / "code_templates"


def _pysource(source: dict[str, Any], fn: str) -> str:
    """A learned value source (trace_learn) as a Python expression over `arguments` and `record`."""
    if source["from"] == "arg" and source.get("sorted"):
        return f"sorted(copy.deepcopy(arguments.get({source['name']!r})) or [])"
    if source["from"] == "arg" and "default" in source:  # an optional argument and its recorded default
        return f"copy.deepcopy(arguments.get({source['name']!r}, {source['default']!r}))"
    if source["from"] == "arg":
        return f"copy.deepcopy(arguments.get({source['name']!r}))"
    if source["from"] == "record":
        return f"dig_{fn}(record, {list(source['path'])!r})"
    if source["from"] == "new_element":  # a field of the element an item_add appended (its new id)
        return f"copy.deepcopy(value.get({source['field']!r}))"
    if source["from"] == "instalments":  # a schedule splitting a total over a count of months (instalments.py)
        total, count = _pysource(source["total"], fn), _pysource(source["count"], fn)
        spec = f"{source['today']!r}, {int(source['day'])!r}, {bool(source['down'])!r}, {source['fields']!r}"
        return f"fg_instalments({total}, {count}, {spec})"
    if source["from"] == "holder":  # a field of the linked record an entry is appended to (linked_logs)
        return f"dig_{fn}(holder, {list(source['path'])!r})"
    if source["from"] == "own_key":  # the key of the record the call creates or changes
        return "key"
    if source["from"] == "own_number":  # the last run of digits of that key ("5006" of "APT-5006")
        return "(re.findall(r'[0-9]+', str(key)) or [''])[-1]"
    if source["from"] == "expr":
        return f"fg_evaluate({source['expr']!r}, arguments, record, env_state)"
    if source["from"] == "choice":
        return f"fg_choice({source['rule']!r}, arguments, record, env_state)"
    if source["from"] == "linked":  # a field of the record the record's link names
        holder = f"collection(env_state, {source['collection']!r}).get(str(record.get({source['via']!r})))"
        return f"copy.deepcopy(({holder} or {{}}).get({source['field']!r}))"
    if source["from"] == "named":  # a field of the record an argument names
        holder = f"collection(env_state, {source['collection']!r}).get(str(arguments.get({source['arg']!r})))"
        return f"copy.deepcopy(({holder} or {{}}).get({source['field']!r}))"
    if source["from"] == "list":  # a list written out, a source per element
        return "[" + ", ".join(_pysource(item, fn) for item in source["items"]) + "]"
    if source["from"] == "days":  # a date of the record plus a number of days another record holds
        holder = f"collection(env_state, {source['collection']!r}).get(str(record.get({source['via']!r})))"
        days = f"({holder} or {{}}).get({source['source']!r})"
        return f"fg_add_days(dig_{fn}(record, {list(source['base'])!r}), {days})"
    if source["from"] == "figure":  # a figure of the sibling read the change computes first (quote_effects)
        return f"copy.deepcopy(figures.get({source['name']!r}))"
    if source["from"] == "switch":  # one value in the states a guard names, another otherwise
        return f"({_pysource(source['then'], fn)} if {_holds(source['when'])} else {_pysource(source['else'], fn)})"
    if source["from"] == "difference":  # a new amount less an old one ("the difference is added to the balance")
        new, old = _pysource(source["new"], fn), _pysource(source["old"], fn)
        expr = f"{{'plus': [{{'const': {new}}}], 'minus': [{{'const': {old}}}]}}"
        return f"fg_evaluate({expr}, arguments, record, env_state)"
    if source["from"] == "fixed":  # a number written with a fixed number of decimals ("7.00")
        return f"fg_fixed({_pysource(source['of'], fn)}, {int(source['decimals'])!r})"
    if source["from"] == "object":  # an object the docs write out, a source per key
        pairs = [f"{k!r}: {_pysource(v, fn)}" for k, v in sorted(source["fields"].items())]
        whole = "{" + ", ".join(pairs) + "}"
        return whole if source.get("nulls") else "fg_whole(" + whole + ")"  # `nulls`: a null key is the data's
    if source["from"] == "given":  # a text by whether a value is set ("verified by JRK", else "dispensed")
        test = _pysource(source["test"], fn)
        otherwise = source["else"]  # a fixed text, or a source of its own
        other = _pysource(
            otherwise if isinstance(otherwise, dict) and "from" in otherwise else {"from": "const", "value": otherwise},
            fn,
        )
        then = _pysource(source["then"], fn)
        return f"({then} if {test} not in (None, '') else {other})"
    if source["from"] == "next_number":  # one past the highest number the entries of a list hold
        held = f"[e.get({source['field']!r}) for e in record.get({source['list']!r}) or [] if isinstance(e, dict)]"
        return f"(max([n for n in {held} if fg_number(n)] or [0]) + 1)"
    if source["from"] == "earned":  # a figure the argument earns from a threshold on ("30 or more earns 3.00")
        arg, side = f"arguments.get({source['arg']!r})", ">" if source["strict"] else ">="
        held = f"fg_number({arg}) and {arg} {side} {source['floor']!r}"
        return f"({source['value']!r} if {held} else {source['else']!r})"
    if source["from"] == "next_in_series":  # a fresh id of a series log entries share across the state
        return f"fg_next_in_series(env_state, {source['field']!r}, {source['prefix']!r}, {int(source['digits'])!r})"
    if source["from"] == "product":  # two values multiplied, rounded ("quantity x unit_price")
        a, b = (_pysource(one, fn) for one in source["of"])
        return f"(round(({a}) * ({b}), {int(source['digits'])}) if fg_number({a}) and fg_number({b}) else None)"
    if source["from"] == "flag":  # a text shown only while a yes/no value is true ("; spare X fitted for Y")
        return f"({_pysource(source['then'], fn)} if {_pysource(source['test'], fn)} is True else '')"
    if source["from"] == "positive":  # a text shown only while a number is above 0 ("; 20.00 paid from credit")
        test = _pysource(source["test"], fn)
        return f"({_pysource(source['then'], fn)} if fg_number({test}) and {test} > 0 else '')"
    if source["from"] == "position":  # the id of a line appended to a list numbered by position ("L3")
        return f"{source['prefix']!r} + str(len(record.get({source['list']!r}) or []) + {int(source['after'])})"
    if source["from"] == "dropped":  # a field of the list entry an `entry_drop` effect took out (recorded_update)
        taken = f"values[{int(source['index'])}]"
        return f"(copy.deepcopy({taken}[0].get({source['field']!r})) if {taken} else None)"
    if source["from"] == "sum":  # a field of a list's entries added up (text_clauses.py)
        held = f"[e.get({source['field']!r}) for e in record.get({source['list']!r}) or [] if isinstance(e, dict)]"
        return f"round(sum(n for n in {held} if fg_number(n)), 6)"
    if source["from"] == "count":  # how many entries a list of the record holds (entry_texts.py)
        return f"len(record.get({source['path'][0]!r}) or [])"
    if source["from"] == "kind_count":  # how many entries of a kind a list of the record holds (+ the new one)
        listed = f"(record.get({source['list']!r}) or [])"
        kind = f"isinstance(e, dict) and e.get({source['field']!r}) == {source['value']!r}"
        return f"(len([e for e in {listed} if {kind}]) + {int(source['after'])})"
    if source["from"] == "concat":  # a text of literal parts and values ("<pier>, <nights> nights")
        parts = [repr(p) if isinstance(p, str) else _pysource(p, fn) for p in source["parts"]]
        return f"fg_text([{', '.join(parts)}])"
    return repr(source["value"])


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)), undefined=jinja2.StrictUndefined, keep_trailing_newline=True
    )
    env.filters["pyrepr"] = repr
    env.filters["pysource"] = _pysource
    env.filters["holds"] = _holds
    env.filters["singular"] = singular
    env.filters["reason"] = check_reason
    return env


def function_name(tool_name: str) -> str:
    """A Python identifier for a tool name, never starting with '_' and never a keyword."""
    name = re.sub(r"[^0-9A-Za-z_]", "_", tool_name).lstrip("_") or "tool"
    if name[0].isdigit() or keyword.iskeyword(name):
        name = "tool_" + name
    return name


def _defaults(record_schema: dict[str, Any] | None, skip: set[str]) -> dict[str, Any]:
    """Type defaults for required record fields, so a new record always satisfies the schema."""
    if not record_schema:
        return {}
    out: dict[str, Any] = {}
    zero = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}
    for name in record_schema.get("required", []):
        if name in skip:
            continue
        fs = record_schema.get("properties", {}).get(name, {})
        kind = fs.get("type", "string")
        if isinstance(kind, list):  # a nullable field starts empty; another union takes its first type
            kind = None if "null" in kind else (kind[0] if kind else "string")
        if kind == "object" and fs.get("required"):  # a nested object starts with its own required fields
            out[name] = _defaults(fs, set())
            continue
        out[name] = fs["enum"][0] if fs.get("enum") else (None if kind is None else zero.get(kind, ""))
    return out


def _list_items(record_schema: dict[str, Any] | None, list_field: str | None) -> dict[str, Any]:
    """{type, enum, pattern} of the elements of a record's list field (what item_add checks a value against)."""
    field = ((record_schema or {}).get("properties") or {}).get(list_field or "") or {}
    items = field.get("items") if isinstance(field, dict) else None
    return {k: items[k] for k in ("type", "enum", "pattern") if k in items} if isinstance(items, dict) else {}


def _entry_fields(record_schema: dict[str, Any] | None, list_field: str | None) -> dict[str, Any]:
    """Field -> {type, enum, pattern} of the entries of a record's list of objects: what item_add checks the values
    it copies from the call against (an author id not in the data's form is refused, not written)."""
    field = ((record_schema or {}).get("properties") or {}).get(list_field or "") or {}
    items = field.get("items") if isinstance(field, dict) else None
    return _top_level(items) if isinstance(items, dict) and items.get("type") == "object" else {}


def _given_objects(record_schema: dict[str, Any] | None, fields: list[str]) -> dict[str, Any]:
    """Field -> {type, required, properties} of the object fields a create's call gives whose stored objects all
    hold some fields: a given object is checked against them (code_templates/create.py.j2)."""
    props = (record_schema or {}).get("properties") or {}
    out = {}
    for name in fields:
        schema = props.get(name)
        if isinstance(schema, dict) and "object" in str(schema.get("type")) and schema.get("required"):
            out[name] = {"type": "object", "required": sorted(schema["required"]), "properties": _top_level(schema)}
    return out


def _top_level(record_schema: dict[str, Any] | None) -> dict[str, Any]:
    """Field -> {type, enum, pattern} of a record schema (and of the items of a list: plain values, or entries
    with their required fields): what the templates check before writing."""
    props = (record_schema or {}).get("properties") or {}
    out = {k: {kk: v[kk] for kk in ("type", "enum", "pattern") if kk in v} for k, v in sorted(props.items())}
    for k, v in props.items():  # a list of plain values: each element is checked too
        items = v.get("items") if isinstance(v, dict) else None
        if isinstance(items, dict) and items.get("type") in ("string", "integer", "number", "boolean"):
            out[k]["items"] = {kk: items[kk] for kk in ("type", "enum", "pattern") if kk in items}
        elif isinstance(items, dict) and items.get("type") == "object" and items.get("required"):
            out[k]["items"] = {"type": "object", "required": sorted(items["required"]), "properties": _top_level(items)}
    return out


def header_source(env_id: str, version: str, body: str = "") -> str:
    """The shared helper functions at the top of every env.py; the learned expressions' runtime too when the
    tools' code (`body`) calls it."""
    header = _env().get_template("header.py.j2").render(env_id=env_id, version=version)
    if re.search(r"\bfg_\w+\(", body):
        header = header.rstrip("\n") + "\n\n\n" + _expr_runtime()
    if "fg_off_card(" in body:  # entries priced from a rate card's other key (offcard_rates.py)
        rates = (Path(__file__).parent / "rate_runtime.py").read_text(encoding="utf-8")
        header = header.rstrip("\n") + "\n\n\n" + rates.split("# runtime\n", 1)[1].strip() + "\n"
    if "fg_next_in_series(" in body:  # a fresh id of a series log entries share (series_runtime.py)
        series = (Path(__file__).parent / "series_runtime.py").read_text(encoding="utf-8")
        header = header.rstrip("\n") + "\n\n\n" + series.split("# runtime\n", 1)[1].strip() + "\n"
    if "fg_embed_" in body:  # records a read embeds as its example shows (example_embeds.py)
        embed = (Path(__file__).parent / "embed_runtime.py").read_text(encoding="utf-8")
        header = header.rstrip("\n") + "\n\n\n" + embed.split("# runtime\n", 1)[1].strip() + "\n"
    if "fg_keyed(" in body:  # records answered with the key the state keeps them under (keyed_views.py)
        view = (Path(__file__).parent / "view_runtime.py").read_text(encoding="utf-8")
        header = header.rstrip("\n") + "\n\n\n" + view.split("# runtime\n", 1)[1].strip() + "\n"
    return header


@lru_cache(maxsize=1)
def _expr_runtime() -> str:
    """The functions of synth/envsynth/expr_runtime.py, date_runtime.py, list_runtime.py and formula_runtime.py
    below their `# runtime` lines."""
    parts = []
    for name in ("expr_runtime.py", "date_runtime.py", "list_runtime.py", "formula_runtime.py"):
        text = (Path(__file__).parent / name).read_text(encoding="utf-8")
        parts.append(text.split("# runtime\n", 1)[1].strip())
    return "\n\n\n".join(parts) + "\n"


def _doc(spec: ToolSpec) -> str:
    """The tool's description as a one-line docstring body (no closing quotes inside or at its end)."""
    return re.sub(r"\s+", " ", spec.description).replace('"""', "'").replace("\\", "/")[:200].rstrip('"')


DIG = """


def dig_{fn}(node, path):
    for part in path:
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return copy.deepcopy(node)
"""


def _envelope_extra(rule: dict[str, Any]) -> str:
    """Python for one more key of a list's envelope (trace_envelopes.py), from `result` and `arguments`."""
    if rule["op"] == "arg":  # an argument answered back
        return f"copy.deepcopy(arguments.get({rule['name']!r}))"
    if rule["op"] == "count":
        return "len(result)"
    if rule["op"] == "sum":  # a number of the records added up (`where`: of those in the states the docs name)
        field = rule["field"]
        kept = "".join(f" and r.get({f!r}) in {list(v)!r}" for f, v in sorted((rule.get("where") or {}).items()))
        return (
            f"round(sum([r.get({field!r}) for r in result if isinstance(r, dict){kept}"
            f" and fg_number(r.get({field!r}))]), 6)"
        )
    return repr(rule["value"])


def _envelope_code(fn: str, inner: str, doc: str, plan: ToolPlan) -> str:
    """`fn` answering `inner`'s result under the documented key (with the list's length under `count_key`, and
    the keys `envelope_extras` reads)."""
    count = f"{plan.count_key!r}: len(result), " if plan.count_key else ""
    count += "".join(f"{k!r}: {_envelope_extra(rule)}, " for k, rule in sorted(plan.envelope_extras.items()))
    return (
        f'\n\n\ndef {fn}(env_state, **arguments):\n    """{doc}"""\n'
        f"    result = {inner}(env_state, **arguments)\n"
        f"    return result if result is None else {{{count}{plan.output_key!r}: result}}\n"
    )


def render_tool(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], fn: str = "") -> str:
    """Render the structured route's code of one tool (as function `fn`, by default the tool's name)."""
    fn = fn or function_name(spec.name)
    if plan.kind == "by_mode":
        return _modes_code(spec, fn, plan, state_schema)
    settled = settled_flags(plan.effects)  # a flag of an object the plan never writes: its clause as logged
    plan = plan if settled == plan.effects else ToolPlan.from_dict({**plan.to_dict(), "effects": settled})
    col_schema = (state_schema.get("properties") or {}).get(plan.collection or "", {})
    record_schema = col_schema.get("additionalProperties") if isinstance(col_schema, dict) else None
    resource = singular(plan.collection or plan.singleton or "record") or "record"
    doc = _doc(spec)
    collections = [k for k, v in (state_schema.get("properties") or {}).items() if "additionalProperties" in v]
    inner = f"{fn}_result" if plan.output_key or plan.output_fields or plan.embeds else fn
    code = (
        _env()
        .get_template(f"{plan.kind}.py.j2")
        .render(
            fn=inner,
            p=plan,
            doc=doc,
            resource=resource.capitalize(),
            collections=collections,
            defaults=repr(_defaults(record_schema, {plan.key_field} if plan.key_field else set())),
            field_schemas=repr(_top_level(record_schema)),
            given_objects=repr(_given_objects(record_schema, plan.fields) if plan.kind == "create" else {}),
            nested_schemas=repr(_nested(record_schema, plan.field_paths)),
            list_items=repr(_list_items(record_schema, plan.list_field)),
            entry_fields=repr(_entry_fields(record_schema, plan.list_field)),
        )
    )
    if f"dig_{inner}(" in code and f"def dig_{inner}(" not in code:  # a value source reads a path of the record
        code = code.rstrip("\n") + DIG.format(fn=inner)
    if plan.output_key and plan.output_format:  # a message learned from recorded calls, built from the arguments
        parts = " + ".join(_piece(kind, v) for kind, v in plan.output_format)
        landed = _landed_code(plan) if any(kind == "landed" for kind, _ in plan.output_format) else ""
        code = (
            code.rstrip("\n") + f'\n\n\ndef {fn}(env_state, **arguments):\n    """{doc}"""\n'
            f"{landed}"
            f"    {inner}(env_state, **arguments)\n"
            f"    return {{{plan.output_key!r}: {parts}}}\n"
        )
    elif plan.output_fields or plan.embeds:  # the record fields the docs list, and the records it embeds
        lines = [f"    result = {inner}(env_state, **arguments)\n"]
        if plan.embeds:  # the record's own key, as found (a lookup by another field gives no key argument)
            lines.append(
                f"    owner = result.get({plan.key_field!r}) if isinstance(result, dict) else None\n"
                f"    owner = arguments.get({plan.key_param!r}) if owner is None else owner\n"
            )
        before = ""
        if _charges(plan) and plan.key_param:
            lines.insert(  # the record as the call found it: what it was charged depends on its starting state
                0,
                f"    before = copy.deepcopy(collection(env_state, {plan.collection!r})"
                f".get(str(arguments.get({plan.key_param!r}))))\n",
            )
            before = ", before"
        if plan.output_fields:  # each record (or the one) cut to the listed fields, some from referenced records
            lines.append(
                f"    if isinstance(result, list):\n"
                f"        return [shape_{fn}(env_state, r, arguments) for r in result]\n"
                f"    result = shape_{fn}(env_state, result, arguments{before})\n"
            )
        lines.append("    if not isinstance(result, dict):\n        return result\n")
        first, last = moved_code(plan)  # the keys of other records the call changed (a payment's restored lines)
        lines = [first] + lines + [last]
        for embed in plan.embeds:  # children: the records of another collection that name this one, by key
            lines.append(
                f"    children = collection(env_state, {embed['collection']!r})\n"
                f"    result[{embed['key']!r}] = [\n"
                f"        {{f: copy.deepcopy(children[k][f]) for f in {list(embed['fields'])!r} if f in children[k]}}\n"
                f"        for k in sorted(children)\n"
                f"        if isinstance(children[k], dict)\n"
                f"        and str(children[k].get({embed['ref']!r})) == str(owner)\n"
                f"    ]\n"
            )
        shaped = f"{fn}_rows" if plan.output_key else fn  # rows cut to their fields, then put in the envelope
        code = code.rstrip("\n") + f'\n\n\ndef {shaped}(env_state, **arguments):\n    """{doc}"""\n' + "".join(lines)
        code += "    return result\n"
        if plan.output_fields:
            code += _shape_code(fn, plan)
        if plan.output_key:
            code += _envelope_code(fn, shaped, doc, plan)
    elif plan.output_key:  # the documented response envelope; a None result stays None
        code = code.rstrip("\n") + _envelope_code(fn, inner, doc, plan)
    if plan.answer_field:  # "Returns the boat's updated `crew` array": that field of the changed record
        inner_fn = f"{fn}_record"
        code = re.sub(rf"^def {fn}\(", f"def {inner_fn}(", code, flags=re.M)
        code = (
            code.rstrip("\n") + f'\n\n\ndef {fn}(env_state, **arguments):\n    """{doc}"""\n'
            f"    result = {inner_fn}(env_state, **arguments)\n"
            f"    return copy.deepcopy(result.get({plan.answer_field!r})) if isinstance(result, dict) else result\n"
        )
    keys = view_keys(spec, state_schema)
    if keys:  # records kept without their key, answered with it (keyed_views.py)
        plain = f"{fn}_unkeyed"
        code = re.sub(rf"^def {fn}\(", f"def {plain}(", code, flags=re.M)
        code = (
            code.rstrip("\n") + f'\n\n\ndef {fn}(env_state, **arguments):\n    """{doc}"""\n'
            f"    return fg_keyed({plain}(env_state, **arguments), env_state, {keys!r})\n"
        )
    if plan.special_outputs:  # argument values the recorded calls show a fixed answer for
        general = f"{fn}_general"
        code = re.sub(rf"^def {fn}\(", f"def {general}(", code, flags=re.M)
        lines = [f'\n\ndef {fn}(env_state, **arguments):\n    """{doc}"""\n']
        lines.append(f"    result = {general}(env_state, **arguments)\n")
        for rule in plan.special_outputs:
            lines.append(f"    if arguments.get({rule['arg']!r}) == {rule['value']!r}:\n")
            lines.append(f"        return copy.deepcopy({rule['output']!r})\n")
        code = code.rstrip("\n") + "\n" + "".join(lines) + "    return result\n"
    return code


def _modes_code(spec: ToolSpec, fn: str, plan: ToolPlan, state_schema: dict[str, Any]) -> str:
    """One function per documented value of `plan.op_param` (its names suffixed) and the dispatcher."""
    parts, lines = [], []
    doc = _doc(spec)
    for i, (value, mode) in enumerate(sorted(plan.modes.items())):
        parts.append(render_tool(spec, ToolPlan.from_dict(mode["plan"]), state_schema, f"{fn}__{i}").rstrip("\n"))
        lines.append(f"    if arguments.get({plan.op_param!r}) == {value!r}:\n")
        for name in mode["requires"]:
            lines.append(f"        if arguments.get({name!r}) in (None, ''):\n")
            lines.append(f"            raise ToolError({f'{name} is required when {plan.op_param} is {value}'!r})\n")
        lines.append(f"        return {fn}__{i}(env_state, **arguments)\n")
    allowed = ", ".join(sorted(plan.modes))
    dispatch = (
        f'def {fn}(env_state, **arguments):\n    """{doc}"""\n'
        + "".join(lines)
        + f"    raise ToolError({f'{plan.op_param} must be one of {allowed}'!r})\n"
    )
    return "\n\n\n".join(parts + [dispatch])


def _piece(kind: str, value: str) -> str:
    if kind == "text":
        return repr(value)
    if kind == "landed":
        return "landed"
    return f"str(arguments.get({value!r}))"


def _landed_code(plan: ToolPlan) -> str:
    """Where the node a tree_move / tree_copy names will be: `destination/source` into a branch, else
    `destination` (read before the call moves it)."""
    info = plan.tree_info
    src, dest = plan.key_param, plan.fields[0]
    kind = info.get("kind_field")
    branch_check = f" and folder.get({kind!r}) == {info.get('branch')!r}" if kind else ""
    return (
        f"    nodes = tree_dir(env_state, {plan.tree!r}, {info.get('children')!r}, {kind!r}, {info.get('branch')!r})\n"
        f"    folder = nodes.get(arguments.get({dest!r}))\n"
        f"    landed = str(arguments.get({dest!r}))\n"
        f"    if isinstance(folder, dict){branch_check}:\n"
        f"        landed = landed + '/' + str(arguments.get({src!r}))\n"
    )


def _nested(record_schema: dict[str, Any] | None, paths: dict[str, str]) -> dict[str, Any]:
    """`object.field` -> {type, enum, pattern} of the nested fields an update sets."""
    props = (record_schema or {}).get("properties") or {}
    out: dict[str, Any] = {}
    for path in sorted(paths.values()):
        parent, name = path.split(".", 1)
        sub = ((props.get(parent) or {}).get("properties") or {}).get(name) or {}
        out[path] = {k: sub[k] for k in ("type", "enum", "pattern") if k in sub}
    return out


CODE_BLOCK = re.compile(r"```(?:python)?\s*\n(.*?)```", re.S)


def extract_code(text: str) -> str:
    """The first fenced code block of an answer, else the whole answer."""
    m = CODE_BLOCK.search(text)
    return (m.group(1) if m else text).strip() + "\n"


def write_free_form(
    client: ChatClient,
    spec: ToolSpec,
    state_schema: dict[str, Any],
    *,
    previous: str = "",
    error: str = "",
    max_tokens: int = 900,
    policy: str = "",
    recorded: str = "",
) -> str:
    """Route (a): ask the LLM for the whole function (for strong models), with the data sample (the schema's
    first example), the policy text for the tool and recorded calls when there are any."""

    examples = state_schema.get("examples") or []
    sample = json.dumps(examples[0], sort_keys=True)[:2000] if examples else ""
    schema = {k: v for k, v in state_schema.items() if k != "examples"}
    prompt = render(
        "envsynth_tool_code.j2",
        name=spec.name,
        description=spec.description[:600],
        function=function_name(spec.name),
        parameters=json.dumps(spec.parameters, sort_keys=True)[:1500],
        state_schema=json.dumps(schema, sort_keys=True)[:2500],
        previous=previous,
        error=error,
        sample=sample,
        policy=policy[:2000],
        recorded=recorded[:2000],
    )
    text = client.chat([{"role": "user", "content": prompt}], max_tokens=max_tokens, tag="code.free_form").text
    return extract_code(text)
