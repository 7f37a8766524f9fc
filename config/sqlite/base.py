"""Django's SQLite backend with one queue for its single writer (the embedded default's database; decision 28).

SQLite lets one connection write at a time.  A connection that finds the file locked sleeps in SQLite's busy handler
for 1, 2, 5, 10 ... then 100 ms at a time, and whoever asks at the moment the lock is free gets it: under 16 busy
clients a move's `BEGIN IMMEDIATE` waited 20 ms at the median but 700 ms at the 95th percentile and over a second at
worst, while each write held the lock for 10 ms (p50; bench/bench_http.py --embedded).  Here a connection queues
for the writer's place before it asks SQLite: behind the other threads of its process on a lock that wakes the next
at once, then behind the other processes (web, worker, beat) on an flock of a file beside the database, polled every
millisecond by the one thread of each process that is next.  It keeps the place until its transaction commits or
rolls back; a statement that writes outside a transaction keeps it for that statement.  SQLite's own lock and
timeout stay underneath as before: a writer that does not queue (the sqlite3 shell) is waited for as SQLite always
did, and one that waited here longer than the timeout goes on to SQLite, which decides as before.

An in-memory database has no file to share and no queue.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time

from django.db.backends.sqlite3 import base

_WRITE_STATEMENTS = ("INSERT", "UPDATE", "DELETE", "REPLAC", "CREATE", "DROP", "ALTER")
_POLL_SECONDS = 0.001


class _WriterQueue:
    """The writer's place for one database file, in this process."""

    def __init__(self, path: str):
        self.path = path + "-writer"
        self.local = threading.Lock()  # the threads of this process, one at a time
        self.fd: int | None = None
        self.fd_pid = 0

    def _descriptor(self) -> int:
        # One open file a process: a descriptor inherited across fork (gunicorn's workers, Celery's pool) would share
        # the lock with the parent instead of excluding it.
        if self.fd is None or self.fd_pid != os.getpid():
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self.fd_pid = os.getpid()
        return self.fd

    def acquire(self, timeout: float) -> bool:
        """Wait for the place (at most `timeout` seconds); False if not had, so that SQLite decides as before."""
        end = time.monotonic() + timeout
        if not self.local.acquire(timeout=timeout):
            return False
        try:
            fd = self._descriptor()
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    if time.monotonic() >= end:
                        break
                    time.sleep(_POLL_SECONDS)
        except OSError:
            pass  # no lock file (a read-only folder): SQLite alone, as before
        self.local.release()
        return False

    def release(self) -> None:
        try:
            fcntl.flock(self._descriptor(), fcntl.LOCK_UN)
        finally:
            self.local.release()


_queues: dict[str, _WriterQueue] = {}
_queues_lock = threading.Lock()


def _queue_for(path: str) -> _WriterQueue:
    with _queues_lock:
        return _queues.setdefault(path, _WriterQueue(path))


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._writer: _WriterQueue | None = None
        self._holds_writer = False

    def _take_writer(self) -> None:
        if self._holds_writer or self.is_in_memory_db():
            return
        if self._writer is None:
            self._writer = _queue_for(os.path.abspath(str(self.settings_dict["NAME"])))
        self._holds_writer = self._writer.acquire(float(self.settings_dict["OPTIONS"].get("timeout", 5)))

    def _give_writer(self) -> None:
        if self._holds_writer:
            self._holds_writer = False
            self._writer.release()

    def _start_transaction_under_autocommit(self):
        self._take_writer()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._give_writer()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            if not (self.connection is not None and self.connection.in_transaction):
                self._give_writer()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._give_writer()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._give_writer()

    def create_cursor(self, name=None):
        cursor = self.connection.cursor(factory=QueuedCursor)
        cursor.wrapper = self
        return cursor


class QueuedCursor(base.SQLiteCursorWrapper):
    """A statement that writes outside a transaction (autocommit) queues for the writer's place while it runs."""

    wrapper: DatabaseWrapper

    def _alone(self, run, query, *args):
        wrapper = self.wrapper
        if wrapper._holds_writer or wrapper.connection.in_transaction or not _writes(query):
            return run(query, *args)
        wrapper._take_writer()
        try:
            return run(query, *args)
        finally:
            if not wrapper.connection.in_transaction:
                wrapper._give_writer()

    def execute(self, query, params=None):
        return self._alone(super().execute, query, params)

    def executemany(self, query, param_list):
        return self._alone(super().executemany, query, param_list)


def _writes(query: str) -> bool:
    return query.lstrip()[:6].upper().startswith(_WRITE_STATEMENTS)
