"""The user instruction and intent, and the check that the task can be done from them.

The intent is written from the clauses by a template (exact, for judges and reports). The
instruction is the LLM's free text from a template listing the clauses and the values; the check
(`check_instruction`) then requires every needed value and word group, no tool names and no
answer to a read-only question. A failing text is sent back once with its problems; after that
the template writes the instruction. `check_obtainable` is the independent check over the gold
actions: every argument value is stated in the instruction or can be read from an earlier
result (directly, or through a reasoning step whose criterion the instruction states).
"""

from __future__ import annotations

import re
from typing import Any

from synth.llm.prompts import render
from synth.tasks.args import find_path
from synth.tasks.dag import ArgSource
from synth.tasks.describe import ORDER_WORDS, Need, leaves
from synth.tasks.envmodel import EnvModel, display_name
from synth.tasks.facts import Fact
from synth.tasks.instantiate import Instance
from synth.tasks.values import field_words
from synth.verify import fact_in_text, normalize_text

MAX_CHARS = 900


def mentioned(value: Any, text: str) -> bool:
    """True when a value is stated in the (raw) text: text case-insensitively, numbers as numbers."""
    return fact_in_text(str(value), normalize_text(text))


def any_word(words: list[str], text: str) -> bool:
    low = normalize_text(text)
    return any(re.search(r"(?<![0-9a-z])" + re.escape(w.lower()) + r"s?(?![0-9a-z])", low) for w in words)


def check_instruction(
    text: str, needs: list[Need], facts: list[Fact], tool_names: list[str], draft: str | None = None
) -> list[str]:
    """Problems of an instruction (empty when it is usable). With the template `draft`, a free text
    must also mention the draft's values in its order and number (see `_order_and_foreign_values`;
    there a number never matches inside a longer one, so '3' is not found in 'OpenAPI 3.0')."""
    problems = []
    if not text or not text.strip():
        return ["empty"]
    if len(text) > MAX_CHARS:
        problems.append(f"longer than {MAX_CHARS} characters")
    for need in needs:
        for v in need.values:
            if not mentioned(v, text):
                problems.append(f"missing the value '{v}'")
        for group in need.words:
            if group and not any_word(group, text):
                problems.append(f"missing a word for: {group[0]}")
    low = text.lower()
    for name in tool_names:
        if len(name) > 3 and (name.lower() in low and ("_" in name or re.search(r"[a-z][A-Z]", name))):
            problems.append(f"names the tool {name}")
    for f in facts:
        if len(f.value) >= 3 and mentioned(f.value, text):
            problems.append(f"gives away the answer '{f.value}'")
    problems += _order_and_foreign_values(text, needs, draft)
    return sorted(set(problems), key=problems.index)


_QUOTED = re.compile(r"'([^']{2,})'|\"([^\"]{2,})\"")


def value_sequence(text: str, values: list[str]) -> list[str]:
    """The needed values in the order (and number of times) the text mentions them; longer values
    win where mentions overlap ('Call mom' over 'mom')."""
    low = normalize_text(text)
    spans: list[tuple[int, int, str]] = []
    for v in sorted({normalize_text(x) for x in values if str(x).strip()}, key=lambda x: (-len(x), x)):
        left = r"(?<![0-9a-z])(?<!\d\.)" if v[0].isalnum() else ""
        right = r"(?![0-9a-z])(?!\.\d)" if v[-1].isalnum() else ""
        for m in re.finditer(left + re.escape(v) + right, low):
            if not any(a < m.end() and m.start() < b for a, b, _ in spans):
                spans.append((m.start(), m.end(), v))
    return [v for _a, _b, v in sorted(spans)]


def _order_and_foreign_values(text: str, needs: list[Need], draft: str | None = None) -> list[str]:
    """A free text must mention the needed values in the draft's order, as often as the draft does,
    and quote no value the request lacks (a weak model jumbles clauses and invents names, and the
    values alone would still be there)."""
    out = []
    known = {normalize_text(v) for n in needs for v in n.values}
    for m in _QUOTED.finditer(text):
        q = normalize_text(m.group(1) or m.group(2)).strip(" .,:;")
        if q and q not in known and not any(q in k for k in known):
            out.append(f"adds the value '{q}' that is not in the request")
    if draft is not None and normalize_text(text) != normalize_text(draft):
        values = [v for n in needs for v in n.values]
        if value_sequence(text, values) != value_sequence(draft, values):
            out.append("does not mention the values in the order and number of the request")
    return out


def intent_text(needs: list[Need]) -> str:
    """The explicit goal: the clauses, numbered."""
    return " ".join(f"({i + 1}) {n.text}." for i, n in enumerate(needs))


def template_instruction(needs: list[Need], domain: str, persona: int = 0) -> str:
    """The instruction written by template (`tasks_request.j2`: a persona's opener, then the clauses),
    used when the model's text fails the check. `domain` is the service's display name."""
    clauses = [n.text for n in needs if n.kind != "identity"]
    identity = [n.text for n in needs if n.kind == "identity" and n.text]
    text = render("tasks_request.j2", service=domain, persona=persona, identity=identity, clauses=clauses)
    return re.sub(r"\s+", " ", text).strip()


