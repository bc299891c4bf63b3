"""What a status change gives back, as cancellation docs say it:
- "A paid order is refunded in full to the customer's wallet": while the record is in that state, the number of
  the record its noun names whose words the sentence ends with (`wallet_balance`) grows by the record's full amount
  (its `total`, or its one charged / paid amount);
- "the loyalty points it earned (whole dollars of the total) are taken back, never below 0": that number of a
  linked record drops by the amount the bracket names (whole units only when it says so), not below the bound, and
  in the state the refund of the same sentence needs;
- "Every ticket goes back to its tier (`sold` decreases)": for each entry of the record's list, the element of the
  linked record's list the entry names (entry_copies' `linked_element`) moves by one;
- "a `sold_out` event that has tickets again returns to `on_sale`": the linked record's field takes the new value
  only from the old one;
- "Dropping a waitlisted enrollment removes the student from the section's waitlist": the record's `student_id`
  leaves that list of the linked record (in that state only);
- an entry written with "<refund, 0 when it was not paid>" logs the refund's amount in its state and the number
  otherwise.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _known, _props
from synth.envsynth.docs_appends import docs_appends, is_number
from synth.envsynth.docs_linked import record_links
from synth.envsynth.entry_copies import entry_copies
from synth.envsynth.item_rules import ELEMENT_MOVED
from synth.envsynth.prose import unwrap
from synth.words import entry_words, singular

SENTENCES = re.compile(r"(?<=[.!?])\s+|\n")  # a claw-back after a ";" keeps the refund's state
BACK = r"(?:refunded|credited\s+back|paid\s+back|reimbursed)"
REFUNDED = re.compile(
    rf"\b(?:an?|the|each|every)\s+`?(?P<state>[\w-]+)`?\s+(?P<noun>\w+)\s+is\s+{BACK}\s+(?:in\s+full\s+)?"
    r"(?:to|into|onto)\s+the\s+(?P<holder>\w+)['\u2019]s\s+`?(?P<words>\w+(?:\s\w+)?)`?",
    re.I,
)
REFUNDED_PLAIN = re.compile(  # "the full amount is refunded to the guest's credit": in every state the call allows
    rf"\bthe\s+(?:full\s+|whole\s+)?(?:total|amount(?:\s+paid)?|price|charge)\s+(?:is|gets)\s+{BACK}\s+"
    r"(?:in\s+full\s+)?(?:to|into|onto)\s+the\s+(?P<holder>\w+)['\u2019]s\s+`?(?P<words>\w+(?:\s\w+)?)`?",
    re.I,
)
TAKEN_BACK = re.compile(
    r"\bthe\s+(?P<words>[a-z][\w ]{1,40}?)\s+(?:it|they|that\s+\w+)\s+(?:earned|collected|gained|received)\s*"
    r"(?:\((?P<how>[^()]*)\))?\s+(?:are|is)\s+(?:(?:taken|clawed|given|paid)\s+back|deducted|removed|reversed|"
    r"revoked|subtracted)(?P<rest>[^.;]*)",
    re.I,
)
WHOLE = re.compile(r"\bwhole\s+\w+\s+of\s+the\s+`?(\w+)`?", re.I)
OF_THE = re.compile(r"\bof\s+the\s+`?(\w+)`?", re.I)
FLOOR = re.compile(  # "never below 0", "a balance never goes below 0 points", "not below zero"
    r"\b(?:never|not|no)\s+(?:going\s+|goes\s+|go\s+|drops?\s+|falls?\s+)?(?:below|lower\s+than)\s+(-?\d+|zero)\b",
    re.I,
)
REOPENED = re.compile(
    r"\ban?\s+`(?P<old>[\w-]+)`\s+(?P<noun>\w+)\b[^.;]{0,80}?\b(?:returns|goes\s+back|is\s+back|becomes)\s+(?:to\s+)?"
    r"`(?P<new>[\w-]+)`",
    re.I,
)
REVERTED = re.compile(  # "the car goes back to `available` if it was `reserved`"
    r"\bthe\s+(?P<noun>\w+)\s+(?:goes\s+back\s+to|returns\s+to|becomes|is\s+set\s+back\s+to)\s+`(?P<new>[\w-]+)`\s+"
    r"(?:if|when|while)\s+it\s+(?:was|is)\s+(?:still\s+)?`(?P<old>[\w-]+)`",
    re.I,
)
EVERY = r"\b(?:every|each|all)\s+(?:of\s+the\s+)?(?:{})\b"
OTHERWISE = re.compile(
    r"<\s*(?P<name>\w+)\s*,\s*(?P<value>-?\d+(?:\.\d+)?)\s+(?:when|if)\s+(?:it|the\s+\w+)\s+(?:was|is|had\s+been)\s+"
    r"not\s+`?(?P<state>[\w-]+)`?\s*>",
    re.I,
)
FULL_WORDS = ("charged", "paid", "amount", "price")
PULLED = re.compile(  # "Dropping a waitlisted enrollment removes the student from the section's waitlist"
    r"(?:\b\w+ing\s+an?\s+`?(?P<state>[\w-]+)`?\s+\w+\s+)?\bremoves?\s+the\s+(?P<who>\w+)\s+from\s+the\s+"
    r"(?P<owner>\w+)['\u2019]s\s+`?(?P<list>\w+)`?",
    re.I,
)


def _full_amount(own: dict[str, Any]) -> str | None:
    """The record's whole amount: `total`, else its one number named charged, paid, amount or price."""
    if is_number(own.get("total")):
        return "total"
    named = [f for f, s in own.items() if is_number(s) and set(f.split("_")) & set(FULL_WORDS)]
    return named[0] if len(named) == 1 else None


