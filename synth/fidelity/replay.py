"""Replay a reference's trajectories on an environment and on the reference, in lock step.

Both sides start each trajectory from the same initial state (its own `initial_state`, else data.json)
and take the same calls. A disagreement is counted at the call where it shows, and the replay goes on
from wherever each side got to. The environment's code runs in the project's runtime (restricted,
copy-on-write); the reference's adapter runs on the host.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from synth.errors import InputError
from synth.fidelity.diff import change_signature
from synth.fidelity.normalize import same
from synth.fidelity.reference import Trajectory, load_data, load_reference, load_trajectories
from synth.fidelity.report import FidelityReport, Verdict, example
from synth.fidelity.sides import Changes, EnvironmentSide, ReferenceSide, Result, Side
from synth.runtime.loader import load_env_folder

Progress = Callable[[int, int], None]  # (calls done, calls in all)


def check_env_dir(env_dir: str | Path) -> Path:
    """The environment folder as a Path, after checking it is one (InputError naming the path otherwise)."""
    root = Path(env_dir)
    if not root.is_dir():
        raise InputError(str(root), "(folder)", "environment folder not found")
    if not (root / "manifest.json").is_file():
        raise InputError(str(root / "manifest.json"), "(file)", "missing: not an environment folder")
    return root


def judge(
    reference: Result, candidate: Result, ref_changes: Changes, changes: Changes, scope: set[Any] | None = None
) -> Verdict:
    """The three agreements of one call; with `scope`, changes under other top-level keys are not compared."""
    if scope is not None:
        changes = {path: value for path, value in changes.items() if path and path[0] in scope}
    ok = reference["ok"] == candidate["ok"]
    if reference["ok"] and candidate["ok"]:
        output = same(reference["output"], candidate["output"])
    else:
        output = not reference["ok"] and not candidate["ok"]
    return Verdict(ok=ok, output=output, change=change_signature(ref_changes) == change_signature(changes))


def final_state_equal(reference: dict[str, Any], candidate: dict[str, Any]) -> bool:
    """Equal on every top-level key of the reference's state (after normalisation)."""
    return all(key in candidate and same(value, candidate[key]) for key, value in reference.items())


def compare(
    reference: ReferenceSide,
    candidate: Side,
    trajectories: list[Trajectory],
    data: dict[str, Any] | None,
    report: FidelityReport,
    resync: Side | None = None,
    progress: Progress | None = None,
) -> FidelityReport:
    """Replay every trajectory on both sides, adding each call's verdict to `report`.

    With `resync`, each call is also run on that side reset to the reference's state before the call.
    """
    total, done = sum(len(t.calls) for t in trajectories), 0
    for trajectory in trajectories:
        initial = trajectory.initial_state if trajectory.initial_state is not None else data
        if initial is None:
            raise InputError(trajectory.id, "initial_state", "missing, and the reference has no data.json")
        one_off = trajectory.initial_state is not None
        reference.reset(initial, one_off=one_off)
        candidate.reset(initial, one_off=one_off)
        for index, call in enumerate(trajectory.calls):
            before = reference.state()
            ref_result, ref_changes = reference.call(call)
            result, changes = candidate.call(call)
            scope = before.keys() | reference.state().keys()  # the reference's top-level keys
            verdict = judge(ref_result, result, ref_changes, changes, scope)
            if report.wants_example(call.name, verdict):
                report.examples[call.name] = example(
                    trajectory.id, index, call.arguments, ref_result, result, verdict, ref_changes, changes
                )
            report.add(call.name, verdict)
            if resync is not None:
                resync.reset(before, one_off=True)
                again, again_changes = resync.call(call)
                report.resynced = (report.resynced or 0) + judge(
                    ref_result, again, ref_changes, again_changes, scope
                ).all
            done += 1
            if progress is not None:
                progress(done, total)
        report.trajectories += 1
        report.final_exact += final_state_equal(reference.state(), candidate.state())
    for side in (candidate, resync):
        if isinstance(side, EnvironmentSide):
            side.close()
    return report


def measure_fidelity(
    env_dir: str | Path,
    ref_dir: str | Path,
    limit: int | None = None,
    resync: bool = False,
    progress: Progress | None = None,
    skip: int = 0,
    workers: int = 1,
) -> FidelityReport:
    """Replay REF_DIR's trajectories (after the first `skip`, at most `limit`) on ENV_DIR and on the reference.

    With `workers` > 1 the trajectories are split over that many processes; the report is the same, and
    `progress` then counts trajectories instead of calls.
    """
    env_root = check_env_dir(env_dir)
    ref = load_reference(ref_dir)
    trajectories = load_trajectories(ref.ref_dir, limit, skip)
    data = load_data(ref.ref_dir, trajectories)
    definition = load_env_folder(env_root)  # bad input fails here, in this process, naming the file
    if workers > 1 and len(trajectories) > 1:
        from synth.fidelity.parallel import measure_in_parallel

        return measure_in_parallel(env_root, ref.ref_dir, skip, len(trajectories), resync, workers, progress)
    report = FidelityReport(env_id=definition.env_id, reference=ref.ref_dir.name, resynced=0 if resync else None)
    return compare(
        ReferenceSide(ref),
        EnvironmentSide(definition),
        trajectories,
        data,
        report,
        resync=EnvironmentSide(definition) if resync else None,
        progress=progress,
    )


def measure_reference_against_itself(
    ref_dir: str | Path, limit: int | None = None, resync: bool = False, progress: Progress | None = None
) -> FidelityReport:
    """The reference against a second instance of itself: every figure should be 1.0 (a check of the measure)."""
    first, second = load_reference(ref_dir), load_reference(ref_dir)
    trajectories = load_trajectories(first.ref_dir, limit)
    data = load_data(first.ref_dir, trajectories)
    report = FidelityReport(env_id=first.ref_dir.name, reference=first.ref_dir.name, resynced=0 if resync else None)
    return compare(
        ReferenceSide(first),
        ReferenceSide(second),
        trajectories,
        data,
        report,
        resync=ReferenceSide(load_reference(ref_dir)) if resync else None,
        progress=progress,
    )
