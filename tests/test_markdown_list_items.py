"""Markdown tool docs keep a paragraph's list items on lines of their own (synth/tooldocs/markdown.py `_joined`):
"- item" and "1. item" lines each start a line, an item's wrapped lines join it with a space, plain prose lines join
with a space, and a table's rows (kept as prose) stay a line each; through `synth.tooldocs.load_docs` a marina tool
doc's "refused if:" bullets come out one a line, so the refusal list reads each of them."""

from __future__ import annotations

from pathlib import Path

from synth.envsynth.refused_lists import refused_bullets
from synth.tooldocs import load_docs
from synth.tooldocs.markdown import ROW, _joined

DOC = """# Marina desk

Boats are moored at the piers of one harbour.

## open_charter

Opens a charter for a skipper at a pier and
returns the new charter.

The charter is refused if:
- the skipper's `dues_paid` is below the $300.00
  dues minimum;
- the pier is in `repair` or has no free place.

| status | meaning |
|---|---|
| `open` | takes boats |
| `repair` | closed for works |

Arguments:
- `skipper_id` (string, required): the skipper
- `pier_id` (string, required): the pier

Mutates: yes
"""


def test_prose_lines_join_and_items_keep_their_own_lines() -> None:
    assert _joined("Sails are kept\nin the loft.") == "Sails are kept in the loft."
    assert _joined("The crew may:\n- hoist the\nmain sail;\n- reef it.") == (
        "The crew may:\n- hoist the main sail;\n- reef it."
    )
    assert _joined("Docks:\n* north\n+ south\n1. east\n2) west") == "Docks:\n* north\n+ south\n1. east\n2) west"
    assert _joined("- one item") == "- one item"
    # a dash inside a line is no item; a word after a dash with no space is none either
    assert _joined("Boats -\nsloops and -ketches") == "Boats - sloops and -ketches"


def test_table_rows_keep_a_line_each() -> None:
    assert _joined(f"{ROW}slip | boat\n{ROW}S1 | Wren") == "slip | boat\nS1 | Wren"
    assert _joined(f"Slips:\n{ROW}S1 | Wren\nafter the table") == "Slips:\nS1 | Wren\nafter the table"


def test_a_loaded_tool_doc_keeps_its_bullets_one_a_line(tmp_path: Path) -> None:
    path = tmp_path / "marina.md"
    path.write_text(DOC)
    docs = load_docs([path])
    (tool,) = docs.tools
    assert tool.name == "open_charter"
    assert tool.description == (
        "Opens a charter for a skipper at a pier and returns the new charter.\n\n"
        "The charter is refused if:\n"
        "- the skipper's `dues_paid` is below the $300.00 dues minimum;\n"
        "- the pier is in `repair` or has no free place.\n\n"
        "status | meaning\n\n"
        "`open` | takes boats\n"
        "`repair` | closed for works"
    )
    assert refused_bullets(tool.description) == [
        "the skipper's `dues_paid` is below the $300.00 dues minimum",
        "the pier is in `repair` or has no free place",
    ]
    assert "Boats are moored at the piers of one harbour." in docs.policy
