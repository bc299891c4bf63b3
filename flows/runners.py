"""Where the flows run: Prefect's offline defaults, the Prefect API, task runners (threads, or Dask on one or
many machines), the LLM endpoint's concurrency limit, and the result storage of cached steps.

    offline_defaults()                      # at import, before anything imports prefect
    with prefect_api():                     # PREFECT_API_URL, or a temporary local server for this process
        ensure_llm_limit("forgegym-llm", 4)
        runner = make_task_runner("dask", max_workers=4, dask_address="tcp://10.0.0.5:8786")
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from synth.errors import InputError

RUNNERS = ("thread", "dask")
DASK_HINT = "the dask runner needs the `dask` extra: pip install 'forgegym[dask]' (prefect-dask)"

# Prefect with no configuration: an ephemeral local API, nothing sent anywhere.
OFFLINE_DEFAULTS = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    "DO_NOT_TRACK": "1",
}


def offline_defaults() -> None:
    """Set Prefect's offline defaults in os.environ unless the user set them (call before importing prefect)."""
    for key, value in OFFLINE_DEFAULTS.items():
        os.environ.setdefault(key, value)


offline_defaults()


def check_runner(runner: str, dask_address: str | None = None) -> None:
    """InputError for an unknown runner, an address without the dask runner, or a missing dask extra."""
    if runner not in RUNNERS:
        raise InputError("--runner", runner, f"unknown task runner; choose one of {', '.join(RUNNERS)}")
    if dask_address and runner != "dask":
        raise InputError("--dask-address", dask_address, "only used with --runner dask")
    if runner == "dask":
        try:
            import prefect_dask  # noqa: F401
        except ImportError as err:
            raise InputError("--runner", runner, DASK_HINT) from err


def make_task_runner(
    runner: str = "thread", *, max_workers: int = 4, dask_address: str | None = None, n_workers: int | None = None
):
    """A Prefect task runner: ThreadPoolTaskRunner(max_workers), or DaskTaskRunner on dask_address.

    Without an address the Dask runner starts a temporary LocalCluster of n_workers processes for the flow run.
    """
    check_runner(runner, dask_address)
    if runner == "thread":
        from prefect.task_runners import ThreadPoolTaskRunner

        return ThreadPoolTaskRunner(max_workers=max(1, max_workers))
    from prefect_dask import DaskTaskRunner

    if dask_address:
        return DaskTaskRunner(address=dask_address)
    return DaskTaskRunner(
        cluster_kwargs={"n_workers": n_workers or 2, "threads_per_worker": 1, "dashboard_address": None}
    )


@contextmanager
def dask_address_for(runner: str, dask_address: str | None, *, n_workers: int = 2) -> Iterator[str | None]:
    """Yield the Dask scheduler address to use: the given one, a LocalCluster started here, or None (thread runner).

    Several flows (the batch) then share one cluster instead of starting one each.
    """
    check_runner(runner, dask_address)
    if runner != "dask" or dask_address:
        yield dask_address
        return
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def describe_runner(runner: str, dask_address: str | None, max_workers: int) -> str:
    """One line for logs and artifacts."""
    if runner == "dask":
        return f"dask ({dask_address or 'temporary LocalCluster'})"
    return f"thread ({max_workers} workers)"


@contextmanager
def prefect_api() -> Iterator[str]:
    """Yield the Prefect API URL: the configured one, or a temporary local server started for this process.

    Starting the temporary server here (rather than lazily) and putting its URL in the settings context lets
    Dask worker processes report to the same API instead of each starting its own.
    """
    from prefect.settings import PREFECT_API_URL, temporary_settings

    configured = PREFECT_API_URL.value()
    if configured:
        yield configured
        return
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()
    server.start()
    with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
        yield server.api_url


def api_is_temporary() -> bool:
    """True when the API is a temporary server started by this process (nobody else holds its slots)."""
    from prefect.server.api.server import SubprocessASGIServer
    from prefect.settings import PREFECT_API_URL

    server = SubprocessASGIServer._instances.get(None)
    url = PREFECT_API_URL.value()
    return bool(server is not None and server.running and url and url.startswith(server.address))


