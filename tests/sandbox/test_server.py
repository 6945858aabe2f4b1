"""The served sandbox: the runner, durability across kill -9, concurrent writers, sizes."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from flagtui.sandbox import SandboxServer, create_database, read_tokens
from tests.sandbox.conftest import free_port, wait_healthy


def serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "flagtui.sandbox", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def test_sandbox_fixture_serves_over_http(sandbox: SandboxServer) -> None:
    headers = {"Authorization": sandbox.admin_token}
    response = httpx.get(f"{sandbox.url}/api/admin/projects", headers=headers)
    assert response.status_code == 200
    assert sandbox.db_path.exists()
    assert httpx.get(f"{sandbox.url}/api/admin/projects").status_code == 401


def test_writes_survive_kill_9(sandbox_db: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    admin = {"Authorization": read_tokens(sandbox_db).admin}
    process = serve(sandbox_db, port)
    try:
        wait_healthy(url, seconds=20)
        put = httpx.put(
            f"{url}/api/admin/feature-types/operational/lifetime",
            json={"lifetimeDays": 123},
            headers=admin,
        )
        assert put.status_code == 200
        removed = httpx.delete(f"{url}/api/admin/projects/payments/environments/qa", headers=admin)
        assert removed.status_code == 200
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        process = serve(sandbox_db, port)
        wait_healthy(url, seconds=20)
        types = httpx.get(f"{url}/api/admin/feature-types", headers=admin).json()["types"]
        assert {t["id"]: t["lifetimeDays"] for t in types}["operational"] == 123
        envs = httpx.get(f"{url}/api/admin/environments/project/payments", headers=admin).json()
        assert {e["name"]: e["visible"] for e in envs["environments"]}["qa"] is False
    finally:
        process.kill()
        process.wait(10)
    output = process.stdout.read().decode() if process.stdout else ""
    assert f"http://127.0.0.1:{port}" in output and "admin token" in output


async def test_concurrent_writers_lose_no_update(sandbox: SandboxServer) -> None:
    headers = {"Authorization": sandbox.admin_token}
    async with httpx.AsyncClient(base_url=sandbox.url, headers=headers) as client:
        found = await client.get("/api/admin/search/features?project=IS:platform&limit=1")
        feature = found.json()["features"][0]
        path = f"/api/admin/projects/platform/features/{feature['name']}"
        before = (await client.post("/api/admin/events/search", json={})).json()["totalEvents"]

        async def write(i: int) -> int:
            op = [{"op": "replace", "path": "/description", "value": f"writer {i}"}]
            return (await client.patch(path, json=op)).status_code

        statuses = await asyncio.gather(*(write(i) for i in range(20)))
        assert statuses == [200] * 20
        events = (
            await client.post(
                "/api/admin/events/search",
                json={"feature": feature["name"], "type": "feature-metadata-updated"},
            )
        ).json()["events"][:20]
        after = (await client.post("/api/admin/events/search", json={})).json()["totalEvents"]
    assert after - before == 20
    # each event's preData is the previous event's data: the updates were serialised
    chain = list(reversed(events))
    for older, newer in itertools.pairwise(chain):
        assert newer["preData"]["description"] == older["data"]["description"]
    final = httpx.get(f"{sandbox.url}{path}", headers=headers).json()["description"]
    assert final == events[0]["data"]["description"]


def test_runner_picks_a_free_port_and_stops(sandbox_db: Path) -> None:
    with SandboxServer(sandbox_db) as server:
        assert server.port > 0
        assert httpx.get(f"{server.url}/health").json() == {"health": "GOOD"}
        url = server.url
    try:
        httpx.get(f"{url}/health", timeout=1)
        raise AssertionError("server still running")
    except httpx.TransportError:
        pass


def test_demo_data_is_deterministic_and_tokens_are_random(tmp_path: Path) -> None:
    import sqlite3

    first = create_database(tmp_path / "a.db")
    second = create_database(tmp_path / "b.db")
    assert first.admin.startswith("*:*.") and second.viewer.startswith("viewer:")
    assert first != second
    dumps = []
    for name in ("a.db", "b.db"):
        conn = sqlite3.connect(tmp_path / name)
        dumps.append(conn.execute("SELECT * FROM features ORDER BY name").fetchall())
        conn.close()
    assert dumps[0] == dumps[1] and len(dumps[0]) == 320


def test_only_the_hostile_size_holds_the_hostile_project(tmp_path: Path) -> None:
    """`flagtui demo` opens on realistic data; the text that attacks terminals is asked for."""
    import sqlite3

    counts = {}
    for size in ("demo", "hostile"):
        create_database(tmp_path / f"{size}.db", size=size)
        conn = sqlite3.connect(tmp_path / f"{size}.db")
        counts[size] = [
            conn.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]
            for table, where in (
                ("projects", "id = 'hostile'"),
                ("features", "project = 'hostile'"),
                ("features", "project <> 'hostile'"),
            )
        ]
        conn.close()
    assert counts["demo"] == [0, 0, 320]
    assert counts["hostile"] == [1, 5, 320]


def test_empty_size(tmp_path: Path) -> None:
    import sqlite3

    create_database(tmp_path / "e.db", size="empty")
    conn = sqlite3.connect(tmp_path / "e.db")
    assert conn.execute("SELECT count(*) FROM features").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM feature_types").fetchone()[0] == 5
    assert conn.execute("SELECT count(*) FROM roles").fetchone()[0] >= 5
    conn.close()


async def test_the_empty_size_has_the_default_project_every_unleash_has(tmp_path: Path) -> None:
    """A fresh Unleash (8.2.0 checked) has the `default` project, linked to development and
    production: a flag can be created there at once. Failed before: no project at all."""
    from flagtui.sandbox import create_app

    tokens = create_database(tmp_path / "e.db", size="empty")
    transport = httpx.ASGITransport(app=create_app(tmp_path / "e.db"))
    headers = {"Authorization": tokens.admin}
    async with httpx.AsyncClient(transport=transport, base_url="http://s", headers=headers) as c:
        projects = (await c.get("/api/admin/projects")).json()["projects"]
        assert [(p["id"], p["name"]) for p in projects] == [("default", "Default")]
        envs = (await c.get("/api/admin/environments/project/default")).json()["environments"]
        assert [e["name"] for e in envs] == ["development", "production"]
        flag = {"name": "first-flag"}
        assert (await c.post("/api/admin/projects/default/features", json=flag)).status_code == 201
        assert (
            await c.post(
                "/api/admin/projects/default/features/first-flag/environments/production/on"
            )
        ).status_code == 200


@pytest.mark.slow
@pytest.mark.timeout(900)  # generating 250,000 rows takes minutes on a loaded machine
async def test_large_size_counts(tmp_path: Path) -> None:
    """What the large size holds and that it answers; how fast is the bench's (bench/)."""
    from flagtui.sandbox import create_app

    tokens = create_database(tmp_path / "large.db", size="large")
    transport = httpx.ASGITransport(app=create_app(tmp_path / "large.db"))
    headers = {"Authorization": tokens.admin}
    async with httpx.AsyncClient(transport=transport, base_url="http://s", headers=headers) as c:
        await c.get("/health")
        features = (await c.get("/api/admin/search/features")).json()
        events = (await c.post("/api/admin/events/search", json={})).json()
    everything = await _count(tmp_path / "large.db")
    assert everything == (50_000, 200_000)
    assert features["total"] > 40_000 and len(features["features"]) == 50
    assert events["totalEvents"] == 200_000 and len(events["events"]) == 100


async def _count(db: Path) -> tuple[int, int]:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        features = conn.execute("SELECT count(*) FROM features").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        return features, events
    finally:
        conn.close()


def test_databases_for_people_are_generated_around_the_present(tmp_path: Path) -> None:
    import sqlite3
    from datetime import UTC, datetime, timedelta

    create_database(tmp_path / "fixed.db")
    create_database(tmp_path / "live.db", now=None)
    newest = []
    for name in ("fixed.db", "live.db"):
        conn = sqlite3.connect(tmp_path / name)
        newest.append(conn.execute("SELECT max(created_at) FROM events").fetchone()[0])
        conn.close()
    assert newest[0] < "2025-06-02T12:00:00.001Z"
    day_ago = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    assert newest[1] > day_ago[:19]
