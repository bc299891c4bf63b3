"""The words of a request: clause parts (`Need`), how values are shown, and the phrases of one-owner
tasks (who the user is, which of their records, the goal of a write, ids described by what the user sees).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from synth.tasks.dag import DagNode
from synth.tasks.envmodel import ToolInfo
from synth.tasks.idlists import describe_id, is_id_param
from synth.tasks.typed_values import singular_name
from synth.tasks.values import field_words
from synth.words import plural

BODY_NAMES = {"body", "data", "payload", "record", "item", "fields", "attributes"}
ORDER_WORDS = {
    "max": ("highest", "largest", "biggest", "most", "maximum", "greatest", "top", "max"),
    "min": ("lowest", "smallest", "least", "minimum", "fewest", "min"),
}


@dataclass
class Need:
    """One clause of the request: its text, the values it must quote, word groups it must use."""

    text: str
    values: list[str] = field(default_factory=list)
    words: list[list[str]] = field(default_factory=list)  # at least one word of each group
    kind: str = "do"  # "do": a request clause; "identity": who the user is (said before the requests)

    def merge(self, other: "Need") -> None:
        self.values += [v for v in other.values if v not in self.values]
        self.words += other.words


def words_of(name: str) -> str:
    return " ".join(field_words(name))


def show(value: Any) -> str:
    """A value as the user writes it: text quoted, numbers plain, booleans yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return f"'{value}'"
    return str(value)


def leaves(value: Any, label: str) -> list[tuple[str, Any]]:
    """(label, scalar) pairs of a (nested) argument value."""
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            out += leaves(v, k)
        return out
    if isinstance(value, list):
        out = []
        for v in value:
            out += leaves(v, label)
        return out
    return [(label, value)]


def value_need(label: str, value: Any) -> Need:
    """The clause part for one stated value, and what the instruction must contain for it."""
    if isinstance(value, bool):
        return Need(
            text=f"{words_of(label)} {'yes' if value else 'no'}",
            words=[[w for w in field_words(label) if len(w) > 2] or [label]],
        )
    if value is None:
        return Need(text="")
    return Need(text=f"{words_of(label)} {show(value)}", values=[str(value)])


def identify_need(r: DagNode, resource: str) -> Need:
    """'my ticket that includes 'Desk Lamp'': an owned record by what the user knows of it."""
    parts = []
    for kind, label, value in r.detail.get("criteria") or []:
        parts.append(
            f"that includes {show(value)}" if kind == "includes" else f"whose {words_of(label)} is {show(value)}"
        )
    return Need(text=f"my {resource} " + " and ".join(parts), values=[str(v) for v in r.detail.get("equals") or []])


def identity_need(node: DagNode) -> Need:
    """'my email is ...': who the user is, from the stated arguments of the finder."""
    parts = [(p, s.value) for p, s in node.args.items() if s.source == "user" and s.value is not None]
    text = " and ".join(f"my {words_of(p)} is {show(v)}" for p, v in parts)
    return Need(text=text, values=[str(v) for _p, v in parts], kind="identity")


def described_ids(p: str, value: Any, inst: Any) -> Need | None:
    """'part 'Desk Lamp with color red'': id values of a write described by what the user sees
    (recorded in `inst.described`); None unless every value can be described."""
    if inst is None or not is_id_param(p):
        return None
    vals = value if isinstance(value, list) else [value]
    descs = [describe_id(inst.initial_state, v, singular_name(p)) for v in vals]
    if not vals or any(d is None for d in descs) or len(set(descs)) < len(descs):
        return None
    for v, d in zip(vals, descs):
        inst.described[str(v)] = d
    label = " ".join(field_words(p)[:-1])
    return Need(text=" and ".join(f"{label} {show(d)}" for d in descs), values=list(descs))


MEANS_WORDS = {"with", "by", "using", "via", "from", "for", "in", "on", "to", "of", "and", "as"}


def goal_words(tool: ToolInfo, resource: str, said: set[str]) -> tuple[str, str]:
    """(verb, object) of a write from its tool name, without the resource's own words and the target
    record's own text values (a state the name requires): 'close_open_ticket' -> ('close', ''),
    'change_ticket_owner' -> ('change', 'owner'); a name of one word -> ('update', '')."""
    words = field_words(tool.name)
    if len(words) < 2:
        return "update", ""
    drop = set(resource.split()) | {plural(w) for w in resource.split()} | said
    rest = [w for w in words[1:] if w not in drop]
    cut = next((i for i, w in enumerate(rest) if w in MEANS_WORDS), len(rest))
    rest = rest[:cut]  # 'update_pet_with_form': how, not what
    if not words or words[0] in ("set", "put", "patch"):
        return "update", " ".join(rest)
    return words[0], " ".join(rest)


def list_edit(arguments: dict[str, Any], target: Need | None, resource: str, add: bool = True) -> str:
    """One list edit as the change the user wants: the values, the list they go to (or leave) and whose it is
    (the described record, else the one the edit's own name field names); '' when the call is not that shape."""
    items = [v for v in arguments.values() if isinstance(v, (list, dict))]
    item = items[0][0] if len(items) == 1 and isinstance(items[0], list) and len(items[0]) == 1 else None
    item = items[0] if len(items) == 1 and isinstance(items[0], dict) else item
    if not isinstance(item, dict):
        return ""
    lists = [(k, v) for k, v in item.items() if isinstance(v, list) and v and all(isinstance(x, str) for x in v)]
    names = [(k, v) for k, v in item.items() if isinstance(v, str) and v]
    if len(lists) != 1 or len(lists) + len(names) != len(item) or len(names) > 1:
        return ""
    label, values = lists[0]
    whom = target.text if target else (f"the {resource} {show(names[0][1])}" if names else "")
    if not whom:
        return ""
    shown = " and ".join(show(x) for x in values)
    return (
        f"add {shown} to the {words_of(label)} of {whom}"
        if add
        else f"remove {shown} from the {words_of(label)} of {whom}"
    )


def plain_changes(
    node: DagNode, skip: set[str], stated: list[Need], bound_refs: list[Need], compute_parts: list[Need]
) -> list[tuple[str, Any]]:
    """(field, new value) of an update whose every stated value is one plain scalar the user gives, else []."""
    if bound_refs or compute_parts:
        return []

    def scalar(v: Any) -> bool:
        return isinstance(v, (str, int, float)) and not isinstance(v, bool) and v != ""

    out = []
    for p, s in node.args.items():
        if p in skip or s.source != "user":
            continue
        if p in BODY_NAMES and isinstance(s.value, dict) and len(stated) == len(s.value):  # a payload's fields
            out += list(s.value.items())
        else:
            out.append((p, s.value))
    plain = all(scalar(v) or (isinstance(v, list) and v and all(scalar(x) for x in v)) for _, v in out)
    return out if out and plain and len(out) == len(stated) else []


def change_text(changes: list[tuple[str, Any]], whom: str) -> str:
    """'the name of the pet you just added to 'Pepper' and its status to 'available''."""

    def shown(v: Any) -> str:
        return " and ".join(show(x) for x in v) if isinstance(v, list) else show(v)

    (p, v), rest = changes[0], changes[1:]
    parts = [f"the {words_of(p)} of {whom} to {shown(v)}"] + [f"its {words_of(q)} to {shown(w)}" for q, w in rest]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
