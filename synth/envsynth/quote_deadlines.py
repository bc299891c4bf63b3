"""A figure offered only until a named record's date: "2% of `subtotal` when `early_settle` is `true`. Only available up
to and including the season's early-settle deadline; after it the quote is refused." refuses the quote past that
date (the business date after it; "before" the date: on it too) when the text says so (refused, an error; "0 after
it" only drops the figure), only when the condition the same numbered line puts on the figure holds (the argument's
value), else always.

The date is the field of the record a parameter names (its collection's noun: "the season's") whose name holds
every word of the phrase ("early-settle deadline" -> `early_settle_deadline`). Refusal nodes are formula_runtime
nodes, {"when": yes/no node, "said": text} (code_templates/_blocks.j2 `guards`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.figure_terms import param_default
from synth.envsynth.numbered_lines import arg_value
from synth.words import singular, split_words

DEADLINE = re.compile(
    r"\b(?:only\s+)?(?:available|allowed|offered|possible|given)\s+(?P<side>up\s+to\s+and\s+including|up\s+to|until|"
    r"on\s+or\s+before|before)\s+the\s+(?P<noun>\w+)['\u2019]s\s+(?P<words>[\w -]+?)\s*(?:[;.,]|$)",
    re.I,
)
REFUSED = re.compile(r"\b(?:refused|rejected|declined|not\s+allowed|fails?|an?\s+error)\b", re.I)
WHEN_ARG = re.compile(r"\b(?:when|if)\s+`(\w+)`\s+is\s+`?(true|false|[\w-]+)`?", re.I)


def _words(text: str) -> set[str]:
    return {singular(w) for w in split_words(text.replace("-", " "))}


def deadline_refusals(lines: list[str], scope: Any, today: str | None) -> list[dict[str, Any]]:
    """The refusals of the deadlines these texts (a quote's numbered lines, or its sentences) give."""
    out: list[dict[str, Any]] = []
    for text in lines if today else []:
        said = DEADLINE.search(text)
        if said is None or not REFUSED.search(text[said.end() :]):
            continue  # "..., 0 after it": the figure drops, the quote stands
        holders = [p for p, col in scope.named.items() if singular(col) == singular(said.group("noun").lower())]
        wanted = _words(said.group("words"))
        dates = [
            (p, f)
            for p in holders
            for f, schema in sorted((scope.fields.get(p) or {}).items())
            if isinstance(schema, dict)
            and wanted <= _words(f.replace("_", " "))
            and re.search(r"date|deadline|_on$", f)
        ]
        if len(dates) != 1:
            continue
        p, field = dates[0]
        inclusive = said.group("side").lower() != "before"
        days = {"days_between": [{"field": field, "param": p}, {"const": today}]}
        late = {
            "if_cmp": {"a": days, "op": ">" if inclusive else ">=", "b": {"num": 0}},
            "then": {"const": True},
            "else": {"const": False},
        }
        cond = WHEN_ARG.search(text[: said.start()])
        value = arg_value(cond.group(1), cond.group(2), scope.params) if cond else None
        if cond and value is not None:
            default = param_default(scope.params[cond.group(1)])
            late = {"all": [{"test": {"arg": cond.group(1), "default": default}, "in": [value]}, late]}
        out.append({"when": late, "said": f"the {said.group('noun')}'s {said.group('words')} has passed"})
    return out


__all__ = ["deadline_refusals"]
