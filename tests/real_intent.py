"""What an admin's write meant, read back from a real Unleash with a plain httpx client: the events
the event log recorded since a mark, and the flag's lifecycle stage.

Events: `GET /api/admin/search/events` (6.x to 8.x), newest first; a write's events are those
with an id above the newest id seen before it (`newest_event_id`). The lifecycle:
`GET /api/admin/projects/:p/features/:f/lifecycle`, oldest stage first; it still answers for an
archived flag (whose feature read is a 404) on 6.10.1, 7.5.1 and 8.2.0, so one route serves all.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import httpx
import psycopg
from real_sdk import wait_for

PROJECT = "default"  # OSS has one project
Event = tuple[str, str | None]  # (type, environment)


def newest_event_id(admin: httpx.Client) -> int:
    answer = admin.get("/api/admin/search/events", params={"limit": 1})
    assert answer.status_code == 200, answer.text
    events = answer.json()["events"]
    return int(events[0]["id"]) if events else 0


def _events_since(admin: httpx.Client, mark: int, **filters: str) -> list[dict]:
    answer = admin.get("/api/admin/search/events", params={"limit": 100, **filters})
    assert answer.status_code == 200, answer.text
    return sorted((e for e in answer.json()["events"] if e["id"] > mark), key=lambda e: e["id"])


def flag_events_since(admin: httpx.Client, flag: str, mark: int) -> list[dict]:
    """The flag's event records after `mark`, oldest first."""
    return _events_since(admin, mark, feature=f"IS:{flag}")


def flag_event_types_since(admin: httpx.Client, flag: str, mark: int) -> list[Event]:
    return [(e["type"], e["environment"]) for e in flag_events_since(admin, flag, mark)]


def wait_for_flag_events(
    admin: httpx.Client, flag: str, mark: int, expected: Sequence[Event]
) -> list[Event]:
    """Poll until the flag's events since `mark` include every expected one (their order and
    any others are the caller's to assert); the events seen."""
    return wait_for(
        f"the events of {flag} after event {mark}",
        lambda: flag_event_types_since(admin, flag, mark),
        lambda seen: all(event in seen for event in expected),
    )


def wait_for_project_event(
    admin: httpx.Client, project: str, event_type: str, environment: str, mark: int
) -> dict:
    """The first `event_type` of `project` about `environment` after `mark` (these events name
    no flag)."""
    found = wait_for(
        f"{event_type} for {project}/{environment} after event {mark}",
        lambda: [
            e
            for e in _events_since(admin, mark, project=f"IS:{project}", type=f"IS:{event_type}")
            if e["environment"] == environment
        ],
        bool,
    )
    return found[0]


def lifecycle_stage(admin: httpx.Client, project: str, flag: str) -> str | None:
    """The flag's current stage; None before Unleash has written the first one (it does so in
    an event handler, after answering the creation or the revival)."""
    answer = admin.get(f"/api/admin/projects/{project}/features/{flag}/lifecycle")
    assert answer.status_code == 200, answer.text
    stages = answer.json()
    return str(stages[-1]["stage"]) if stages else None


def wait_for_stage(admin: httpx.Client, project: str, flag: str, stage: str) -> None:
    wait_for(
        f"the lifecycle stage of {flag}",
        lambda: lifecycle_stage(admin, project, flag),
        lambda seen: seen == stage,
    )


def default_strategy_of(admin: httpx.Client, env: str) -> dict | None:
    envs = admin.get(f"/api/admin/environments/project/{PROJECT}").json()["environments"]
    found: dict | None = next(e for e in envs if e["name"] == env).get("defaultStrategy")
    return found


def restore_default_strategy(admin: httpx.Client, env: str, before: dict | None) -> None:
    """Back to what it was: a strategy through the route, none through Unleash's database (no
    route unsets it), as `legacy_variants_flag` writes there."""
    if before is not None:
        url = f"/api/admin/projects/{PROJECT}/environments/{env}/default-strategy"
        assert admin.post(url, json=before).status_code == 200
        return
    pg = os.environ.get("FLAGTUI_TEST_ARCHIVE_PG")
    if not pg:
        return  # left at what Unleash does with none (a gradual rollout at 100 %)
    with psycopg.connect(pg, autocommit=True) as conn:
        (database,) = conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE 'unleash%'"
        ).fetchone()
    with psycopg.connect(pg.rsplit("/", 1)[0] + f"/{database}", autocommit=True) as conn:
        conn.execute(
            "UPDATE project_environments SET default_strategy = NULL"
            " WHERE project_id = %s AND environment_name = %s",
            (PROJECT, env),
        )
