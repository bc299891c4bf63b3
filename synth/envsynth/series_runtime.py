"""The next id of a series that log entries share across the state ("SL-0043" after "SL-0042"), for entries whose
data shows a fresh id in each (id_series.fresh_ids) or whose recorded calls write one (trace_learn). Copied below
the `# runtime` line into env.py files whose tools call it (codegen.header_source), under the same rules as
expr_runtime.py: plain functions over JSON values, sandbox-safe, no imports.
"""

# runtime


def fg_next_in_series(state, field, prefix, digits):
    """`prefix` and one past the highest number a list entry or object of any record holds after it (under `field`,
    or under any key when `field` is None), written with at least `digits` digits."""
    top = 0
    for records in state.values() if isinstance(state, dict) else []:
        for record in records.values() if isinstance(records, dict) else []:
            for held in record.values() if isinstance(record, dict) else []:
                for entry in held if isinstance(held, list) else [held]:
                    if not isinstance(entry, dict):
                        continue
                    for value in entry.values() if field is None else [entry.get(field)]:
                        tail = value[len(prefix) :] if isinstance(value, str) and value.startswith(prefix) else ""
                        if tail.isdigit():
                            top = max(top, int(tail))
    return prefix + str(top + 1).zfill(digits)
