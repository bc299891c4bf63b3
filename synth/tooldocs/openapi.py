"""OpenAPI 3.0 / 3.1 documents: one tool per operation.

Path and query parameters and the request body's fields are folded into one JSON-Schema object;
headers and cookies are skipped. `returns` is the first 2xx JSON response schema (with the media type's
example answer, when it shows an object, as its `example`).
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import Draft202012Validator

from synth.errors import InputError
from synth.spec import ToolSource, ToolSpec
from synth.tooldocs.oas_schema import flatten_all_of, foldable_properties, to_json_schema
from synth.tooldocs.refs import RefResolver, join
from synth.tooldocs.validate import check_description, check_name, check_schema, normalize_parameters

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
READ_ONLY_METHODS = {"get", "head", "options", "trace"}
PARAM_LOCATIONS = ("path", "query", "header", "cookie")
MAX_EXAMPLES = 3


def check_version(data: dict[str, Any], path: str) -> None:
    """Accept OpenAPI 3.x; Swagger 2.0 and other versions are InputErrors."""
    if "swagger" in data and "openapi" not in data:
        raise InputError(path, "/swagger", "Swagger 2.0 is not supported; convert to OpenAPI 3")
    version = str(data.get("openapi"))
    if not re.match(r"^3\.\d+", version):
        raise InputError(path, "/openapi", f"unsupported OpenAPI version {data.get('openapi')!r} (expected 3.x)")


def openapi_title(data: dict[str, Any]) -> str:
    """`info.title`, or "" when absent."""
    info = data.get("info")
    title = info.get("title") if isinstance(info, dict) else None
    return title.strip() if isinstance(title, str) else ""


def openapi_prose(data: dict[str, Any]) -> str:
    """`info.description`: the API's own conventions (its business date, id forms, price lists), or ""."""
    info = data.get("info")
    text = info.get("description") if isinstance(info, dict) else None
    return text.strip() if isinstance(text, str) else ""


def load_openapi(data: dict[str, Any], path: str) -> list[ToolSpec]:
    """One ToolSpec per operation, in document order."""
    check_version(data, path)
    resolver = RefResolver(data, path)
    paths = data.get("paths", {})
    if not isinstance(paths, dict):
        raise InputError(path, "/paths", "paths must be an object")
    tools = []
    for route, item in paths.items():
        loc = join("/paths", route)
        if not route.startswith("/"):
            raise InputError(path, loc, f"path {route!r} must start with '/'")
        item, item_loc = resolver.deref(item, loc)
        if not isinstance(item, dict):
            raise InputError(path, item_loc, "path item must be an object")
        for method, op in item.items():
            if method in HTTP_METHODS:
                tools.append(_operation(resolver, route, item, item_loc, method, op, join(item_loc, method)))
    return tools


def _operation(
    resolver: RefResolver, route: str, item: dict, item_loc: str, method: str, op: Any, loc: str
) -> ToolSpec:
    path = resolver.path
    if not isinstance(op, dict):
        raise InputError(path, loc, "operation must be an object")
    if "operationId" in op:
        name = check_name(op["operationId"], path, join(loc, "operationId"))
    else:
        name = check_name(_default_name(method, route), path, loc)
    parts = [check_description(op.get(k), path, join(loc, k)) for k in ("summary", "description")]
    errors = _error_text(resolver, op, loc)
    description = "\n\n".join(dict.fromkeys(p for p in parts + [errors] if p))
    properties, required, param_examples = _parameters(resolver, route, item, item_loc, op, loc)
    body_examples = _request_body(resolver, op, loc, properties, required)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    parameters = normalize_parameters(schema, path, loc)
    returns = _returns(resolver, op, loc)
    return ToolSpec(
        name=name,
        description=description,
        parameters=parameters,
        returns=returns,
        mutates=method not in READ_ONLY_METHODS,
        source=ToolSource(file=path, format="openapi", pointer=loc),
        http={"method": method, "path": route},
        examples=_examples(parameters, param_examples, body_examples),
    )


def _default_name(method: str, route: str) -> str:
    """`get /pet/{petId}` -> `get_pet_petId`."""
    return re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", f"{method}_{route}")).strip("_")


