"""Which collection a tool works on: the record its docs answer, the head noun of its name, its resource, a
compound of its name's words, the one collection a parameter names a record of, the collection holding the
documented answer's fields, else the LLM's pick."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from synth.envsynth.ask import ask_choice, ask_yes_no
from synth.envsynth.collections import GENERIC_RESOURCES, returned_record
from synth.envsynth.priors import ToolPriors
from synth.spec import ToolSpec
from synth.words import plural, singular

if TYPE_CHECKING:
    from synth.envsynth.plan import PlanContext


def _params(spec: ToolSpec) -> dict[str, Any]:
    return dict(spec.parameters.get("properties") or {})


PREPOSITIONS = ("by", "to", "for", "from", "in", "of", "with", "on", "at", "into", "per")


def _head_noun(words: list[str], ctx: PlanContext) -> str | None:
    """The collection the name's last collection noun before any preposition names, when there are two or more:
    the head of a compound (`list_sailor_voyages` -> voyages, not sailors)."""
    cut = next((i for i, w in enumerate(words) if i > 0 and w in PREPOSITIONS), len(words))
    found = [plural(singular(w)) for w in words[1:cut] if plural(singular(w)) in ctx.collections]
    return found[-1] if len(set(found)) >= 2 else None


def _keyed_collections(spec: ToolSpec, ctx: PlanContext) -> list[str]:
    """The collections a parameter names a record of (by the key field, `<resource>_id` or `<resource>Id`)."""
    props = _params(spec)
    return sorted(
        name
        for name, draft in ctx.collections.items()
        if any(p in props for p in (draft.key_field, f"{draft.resource}_id", f"{draft.resource}Id"))
    )


def pick_collection(spec: ToolSpec, pri: ToolPriors, ctx: PlanContext) -> tuple[str | None, dict[str, Any]]:
    """The resource's collection, or (for generic nouns like 'nodes') the LLM's pick among collections."""
    names = list(ctx.collections)
    if not names:
        return None, {}
    res = pri.resource or ""
    returned = returned_record(spec, _keyed_collections(spec, ctx))
    if returned is not None:  # "Returns the updated boat record", with a parameter naming one
        return returned, {"collection_source": f"the docs answer the updated {singular(returned)} record"}
    head = _head_noun(pri.words, ctx)
    if head is not None:
        return head, {}
    if plural(res) in ctx.collections:
        return plural(res), {}
    compounds = [  # `hoist_crane_slot` -> crane_slots: two or more of the name's words as one noun, longest first
        plural(singular("_".join(pri.words[i : i + size])))
        for size in range(len(pri.words), 1, -1)
        for i in range(len(pri.words) - size + 1)
    ]
    for name in compounds:
        if name in ctx.collections:
            return name, {}
    for word in pri.words:
        if plural(singular(word)) in ctx.collections:
            return plural(singular(word)), {}
    for word in pri.words[1:]:  # a collection named by a mass noun (`tackle`, `gear`), not a plural
        if word in ctx.collections:
            return word, {}
    keyed = _keyed_collections(spec, ctx)
    if len(keyed) == 1:  # the one collection a parameter names a record of (`pay_dues(sailor_id, amount)`)
        return keyed[0], {"collection_source": f"a parameter names a record of {keyed[0]}"}
    from synth.envsynth.search_rules import answer_collection

    answered = answer_collection(spec, ctx.collections)
    if answered is not None:  # `search_directory` answering "{pier_id, name, depth}": the collection holding those
        return answered, {"collection_source": f"the documented answer's fields are {answered}'s"}
    unrelated = res not in GENERIC_RESOURCES and bool(res)
    if unrelated:  # a noun the state does not know: does the tool belong to this API's data at all?
        if ctx.client is None:
            return None, {"collection_source": f"no collection for `{res}`"}
        guess = names[0]
        uses = ask_yes_no(
            ctx.client,
            "envsynth_uses_collection.j2",
            2,
            "plan.uses",
            name=spec.name,
            description=spec.description[:300],
            collection=guess,
        )
        if not uses.decision:
            return None, {"uses": uses.to_dict(), "collection_source": f"no collection for `{res}`"}
        return guess, {"uses": uses.to_dict(), "collection_source": "llm-yes"}
    if len(names) == 1:
        return names[0], {}
    vote = None
    if ctx.client is not None:
        vote = ask_choice(
            ctx.client,
            "envsynth_collection.j2",
            names,
            "plan.collection",
            name=spec.name,
            description=spec.description[:300],
        )
    if vote is not None and vote.decision:
        return vote.decision, {"collection": vote.to_dict(), "collection_source": "llm"}
    return names[0], {"collection": vote.to_dict() if vote else None, "collection_source": "default-first"}


def named_record_instead(
    spec: ToolSpec, ctx: PlanContext, col_name: str, votes: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """A write whose name's noun picked a collection no parameter names a record of, while one parameter names a
    record of exactly one other collection, changes that record (`pick_up_vehicle(rental_id)` works on the
    rental; the vehicle is reached through it)."""
    keyed = _keyed_collections(spec, ctx)
    if col_name not in ctx.collections or col_name in keyed:
        return col_name, votes
    if len(keyed) != 1:
        return col_name, votes
    return keyed[0], {**votes, "collection_source": f"a parameter names a record of {keyed[0]}, none of {col_name}"}


__all__ = ["named_record_instead", "pick_collection"]
