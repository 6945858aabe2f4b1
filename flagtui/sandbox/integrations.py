"""Integrations (addons): their configurations, and simulated deliveries of recorded events.

No delivery leaves the process: each delivery's outcome is decided by a hash of the event id
and the addon id and by the addon's simulated `behaviour` (a reliable endpoint, a flaky webhook
answering 503/502 or timing out, a Slack app with a channel that no longer exists, a Datadog
key that was revoked, a rate-limited New Relic account, a loopback port nothing listens on), so
the history is deterministic.
States: success, failed, successWithErrors (the values in real Unleash's code).
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import socket
import sqlite3
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from flagtui.contract import PAGE_DEFAULT, PAGE_MAX
from flagtui.sandbox import shapes
from flagtui.sandbox.addon_providers import PROVIDERS
from flagtui.sandbox.clock import iso, parse_iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import not_found
from flagtui.sandbox.inputs import Call, lenient_page

MASK = "*****"

SENSITIVE = {p["name"]: {q["name"] for q in p["parameters"] if q["sensitive"]} for p in PROVIDERS}

ADDON_COLUMNS = (
    "id, provider, description, enabled, events, projects, environments, parameters,"
    " created_at, behaviour"
)


def _addon(row: sqlite3.Row) -> shapes.Addon:
    secret = SENSITIVE.get(row["provider"], set())
    parameters = json.loads(row["parameters"])
    return {
        "id": row["id"],
        "provider": row["provider"],
        "description": row["description"],
        "enabled": bool(row["enabled"]),
        "events": json.loads(row["events"]),
        "projects": json.loads(row["projects"]),
        "environments": json.loads(row["environments"]),
        "parameters": {k: MASK if k in secret else v for k, v in parameters.items()},
        "createdAt": row["created_at"],
    }


def list_addons(call: Call) -> shapes.Addons:
    with call.db.read() as conn:
        rows = conn.execute(f"SELECT {ADDON_COLUMNS} FROM addons ORDER BY id").fetchall()
    return {"addons": [_addon(r) for r in rows], "providers": PROVIDERS}


def _integration_event(row: sqlite3.Row) -> shapes.IntegrationEvent:
    return {
        "id": str(row["id"]),
        "integrationId": row["addon_id"],
        "createdAt": row["created_at"],
        "state": row["state"],
        "stateDetails": row["state_details"],
        "event": json.loads(row["event"]),
        "details": json.loads(row["details"]),
    }


def addon_events(call: Call) -> shapes.IntegrationEvents:
    raw_id = call.path["id"]
    limit, offset = lenient_page(call.query, PAGE_DEFAULT, PAGE_MAX)
    if not (raw_id.isascii() and raw_id.isdigit() and len(raw_id) <= 10):
        raise not_found(f"Could not find addon with id {raw_id}")
    with call.db.read() as conn:
        if conn.execute("SELECT 1 FROM addons WHERE id = ?", (int(raw_id),)).fetchone() is None:
            raise not_found(f"Could not find addon with id {raw_id}")
        rows = conn.execute(
            "SELECT id, addon_id, created_at, state, state_details, event, details"
            " FROM integration_events WHERE addon_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
            (int(raw_id), limit, offset),
        ).fetchall()
    return {"integrationEvents": [_integration_event(r) for r in rows]}


@dataclass(frozen=True)
class Subscription:
    """An enabled addon's configuration, parsed once: what it receives and how it behaves."""

    id: int
    provider: str
    behaviour: str
    events: frozenset[str]
    projects: frozenset[str]
    environments: frozenset[str]
    parameters: dict[str, Any]

    @classmethod
    def of(cls, addon: sqlite3.Row) -> Subscription:
        return cls(
            id=addon["id"],
            provider=addon["provider"],
            behaviour=addon["behaviour"],
            events=frozenset(json.loads(addon["events"])),
            projects=frozenset(json.loads(addon["projects"])),
            environments=frozenset(json.loads(addon["environments"])),
            parameters=json.loads(addon["parameters"]),
        )

    def wants(self, event: dict[str, Any]) -> bool:
        if event["type"] not in self.events:
            return False
        projects, environments = self.projects, self.environments
        project_ok = not projects or "*" in projects or event["project"] in projects
        env = event["environment"]
        env_ok = not environments or "*" in environments or env is None or env in environments
        return project_ok and env_ok


def subscriptions(conn: sqlite3.Connection) -> list[Subscription]:
    rows = conn.execute(f"SELECT {ADDON_COLUMNS} FROM addons WHERE enabled = 1 ORDER BY id")
    return [Subscription.of(r) for r in rows]


def describe(event: dict[str, Any]) -> str:
    """The one-line message an integration would post for an event."""
    who = event["createdBy"]
    what = event["type"].replace("-", " ")
    where = f" in project {event['project']}" if event["project"] else ""
    if event["featureName"]:
        return f"{who}: {what} for feature flag {event['featureName']}{where}"
    return f"{who}: {what}{where}"