def ensure_llm_limit(name: str, limit: int, *, clear_stale: bool = False) -> dict:
    """Create or resize the global concurrency limit that LLM-calling tasks occupy; returns its state.

    clear_stale resets active slots to 0: slots of a process that was killed stay taken in the database when the
    temporary server that leased them died with it. Only the process that owns the API may do this safely.
    """
    from prefect import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate, GlobalConcurrencyLimitUpdate
    from prefect.exceptions import ObjectAlreadyExists, ObjectNotFound

    limit = max(1, int(limit))
    with get_client(sync_client=True) as client:
        try:
            current = client.read_global_concurrency_limit_by_name(name)
        except ObjectNotFound:
            try:
                client.create_global_concurrency_limit(GlobalConcurrencyLimitCreate(name=name, limit=limit))
            except ObjectAlreadyExists:  # created by a concurrent flow run
                pass
            current = client.read_global_concurrency_limit_by_name(name)
        changes = {}
        if current.limit != limit:
            changes["limit"] = limit
        if clear_stale and current.active_slots:
            changes["active_slots"] = 0
        if changes:
            client.update_global_concurrency_limit(name, GlobalConcurrencyLimitUpdate(**changes))
            current = client.read_global_concurrency_limit_by_name(name)
        return {
            "name": name,
            "limit": current.limit,
            "active_slots": current.active_slots,
            "cleared_stale": bool(clear_stale and "active_slots" in changes),
        }


def result_storage(cache_dir: str | os.PathLike) -> str:
    """A saved LocalFileSystem block over cache_dir (Prefect keeps cached task results there); returns its slug."""
    import hashlib
    from pathlib import Path

    from prefect.filesystems import LocalFileSystem

    base = str(Path(cache_dir).expanduser().resolve())
    Path(base).mkdir(parents=True, exist_ok=True)
    name = "forgegym-results-" + hashlib.sha256(base.encode("utf-8")).hexdigest()[:10]
    try:
        if LocalFileSystem.load(name).basepath == base:
            return f"local-file-system/{name}"
    except ValueError:  # not saved yet
        pass
    try:
        LocalFileSystem(basepath=base).save(name, overwrite=True)
    except Exception:  # a concurrent flow saved it first; it must now load
        LocalFileSystem.load(name)
    return f"local-file-system/{name}"


def check_cron(cron: str) -> None:
    """InputError unless cron is a valid cron expression (five fields, as Prefect reads them)."""
    from prefect.client.schemas.schedules import CronSchedule

    try:
        CronSchedule(cron=cron)
    except Exception as err:  # pydantic ValidationError / ValueError
        raise InputError("--cron", cron, f"not a valid cron expression: {str(err).splitlines()[-1][:200]}") from None


def _api_healthy(api_url: str) -> bool:
    import httpx

    try:
        return httpx.get(f"{api_url}/health", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def scheduling_api(port: int = 4200, log_dir: str = ".forgegym_cache", timeout_s: float = 180.0) -> Iterator[str]:
    """Yield the URL of a Prefect API that runs schedules: PREFECT_API_URL, a server already on 127.0.0.1:port,
    or a `prefect server start` launched here (with its UI) and stopped on exit.

    The temporary API of one-off runs has no scheduler, so schedules need a long-lived server.
    """
    import subprocess
    import sys
    import time
    from pathlib import Path

    from prefect.settings import PREFECT_API_URL, temporary_settings

    configured = PREFECT_API_URL.value()
    if configured:
        yield configured
        return
    url = f"http://127.0.0.1:{port}/api"
    process = None
    if not _api_healthy(url):
        Path(log_dir).mkdir(parents=True, exist_ok=True)
        log_path = Path(log_dir) / "prefect-server.log"
        with open(log_path, "ab") as log:
            # its own session: Ctrl-C stops `serve` first, then the server is stopped below
            process = subprocess.Popen(
                [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1", "--port", str(port)],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout_s
        while not _api_healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"`prefect server start` did not come up on {url}; see {log_path}")
            time.sleep(0.5)
    previous = os.environ.get("PREFECT_API_URL")
    os.environ["PREFECT_API_URL"] = url  # flow runs started by `serve` are subprocesses
    try:
        with temporary_settings(updates={PREFECT_API_URL: url}):
            yield url
    finally:
        if previous is None:
            os.environ.pop("PREFECT_API_URL", None)
        else:
            os.environ["PREFECT_API_URL"] = previous
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
