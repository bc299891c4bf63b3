"""Priors taken from the docs themselves: verbs, HTTP methods, hints, parameter names and types.

These are deterministic, cheap and right most of the time; LLM answers are checked against them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from synth.spec import ToolSpec
from synth.words import singular, split_words

KIND_VERBS: dict[str, tuple[str, ...]] = {
    "create": ("create", "add", "insert", "place", "register", "new", "post", "make", "file", "submit", "book", "log"),
    "get": ("get", "fetch", "retrieve", "read", "open", "show", "describe", "view", "load"),
    "list": ("list", "all", "enumerate", "browse"),
    "search": ("search", "find", "query", "filter", "lookup"),
    "update": ("update", "modify", "edit", "set", "change", "patch", "rename", "put", "upload"),
    "delete": ("delete", "remove", "destroy", "erase", "drop"),
    "count": ("count", "inventory", "stats", "summary", "summarize"),
    "action": ("login", "logout", "signin", "signout", "calculate", "think", "transfer"),
}
# verbs of a name that always change something (a state transition or a side effect), though no CRUD verb
WRITE_VERBS = (
    "cancel", "approve", "reject", "deny", "confirm", "complete", "assign", "unassign", "renew", "withdraw",
    "close", "reopen", "archive", "restore", "activate", "deactivate", "suspend", "reinstate", "issue", "pay",
    "refund", "charge", "enroll", "release", "reserve", "schedule", "redeem", "void", "dispatch", "resolve",
    "swap", "settle", "top", "manage", "request", "replace", "reschedule", "extend", "upgrade", "downgrade",
)  # fmt: skip
# "without mooring it", "without hiring or charging anything", "changes nothing", "nothing is booked"
CHANGES_NOTHING = re.compile(
    r"\bwithout\s+\w+ing(?:\s+or\s+\w+ing)?\s+(?:it|anything)\b|\b(?:changes|reserves|modifies|writes)\s+nothing\b"
    r"|\bnothing\s+is\s+(?:booked|changed|saved|stored|written|charged|reserved|modified)\b",
    re.IGNORECASE,
)
# verbs a read that "changes nothing" opens with; a write may also do something "without charging anything"
READING_VERBS = ("compute", "calculate", "estimate", "quote", "price", "preview", "simulate")
CHANGE_WORDS = re.compile(  # "is added to the balance" writes; "the fee is added" may be a sum's term
    r"\b(becomes?|is\s+set\s+to|goes\s+(?:up|down)|is\s+(?:added|deducted)\s+(?:to|from|back)|is\s+appended)\b", re.I
)


def _posted_read(spec: ToolSpec, words: list[str], verb_kind: str | None) -> bool:
    """A POST operation that reads: its name's verb gets, lists or searches (and the description does not say it
    writes), or it computes and its docs say it changes nothing."""
    if verb_kind in ("get", "list", "search") and not CHANGE_WORDS.search(spec.description):
        return True
    return bool(CHANGES_NOTHING.search(spec.description)) and _opens_with_reading(spec, words)


def computes_without_change(spec: ToolSpec) -> bool:
    """The docs open with a verb of computing (name or description) and say the call changes nothing."""
    return bool(CHANGES_NOTHING.search(spec.description)) and _opens_with_reading(spec, split_words(spec.name))


def _opens_with_reading(spec: ToolSpec, words: list[str]) -> bool:
    """The tool's name or its description opens with a verb of computing (compute, estimate, quote, price...)."""
    firsts = [seg.split()[0].lower() for seg in re.split(r"[.:;!?\n]", spec.description) if seg.split()]
    return any(w in READING_VERBS or (w.endswith("s") and w[:-1] in READING_VERBS) for w in words[:1] + firsts[:1])


READ_KINDS = {"get", "get_many", "list", "search", "filter", "dump", "count_by", "singleton_get"}