def _clean_llm_text(text: str) -> str:
    t = (text or "").strip().strip('"').strip()
    t = (
        re.sub(r"^(rewritten message|message|request|user|instruction)\s*:\s*", "", t, flags=re.I)
        .strip()
        .strip('"')
        .strip()
    )
    return re.sub(r"\s+", " ", t)


def write_instruction(
    needs: list[Need], facts: list[Fact], model: EnvModel, client: Any | None, retries: int = 1, persona: int = 0
) -> tuple[str, str, list[str]]:
    """(instruction, source, problems seen): source is "llm", "llm_retry" or "template"."""
    tools = list(model.tools)
    domain = display_name(model)
    seen: list[str] = []
    draft = template_instruction(needs, domain, persona)
    if client is not None:
        values = sorted({v for n in needs for v in n.values})
        prompt = render("tasks_instruction.j2", domain=domain, draft=draft, values=values)
        messages = [{"role": "user", "content": prompt}]
        for attempt in range(1 + retries):
            text = _clean_llm_text(client.chat(messages, max_tokens=160, tag="tasks.instruction").text)
            problems = check_instruction(text, needs, facts, tools, draft=draft) + _rewrite_problems(
                text, prompt, draft, domain
            )
            if not problems:
                if normalize_text(text) == normalize_text(draft):
                    return draft, "template", seen + ["the model copied the draft"]
                return text, "llm" if attempt == 0 else "llm_retry", seen
            seen += [f"try {attempt + 1}: {p}" for p in problems[:4]]
            messages = messages + [
                {"role": "assistant", "content": text},
                {"role": "user", "content": render("tasks_instruction_retry.j2", problems=problems[:6])},
            ]
    problems = check_instruction(draft, needs, facts, tools)
    seen += [f"template: {p}" for p in problems]
    return draft, "template", seen


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _rewrite_problems(text: str, prompt: str, draft: str, domain: str) -> list[str]:
    """A rewording that repeats the words we asked the model with (four in a row that the draft does not have),
    or drops or changes the service's name the draft gives."""
    own = {tuple(w[i : i + 4]) for w in [_words(draft)] for i in range(len(w) - 3)}
    asked = _words(prompt.replace(draft, " "))
    grams = {tuple(asked[i : i + 4]) for i in range(len(asked) - 3)} - own
    said = _words(text)
    out = []
    if any(tuple(said[i : i + 4]) in grams for i in range(len(said) - 3)):
        out.append("repeats the request made to the model")
    if domain.lower() in draft.lower() and domain.lower() not in text.lower():
        out.append(f"drops the service's name {domain!r}")
    return out


def _criterion_stated(r: Any, text: str) -> bool:
    d = r.detail
    if r.op == "pick":
        return mentioned(d.get("equals"), text) or d.get("equals") is None
    if r.op == "compare":
        return any_word(list(ORDER_WORDS[d["order"]]), text) and any_word(
            [w for w in field_words(d["field"]) if len(w) > 2] or [d["field"]], text
        )
    if r.op == "compute":
        return mentioned(abs(d["delta"]), text)
    if r.op == "identify":
        return all(mentioned(v, text) for v in d.get("equals") or [])
    return False


def check_obtainable(inst: Instance, instruction: str) -> list[str]:
    """Problems: argument values of the gold actions neither stated nor obtainable from earlier results."""
    problems: list[str] = []
    calls = inst.dag.calls()
    for node, action in zip(calls, inst.gold_actions):
        for pname, value in action.arguments.items():
            src: ArgSource = node.args.get(pname) or ArgSource(source="user", value=value)
            bound_value = src.value if src.source != "user" else None
            for label, leaf in leaves(value, pname):
                where = f"{node.id} {node.tool}.{pname}"
                if src.source != "user" and str(leaf) == str(bound_value):
                    if src.source == "output":
                        producer_idx = [c.id for c in calls].index(src.node)
                        if find_path(inst.gold_outputs[producer_idx], leaf) is None:
                            problems.append(f"{where}: {leaf!r} is not in the output of {src.node}")
                        elif (src.binding or {}).get("candidates", 1) > 1 and not mentioned(leaf, instruction):
                            problems.append(f"{where}: {leaf!r} is one of several in {src.node} and not stated")
                        continue
                    r = inst.dag.node(src.node)
                    inp = inst.dag.node(r.inputs[0])
                    inp_idx = [c.id for c in calls].index(inp.id)
                    shown = r.detail.get("base") if r.op == "compute" else leaf
                    if find_path(inst.gold_outputs[inp_idx], shown) is None:
                        problems.append(f"{where}: {shown!r} is not in the output of {inp.id}")
                    if not _criterion_stated(r, instruction):
                        problems.append(f"{where}: the criterion of {r.id} ({r.op}) is not stated")
                    continue
                if isinstance(leaf, bool):
                    if not any_word([w for w in field_words(label) if len(w) > 2] or [label], instruction):
                        problems.append(f"{where}: the flag {label} is not mentioned")
                elif leaf is not None and not mentioned(leaf, instruction):
                    named = inst.described.get(str(leaf))
                    if named is None or not mentioned(
                        named, instruction
                    ):  # a record named by a unique attribute is found by a search
                        problems.append(f"{where}: {leaf!r} is not stated")
    return problems
