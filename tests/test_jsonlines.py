"""synth/jsonlines.py: reading JSON-lines input."""

from __future__ import annotations

import pytest

from synth.errors import InputError
from synth.jsonlines import read_rows


def test_read_rows_skips_blank_lines_and_names_the_bad_line(tmp_path):
    """synth.jsonlines.read_rows: one parsed value per non-blank line; a bad line or file is an InputError."""
    good = tmp_path / "rows.jsonl"
    good.write_text('{"a": 1}\n\n[2]\n', encoding="utf-8")
    assert list(read_rows(good)) == [(1, {"a": 1}), (3, [2])]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\n{oops\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.jsonl: line 2: invalid JSON"):
        list(read_rows(bad))
    with pytest.raises(InputError, match=r"missing.jsonl: \(file\): cannot read"):
        list(read_rows(tmp_path / "missing.jsonl"))
