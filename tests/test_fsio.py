"""synth/fsio.py: atomic writes and folder swaps keep the old content until the new one is complete."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from synth import fsio

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True, timeout=60
    )


def test_write_json_atomic_keeps_the_canonical_format_byte_for_byte(tmp_path):
    path = fsio.write_json_atomic(tmp_path / "a.json", {"b": [1, {"y": None, "x": "é"}], "a": 1.5})
    assert path.read_bytes() == b'{\n "a": 1.5,\n "b": [\n  1,\n  {\n   "x": "\xc3\xa9",\n   "y": null\n  }\n ]\n}\n'
    fsio.write_json_atomic(tmp_path / "b.json", {"k": 1}, indent=2)
    assert (tmp_path / "b.json").read_bytes() == b'{\n  "k": 1\n}\n'


def test_outputs_are_byte_identical_ordinary_files_and_leave_nothing_behind(tmp_path):
    data = {"z": list(range(5)), "a": {"c": "d", "b": "ä"}}
    fsio.write_json_atomic(tmp_path / "one.json", data)
    fsio.write_json_atomic(tmp_path / "two.json", dict(reversed(list(data.items()))))
    assert (tmp_path / "one.json").read_bytes() == (tmp_path / "two.json").read_bytes()
    fsio.write_text_atomic(tmp_path / "t.txt", "a\r\nb\n")
    assert (tmp_path / "t.txt").read_bytes() == b"a\r\nb\n"  # no newline translation
    fsio.write_lines_atomic(tmp_path / "rows.jsonl", ['{"a":1}', '{"b":2}'])
    assert (tmp_path / "rows.jsonl").read_bytes() == b'{"a":1}\n{"b":2}\n'
    assert (tmp_path / "one.json").stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.json", "rows.jsonl", "t.txt", "two.json"]


def test_a_killed_write_leaves_the_old_file(tmp_path):
    target = tmp_path / "state.json"
    target.write_text("old\n")
    # The child writes 8 MB and is killed by SIGKILL just before the rename.
    out = _run(f"""
        import os, signal
        from synth import fsio
        def die(src, dst):
            os.kill(os.getpid(), signal.SIGKILL)
        fsio.os.replace = die
        fsio.write_text_atomic({str(target)!r}, "new" * 3_000_000)
    """)
    assert out.returncode == -9, out.stderr
    assert target.read_text() == "old\n"
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "state.json"]
    assert leftovers and all(n.startswith(".state.json.") and n.endswith(".tmp") for n in leftovers)


def test_a_failed_write_keeps_the_old_file_and_removes_its_temp_file(tmp_path):
    target = tmp_path / "model.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with fsio.atomic_path(target) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("writer crashed")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["model.bin"]
    with fsio.atomic_path(target) as tmp:
        tmp.write_bytes(b"new")
    assert target.read_bytes() == b"new"


def _folder(path: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(path.iterdir())}


def test_staged_folder_replaces_the_folder_whole_or_not_at_all(tmp_path):
    dest = tmp_path / "env"
    with fsio.staged_folder(dest) as staged:
        (staged / "a.txt").write_text("1")
        (staged / "b.txt").write_text("2")
    assert _folder(dest) == {"a.txt": "1", "b.txt": "2"}
    assert dest.stat().st_mode & 0o777 == 0o755
    with pytest.raises(KeyboardInterrupt):
        with fsio.staged_folder(dest) as staged:
            (staged / "a.txt").write_text("half")
            raise KeyboardInterrupt
    assert _folder(dest) == {"a.txt": "1", "b.txt": "2"}
    with fsio.staged_folder(dest) as staged:
        (staged / "c.txt").write_text("3")
    assert _folder(dest) == {"c.txt": "3"}  # the old folder is replaced, not merged
    assert [p.name for p in tmp_path.iterdir()] == ["env"]


def test_swap_folder_keeps_the_old_folder_on_request_and_restores_it_when_the_rename_fails(tmp_path, monkeypatch):
    dest, staged = tmp_path / "out", tmp_path / "staged"
    dest.mkdir()
    (dest / "f").write_text("old")
    staged.mkdir()
    (staged / "f").write_text("new")
    old = fsio.swap_folder(staged, dest, keep_old=True)
    assert old is not None and _folder(old) == {"f": "old"} and _folder(dest) == {"f": "new"}
    assert fsio.swap_folder(_make(tmp_path / "s2", "x"), tmp_path / "fresh") is None  # nothing to keep

    real = os.replace
    calls = []

    def fail_second(src, dst):
        calls.append((src, dst))
        if len(calls) == 2:
            raise OSError("disk gone")
        real(src, dst)

    monkeypatch.setattr(fsio.os, "replace", fail_second)
    with pytest.raises(OSError):
        fsio.swap_folder(_make(tmp_path / "s3", "newer"), dest)
    monkeypatch.undo()
    assert _folder(dest) == {"f": "new"}


def _make(path: Path, text: str) -> Path:
    path.mkdir()
    (path / "f").write_text(text)
    return path


def test_fsio_imports_only_the_standard_library():
    out = _run("""
        import sys
        before = set(sys.modules)
        import synth.fsio
        extra = sorted(m for m in set(sys.modules) - before
                       if m.split(".")[0] not in sys.stdlib_module_names and m not in ("synth", "synth.fsio"))
        print(extra)
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
