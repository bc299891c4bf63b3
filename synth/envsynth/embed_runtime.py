"""Records a read answers inside the record it reads, as its docs' example shows them (example_embeds.py): the one
record a field of it names, and the records of another collection that name it. Copied below the `# runtime` line
into env.py files whose tools call it (codegen.header_source), under the same rules as expr_runtime.py: plain
functions over JSON values, sandbox-safe, no imports; `fg_day_number` comes from date_runtime.py.
"""

from synth.envsynth.date_runtime import fg_day_number  # noqa: F401  (copied in before)

# runtime


def fg_embed_cut(row, key, state, spec, today):
    """The row (kept under `key`) cut to the spec's fields, with the figures, linked fields and day counts it adds,
    in the spec's order."""
    out = {}
    for name in spec["fields"]:
        if name in (spec.get("linked") or {}):
            link = spec["linked"][name]
            other = (state.get(link["collection"]) or {}).get(str(row.get(link["via"])))
            out[name] = other.get(link["field"]) if isinstance(other, dict) else None
        elif name in (spec.get("calc") or {}):
            calc = spec["calc"][name]
            left, right = row.get(calc["left"]), row.get(calc["right"])
            both = all([isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right)])
            out[name] = round(left - right, 2) if both else None
        elif name in (spec.get("days") or {}):
            rule = spec["days"][name]
            day, now = fg_day_number(str(row.get(rule["date"]) or "")[:10]), fg_day_number(today)
            count = None if day is None or now is None else (now - day) * rule["sign"]
            out[name] = None if count is None else max(0, count)
        elif name in row:
            out[name] = row[name]
        elif name == spec.get("key_name"):
            out[name] = key
    return out


def fg_embed_one(state, record, spec, today):
    """The record the record's `via` field names, cut to the spec's fields; None when it names none."""
    other = (state.get(spec["collection"]) or {}).get(str(record.get(spec["via"])))
    if not isinstance(other, dict):
        return None
    return fg_embed_cut(other, str(record.get(spec["via"])), state, spec, today)


def fg_embed_rows(state, record, key, spec, today):
    """The records of the spec's collection whose `ref` names the record (its key `key`), in the states `where`
    allows, by their keys, each cut to the spec's fields."""
    rows = []
    held = state.get(spec["collection"]) or {}
    for name in sorted(held):
        row = held[name]
        if not isinstance(row, dict) or key is None or str(row.get(spec["ref"])) != str(key):
            continue
        if not all([row.get(field) in values for field, values in sorted((spec.get("where") or {}).items())]):
            continue
        rows.append(fg_embed_cut(row, name, state, spec, today))
    return rows
