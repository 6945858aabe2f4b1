"""What a grouped answer says that the last one did not: the groups that are new, changed or
recovered since the state a cron job keeps (`flagtui failures --report-changes`), so that it
mails once per change and then nothing until the next one.

A group is an integration and an error key (`grouping.error_key`). The state remembers each
group reported, failing or recovered, with its last failure and the text last reported:

- **new**: failing now and not failing in the state (first seen, or failing again after it
  recovered: a failure later than the one the state holds);
- **changed**: failing in the state, failed since, and its newest failure reads otherwise than
  the one reported (`status code: 403`, now `status code: 500`: grouped alike);
- **recovered**: failing in the state, no failure since, and its integration is disabled,
  deleted or gone; or no failure of it in the whole window and the server's newest delivery of
  the integration succeeded after the group's last failure. An integration nothing was sent to
  (no event) stays failing: silence proves nothing.

An incomplete answer declares no recovery (it may have missed the failures); new and changed
groups it found are said all the same.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from flagtui.triage.records import FailureGroup, FailureWindow, IntegrationRef, aware
from flagtui.value import Value

STATE_VERSION = 1
NEW, CHANGED, RECOVERED = "new", "changed", "recovered"


class Change(Value):
    """One line of the report: `group` is the answer's (None for a recovered one, which is
    described by what the state remembered: `remembered`)."""

    def __init__(
        self,
        kind: str,
        integration: IntegrationRef,
        group: FailureGroup | None,
        remembered: dict[str, Any],
    ) -> None:
        self.kind = kind
        self.integration = integration
        self.group = group
        self.remembered = remembered


def _key(integration_id: int, error_key: str) -> tuple[int, str]:
    return integration_id, error_key


def _iso(moment: datetime) -> str:
    return aware(moment).isoformat().replace("+00:00", "Z")


def _time(text: str) -> datetime:
    return aware(datetime.fromisoformat(text))


def read_state(data: Any) -> dict[tuple[int, str], dict[str, Any]]:
    """The state's groups by key; ValueError naming what is wrong when it is not a state."""
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        raise ValueError(f"not a failure-groups state of version {STATE_VERSION}")
    groups = data.get("groups")
    if not isinstance(groups, list):
        raise ValueError("its `groups` is not a list")
    held = {}
    for entry in groups:
        try:
            key = _key(int(entry["integrationId"]), str(entry["errorKey"]))
            _time(entry["lastSeen"])
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"a group it holds cannot be read: {entry!r:.80}") from None
        held[key] = entry
    return held


def state_data(held: dict[tuple[int, str], dict[str, Any]]) -> dict[str, Any]:
    return {"version": STATE_VERSION, "groups": list(held.values())}


def _remember(group: FailureGroup, text: str, status: str) -> dict[str, Any]:
    return {
        "integrationId": group.integration.id,
        "errorKey": group.error_key,
        "status": status,
        "integration": group.integration.label,
        "text": text,
        "count": group.count,
        "firstSeen": _iso(group.first_seen),
        "lastSeen": _iso(group.last_seen),
    }


def changes(
    window: FailureWindow,
    held: dict[tuple[int, str], dict[str, Any]],
    text: Callable[[FailureGroup], str],
    integration_id: int | None = None,
) -> tuple[list[Change], dict[tuple[int, str], dict[str, Any]]]:
    """The report (new and changed groups as the answer orders them, then the recovered) and
    the state to keep. `text` is a group's newest failure as it may be shown (masked); an
    answer of one integration (`integration_id`) leaves the others' groups as they were."""
    found: list[Change] = []
    kept = dict(held)
    now = {_key(g.integration.id, g.error_key): g for g in window.groups}
    for key, group in now.items():
        before = held.get(key)
        shown = text(group)
        later = before is None or aware(group.last_seen) > _time(before["lastSeen"])
        if before is None or (before["status"] != "failing" and later):
            kind: str | None = NEW
        elif before["status"] == "failing" and later and shown != before["text"]:
            kind = CHANGED
        else:
            kind = None
        if kind is not None:
            found.append(Change(kind, group.integration, group, before or {}))
        if later:  # what it is now: its last failure, count and text
            kept[key] = _remember(group, shown, "failing")
    if window.complete:
        refs = {ref.id: ref for ref in window.integrations}
        for key, before in held.items():
            if integration_id not in (None, key[0]) or before["status"] != "failing":
                continue
            if _recovered(window, now.get(key), before, refs):
                ref = refs.get(key[0]) or IntegrationRef(key[0], "unknown", deleted=True)
                found.append(Change(RECOVERED, ref, None, before))
                kept[key] = before | {"status": "recovered", "integration": ref.label}
    if window.since is not None:  # a recovered group older than the window cannot come back
        since = aware(window.since)
        kept = {
            k: v
            for k, v in kept.items()
            if v["status"] == "failing" or _time(v["lastSeen"]) >= since
        }
    return found, kept


def _recovered(
    window: FailureWindow,
    group: FailureGroup | None,
    before: dict[str, Any],
    refs: dict[int, IntegrationRef],
) -> bool:
    last = _time(before["lastSeen"])
    if group is not None and aware(group.last_seen) > last:
        return False  # it failed again
    ref = refs.get(int(before["integrationId"]))
    if ref is None or ref.deleted or not ref.enabled:
        return True
    succeeded = window.succeeded.get(ref.id)
    return group is None and succeeded is not None and succeeded > last
