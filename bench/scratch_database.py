"""A throwaway PostgreSQL database beside the one DATABASE_URL names, for the benchmarks that fill their own.

`topos_x` gives `topos_x_<suffix>`, migrated on entry and dropped on exit, so a benchmark never touches the data of
the database it was pointed at (nor another benchmark's, run at the same time with another suffix).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection
from django.test.utils import setup_test_environment


@contextmanager
def scratch_database(suffix: str, why: str | None = None, *, keep: bool = False) -> Iterator[None]:
    """Run the block on a fresh database `<name>_<suffix>`; `why`: why it must be PostgreSQL (said on refusal),
    None if any will do (SQLite's is then Django's test database, in memory); `keep`: leave it there afterwards
    (to try plans by hand), and say its name."""
    if connection.vendor == "postgresql":
        connection.settings_dict["TEST"]["NAME"] = f"{connection.settings_dict['NAME']}_{suffix}"
    elif why:
        sys.exit(f"Set DATABASE_URL to a PostgreSQL server: {why}")
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        yield
    finally:
        if keep:
            print(f"kept the database {connection.settings_dict['NAME']}")
        else:
            connection.creation.destroy_test_db(old_name, verbosity=0)