def _schema_at(resolver: RefResolver, holder: dict, holder_loc: str) -> Any:
    """The converted JSON Schema under holder["schema"] (inlined, OpenAPI keywords rewritten)."""
    raw = holder.get("schema")
    if not isinstance(raw, (dict, bool)):
        raise InputError(
            resolver.path, join(holder_loc, "schema"), f"schema must be an object, got {type(raw).__name__}"
        )
    schema = to_json_schema(resolver.inline(raw, join(holder_loc, "schema")))
    check_schema(schema, resolver.path, join(holder_loc, "schema"))
    return schema


def _parameters(resolver, route, item, item_loc, op, loc):
    """Path and query parameters as (properties, required, examples by name)."""
    path = resolver.path
    merged: dict[tuple[str, str], tuple[dict, str]] = {}
    for holder, holder_loc in ((item, item_loc), (op, loc)):
        listed = holder.get("parameters", [])
        list_loc = join(holder_loc, "parameters")
        if not isinstance(listed, list):
            raise InputError(path, list_loc, "parameters must be a list")
        for j, raw in enumerate(listed):
            param, p_loc = resolver.deref(raw, join(list_loc, j))
            if not isinstance(param, dict):
                raise InputError(path, p_loc, "parameter must be an object")
            name = param.get("name")
            if not isinstance(name, str) or not name:
                raise InputError(path, p_loc, "parameter has no name")
            where = param.get("in")
            if where not in PARAM_LOCATIONS:
                raise InputError(
                    path, join(p_loc, "in"), f"parameter {name!r}: 'in' must be one of {', '.join(PARAM_LOCATIONS)}"
                )
            merged[(name, where)] = (param, p_loc)
    properties: dict[str, Any] = {}
    required: list[str] = []
    examples: dict[str, Any] = {}
    for (name, where), (param, p_loc) in merged.items():
        if where not in ("path", "query"):
            continue
        if name in properties:
            raise InputError(path, p_loc, f"parameter name {name!r} is used twice (path and query)")
        if "schema" in param:
            schema = _schema_at(resolver, param, p_loc)
        elif isinstance(param.get("content"), dict) and param["content"]:
            media_type, media = next(iter(param["content"].items()))
            media_loc = join(p_loc, "content", media_type)
            schema = _schema_at(resolver, media, media_loc) if isinstance(media, dict) and "schema" in media else {}
        else:
            schema = {"type": "string"}
        if isinstance(schema, dict) and isinstance(param.get("description"), str) and "description" not in schema:
            schema = {**schema, "description": param["description"].strip()}
        properties[name] = schema
        if where == "path" or param.get("required") is True:
            required.append(name)
        found = _first_example(resolver, param, p_loc)
        if found is None and isinstance(schema, dict) and schema.get("examples"):
            found = (schema["examples"][0],)
        if found is not None:
            examples[name] = found[0]
    for name in re.findall(r"\{([^}/]+)\}", route):  # templated but undeclared path parameters
        if name not in properties:
            properties[name] = {"type": "string", "description": f"path parameter {name}"}
            required.append(name)
    return properties, required, examples


def _first_example(resolver: RefResolver, holder: dict, loc: str) -> tuple[Any] | None:
    """(value,) of the first `example` / `examples` entry of a parameter or media type, else None."""
    values = _all_examples(resolver, holder, loc)
    return (values[0],) if values else None


def _all_examples(resolver: RefResolver, holder: dict, loc: str) -> list[Any]:
    if "example" in holder:
        return [holder["example"]]
    out = []
    examples = holder.get("examples")
    if isinstance(examples, dict):
        for key, ex in examples.items():
            ex, _ = resolver.deref(ex, join(loc, "examples", key))
            if isinstance(ex, dict) and "value" in ex:
                out.append(ex["value"])
    return out


def _pick_media(content: dict[str, Any]) -> str | None:
    """JSON first, then form bodies, then whatever comes first."""
    keys = list(content)
    bare = {k: k.split(";")[0].strip().lower() for k in keys}
    for test in (
        lambda m: m == "application/json",
        lambda m: m.endswith("+json") or m.endswith("/json"),
        lambda m: m == "application/x-www-form-urlencoded",
        lambda m: m == "multipart/form-data",
    ):
        for k in keys:
            if test(bare[k]):
                return k
    return keys[0] if keys else None