def outcome(
    behaviour: str, provider: str, roll: int, parameters: dict[str, Any], message: str
) -> tuple[str, str, dict[str, Any]]:
    """(state, stateDetails, details) of one simulated delivery; roll is in 0..99."""
    details: dict[str, Any] = {"message": message}
    if provider in ("slack-app", "slack"):
        channels = [c.strip() for c in str(parameters.get("defaultChannels", "")).split(",")]
        channels = [c for c in channels if c] or [str(parameters.get("defaultChannel", "#general"))]
        details["channels"] = channels
        if behaviour == "missing-channel" and len(channels) > 1 and roll < 60:
            missing = channels[-1]
            return (
                "successWithErrors",
                f"Some ({len(channels) - 1} of {len(channels)}) Slack App messages were sent"
                f" successfully. Errors: channel_not_found ({missing})",
                details,
            )
        return (
            "success",
            f"All ({len(channels)}) Slack App messages were sent successfully.",
            details,
        )
    label = {
        "webhook": "Webhook request",
        "teams": "Teams webhook request",
        "teamsworkflow": "Teams webhook request",  # as real Unleash's teams-workflow addon says
        "datadog": "Datadog Events API request",
        "new-relic": "New Relic Events API request",
    }.get(provider, "Request")
    if behaviour == "revoked-key":
        return "failed", f"{label} failed with status code: 403", details
    if behaviour == "unreachable":  # as real Unleash 8.2 says anything without an answer
        # With where it was sent, as real Unleash records a webhook's delivery.
        url = parameters.get("url")
        return "failed", f"{label} failed with status code: 500", details | {"url": url}
    if behaviour == "flaky-endpoint":
        if roll < 15:
            return "failed", f"{label} failed with status code: 503", details
        if roll < 22:
            return "failed", f"{label} failed with status code: 502", details
        if roll < 27:
            return "failed", f"{label} failed: network timeout after 10000 ms", details
    if behaviour == "rate-limited" and roll < 8:
        return "failed", f"{label} failed with status code: 429", details
    return "success", f"{label} was successful with status code: 200", details


def target_behaviour(parameters: dict[str, Any]) -> str:
    """How a created (or re-pointed) integration's deliveries go: "reliable", unless its `url`
    names a loopback port that refuses a connection, tried once, now ("unreachable": every
    delivery fails). Real Unleash refuses loopback targets unless
    UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION is set; with it, a dead port fails every POST."""
    parts = urlsplit(str(parameters.get("url", "")))
    try:
        host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        loopback = host == "localhost" or ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return "reliable"
    if not loopback:
        return "reliable"
    try:
        socket.create_connection((host, port), timeout=1).close()
    except ConnectionRefusedError:
        return "unreachable"
    except OSError:
        pass
    return "reliable"


def roll_for(event_id: int, addon_id: int) -> int:
    digest = hashlib.blake2b(f"{event_id}:{addon_id}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % 100


def deliveries(
    addons: list[Subscription], event: dict[str, Any]
) -> list[tuple[int, str, str, str, str, str]]:
    """The integration_events rows for one event: one per subscribed addon."""
    rows = []
    encoded: str | None = None
    for addon in addons:
        if not addon.wants(event):
            continue
        state, state_details, details = outcome(
            addon.behaviour,
            addon.provider,
            roll_for(event["id"], addon.id),
            addon.parameters,
            describe(event),
        )
        if encoded is None:
            encoded = dumps(event)
        rows.append((addon.id, event["createdAt"], state, state_details, encoded, dumps(details)))
    return rows


def deliver(conn: sqlite3.Connection, event: dict[str, Any]) -> None:
    """Record one integration event per enabled addon subscribed to this event.

    A connection reads them once; PUT /addons/:id (addon_config.py) drops what it read."""
    cached = getattr(conn, "cached", None)
    if cached is None:
        addons = subscriptions(conn)
    else:
        addons = cached.get("subscriptions") or cached.setdefault(
            "subscriptions", subscriptions(conn)
        )
    rows = deliveries(addons, event)
    if not rows:
        return
    conn.executemany(
        "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
        " details) VALUES (?,?,?,?,?,?)",
        rows,
    )
    if getattr(conn, "forgets_deliveries", True):
        forget_deliveries(conn, rows[0][1])


RETAINED = 100  # deliveries kept across all integrations...
RETAINED_FOR = timedelta(hours=2)  # ...of this recent past, plus the latest per integration


def forget_deliveries(conn: sqlite3.Connection, now: str) -> None:
    """Real Unleash's retention rule (its integration events store's `cleanUpEvents`, run every
    15 minutes there): keep the newest 100 deliveries of the last 2 hours across all
    integrations, plus each integration's latest; delete the rest. Applied at every recording
    here, the worst case for a collector; `keep_all_deliveries` turns it off."""
    cutoff = iso(parse_iso(now) - RETAINED_FOR)
    conn.execute(
        "DELETE FROM integration_events WHERE id NOT IN (SELECT id FROM integration_events"
        " WHERE created_at >= ? ORDER BY id DESC LIMIT ?) AND id NOT IN"
        " (SELECT max(id) FROM integration_events GROUP BY addon_id)",
        (cutoff, RETAINED),
    )
