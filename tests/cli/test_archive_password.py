"""An `archive_url`'s password is never printed (issue 23, item 3): given as `?password=`, or
holding `/` and `@` unescaped, it shows neither whole nor in part in collect's first stderr
line, `collect --once`'s JSON, `failures`' stderr or an error. On a real PostgreSQL (the one
FLAGTUI_TEST_ARCHIVE_PG names, which trusts local connections: any password opens it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from skip_reasons import NO_POSTGRESQL

from .processes import command_env

PASSWORD = "Pw/x9@Kq7"
PIECES = ("Pw/x9", "x9@Kq7", "Kq7", "Pw%2F", "Kq7%40")
QUERY_PASSWORD = "qu3ryS3cret"


def leaked(text: str) -> list[str]:
    return [piece for piece in (*PIECES, QUERY_PASSWORD) if piece in text]


@pytest.fixture
def database() -> Iterator[tuple[str, str]]:
    """(host:port, database name) of a fresh PostgreSQL database, dropped afterwards."""
    admin = os.environ.get("FLAGTUI_TEST_ARCHIVE_PG")
    if not admin:
        pytest.skip(NO_POSTGRESQL)
    name = f"flagtui_pw_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
        info = conn.info
        where = f"{info.host}:{info.port}"
    try:
        yield where, name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_shown_url_drops_every_password():
    from flagtui.archive.engine import shown_url  # SQLAlchemy: as the commands import it

    assert shown_url(f"postgresql://ops:{PASSWORD}@db.test:5432/archive") == (
        "postgresql://ops:***@db.test:5432/archive"
    )
    assert shown_url(f"postgresql://ops@db.test/archive?password={QUERY_PASSWORD}&sslmode=x") == (
        "postgresql://ops@db.test/archive?sslmode=x"
    )
    assert shown_url("sqlite:////var/lib/flagtui/a.db") == "sqlite:////var/lib/flagtui/a.db"


@pytest.mark.parametrize("kind", ["userinfo", "query"])
def test_collect_and_failures_never_print_the_password(run, cli_env, sandbox, database, kind):
    where, name = database
    user = os.environ["FLAGTUI_TEST_ARCHIVE_PG"].split("://", 1)[1].split("@")[0].split(":")[0]
    if kind == "userinfo":
        url = f"postgresql://{user}:{PASSWORD}@{where}/{name}"
    else:
        url = f"postgresql://{user}@{where}/{name}?password={QUERY_PASSWORD}"
    (cli_env / "config.toml").write_text(
        f'[profiles.team]\nurl = "{sandbox.url}"\narchive_url = "{url}"\n'
    )
    once = run("collect", "-P", "team", "--once", "-o", "json")
    assert once.code == 0, once.err
    assert once.json["archive"].startswith(f"postgresql://{user}")
    assert leaked(once.out + once.err) == []
    table = run("failures", "-P", "team", "-o", "table")
    assert "from the delivery archive (" in table.err  # said, with no URL at all
    assert leaked(table.out + table.err) == []
    broken = url.replace(where, "127.0.0.1:9")  # nothing listens: the error names the URL
    (cli_env / "config.toml").write_text(
        f'[profiles.team]\nurl = "{sandbox.url}"\narchive_url = "{broken}"\n'
    )
    failed = run("collect", "-P", "team", "--once", "-o", "table")
    assert failed.code == 6 and "127.0.0.1:9" in failed.line
    assert leaked(failed.err) == []
    (cli_env / "config.toml").write_text(
        f'[profiles.team]\nurl = "{sandbox.url}"\narchive_url = "{url}"\n'
    )
    collect = subprocess.Popen(
        [sys.executable, "-m", "flagtui", "collect", "-P", "team"],
        env=command_env(cli_env, sandbox),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert collect.stderr is not None
        first = collect.stderr.readline()
        assert first.startswith("flagtui collect: ") and f"into postgresql://{user}" in first
        assert leaked(first) == []
        collect.send_signal(signal.SIGTERM)  # its exit code is test_collect.py's business
        collect.wait(timeout=30)
        assert leaked(collect.stderr.read()) == []
    finally:
        if collect.poll() is None:
            collect.kill()
            collect.wait()