def _request_body(resolver, op, loc, properties, required) -> list[tuple[str, Any]]:
    """Fold the request body into properties/required; returns body examples as ("fold"|"body", value)."""
    if "requestBody" not in op:
        return []
    path = resolver.path
    body, body_loc = resolver.deref(op["requestBody"], join(loc, "requestBody"))
    if not isinstance(body, dict):
        raise InputError(path, body_loc, "requestBody must be an object")
    content = body.get("content")
    if not isinstance(content, dict) or not content:
        raise InputError(path, join(body_loc, "content"), "requestBody needs a non-empty content map")
    media_type = _pick_media(content)
    media, media_loc = content[media_type], join(body_loc, "content", media_type)
    if not isinstance(media, dict):
        raise InputError(path, media_loc, "media type must be an object")
    schema = _schema_at(resolver, media, media_loc) if "schema" in media else {}
    body_required = body.get("required") is True
    folded = foldable_properties(schema)
    examples = _all_examples(resolver, media, media_loc)
    if not examples and isinstance(schema, dict):
        examples = list(schema.get("examples") or [])
    if folded is not None and not set(folded) & set(properties):
        properties.update(folded)
        if body_required:
            required += [r for r in flatten_all_of(schema).get("required", []) if r in folded and r not in required]
        return [("fold", ex) for ex in examples]
    key = "body" if "body" not in properties else "request_body"
    if isinstance(schema, dict) and isinstance(body.get("description"), str) and "description" not in schema:
        schema = {**schema, "description": body["description"].strip()}
    properties[key] = schema
    if body_required:
        required.append(key)
    return [(key, ex) for ex in examples]


def _error_text(resolver: RefResolver, op: dict, loc: str) -> str:
    """`Errors: 404: No pet with this id.; 409: ...` from the documented 4xx responses ("" when none), so the rules
    that read a tool's description see its refusals as the docs state them."""
    responses = op.get("responses")
    if not isinstance(responses, dict):
        return ""
    rows = []
    for code in sorted(str(c) for c in responses if re.match(r"^4(\d\d|XX)$", str(c))):
        response, _ = resolver.deref(responses[code] if code in responses else responses[int(code)], join(loc, code))
        text = response.get("description") if isinstance(response, dict) else None
        if isinstance(text, str) and text.strip():
            rows.append(f"{code}: {text.strip().rstrip('.')}")
    return ("Errors: " + "; ".join(rows) + ".") if rows else ""


def _returns(resolver: RefResolver, op: dict, loc: str) -> Any:
    """The schema of the first 2xx response with JSON content (with the response's description when the schema has
    none of its own), or None."""
    responses = op.get("responses", {})
    if not isinstance(responses, dict):
        raise InputError(resolver.path, join(loc, "responses"), "responses must be an object")
    codes = sorted((c for c in responses if re.match(r"^2(\d\d|XX)$", str(c))), key=lambda c: str(c).replace("X", "9"))
    for code in codes:
        response, r_loc = resolver.deref(responses[code], join(loc, "responses", code))
        content = response.get("content") if isinstance(response, dict) else None
        if not isinstance(content, dict):
            continue
        for media_type, media in content.items():
            bare = media_type.split(";")[0].strip().lower()
            if (bare == "application/json" or bare.endswith("+json")) and isinstance(media, dict) and "schema" in media:
                media_loc = join(r_loc, "content", media_type)
                schema = _schema_at(resolver, media, media_loc)
                shown = _first_example(resolver, media, media_loc)  # an example answer, kept beside its schema
                if (
                    shown is not None
                    and isinstance(shown[0], dict)
                    and isinstance(schema, dict)
                    and "example" not in schema
                ):
                    schema = {**schema, "example": shown[0]}
                said = response.get("description")  # "Berths ordered by day and slip.": what the answer is
                if isinstance(schema, dict) and isinstance(said, str) and said.strip() and "description" not in schema:
                    schema = {**schema, "description": said.strip()}
                return schema
    return None


def _examples(parameters: dict, param_examples: dict, body_examples: list) -> tuple[dict[str, Any], ...]:
    """Example calls built from documented examples; only those that validate against `parameters`."""
    candidates = []
    for kind, value in body_examples or [(None, None)]:
        args = dict(param_examples)
        if kind == "fold" and isinstance(value, dict):
            args.update({k: v for k, v in value.items() if k in parameters["properties"]})
        elif kind is not None:
            args[kind] = value
        if args and args not in candidates:
            candidates.append(args)
    validator = Draft202012Validator(parameters)
    return tuple({"arguments": a} for a in candidates if validator.is_valid(a))[:MAX_EXAMPLES]
