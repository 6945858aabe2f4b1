"""`./dev test` runs several pytest-xdist workers: every test on a shared outside server (marker
`unleash`, or the archive's PostgreSQL) must still run on one of them, one after another."""

from __future__ import annotations

from pathlib import Path

from inner_pytest import run_pytest

ON_A_SHARED_SERVER = """
import os, time
from pathlib import Path

import pytest

pytestmark = pytest.mark.unleash


@pytest.mark.parametrize("n", range(6))
def test_on_the_real_server(n):
    time.sleep(0.3)  # long enough that a load balancer would hand some to the other worker
    Path(os.environ["WORKERS_SEEN"], str(n)).write_text(os.environ["PYTEST_XDIST_WORKER"])
"""


def test_tests_on_a_shared_server_run_on_one_worker(tmp_path: Path) -> None:
    """Failed while the group was added after xdist had read the groups: the real Unleash's
    tests ran on both workers at once, and one removed an environment another was using."""
    seen = tmp_path / "seen"
    seen.mkdir()
    (tmp_path / "test_shared.py").write_text(ON_A_SHARED_SERVER)
    run = run_pytest(
        tmp_path,
        *("-p", "tests.conftest", "-n", "2", "--dist", "loadgroup", "test_shared.py"),
        env={"WORKERS_SEEN": str(seen)},
    )
    assert run.returncode == 0 and "6 passed" in run.stdout, run.stdout + run.stderr
    workers = {path.read_text() for path in seen.iterdir()}
    assert len(list(seen.iterdir())) == 6 and len(workers) == 1, workers
