"""Fixtures of the intent suite: each write is made the way an admin makes it, with the `flagtui`
command (its `main`, in-process, with the real server as the `env` profile), and judged by what
the official SDK then evaluates, the event recorded and the lifecycle stage (`real_sdk`,
`real_intent`). Every flag is new, named `intent-<random>`, and archived at the end, never
deleted."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from real_intent import PROJECT, wait_for_stage
from real_sdk import SdkWatch, create_client_token, delete_client_token

from flagtui.cli import main


@dataclass
class Outcome:
    code: int
    out: str
    err: str

    def error(self) -> dict[str, Any] | None:
        """flagtui's own error (one JSON line on stderr), None for anything else (argparse's
        usage text included)."""
        lines = self.err.strip().splitlines()
        try:
            error = json.loads(lines[-1])["error"] if lines else None
        except (ValueError, KeyError, TypeError):
            return None
        return error if isinstance(error, dict) else None


Flagtui = Callable[..., Outcome]


@pytest.fixture
def flagtui(
    real_unleash, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> Flagtui:
    """`flagtui(*argv)`: the command as an admin runs it; the token comes from UNLEASH_API_TOKEN,
    never from the command line."""
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    def run(*argv: str) -> Outcome:
        capsys.readouterr()
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse: an unknown verb or option
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run


@pytest.fixture(scope="session")
def admin(real_unleash) -> Iterator[httpx.Client]:
    with httpx.Client(
        base_url=real_unleash.url, headers={"Authorization": real_unleash.token}, timeout=30
    ) as client:
        yield client


def skip_unless_served(answer: httpx.Response, what: str) -> None:
    """A version without a route the suite reads (5.x: event search, lifecycle) skips, quoting
    the server."""
    if answer.status_code == 404:
        pytest.skip(f"this Unleash has no {what}: {answer.text[:200]}")
    assert answer.status_code == 200, answer.text


@pytest.fixture(scope="session", autouse=True)
def event_search(admin: httpx.Client) -> None:
    skip_unless_served(admin.get("/api/admin/search/events", params={"limit": 1}), "event search")


@pytest.fixture(scope="session")
def sdk(real_unleash, admin: httpx.Client) -> Iterator[Callable[[str], SdkWatch]]:
    """`sdk(environment)`: the session's SDK for that environment, started on first use."""
    watches: dict[str, SdkWatch] = {}
    tokens: list[str] = []

    def watch(environment: str) -> SdkWatch:
        if environment not in watches:
            tokens.append(create_client_token(admin, environment))
            watches[environment] = SdkWatch(real_unleash.url, tokens[-1], environment)
        return watches[environment]

    yield watch
    for started in watches.values():
        started.close()
    for token in tokens:
        delete_client_token(admin, token)


@pytest.fixture
def flag(admin: httpx.Client) -> Iterator[str]:
    """A new release flag, no strategy, every environment off, in its `initial` stage."""
    name = f"intent-{uuid.uuid4().hex[:10]}"
    created = admin.post(
        f"/api/admin/projects/{PROJECT}/features", json={"name": name, "type": "release"}
    )
    assert created.status_code in (200, 201), created.text
    lifecycle = admin.get(f"/api/admin/projects/{PROJECT}/features/{name}/lifecycle")
    if lifecycle.status_code == 404:
        admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")
    skip_unless_served(lifecycle, "lifecycle route")
    wait_for_stage(admin, PROJECT, name, "initial")
    yield name
    if admin.get(f"/api/admin/projects/{PROJECT}/features/{name}").status_code == 200:
        admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")  # archives


@pytest.fixture
def enabled_flag(flagtui, admin) -> Iterator[str]:
    """A new flag, on in production (Unleash gives it a gradual rollout at 100 %)."""
    name = f"variants-{uuid.uuid4().hex[:10]}"
    assert flagtui("feature", "create", PROJECT, name, "--description", "issue 25").code == 0
    wait_for_stage(admin, PROJECT, name, "initial")
    assert flagtui("feature", "enable", PROJECT, name, "production", "--yes").code == 0
    yield name
    admin.delete(f"/api/admin/projects/{PROJECT}/features/{name}")  # archives


@pytest.fixture
def legacy_variants_flag(enabled_flag) -> str:
    """`enabled_flag` with environment variants in production, as a flag from an Unleash older
    than 5 keeps them: 6.10.1 to 8.2.0 accept environment variants only on such a flag, and no
    admin route gives a new one any, so they are written into Unleash's own database."""
    url = os.environ.get("FLAGTUI_TEST_ARCHIVE_PG")  # the cluster of this Unleash version
    if not url:
        pytest.skip("FLAGTUI_TEST_ARCHIVE_PG names no PostgreSQL (scripts/unleash-oss env)")
    legacy = [{"name": "old", "weight": 1000, "weightType": "variable", "stickiness": "default"}]
    with psycopg.connect(url, autocommit=True) as conn:
        (database,) = conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE 'unleash%'"
        ).fetchone()
    with psycopg.connect(url.rsplit("/", 1)[0] + f"/{database}", autocommit=True) as conn:
        conn.execute(
            "UPDATE feature_environments SET variants = %s::jsonb"
            " WHERE feature_name = %s AND environment = 'production'",
            (json.dumps(legacy), enabled_flag),
        )
    return enabled_flag
