"""Numbers a call moves, read from the docs: "the sailor's `trips_logged` rises by one", "the purse drops by the
toll", "(`boats_checked` + 1)".

A sentence naming a number field (by its name, spaced or not, or by its last word when that names one number
field only) moves it when it says which way and by how much: "goes up / increases / rises by", "added to", "adds"
(+); "goes down / decreases / drops by", "subtracted / deducted from" (-); by 1 ("1", "one") or by a number
parameter the sentence names, or by a rate of one of the call's record's numbers ("earns 2 points per whole mile of
the miles": rounded down to whole units first). The field is the call's own record's, else that of a record the
call's record references (`member_id` -> members), else that of a record only an argument names (a list edit's
`part_id`) where the sentence says whose number it is ("the part's `stock` drops by the quantity"). A number
parameter carries its documented default for calls that leave it out. Each becomes an `adjust` effect
(recorded_update).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.clause_guards import _pieces
from synth.envsynth.docs_appends import number_fields as _numbers
from synth.envsynth.far_targets import far_targets
from synth.envsynth.figure_terms import param_default
from synth.envsynth.move_phrases import SPELT_DIFFERENCE, per_unit, spelt_difference
from synth.words import entry_words, plural, singular

UP = re.compile(
    r"\b(goes up|go up|increases?|is increased|rises?|grows?) by\b|\badded to\b|\badds?\b(?!-)"
    r"|\brefunds?\b|\brefunded\b|\b(?:earns?|accrues?|collects?)\b"
    r"|\b(?:goes|go|is\s+given|are\s+given)\s+back\s+to\b|\bcredited\s+to\b",
    re.IGNORECASE,
)
DOWN = re.compile(
    r"\b(goes down|go down|decreases?|is decreased|drops?|falls?) by\b|\b(subtracted|deducted|taken) from\b"
    r"|\bdeducts?\b",
    re.IGNORECASE,
)
DEFINED = re.compile(  # "The refund is the fee in full if ...": what the refund is, not a move
    r"(?i)\b(?:the|a|any|its)\s+refunds?\s+(?:is|are|equals?|amounts?\s+to|comes?\s+to)\b(?!\s+(?:added|credited|paid|made|given|sent|returned))"
)
ONE = re.compile(r"\b(by|adds?|subtracts?)\s+(1|one)\b", re.IGNORECASE)


INCLUDED = re.compile(r"\((?:including|incl\.|excluding|without|with|net\s+of)\b[^()]*$", re.IGNORECASE)
ERRORS_TAIL = re.compile(r"(?m)(?:^|(?<=[.;!?]\s))\s*Errors?\s*:.*$")  # the messages a refusal gives, to the line's end


def _inner_numbers(props: dict[str, Any]) -> list[str]:
    """`outer.inner` for the number fields of the record's object fields."""
    out = []
    for outer, sub in sorted(props.items()):
        inner = (sub.get("properties") or {}) if isinstance(sub, dict) else {}
        out += [f"{outer}.{f}" for f in _numbers(inner)]
    return out


def _path(field: str) -> list[dict[str, Any]]:
    """The const steps to a field, `outer.inner` in two."""
    return [{"from": "const", "value": part} for part in field.split(".")]


def _names(field: str, fields: list[str]) -> list[str]:
    """The ways the docs name a number field: `voyages_out`, `voyages out`, its last word when no other ends so, its
    two words the other way round ("remaining credit" for `credit_remaining` or `credit_remaining_eur`)."""
    if "." in field:  # `charges.vehicle_fees`, or "vehicle fees" when no other number is called so
        leaf = field.split(".")[-1]
        clash = any(f != field and f.split(".")[-1] == leaf for f in fields)
        return [field] + ([] if clash else [leaf, leaf.replace("_", " ")])
    names = [field, field.replace("_", " ")]
    words = field.split("_")
    if singular(words[-1]) != words[-1]:  # "one loyalty point" for `loyalty_points`
        names.append(entry_words(field))
    last = field.split("_")[-1]
    if last != field and sum(f.split("_")[-1] == last for f in fields) == 1:
        names.append(last)
    core = words[:-1] if len(words) == 3 and len(words[-1]) <= 3 else words  # `seats_left_n`: a unit at the end
    if len(core) == 2:  # `balance_remaining` is "the remaining balance" too
        names.append(f"{core[1]} {core[0]}")
    return names