def _state_of(value: str, own: dict[str, Any]) -> str | None:
    """The one field of the record that holds the state `value`."""
    holders = [f for f, s in own.items() if value in [str(v) for v in _known(s or {})]]
    return holders[0] if len(holders) == 1 else None


def number_named(words: str, theirs: dict[str, Any]) -> str | None:
    """The number field the words name: the longest run of them that is a field's name ("account balance" ->
    `account_balance`, "balance; ..." -> `balance`), else the one number field whose name holds the first word and
    every other ("wallet" -> `wallet_balance`)."""
    said = words.lower().split()
    for n in range(min(3, len(said)), 0, -1):
        for start in range(len(said) - n + 1):
            name = "_".join(said[start : start + n])
            if is_number(theirs.get(name)):
                return name
    wanted = {singular(w) for w in said[:1]}
    found = [f for f, s in theirs.items() if is_number(s) and wanted <= {singular(p) for p in f.split("_")}]
    return found[0] if len(found) == 1 else None


def _adjust(col: str, via: str, field: str, expr: dict[str, Any], when: dict[str, Any] | None) -> dict[str, Any]:
    effect = {
        "op": "adjust",
        "collection": col,
        "path": [{"from": "record", "path": [via]}, {"from": "const", "value": field}],
        "delta": {"from": "expr", "expr": expr},
    }
    return {**effect, "when": when} if when else effect


def _refunds(sentence: str, own: dict[str, Any], cols: dict[str, Any]) -> list[tuple[dict[str, Any], dict | None]]:
    """(adjust effect, its state guard) for "A <state> <noun> is refunded in full to the <holder>'s <number>" (and
    "the full amount is refunded to ...", in every state the call allows)."""
    out = []
    amount = _full_amount(own)
    for m in list(REFUNDED.finditer(sentence)) + list(REFUNDED_PLAIN.finditer(sentence)):
        said = m.groupdict().get("state")
        state = _state_of(said, own) if said else ""
        link = noun_link(m.group("holder"), own, cols)
        theirs = _props(cols, link[1]) if link else {}
        field = number_named(m.group("words"), theirs) if link else None
        if state is not None and link and field and amount:
            when = {"field": state, "in": [said]} if state else None
            out.append((_adjust(link[1], link[0], field, {"plus": [{"path": [amount]}]}, when), when))
    return out


