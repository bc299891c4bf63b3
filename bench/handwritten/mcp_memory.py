"""The MCP memory server's tools (mcp_memory_tools.json) written by hand on the synthesized state layout.

Layout: `entities` keyed by name ({name, entityType, observations}), `relations` keyed by
"from|relationType|to". Semantics follow the synthesized environment (e.g. delete_entities leaves
relations alone, search_nodes returns matching entities), so both sides do the same work.
"""

from __future__ import annotations

import random
from typing import Any

from bench.handwritten import HandError

ENV_ID = "mcp_memory"


def _relation_key(rel: dict[str, Any]) -> str:
    return f"{rel.get('from', '')}|{rel.get('relationType', '')}|{rel.get('to', '')}"


def create_entities(state: dict[str, Any], entities: list[dict[str, Any]]) -> list[dict[str, Any]]:
    known = state["entities"]
    created = []
    for entity in entities:
        if entity["name"] in known:
            continue
        record = {
            "name": entity["name"],
            "entityType": entity["entityType"],
            "observations": list(entity["observations"]),
        }
        known[record["name"]] = record
        created.append(record)
    return created


def create_relations(state: dict[str, Any], relations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    known = state["relations"]
    created = []
    for rel in relations:
        key = _relation_key(rel)
        if key in known:
            continue
        record = {"from": rel["from"], "relationType": rel["relationType"], "to": rel["to"]}
        known[key] = record
        created.append(record)
    return created


def add_observations(state: dict[str, Any], observations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    entities = state["entities"]
    results = []
    for item in observations:
        entity = entities.get(item["entityName"])
        if entity is None:
            raise HandError(f"Entity {item['entityName']} not found")
        have = entity.setdefault("observations", [])
        added = [text for text in item["contents"] if text not in have]
        have.extend(added)
        results.append({"entityName": item["entityName"], "added": added})
    return results


def delete_entities(state: dict[str, Any], entityNames: list[str]) -> dict[str, Any]:
    entities = state["entities"]
    deleted = [name for name in entityNames if entities.pop(name, None) is not None]
    return {"deleted": deleted}


def delete_observations(state: dict[str, Any], deletions: list[dict[str, Any]]) -> dict[str, Any]:
    removed = 0
    for item in deletions:
        entity = state["entities"].get(item["entityName"])
        if entity is None:
            continue
        have = entity.get("observations") or []
        kept = [text for text in have if text not in item["observations"]]
        removed += len(have) - len(kept)
        entity["observations"] = kept
    return {"removed": removed}


def delete_relations(state: dict[str, Any], relations: list[dict[str, Any]]) -> dict[str, Any]:
    known = state["relations"]
    deleted = []
    for rel in relations:
        key = _relation_key(rel)
        if known.pop(key, None) is not None:
            deleted.append(key)
    return {"deleted": deleted}


def read_graph(state: dict[str, Any]) -> dict[str, Any]:
    entities, relations = state["entities"], state["relations"]
    return {"entities": [entities[k] for k in sorted(entities)], "relations": [relations[k] for k in sorted(relations)]}


def search_nodes(state: dict[str, Any], query: str) -> list[dict[str, Any]]:
    needle = query.lower()
    entities = state["entities"]
    out = []
    for key in sorted(entities):
        entity = entities[key]
        if (
            needle in entity["name"].lower()
            or needle in entity["entityType"].lower()
            or any(needle in text.lower() for text in entity["observations"])
        ):
            out.append(entity)
    return out


def open_nodes(state: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    entities = state["entities"]
    return [entities[name] for name in names if name in entities]


TOOLS = {
    fn.__name__: fn
    for fn in (
        create_entities,
        create_relations,
        add_observations,
        delete_entities,
        delete_observations,
        delete_relations,
        read_graph,
        search_nodes,
        open_nodes,
    )
}
LIST_TOOLS = ("read_graph", "search_nodes")  # cost grows with the number of records


# state and workload ---------------------------------------------------------------------------------

TYPES = ("person", "company", "city", "project", "team")
FACTS = (
    "likes tea",
    "works remotely",
    "speaks French",
    "joined in 2021",
    "owns a bike",
    "plays chess",
    "based in Lyon",
    "reports weekly",
    "prefers email",
    "lead engineer",
)
RELATION_TYPES = ("works_at", "knows", "lives_in", "leads", "member_of")


def entity_name(i: int) -> str:
    return f"entity_{i:06d}"


def make_state(n: int, seed: int = 0) -> dict[str, Any]:
    """n entities with 3 observations each and n relations between the first half of them."""
    rng = random.Random(f"mcp:{n}:{seed}")
    entities = {}
    for i in range(n):
        name = entity_name(i)
        entities[name] = {"name": name, "entityType": rng.choice(TYPES), "observations": rng.sample(FACTS, 3)}
    relations = {}
    half = max(1, n // 2)
    for _ in range(n):
        rel = {
            "from": entity_name(rng.randrange(half)),
            "relationType": rng.choice(RELATION_TYPES),
            "to": entity_name(rng.randrange(half)),
        }
        relations[_relation_key(rel)] = rel
    return {"entities": entities, "relations": relations}


def make_calls(state: dict[str, Any], count: int, rng: random.Random, list_share: float = 0.05) -> list[dict[str, Any]]:
    """A valid mix: opens, searches, observations added/removed, entities and relations created/deleted.

    Deleted entities are ones created earlier in the same episode (no relations point at them), so the
    twin and the synthesized tools agree whatever each does with dangling relations.
    """
    names = sorted(state["entities"])
    relations = [dict(r) for r in state["relations"].values()]
    mine: list[str] = []
    fresh = 0
    calls: list[dict[str, Any]] = []
    for _ in range(count):
        r = rng.random()
        if r < list_share:
            calls.append({"name": "read_graph", "arguments": {}})
        elif r < 0.10:
            calls.append({"name": "search_nodes", "arguments": {"query": rng.choice(FACTS).split()[-1]}})
        elif r < 0.35:
            calls.append({"name": "open_nodes", "arguments": {"names": rng.sample(names, min(2, len(names)))}})
        elif r < 0.55:
            calls.append(
                {
                    "name": "add_observations",
                    "arguments": {
                        "observations": [{"entityName": rng.choice(names), "contents": [f"note {rng.randrange(1000)}"]}]
                    },
                }
            )
        elif r < 0.65:
            fresh += 1
            name = f"new_{fresh:04d}_{rng.randrange(10**4):04d}"
            calls.append(
                {
                    "name": "create_entities",
                    "arguments": {
                        "entities": [
                            {"name": name, "entityType": rng.choice(TYPES), "observations": [rng.choice(FACTS)]}
                        ]
                    },
                }
            )
            mine.append(name)
        elif r < 0.75:
            rel = {"from": rng.choice(names), "relationType": rng.choice(RELATION_TYPES), "to": rng.choice(names)}
            calls.append({"name": "create_relations", "arguments": {"relations": [rel]}})
            relations.append(rel)
        elif r < 0.83:
            calls.append(
                {
                    "name": "delete_observations",
                    "arguments": {
                        "deletions": [{"entityName": rng.choice(names), "observations": [rng.choice(FACTS)]}]
                    },
                }
            )
        elif r < 0.88 and relations:
            rel = relations.pop(rng.randrange(len(relations)))
            calls.append({"name": "delete_relations", "arguments": {"relations": [rel]}})
        elif r < 0.92 and mine:
            calls.append({"name": "delete_entities", "arguments": {"entityNames": [mine.pop()]}})
        else:
            calls.append(
                {
                    "name": "add_observations",
                    "arguments": {
                        "observations": [{"entityName": f"missing_{rng.randrange(10**6)}", "contents": ["x"]}]
                    },
                }
            )
    return calls


def write_call(state: dict[str, Any]) -> dict[str, Any]:
    """One observation added to the first entity (the 'first write' after a reset)."""
    return {
        "name": "add_observations",
        "arguments": {"observations": [{"entityName": min(state["entities"]), "contents": ["first write"]}]},
    }
