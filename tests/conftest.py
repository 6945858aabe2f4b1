"""Shared sandbox fixtures for every test suite (api, tui, sandbox, conformance).

One template database (demo size, fixed seed and `now`) is built per test session; each test
that asks for a sandbox gets its own copy, so state never leaks between tests.

- `sandbox_template` (session): `Path` of the template database (read it, never write it).
- `sandbox_db` (function): `Path` of a fresh copy of the template in the test's tmp dir.
- `sandbox_app` (function): the ASGI app (`flagtui.sandbox.create_app`) on `sandbox_db`,
  for `httpx.ASGITransport`; `app.state.admin_token`, `app.state.viewer_token` and
  `app.state.db_path` are set for convenience.
- Every sandbox of the run (in-process or a subprocess) allows PLENTY feature searches a minute
  (SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE, set at configure): the suite searches one sandbox
  far more than 15 times a minute; tests of the limit give their sandbox one.
- `sandbox` (function): a running `flagtui.sandbox.SandboxServer` on 127.0.0.1 with a free
  port, over `sandbox_db`; attributes `.url`, `.admin_token`, `.viewer_token`, `.db_path`.
  One uvicorn server is kept for the session; each test swaps its own database copy under
  it (`SandboxServer.use_database`), so the fixture costs only a file copy.

`./dev test` runs the suite on three pytest-xdist workers (`--dist loadgroup`); every test on a
shared outside server is put in one group, run by one worker one test after another.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
from collections.abc import AsyncIterator, Iterator
from functools import cache
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from flagtui.sandbox import SandboxServer, create_app, create_database, read_tokens
from flagtui.sandbox.rate_limit import LIMIT_ENV, PLENTY

SHARED_SERVERS = pytest.mark.xdist_group("shared-servers")


def uses_a_shared_server(item: pytest.Item) -> bool:
    """The real Unleash (marker `unleash`) or its PostgreSQL (the archive's postgresql runs):
    tests there create objects, some with fixed names, and count events or deliveries."""
    callspec = getattr(item, "callspec", None)
    on_postgres = callspec is not None and callspec.params.get("archive_url") == "postgresql"
    return item.get_closest_marker("unleash") is not None or on_postgres


# What a module's tests start, read from its source: the markers `./dev test --fast` leaves out.
STARTS_PROCESSES = re.compile(
    r"\bsubprocess\b|\bpty_term\b|^import pty$|\bprocesses\b|\binner_pytest\b", re.M
)
RUNS_THE_APP = re.compile(r"\brun_test\(|\bmake_app\b|\bopen_flagtui\b")


@cache
def _module_source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    """A suite started as a background job (`cmd &` in a script, `nohup`) inherits SIGINT
    ignored, and so would every flagtui the tests start: a Ctrl-C test would then wait for a
    stop that never comes (or for the token_command's timeout). Ctrl-C is what the tests
    send, so it is given back its default meaning, here and in every process started from
    here (an ignored signal stays ignored across exec; a handled one does not)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    os.environ[LIMIT_ENV] = str(PLENTY)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (its hook is not trylast)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if uses_a_shared_server(item):
            item.add_marker(SHARED_SERVERS)
        source = _module_source(Path(item.path))
        if STARTS_PROCESSES.search(source):
            item.add_marker(pytest.mark.process)
        if RUNS_THE_APP.search(source):
            item.add_marker(pytest.mark.app)


@pytest.fixture(scope="session")
def sandbox_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sandbox-template") / "template.db"
    create_database(path, size="hostile")  # the demo data and the hostile project
    return path


@pytest.fixture
def sandbox_db(sandbox_template: Path, tmp_path: Path) -> Path:
    path = tmp_path / "sandbox.db"
    shutil.copyfile(sandbox_template, path)
    return path


@pytest.fixture
def sandbox_app(sandbox_db: Path) -> Starlette:
    app = create_app(sandbox_db)
    tokens = read_tokens(sandbox_db)
    app.state.admin_token = tokens.admin
    app.state.viewer_token = tokens.viewer
    app.state.db_path = sandbox_db
    return app


@pytest.fixture
async def sandbox_http(sandbox_app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    """The in-process sandbox's admin API, as the admin token reaches it."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox_app),
        base_url="http://sandbox",
        headers={"Authorization": sandbox_app.state.admin_token},
    ) as http:
        yield http


@pytest.fixture(scope="session")
def _sandbox_server(sandbox_template: Path) -> Iterator[SandboxServer]:
    with SandboxServer(sandbox_template) as server:
        yield server


@pytest.fixture
def sandbox(_sandbox_server: SandboxServer, sandbox_db: Path) -> SandboxServer:
    _sandbox_server.use_database(sandbox_db)
    return _sandbox_server
