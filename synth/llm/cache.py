"""On-disk response cache (sqlite) keyed by the sha256 of the canonical JSON of the full request."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path


def canonical_json(value) -> str:
    """JSON with sorted keys and no whitespace, for hashing and comparing bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(request: dict) -> str:
    """Cache key of a request: sha256 of its canonical JSON."""
    return hashlib.sha256(canonical_json(request).encode("utf-8")).hexdigest()


class ResponseCache:
    """Responses (text and usage) by request key; one sqlite connection per thread, WAL mode."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        conn = self._conn()
        with conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS responses ("
                " key TEXT PRIMARY KEY, text TEXT NOT NULL, usage TEXT NOT NULL, model TEXT, created REAL)"
            )

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    def get(self, key: str) -> tuple[str, dict] | None:
        """The stored (text, usage) for key, or None."""
        row = self._conn().execute("SELECT text, usage FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        return row[0], json.loads(row[1])

    def put(self, key: str, text: str, usage: dict, model: str = "") -> None:
        """Store (or replace) the response for key."""
        conn = self._conn()
        with conn:
            conn.execute(
                "INSERT OR REPLACE INTO responses (key, text, usage, model, created) VALUES (?, ?, ?, ?, ?)",
                (key, text, canonical_json(usage), model, time.time()),
            )

    def __len__(self) -> int:
        return int(self._conn().execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        """Close every connection this cache opened."""
        with self._lock:
            conns, self._connections = self._connections, []
        for conn in conns:
            try:
                conn.close()
            except sqlite3.ProgrammingError:  # closed from another thread while in use; nothing left to do
                pass
        self._local = threading.local()