@dataclass
class ToolPriors:
    """What the docs alone say about a tool."""

    name: str
    words: list[str]
    verb_kind: str | None  # from the name's verb
    http_kind: str | None  # from the HTTP method and path
    mutates: bool | None
    resource: str | None  # singular noun, e.g. "pet"
    path_params: list[str] = field(default_factory=list)
    array_params: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    described_kind: str | None = None  # "create" when the description says the call makes a new record

    @property
    def kind_guess(self) -> str | None:
        """The best coarse kind: HTTP method wins for REST operations, then the verb.

        A POST to a path that names one record (`/pet/{petId}`) acts on that record: an update.
        """
        if self.http_kind == "create" and self.path_params:
            return "update"
        return self.http_kind or self.verb_kind or self.described_kind


NOUN_TOO = ("file", "book", "submit", "log")  # verbs that are also nouns: a verb only as the name's first word


def _verb_kind(words: list[str]) -> str | None:
    for i, w in enumerate(words[:2]):
        if i > 0 and w in NOUN_TOO:
            continue
        for kind, verbs in KIND_VERBS.items():
            if w in verbs:
                return kind
    return None


MOVED_TO = ("new", "target", "destination", "to")  # prefixes of an argument naming where a record goes
# "Returns the new hire", "... with its new id", "The new launch is ..."
NEW_RECORD = re.compile(
    r"\b(?:returns?|creates?)\s+(?:the|a)\s+new\b|\bwith\s+(?:its|a)\s+new\s+id\b|^the\s+new\s+\w+", re.I
)


def _described_kind(spec: ToolSpec) -> str | None:
    """create when the description opens with a creating verb and its object (`Registers a launch ...`,
    `Files the ...`) or says that the call returns a new record, and does not say it changes nothing; the
    name's verb, when it has one, is read first."""
    if CHANGES_NOTHING.search(spec.description):
        return None
    opening = re.match(r"\W*([A-Za-z]+)\s+(a|an|the|one)\b", spec.description)
    word = opening.group(1).lower() if opening else ""
    if {word, word[:-1] if word.endswith("s") else word} & (set(KIND_VERBS["create"]) - {"new", "post", "make"}):
        return "create"
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n", spec.description) if s.strip()]
    params = [split_words(p) for p in spec.parameters.get("properties") or {}]
    for sentence in sentences:
        m = NEW_RECORD.search(sentence)
        if m is None:
            continue
        noun = m.group(0).split()[-1]
        if noun.lower() == "new":  # "Returns the new berth": the word after "new"
            after = re.match(r"\s*(\w+)", sentence[m.end() :])
            noun = after.group(1) if after else ""
        if not _named_by_argument(noun, params):
            return "create"
    return None


def _named_by_argument(noun: str, params: list[list[str]]) -> bool:
    """ "The new berth must be free": the record a `new_berth_id` (`target_berth_id`) argument names, not one the
    call makes."""
    return any(len(w) >= 2 and w[0] in MOVED_TO and singular(w[1]) == singular(noun.lower()) for w in params)


def _http_kind(spec: ToolSpec, path_params: list[str]) -> str | None:
    if not spec.http:
        return None
    method = spec.http.get("method", "").lower()
    if method == "get":
        return "get" if path_params else ("search" if spec.parameters.get("properties") else "list")
    return {"post": "create", "put": "update", "patch": "update", "delete": "delete"}.get(method)


def _resource(spec: ToolSpec, words: list[str]) -> str | None:
    if spec.http:
        segs = [s for s in spec.http.get("path", "").split("/") if s and not s.startswith("{")]
        # skip action-ish segments such as findByStatus, login, createWithList
        nouns = [s for s in segs if not _verb_kind(split_words(s)) and s.lower() not in ("api", "v1", "v2", "v3")]
        if nouns:
            return singular(
                split_words(nouns[-1])[-1] if len(segs) > 1 and nouns[-1] == segs[-1] else split_words(nouns[0])[-1]
            )
    rest = [w for w in words if w not in ("by", "id", "with", "list", "input", "all", "for", "of", "name")]
    rest = [w for w in rest if not any(w in v for v in KIND_VERBS.values())]
    return singular(rest[0]) if rest else None


