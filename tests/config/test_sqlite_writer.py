"""The embedded default's SQLite writers queue for the one write lock (config/sqlite/base.py, decision 28): a writer
waits for the transaction before it and then writes, whichever process or thread it is in, and the place is given
back however a transaction ends.  On a database file of the test's own, whatever database the suite runs on."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from django.db.utils import ConnectionHandler


def connect(path) -> object:
    """A connection of the site's SQLite backend to `path`, with the site's options (WAL, IMMEDIATE, 20 s)."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "config.sqlite",
                "NAME": str(path),
                "OPTIONS": {
                    "timeout": 20,
                    "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
                },
            }
        }
    )
    return handler["default"]


def begin(connection) -> None:
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)  # as transaction.atomic


def end(connection, commit: bool = True) -> None:
    connection.commit() if commit else connection.rollback()
    connection.set_autocommit(True)


@pytest.fixture(autouse=True)
def _own_file(django_db_blocker):
    # Not the suite's database: a file of the test's own, which pytest-django need not guard.
    with django_db_blocker.unblock():
        yield


@pytest.fixture
def database(tmp_path):
    path = tmp_path / "club.sqlite3"
    first = connect(path)
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE counter (n integer NOT NULL)")
        cursor.execute("INSERT INTO counter VALUES (0)")
        cursor.execute("CREATE TABLE log (who text NOT NULL)")
    first.close()
    return path


def count(path) -> int:
    connection = connect(path)
    with connection.cursor() as cursor:
        cursor.execute("SELECT n FROM counter")
        (n,) = cursor.fetchone()
    connection.close()
    return n


def test_threads_increment_in_turn_and_no_increment_is_lost(database):
    failures = []

    def increments(times: int) -> None:
        connection = connect(database)
        try:
            for _ in range(times):
                begin(connection)
                with connection.cursor() as cursor:
                    cursor.execute("SELECT n FROM counter")
                    (n,) = cursor.fetchone()
                    cursor.execute("UPDATE counter SET n = %s", [n + 1])
                end(connection)
        except Exception as exc:  # a "database is locked" would land here
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=increments, args=(25,)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert count(database) == 6 * 25


def test_a_write_outside_a_transaction_waits_for_the_transaction_before_it(database):
    holder = connect(database)
    begin(holder)
    with holder.cursor() as cursor:
        cursor.execute("INSERT INTO log VALUES ('first')")
    written = threading.Event()

    def autocommit_write() -> None:
        other = connect(database)  # a connection belongs to its thread
        with other.cursor() as cursor:
            cursor.execute("INSERT INTO log VALUES ('second')")
        written.set()
        other.close()

    thread = threading.Thread(target=autocommit_write)
    thread.start()
    assert not written.wait(0.5)  # queued behind the open transaction
    end(holder)
    thread.join()
    assert written.is_set()
    with holder.cursor() as cursor:
        cursor.execute("SELECT who FROM log ORDER BY rowid")
        assert [row[0] for row in cursor.fetchall()] == ["first", "second"]
    holder.close()


@pytest.mark.parametrize("ending", ["commit", "rollback", "close"])
def test_the_place_is_given_back_however_a_transaction_ends(database, ending):
    first = connect(database)
    begin(first)
    with first.cursor() as cursor:
        cursor.execute("UPDATE counter SET n = 41")
    if ending == "close":
        first.close()
    else:
        end(first, commit=ending == "commit")
    done = threading.Event()

    def write() -> None:
        second = connect(database)
        begin(second)
        with second.cursor() as cursor:
            cursor.execute("UPDATE counter SET n = n + 1")
        end(second)
        done.set()
        second.close()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(30)
    assert done.is_set()
    assert count(database) == (42 if ending == "commit" else 1)


HOLD_IN_ANOTHER_PROCESS = """
import fcntl, os, sys
fd = os.open(sys.argv[1] + "-writer", os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()  # until the test says so
"""


def test_a_writer_in_another_process_is_waited_for(database):
    # Another process of the site (the worker, beat, the other web process) holding the writer's place.
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD_IN_ANOTHER_PROCESS, str(database)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout.readline().strip() == "held"
        done = threading.Event()

        def write() -> None:
            connection = connect(database)
            begin(connection)
            with connection.cursor() as cursor:
                cursor.execute("UPDATE counter SET n = 7")
            end(connection)
            done.set()
            connection.close()

        thread = threading.Thread(target=write)
        thread.start()
        assert not done.wait(0.5)
        other.stdin.write("go\n")
        other.stdin.flush()
        thread.join(30)
        assert done.is_set()
        assert count(database) == 7
    finally:
        other.kill()
        other.wait()