def _taken_back(sentence: str, own: dict[str, Any], cols: dict[str, Any], when: dict | None) -> list[dict[str, Any]]:
    """Adjust effects for "the <number> it earned (<whole units> of the <amount>) are taken back, never below N"."""
    out = []
    for m in TAKEN_BACK.finditer(sentence):
        how = m.group("how") or ""
        whole = WHOLE.search(how)
        amount = whole.group(1) if whole else (OF_THE.search(how).group(1) if OF_THE.search(how) else None)
        if amount not in own or not is_number(own.get(amount)):
            continue
        for via, col in sorted(record_links(own, cols, "").items()):
            field = number_named(m.group("words"), _props(cols, col))
            if field is None:
                continue
            expr: dict[str, Any] = {"plus": [{"path": [amount]}], "times": -1}
            expr.update({"floor": True} if whole else {})
            effect = _adjust(col, via, field, expr, when)
            bound = FLOOR.search(m.group("rest") or "")
            least = (0.0 if bound.group(1).lower() == "zero" else float(bound.group(1))) if bound else None
            out.append({**effect, "at_least": least} if bound else effect)
            break
    return out


def _element_returns(
    sentence: str, collection: str, own: dict[str, Any], sample: dict[str, Any]
) -> list[dict[str, Any]]:
    """`each_element_adjust` effects for "Every <entry> goes back to its <element> (`<count>` decreases)"."""
    out = []
    for field, schema in sorted(own.items()):
        items = ((schema or {}).get("items") or {}) if (schema or {}).get("type") == "array" else {}
        props = (items.get("properties") or {}) if isinstance(items, dict) else {}
        spoken = "|".join(re.escape(w) for w in {entry_words(field), field, singular(field)} if w)
        if not props or not re.search(EVERY.format(spoken), sentence, re.I):
            continue
        given = sorted(f for f, s in props.items() if isinstance(s, dict) and s.get("type") == "string")
        links = [
            e
            for e in entry_copies(sample, collection, field, given, sorted(props))
            if e.get("from") == "linked_element"
        ]
        for m in ELEMENT_MOVED.finditer(sentence):
            owner = singular((m.group("owner") or m.group("owner2")).lower())
            count, verb = m.group("field") or m.group("field2"), (m.group("verb") or m.group("verb2")).lower()
            sign = -1 if verb.split()[0] in ("decreases", "drops", "falls") or verb.endswith("down") else 1
            for link in links:
                if singular(link["by"].lower()) == owner and not any(e["field"] == count for e in out):
                    keys = ("via", "collection", "list", "by")
                    out.append(
                        {
                            "op": "each_element_adjust",
                            "entries": field,
                            **{k: link[k] for k in keys},
                            "field": count,
                            "sign": sign,
                        }
                    )
    return out


