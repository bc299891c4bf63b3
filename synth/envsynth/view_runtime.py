"""Answers of records kept without their key: a state that keys its skippers by id ({"SK-1": {"name": ...}})
while the docs answer `{"skipper_id": "SK-1", "name": ...}`. Copied below the `# runtime` line into env.py files
whose tools call it (codegen.header_source, keyed_views.py), under the same rules as expr_runtime.py: plain
functions over JSON values, sandbox-safe, no imports.
"""

# runtime


def fg_keyed(result, state, keys):
    """The answer with each stored record it shows (an object equal to one kept under `keys`' collections without
    its key field) led by its key under the documented name; everything else as it is."""
    stored = {}  # the records by their sorted keys: an answered object is compared with those of its shape only
    for col, name in sorted(keys.items()):
        held = state.get(col) if isinstance(state, dict) else None
        for key, record in sorted((held or {}).items()) if isinstance(held, dict) else []:
            if isinstance(record, dict) and name not in record:
                stored.setdefault(tuple(sorted(record)), []).append((record, name, key))
    return fg_keyed_node(result, stored, []) if stored else result


def fg_keyed_node(node, stored, used):
    """`node` with its stored records keyed; two equal records take their keys in order, each once (`used`)."""
    if isinstance(node, list):
        return [fg_keyed_node(item, stored, used) for item in node]
    if not isinstance(node, dict):
        return node
    found = [(name, key) for record, name, key in stored.get(tuple(sorted(node)), []) if node == record]
    if found:
        fresh = [(name, key) for name, key in found if key not in used] or found
        used.append(fresh[0][1])
        out = {fresh[0][0]: fresh[0][1]}
        out.update(node)
        return out
    return {k: fg_keyed_node(v, stored, used) for k, v in node.items()}