def _mention(field: str, fields: list[str]) -> re.Pattern[str]:
    """The field by one of its names (_names)."""
    names = _names(field, fields)
    return re.compile(r"(?<![\w])`?(" + "|".join(re.escape(n) for n in names) + r")`?(?![\w])", re.IGNORECASE)


def _owned(before: str, ref: str, collection: str) -> bool:
    """The words before a number's mention end with its owner's possessive ("the part's `stock`")."""
    nouns = {ref[:-3].replace("_", " "), singular(collection).replace("_", " ")}
    owner = "|".join(re.escape(n) for n in sorted(nouns))
    return bool(re.search(rf"\b(?:{owner})['\u2019]s\s+`?$", before, re.IGNORECASE))


def _of_owner(sentence: str, targets: list[tuple[str, Any, str, list[str]]], collection: str) -> str:
    """ "the stored credit of the skipper" (also "of its skipper", "of the charter's skipper", "the skipper's stored
    credit") said as "the skipper's `credit_balance`": a linked record's number named by its first or last word (the
    only number of that record with that word there, four letters or more) and its holder."""
    for col, ref, field, fields in targets:
        words = field.split("_")
        if ref is None or len(words) < 2:
            continue
        owners = sorted({ref[:-3].replace("_", " "), singular(col).replace("_", " ")} - {singular(collection)})
        names = "|".join(re.escape(o) for o in owners)
        for word, rest in ((words[0], words[1:]), (words[-1], [])):
            if sum(word in f.split("_")[:1] + f.split("_")[-1:] for f in fields) != 1 or len(word) < 4:
                continue
            unfinished = rf"(?!\s+{re.escape(' '.join(rest))}\b)" if rest else ""  # "credit balance": the whole name
            after = re.compile(
                rf"\b(?:the|its|their)\s+(?:[a-z]+\s+)?{re.escape(word)}{unfinished}\s+of\s+(?:the|its|their)\s+"
                rf"(?:\w+['\u2019]s\s+)?(?P<holder>{names})\b(?!['\u2019]s)",
                re.IGNORECASE,
            )
            before = re.compile(
                rf"\b(?:the\s+)?(?P<holder>{names})['\u2019]s\s+(?:[a-z]+\s+)?{re.escape(word)}\b{unfinished}(?![`_'\u2019])",
                re.IGNORECASE,
            )
            for form in (after, before):
                sentence = form.sub(lambda m, f=field: f"the {m.group('holder')}'s `{f}`", sentence)
    return sentence


