"""Load and durability: 20 concurrent HTTP clients, 2,000 writes, kill -9, restart.

The sandbox runs as a real subprocess (`python -m flagtui.sandbox --size demo`). Each client
owns a disjoint set of features (and clients 0-4 one feature type each), so the expected end
state and the expected event log follow from the answers alone: every 200 must be read back,
the log must hold exactly the events those changes record (no more, no fewer), and all of it
must still be there after the server is killed with SIGKILL and started again on the file.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from flagtui.sandbox import read_tokens
from tests.sandbox.conftest import free_port, wait_healthy

CLIENTS = 20
WRITES = 2000
TYPES = ["release", "experiment", "operational", "kill-switch", "permission"]


@dataclass
class Expected:
    description: dict[str, str | None] = field(default_factory=dict)
    stale: dict[str, bool] = field(default_factory=dict)
    lifetime: dict[str, int | None] = field(default_factory=dict)
    project: dict[str, str] = field(default_factory=dict)
    events: Counter[tuple[str, str | None]] = field(default_factory=Counter)


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "flagtui.sandbox",
            "--port",
            str(port),
            "--db",
            str(db),
            "--size",
            "demo",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", seconds=30)
    except BaseException:
        process.kill()
        raise
    return process


def initial_state(db: Path) -> tuple[list[tuple[str, str, int, str | None]], dict[str, int | None]]:
    conn = sqlite3.connect(db)
    try:
        features = conn.execute(
            "SELECT name, project, stale, description FROM features"
            " WHERE archived_at IS NULL ORDER BY name"
        ).fetchall()
        lifetimes = dict(conn.execute("SELECT id, lifetime_days FROM feature_types").fetchall())
    finally:
        conn.close()
    return features, lifetimes


def events_after(db: Path, last_id: int) -> Counter[tuple[str, str | None]]:
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT type, COALESCE(feature_name, json_extract(data, '$.id')) FROM events"
            " WHERE id > ?",
            (last_id,),
        ).fetchall()
    finally:
        conn.close()
    return Counter((t, f) for t, f in rows)


async def client_work(
    worker: int,
    url: str,
    token: str,
    features: list[tuple[str, str, int, str | None]],
    expected: Expected,
    writes: int,
) -> None:
    async with httpx.AsyncClient(
        base_url=url, headers={"Authorization": token}, timeout=30
    ) as client:
        for i in range(writes):
            if worker < len(TYPES) and i % 10 == 9:
                type_id = TYPES[worker]
                days = None if i % 20 == 9 and expected.lifetime[type_id] is not None else i
                response = await client.put(
                    f"/api/admin/feature-types/{type_id}/lifetime", json={"lifetimeDays": days}
                )
                assert response.status_code == 200, response.text
                assert response.json()["lifetimeDays"] == days
                if expected.lifetime[type_id] != days:
                    expected.events[("feature-type-updated", type_id)] += 1
                expected.lifetime[type_id] = days
                continue
            name, project, _, _ = features[i % len(features)]
            path = f"/api/admin/projects/{project}/features/{name}"
            if i % 2:
                stale = not expected.stale[name]
                patch = [{"op": "replace", "path": "/stale", "value": stale}]
                response = await client.patch(path, json=patch)
                assert response.status_code == 200, response.text
                expected.stale[name] = stale
                expected.events[("feature-stale-on" if stale else "feature-stale-off", name)] += 1
            else:
                text = f"client {worker} write {i} ✓"
                patch = [{"op": "replace", "path": "/description", "value": text}]
                response = await client.patch(path, json=patch)
                assert response.status_code == 200, response.text
                expected.description[name] = text
            expected.events[("feature-metadata-updated", name)] += 1
            body = response.json()
            assert body["stale"] == expected.stale[name]
            assert body["description"] == expected.description[name]


async def verify(url: str, token: str, db: Path, last_id: int, expected: Expected) -> None:
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": token}) as client:
        types = (await client.get("/api/admin/feature-types")).json()["types"]
        assert {t["id"]: t["lifetimeDays"] for t in types} == expected.lifetime
        names = sorted(expected.description)
        for start in range(0, len(names), 40):
            batch = names[start : start + 40]
            answers = await asyncio.gather(
                *(
                    client.get(f"/api/admin/projects/{expected.project[n]}/features/{n}")
                    for n in batch
                )
            )
            for name, answer in zip(batch, answers, strict=True):
                feature = answer.json()
                assert feature["description"] == expected.description[name], name
                assert feature["stale"] == expected.stale[name], name
    assert events_after(db, last_id) == expected.events


@pytest.mark.slow
@pytest.mark.timeout(900)  # under load; how fast is the bench's business, not this test's
async def test_concurrent_writes_are_all_persisted_and_survive_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "load.db"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = start(db, port)
    try:
        token = read_tokens(db).admin
        features, lifetimes = initial_state(db)
        conn = sqlite3.connect(db)
        last_id, newest = conn.execute("SELECT max(id), max(created_at) FROM events").fetchone()
        conn.close()
        # `python -m flagtui.sandbox` generates a new database around the present
        assert newest > (datetime.now(UTC) - timedelta(days=1)).isoformat()[:19]
        expected = Expected(
            description={f[0]: f[3] for f in features},
            stale={f[0]: bool(f[2]) for f in features},
            lifetime=dict(lifetimes),
            project={f[0]: f[1] for f in features},
        )
        per_client = WRITES // CLIENTS
        await asyncio.gather(
            *(
                client_work(w, url, token, features[w::CLIENTS], expected, per_client)
                for w in range(CLIENTS)
            )
        )
        assert expected.events.total() >= WRITES
        await verify(url, token, db, last_id, expected)

        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        process = start(db, port)
        await verify(url, token, db, last_id, expected)
    finally:
        process.kill()
        process.wait(10)
