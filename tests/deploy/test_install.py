"""config/scripts/python.sh's ensure_venv (run.sh, serve.sh and test.sh call it): pip runs on the first start and
whenever requirements.txt changed, and not on a second start (decision 26, point 7).

The .venv here is this test's own folder whose bin/python hands every call to the shared virtualenv's Python and
notes it, so the pip that runs is the real one, on a requirements.txt that asks for nothing new.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

from tests.deploy.served import ROOT

PYTHON_SH = ROOT / "config" / "scripts" / "python.sh"


def ensure_venv(folder: pathlib.Path) -> list[str]:
    """Run ensure_venv in `folder`; the calls its .venv's Python received."""
    subprocess.run(["bash", "-c", f"source {PYTHON_SH} && ensure_venv"], cwd=folder, check=True, timeout=300)
    log = folder / "calls.log"
    calls = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return calls


def test_pip_runs_only_when_the_requirements_changed(tmp_path):
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$*" >> calls.log\nexec {sys.executable} "$@"\n')
    os.chmod(python, 0o755)
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("# nothing to install\n")

    installs = "-m pip install -q --disable-pip-version-check -r requirements.txt"
    assert ensure_venv(tmp_path) == [installs]  # the first start installs
    assert ensure_venv(tmp_path) == []  # the second does not
    requirements.write_text("# nothing to install, said otherwise\n")
    assert ensure_venv(tmp_path) == [installs]  # a changed requirements.txt installs again
    assert ensure_venv(tmp_path) == []