def _reopened(sentence: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`ref_set` effects, only from the old value, for "a `<old>` <noun> that ... returns to `<new>`"."""
    out = []
    for m in list(REOPENED.finditer(sentence)) + list(REVERTED.finditer(sentence)):
        link = noun_link(m.group("noun"), own, cols) or _link_by_values(own, cols, m.group("old"), m.group("new"))
        theirs = _props(cols, link[1]) if link else {}
        fields = [f for f, s in theirs.items() if {m.group("old"), m.group("new")} <= {str(v) for v in _known(s or {})}]
        if link and len(fields) == 1:
            out.append(
                {
                    "op": "ref_set",
                    "collection": link[1],
                    "via": link[0],
                    "field": fields[0],
                    "value": m.group("new"),
                    "only_from": [m.group("old")],
                    **({"again": True} if re.search(r"\bagain\b", m.group(0), re.I) else {}),
                }
            )
    return out


def _given_back_first(out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A record that "has seats again" reopens only when the call gave some back: the `ref_set` then holds
    `if_entries`, the list of the record whose entries move the reopened record's numbers (none: no reopening)."""
    done = []
    for e in out:
        if e.get("op") == "ref_set" and e.pop("again", False):
            moves = [
                m["entries"]
                for m in out
                if m.get("op") == "each_element_adjust" and (m["collection"], m["via"]) == (e["collection"], e["via"])
            ]
            e = {**e, "if_entries": moves[0]} if len(moves) == 1 else e
        done.append(e)
    return done


def _pulled(sentence: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`ref_pull` effects for "(Dropping a <state> <noun>) removes the <who> from the <owner>'s <list>": the
    record's `<who>_id` leaves that list of the record its link names (only in that state, when one is said)."""
    out = []
    for m in PULLED.finditer(sentence):
        link, who = noun_link(m.group("owner"), own, cols), f"{m.group('who').lower()}_id"
        held = (_props(cols, link[1]).get(m.group("list")) or {}) if link else {}
        if not link or who not in own or held.get("type") != "array":
            continue
        effect = {"op": "ref_pull", "collection": link[1], "via": link[0], "list": m.group("list"), "field": who}
        state = _state_of(m.group("state"), own) if m.group("state") else None
        out.append({**effect, "when": {"field": state, "in": [m.group("state")]}} if state else effect)
    return out


def _link_by_values(own: dict[str, Any], cols: dict[str, Any], old: str, new: str) -> tuple[str, str] | None:
    """The one link whose record has a field knowing both values (the docs' "car" for a link to `vehicles`)."""
    found = [
        (via, col)
        for via, col in sorted(record_links(own, cols, "").items())
        if any({old, new} <= {str(v) for v in _known(s or {})} for s in _props(cols, col).values())
    ]
    return found[0] if len(found) == 1 else None


def _logged_refund(
    text: str, own: dict[str, Any], params: dict[str, Any], amount: str, today: str | None
) -> list[dict]:
    """The entry written with "<refund, 0 when it was not paid>": the full amount in that state, else the number."""
    named = {}

    def plain(m: re.Match[str]) -> str:
        state = _state_of(m.group("state"), own)
        if state is None:
            return m.group(0)
        value = float(m.group("value")) if "." in m.group("value") else int(m.group("value"))
        named[m.group("name")] = {
            "from": "switch",
            "when": {"field": state, "in": [m.group("state")]},
            "then": {"from": "record", "path": [amount]},
            "else": {"from": "const", "value": value},
        }
        return f"<{m.group('name')}>"

    marked = OTHERWISE.sub(plain, text)
    return docs_appends(marked, own, params, named=named, today=today) if named else []


def cancel_returns(
    text: str,
    collection: str,
    state_schema: dict[str, Any],
    sample: dict[str, Any] | None,
    params: dict[str, Any],
    effects: list[dict[str, Any]],
    today: str | None = None,
) -> list[dict[str, Any]]:
    """The effects a status change's docs give back (refunds, points taken back, entries returned, linked records
    reopened, the refund logged), none already among `effects`."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    text = unwrap(text)
    out: list[dict[str, Any]] = []
    for sentence in SENTENCES.split(text):
        refunds = _refunds(sentence, own, cols)
        out += [effect for effect, _ in refunds]
        out += _taken_back(sentence, own, cols, refunds[0][1] if refunds else None)
        out += _element_returns(sentence, collection, own, sample or {})
        out += _reopened(sentence, own, cols)
        out += _pulled(sentence, own, cols)
    out = _given_back_first(out)
    amount = _full_amount(own)
    if out and amount:
        logged = _logged_refund(text, own, params, amount, today)
        out += [e for e in logged if not any(d.get("op") == "append" and d.get("field") == e["field"] for d in effects)]
    return [e for e in out if not any(_same_target(e, d) for d in effects)]


def _same_target(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("op", "collection", "path", "field", "entries")
    return all(a.get(k) == b.get(k) for k in keys)


__all__ = ["cancel_returns", "number_named"]