def tool_priors(spec: ToolSpec) -> ToolPriors:
    """Read the priors of one tool from its spec."""
    words = split_words(spec.name)
    props = spec.parameters.get("properties", {}) or {}
    path_params = []
    if spec.http:
        path_params = re.findall(r"\{([^}]+)\}", spec.http.get("path", ""))
    array_params = [k for k, v in props.items() if isinstance(v, dict) and v.get("type") == "array"]
    verb_kind = _verb_kind(words)
    if words[:1] == ["open"] and (CHANGE_WORDS.search(spec.description) or NEW_RECORD.search(spec.description)):
        verb_kind = "create"  # "open a ticket": its docs say what it changes (`open_nodes` reads)
    http_kind = _http_kind(spec, path_params)
    described = _described_kind(spec) if verb_kind is None and http_kind is None else None
    evidence = []
    if verb_kind:
        evidence.append(f"name verb suggests {verb_kind}")
    if http_kind:
        evidence.append(f"HTTP {spec.http['method'].upper()} {spec.http['path']} suggests {http_kind}")
    if described:
        evidence.append(f"description says it makes a new record: {described}")
    if spec.mutates is not None:
        evidence.append(f"doc says mutates={spec.mutates}")
    mutates = spec.mutates
    posted = bool(spec.http) and str((spec.http or {}).get("method", "")).lower() == "post"
    if mutates and posted and spec.mutates is not None and _posted_read(spec, words, verb_kind):
        mutates = False  # POST /customers/lookup named get_customer; POST /quote "without booking it"
        evidence.append("a POST whose name reads, or that computes and changes nothing")
    if mutates is None and (verb_kind or described):
        mutates = (verb_kind or described) in ("create", "update", "delete")
    reads = re.match(
        r"\W*(lists?|gets?|returns?|shows?|finds?|fetch(?:es)?|retrieves?|looks?|searches)\b", spec.description, re.I
    )
    topped = words[:1] != ["top"] or words[1:2] == ["up"]  # `top_up_purse` writes, `top_skippers` ranks
    if mutates is None and words and words[0] in WRITE_VERBS and not reads and topped:  # not `issue_comments`
        mutates = True
        evidence.append(f"name verb `{words[0]}` changes state")
    if (
        mutates is None
        and CHANGES_NOTHING.search(spec.description)
        and _opens_with_reading(spec, words)
        and not CHANGE_WORDS.search(spec.description)
    ):
        mutates = False
        evidence.append("doc says it changes nothing")
    return ToolPriors(
        name=spec.name,
        words=words,
        verb_kind=verb_kind,
        http_kind=http_kind,
        mutates=mutates,
        resource=_resource(spec, words),
        path_params=path_params,
        array_params=array_params,
        evidence=evidence,
        described_kind=described,
    )


# Plain English verbs beside KIND_VERBS that open tool descriptions ("Write content to ...", "Display ...").
EXTRA_VERBS = {"update": ("write", "append", "save"), "get": ("display", "return", "print")}


def description_verb(spec: ToolSpec) -> str | None:
    """create / delete / list / get / update / search from the name's words, then the first verb opening a sentence."""
    firsts = [seg.split()[0].lower() for seg in re.split(r"[.:;!?\n]", spec.description) if seg.split()]
    names = [w for i, w in enumerate(split_words(spec.name)) if i == 0 or w not in NOUN_TOO]
    for w in names + firsts:
        for kind in ("create", "delete", "list", "get", "update", "search"):
            if w in KIND_VERBS[kind] or w in EXTRA_VERBS.get(kind, ()):
                return kind
    return None


def object_properties(schema: dict[str, Any] | None) -> dict[str, Any]:
    """Properties of an object schema, or of the items of an array schema."""
    if not isinstance(schema, dict):
        return {}
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return object_properties(schema["items"])
    props = schema.get("properties")
    return dict(props) if isinstance(props, dict) else {}