def _arg(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The operand of a number parameter, with its documented default for a call that leaves it out."""
    default = param_default(params[name]) if isinstance(params.get(name), dict) else None
    return {"arg": name} if default is None else {"arg": name, "default": default}


def _amount(
    sentence: str, params: dict[str, Any], own: dict[str, Any], moved: str, linked: list[tuple[str, str, str]] = ()
) -> dict[str, Any] | None:
    """The operand of the move: 1, a number parameter the sentence names, else a number field of the call's
    record it names ("pays back its whole fee"), else one of a record it names (`linked`: (collection, link field,
    number field) other than the one moved: "the berth's bond is added to the skipper's owed")."""
    if ONE.search(sentence):
        return {"const": 1}

    def named(names: list[str]) -> list[str]:  # "hull fee" or `hull_fee`
        return [
            n
            for n in names
            if re.search(rf"\b(?:{re.escape(n.replace('_', ' '))}|{re.escape(n)})\b", sentence, re.IGNORECASE)
        ]

    numeric = [p for p, s in params.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")]
    by = re.search(r"\bby\s+(?:the|its|their)\s+`?(\w+)`?", sentence, re.IGNORECASE)  # "grow by the fee"
    if by and by.group(1) in numeric:
        return _arg(by.group(1), params)
    if len(named(numeric)) == 1:
        return _arg(named(numeric)[0], params)
    fields = [f for f in _numbers(own) if f != moved]
    if len(named(fields)) == 1:
        return {"path": [named(fields)[0]]}
    ends = [
        f for f in fields if len(f.split("_")) > 1 and sum(g.split("_")[-1] == f.split("_")[-1] for g in fields) == 1
    ]
    by_last = [f for f in ends if re.search(rf"\bby\s+the\s+{re.escape(f.split('_')[-1])}\b", sentence, re.I)]
    if not named(fields) and len(by_last) == 1:  # "by the toll": the record's one number ending so
        return {"path": [by_last[0]]}
    theirs = [(c, via, f) for c, via, f in linked if named([f])]
    if not named(fields) and len(theirs) == 1:
        col, via, field = theirs[0]
        return {"linked": {"collection": col, "via": via, "field": field}}
    if len(numeric) == 1 and OPENS_ADDING.match(sentence):  # "Add credit to a purse": by the one amount given
        return _arg(numeric[0], params)
    return None


def _added_to(sentence: str, field: str, ref: str | None) -> re.Match[str] | None:
    """The call's own `credit_balance` named by its first word in a sentence that opens by adding ("Add credit to
    a skipper's purse")."""
    words = field.split("_")
    if ref is not None or len(words) != 2 or words[1] != "balance" or not OPENS_ADDING.match(sentence):
        return None
    after = r"(?=\s+(?:to|onto|into|on|for)\b)"  # "Add credit to ...", not "Add credit card details"
    return re.search(rf"(?<![\w]){re.escape(words[0])}{after}", sentence, re.I)


OPENS_ADDING = re.compile(r"\W*(?:adds?|credits?|tops?\s+up|loads?)\b(?!\s+(?:a|an|one|the)\b)", re.IGNORECASE)


EARLIER = re.compile(r"\b(previous|old|former|current|existing)\b", re.IGNORECASE)
NEGATED = re.compile(r"\b(not|never|no longer)\b", re.IGNORECASE)


def _about_another_action(sentence: str, name_words: list[str]) -> bool:
    """A sentence opening with a gerund of another verb than the tool's ("Cancelling refunds ...")."""
    first = re.match(r"\W*([A-Za-z]+ing)\b", sentence)
    if not first or not name_words:
        return False
    stem = first.group(1).lower()[:-3]
    return not any(stem.startswith(w[:4]) or w.startswith(stem[:4]) for w in name_words if len(w) >= 3)


PAREN = re.compile(  # "(crews -1)", "(`slots_taken` + 1)", "(`cranes_idle` drops)"
    r"\(\s*`?(?P<field>[A-Za-z_]\w*)`?\s*(?:(?P<sign>[+-])\s*(?P<n>\d+)|\s(?P<dir>increases|decreases|goes up|goes down"
    r"|rises|drops))(?:\s+by\s+(?:1|one))?\s*(?=[;),])",
    re.IGNORECASE,
)
OWNER = r"(?:the\s+)?(?:(?P<owner>\w+)['\u2019]s\s+)?`?(?P<field>\w+)`?"
TAKEN_FROM = re.compile(  # "subtracts its hours from hours_logged"
    r"\b(?:removes?|subtracts?|deducts?|takes?)\s+(?:its|the|their)\s+`?(?P<amount>\w+)`?\s+from\s+" + OWNER, re.I
)
ADDED_TO = re.compile(  # "adds its hours to the skipper's hours_logged", "the hours are added to ..."
    r"\b(?:adds?\s+(?:its|the|their)\s+`?(?P<amount>\w+)`?|(?:its|the|their)\s+`?(?P<amount2>\w+)`?\s+(?:is|are)\s+added)"
    r"\s+to\s+" + OWNER,
    re.I,
)
PRICED = re.compile(  # "an exit fee of 9.25, deducted from ...": the amount a sentence names as its own
    r"\b(?P<noun>fee|charge|penalty|fine|cost|price|deposit|surcharge)\s+of\s+(?:USD\s*|EUR\s*|[$\u20ac\u00a3])?"
    r"(?P<n>\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)

PAY_BACK = r"(?:refunds?|repays?|pays\s+back|gives\s+back)"
PAID_BACK = r"(?:is|are)\s+(?:refunded|repaid|paid\s+back|given\s+back)"
REFUNDED_OBJECT = re.compile(
    rf"\b{PAY_BACK}\s+(?:\d+(?:\.\d+)?\s*%\s+of\s+)?(?:the\s+|its\s+)?(?:whole\s+|full\s+)?(?:amount\s+)?`?$", re.I
)

Target = tuple[str, Any, str, list[str]]  # (collection, reference field or None, field, its fields)


def _pick(word: str, owner: str | None, targets: list[Target], collection: str) -> Target | None:
    """The one target a field word names, the possessive before it ("the skipper's") choosing among several."""
    hits = [t for t in targets if word.lower() in [n.lower() for n in _names(t[2], t[3])]]
    if owner and len(hits) > 1:
        noun = singular(owner.lower())
        hits = [t for t in hits if (t[1] or "")[:-3] == noun or (t[1] is None and singular(collection) == noun)]
    return hits[0] if len(hits) == 1 else None


def _explicit(sentence: str, targets: list[Target], collection: str) -> tuple[str, list[tuple[Target, dict]]]:
    """Moves the sentence spells out by notation or by "X from / to Y" (with the sentence left without them): a
    parenthesis after a change ("(crews -1)"), "subtracts its hours from hours_logged", "adds its hours to ...",
    "the hours are added to ..." (the amount is a number of the call's record)."""
    found: list[tuple[Target, dict[str, Any]]] = []
    own = [t for t in targets if t[1] is None]
    for m in list(PAREN.finditer(sentence)):
        target = _pick(m.group("field"), None, targets, collection)
        if target is None:
            continue
        up = m.group("sign") == "+" or (m.group("dir") or "").lower() in ("increases", "goes up", "rises")
        n = int(m.group("n") or 1)
        found.append((target, {"plus" if up else "minus": [{"const": n}]}))
        sentence = sentence.replace(m.group(0), " ")
    for m in list(SPELT_DIFFERENCE.finditer(sentence)):  # "the skipper's `owed` decreases by `fee - paid`"
        target = _pick(m.group("field"), m.group("owner"), targets, collection)
        delta = spelt_difference(m, {f: {"type": "number"} for c, r, f, _ in own})
        if target is not None and delta is not None:
            found.append((target, delta))
            sentence = sentence.replace(m.group(0), " ")
    for pattern, sign in ((TAKEN_FROM, "minus"), (ADDED_TO, "plus")):
        for m in list(pattern.finditer(sentence)):
            amount = m.group("amount") or (m.groupdict().get("amount2") or "")
            source = _pick(amount, None, own, collection)
            target = _pick(m.group("field"), m.group("owner"), targets, collection)
            if source is None or target is None or target == source:
                continue
            found.append((target, {sign: [{"path": source[2].split(".")}]}))  # `fees.total`: two steps
            sentence = sentence.replace(m.group(0), " ")
    return sentence, found


INTO = re.compile(r"\b(?:to|from|into)\s+(?:the\s+\w+['\u2019]s\s+|their\s+|its\s+|the\s+)?`?$", re.IGNORECASE)
SAME_SUBJECT = re.compile(r"\b(?:the\s+same|that)\s+(?:amount|sum)\s+(?:is|are|goes)\b", re.IGNORECASE)
SAME = re.compile(r"\bby\s+(?:(?:the\s+same|that|this)\s+amount|it)\b", re.IGNORECASE)
REFUND_OF = re.compile(  # "repays 30% of the berth fee", "the full hull fee is paid back"
    rf"\b{PAY_BACK}\s+(?:(?P<pct>\d+(?:\.\d+)?)\s*%\s+of\s+)?(?:the\s+|its\s+)?(?:whole\s+|full\s+)?(?:amount\s+)?"
    r"`?(?P<what>\w+(?:\s+\w+)?)"
    rf"|\b(?:the|its)\s+(?:whole\s+|full\s+)?`?(?P<passive>\w+(?:\s+\w+)?)`?\s+{PAID_BACK}",
    re.IGNORECASE,
)
CENT = re.compile(r"\b(?:rounded\s+)?to\s+(?:the\s+)?(?:cents?|2\s+decimals?|two\s+decimals?)\b", re.IGNORECASE)
IS_SET = re.compile(
    r"`?(?P<field>\w+)`?\s+is\s+(?:set|recorded|filled\s+in)\b"
    r"|\b(?:recorded|kept|stored|noted)\s+(?:in|as)\s+(?:its\s+|the\s+)?`?(?P<into>\w+)`?",
    re.IGNORECASE,
)


def _kept(text: str) -> list[str]:
    """The fields a clause says take a figure ("hull_refund is set", "recorded in hull_refund")."""
    return [m.group("field") or m.group("into") for m in IS_SET.finditer(text)]


def _refunded(sentence: str, own: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The number of the call's record a clause pays back and the share of it ("the full hull fee is paid back" ->
    (`hull_fee`, {}); "repays 40% of the hull fee (to 2 decimals)" -> times 0.4, 2 digits)."""
    m = REFUND_OF.search(sentence)
    if m is None:
        return None
    numbers = _numbers(own)
    words = (m.group("what") or m.group("passive")).lower().split()
    hits: list[str] = []
    for phrase in (" ".join(words), words[0]):  # "the hull fee" -> `hull_fee`; "the fee owed" -> `owed`
        hits = hits or [f for f in numbers if phrase in [n.lower() for n in _names(f, numbers)]]
    if len(hits) != 1:
        return None
    extras: dict[str, Any] = {}
    if m.group("pct"):
        extras["times"] = float(m.group("pct")) / 100
        if CENT.search(sentence):
            extras["digits"] = 2
    return hits[0], extras


def refund_records(text: str, collection: str, schema: dict[str, Any], states: dict[str, list[Any]]) -> list[dict]:
    """`set` effects for a record number a clause says records what the call pays back ("the full hull fee is paid
    back and recorded in hull_refund" -> hull_refund = hull_fee), guarded like the clause's moves."""
    cols = schema.get("properties") or {}
    own = ((cols.get(collection) or {}).get("additionalProperties") or {}).get("properties") or {}
    out: list[dict[str, Any]] = []
    for piece, guard in _pieces(text, states):
        refunded = _refunded(piece, own)
        kept = _kept(piece[REFUND_OF.search(piece).end() :]) if refunded else []
        field = kept[0] if kept else None
        if not refunded or refunded[1] or field not in _numbers(own) or field == refunded[0]:
            continue
        if any(e["field"] == field for e in out):
            continue
        effect = {"op": "set", "field": field, "source": {"from": "record", "path": [refunded[0]]}}
        if guard:
            effect["when"] = guard
        out.append(effect)
    return out


def docs_counters(
    text: str,
    collection: str,
    key_param: str,
    schema: dict[str, Any],
    params: dict[str, Any],
    name_words: list[str] | None = None,
    states: dict[str, list[Any]] | None = None,
) -> list[dict[str, Any]]:
    """`adjust` effects for the number fields the text says the call moves (not in negated sentences, nor in those
    about another action). `states`: the values of the record's fields the call is allowed from; a sentence that
    puts the record in one of several moves only from it (a `when` guard)."""
    cols = schema.get("properties") or {}
    own = ((cols.get(collection) or {}).get("additionalProperties") or {}).get("properties") or {}
    targets: list[Target] = []
    inner = _inner_numbers(own)  # `charges.vehicle_fees`: a number in an object field of the record
    for field in _numbers(own) + inner:
        targets.append((collection, None, field, _numbers(own) + inner))
    arg_only = [p for p in sorted(params) if p.endswith("_id") and p != key_param and p not in own]  # an entry's
    named_only: set[str] = set()
    for ref in sorted(f for f in own if f.endswith("_id") and f != key_param) + arg_only:
        other = plural(ref[:-3])
        linked = (own.get(ref) or {}).get("x-references") if isinstance(own.get(ref), dict) else None
        if other not in cols and linked in cols:  # `sender_id` naming an account: moved where "the sender's"
            other = linked
            named_only.add(ref)
        theirs = ((cols.get(other) or {}).get("additionalProperties") or {}).get("properties") or {}
        for field in _numbers(theirs) if other != collection else []:
            targets.append((other, ref, field, _numbers(theirs)))
    out: list[dict[str, Any]] = []
    hops = far_targets(cols, own, collection)

    def head(ref: str | None, sentence: str) -> list[dict[str, Any]]:
        if ref is None:
            return [{"from": "arg", "name": key_param}]
        if ref in params and not EARLIER.search(sentence):  # a link the call sets: the record it now names
            return [{"from": "arg", "name": ref}]
        return [{"from": "record", "path": [ref]}]  # the record the stored link names ("the previous owner's")

    def add(col: str, path: list[dict[str, Any]], delta: dict[str, Any], guard: dict | None, noun: str = "") -> None:
        if any(e["collection"] == col and e["path"] == path for e in out):
            return
        effect = {"op": "adjust", "collection": col, "path": path, "delta": {"from": "expr", "expr": delta}}
        if guard:
            effect["when"] = guard
        if noun:
            effect["noun"] = noun
        out.append(effect)

    last: tuple[dict[str, Any], dict[str, Any]] | None = None  # the amount last named, for "<number> rises by it"
    moved_last: tuple[dict[str, Any], dict[str, Any]] | None = None  # the amount of the last move
    # "Errors: '... can only be added to ... (quantity 8 exceeds the 7 night(s) ...)'": messages, not moves
    for sentence, guard in _pieces(ERRORS_TAIL.sub("", text), states or {}, params):
        said = re.sub(r"\([^()]*\)", " ", sentence)  # "(settled at the fitting, never on return)" negates nothing
        if NEGATED.search(said) or _about_another_action(sentence, name_words or []):
            continue
        if sentence.rstrip().endswith(":"):
            continue  # "Refund, by days to the launch, on the booking fee:": the heading of a table, no move
        sentence = _of_owner(sentence, targets, collection)
        refunded = _refunded(sentence, own)
        last = ({"path": [refunded[0]]}, refunded[1]) if refunded else last
        sentence, spelled = _explicit(sentence, targets, collection)
        for (col, ref, field, _), delta in spelled:
            add(col, head(ref, sentence) + _path(field), delta, guard)
        priced = PRICED.search(sentence)
        named = PRICED.sub(" ", sentence)  # "an exit fee of 9.25" names the amount, not a field called `fee`
        for col, ref, field, fields in targets:
            path = head(ref, sentence) + _path(field)
            mention = _mention(field, fields).search(named) or _added_to(sentence, field, ref)
            if mention and (
                REFUNDED_OBJECT.search(named[: mention.start()])
                or re.match(rf"`?\s+{PAID_BACK}", named[mention.end() :])
            ):
                continue  # "repays the full hull fee": what is paid back, not where it goes
            if field in _kept(sentence):
                continue  # "recorded in hull_refund": a value it takes (refund_records), not a move
            if mention and INCLUDED.search(named[: mention.start()]):
                continue  # "computed on the total (including vehicle fees)": a part of an amount, not a move
            if mention and re.search(r"\bby\s+(?:the|its|their)?\s*`?$", named[: mention.start()], re.I):
                continue  # "rises by the fee": the amount of a move, not what moves
            if not mention or any(e["collection"] == col and e["path"] == path for e in out):
                continue
            if (ref in arg_only or ref in named_only) and not _owned(named[: mention.start()], ref, col):
                continue  # a record only an argument names moves where the sentence says whose number it is
            up, down = UP.search(DEFINED.sub(" ", sentence)), DOWN.search(sentence)
            per, extras = per_unit(sentence, own, field)
            others = [
                (c, r, f) for c, r, f, _ in targets if r is not None and r not in params and (c, f) != (col, field)
            ]
            amount, noun = per or _amount(sentence, params, own, field, others), ""
            if last is not None and SAME.search(sentence):  # "... rises by it", "... drops by that amount"
                amount, extras = last
            elif amount is None and moved_last is not None and SAME_SUBJECT.search(sentence):
                amount, extras = moved_last  # "its fee is subtracted from total, the same amount is credited to ..."
            if amount and "linked" in amount and not INTO.search(named[: mention.start()]):
                continue  # another record's number moves what it is added to or taken from, not itself
            if amount is None and priced:  # "an exit fee of 9.25, deducted from the skipper's wallet"
                number = priced.group("n")
                amount, noun = {"const": float(number) if "." in number else int(number)}, priced.group("noun").lower()
            if bool(up) == bool(down) or amount is None:
                continue
            add(col, path, {"plus": [amount], **extras} if up else {"minus": [amount], **extras}, guard, noun)
            moved_last = (amount, extras)
        for col, source, field, fields, ref2 in hops:  # "the pier's `berths_free` count goes up by one"
            mention = _mention(field, fields).search(named)
            if not mention or not _owned(named[: mention.start()], ref2, col):
                continue
            up, down = UP.search(sentence), DOWN.search(sentence)
            amount = _amount(sentence, params, own, field)
            if bool(up) != bool(down) and amount is not None:
                add(col, [source] + _path(field), {"plus": [amount]} if up else {"minus": [amount]}, guard)
    return out


SHORT = re.compile(
    r"\b(insufficient|not enough|must cover|cannot cover|(?:does\s+not|doesn't)\s+cover|can(?:not|'t) afford|exceeds?"
    r"|(?:lower|less) than|is short)\b",
    re.I,
)


CEILING = re.compile(  # "the charge is refused if the balance would go above $200.00"
    r"\b(?:refused|rejected|declined|not\s+allowed|fails?)\s+(?:if|when)\s+(?:the\s+|its\s+)?"
    r"(?P<what>[a-z][\w ]{0,30}?)"
    r"\s+would\s+(?:go|rise|climb|end\s+up)\s+(?:above|over|past|beyond)\s+\$?(?P<n>\d+(?:\.\d+)?)",
    re.I,
)


def covered(counters: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """`enough` checks for the numbers the call takes from a balance, when the docs say a short balance refuses it
    ("insufficient fuel budget", "the budget must cover the fee"); and for the numbers it adds to one the docs cap
    ("refused if the balance would go above $200.00": `most`), under the move's argument guard if it has one."""
    out = []
    for e in counters:
        minus = e["delta"]["expr"].get("minus") or []
        plus = e["delta"]["expr"].get("plus") or []
        field = e["path"][-1]["value"]
        head = e["path"][:-1]
        check = {"op": "enough", "collection": e["collection"], "path": head, "field": field}
        guard = e.get("when") or {}
        if len(minus) == 1 and not plus and set(guard) <= {"arg", "default", "in"} and SHORT.search(text):
            out.append({**check, "amount": {"plus": minus}, **({"when": guard} if guard else {})})  # "With 'x' ..."
        cap = CEILING.search(text)
        last = cap.group("what").lower().split()[-1] if cap else ""
        if (
            cap
            and len(plus) == 1
            and not minus
            and last in field.lower().split("_")
            and set(guard) <= {"arg", "default", "in"}
        ):
            out.append(
                {**check, "amount": {"plus": plus}, "most": float(cap.group("n")), **({"when": guard} if guard else {})}
            )
    return out


__all__ = ["covered", "docs_counters", "refund_records"]
