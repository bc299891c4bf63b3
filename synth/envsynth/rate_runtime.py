"""Numbers of new list entries whose key a rate card does not list, by the rules offcard_rates.py learns from the
sample data (a `skipper` passenger pays the `adult` fare less the skipper's club discount, nothing on a `harbour`
trip). Copied below the `# runtime` line into env.py files whose tools call it (codegen.header_source), under the
same rules as expr_runtime.py: plain functions over JSON values, sandbox-safe, no imports.
"""

# runtime


def fg_led_to(state, record, chain):
    """The record `chain`'s links lead to from `record` ([]: the record itself), or None."""
    node = record
    for hop in chain:
        held = state.get(hop["collection"]) if isinstance(state, dict) else None
        node = held.get(str(node.get(hop["via"]))) if isinstance(node, dict) and isinstance(held, dict) else None
    return node if isinstance(node, dict) else None


def fg_off_card(rules, key, record, entry, card, state):
    """The number the first rule for the entry's `key` value whose condition holds gives: a constant, or the card's
    number at another key less a percentage a linked record holds; None when no rule gives one."""
    for rule in rules:
        if entry.get(key) != rule["value"]:
            continue
        when = rule.get("when")
        if when is not None and (fg_led_to(state, record, when["chain"]) or {}).get(when["field"]) != when["is"]:
            continue
        if "const" in rule:
            return rule["const"]
        base = card.get(rule["base"]) if isinstance(card, dict) else None
        pct = (fg_led_to(state, record, rule["less_pct"]["chain"]) or {}).get(rule["less_pct"]["field"])
        numbers = [v for v in (base, pct) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        return round(base * (1 - pct / 100.0), 2) if len(numbers) == 2 else None
    return None
