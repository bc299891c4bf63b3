"""Writes left out only for missing documented changes are kept when leaving them out would leave too few tools
to publish the environment (and listed as partial); any other gate reason, or enough tools without them, keeps them
out."""

from __future__ import annotations

from synth.envsynth.gate import only_partial
from synth.envsynth.publish import _kept_partial
from synth.envsynth.tool_stage import ToolBuild

PARTIAL = "publish gate: the docs say the call changes `total`; the plan leaves that as it is"


def _build(name: str, status: str, error: str = "") -> ToolBuild:
    return ToolBuild(name, name, status, "structured", "", None, [], last_error=error)


def test_only_changes_left_out_count_as_partial() -> None:
    assert only_partial(PARTIAL)
    assert not only_partial(PARTIAL + "; no call succeeds: the tool always fails")
    assert not only_partial("publish gate: no call succeeds: the tool always fails")
    assert not only_partial("case 2 invalid_state: ...")


def test_partial_writes_kept_only_to_publish_at_all() -> None:
    builds = [_build("a", "passed"), _build("b", "failed", PARTIAL), _build("c", "failed", "case 1 wrong_state")]
    builds += [_build("d", "failed", PARTIAL)]
    kept_builds, kept = _kept_partial(builds, 0.5, 2)
    assert kept == {"b": PARTIAL[len("publish gate: ") :], "d": PARTIAL[len("publish gate: ") :]}
    assert [b.status for b in kept_builds] == ["passed", "passed", "failed", "passed"]
    enough = [_build("a", "passed"), _build("e", "passed"), _build("b", "failed", PARTIAL), _build("c", "failed")]
    assert _kept_partial(enough, 0.5, 2)[1] == {}  # publishes without them: they stay out
    hopeless = [_build("a", "passed"), _build("b", "failed", PARTIAL)] + [_build(x, "failed", "x") for x in "cdef"]
    assert _kept_partial(hopeless, 0.5, 2)[1] == {}  # would not publish with them either
