"""run.sh's preparation in one start of Django (decision 26: a second start serves sooner): migrate when a migration
is not applied yet, then make the demo account (`manage.py seed_demo`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main() -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import DEFAULT_DB_ALIAS, connections
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        call_command("migrate", interactive=False)
    else:
        print("The database is up to date: nothing to migrate.")
    call_command("seed_demo")


if __name__ == "__main__":
    main()
