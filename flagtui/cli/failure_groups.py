"""`flagtui failures --group` and `--report-changes`: the window's failures grouped by
integration and error (`triage.grouping`), each group with its count, first and last failure
and its newest failure's triggering change and who made it; and, with a state file, only the
groups that are new, changed or recovered since the last run (`triage.changes`).

The state is a small JSON file, 0600, kept beside the delivery archive by default (the
archive's SQLite file, or flagtui's folder of archives for one on PostgreSQL or none), named
after it: one per server, so one crontab line needs no path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flagtui.cli.exits import FAILURES_FOUND, INCOMPLETE, OK, UsageError
from flagtui.cli.output import Printer
from flagtui.triage.records import FailureGroup, FailureWindow, labels

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from flagtui.config import Profile
    from flagtui.triage.changes import Change
    from flagtui.triage.records import Failure

    Sourced = Callable[[Failure], dict[str, Any]]

STATE_SUFFIX = ".failure-groups.json"
CHANGE_FIELDS = ("id", "type", "featureName", "project", "environment", "createdBy", "createdAt")
GROUP_COLUMNS = (
    "integrationId", "integration", "errorKey", "count", "firstSeen", "lastSeen",
    "newestChange.type", "newestChange.featureName", "newestChange.createdBy", "stateDetails",
)  # fmt: skip
TABLE_COLUMNS = (
    "lastSeen", "integration", "integrationId", "count", "firstSeen", "newestChange.type",
    "newestChange.featureName", "newestChange.createdBy", "stateDetails",
)  # fmt: skip


def default_state_path(profile: Profile) -> Path:
    """Beside the profile's SQLite archive (named after it); for PostgreSQL or no archive, in
    flagtui's folder of archives, named after the server's default archive."""
    # Here, not at the top: the command line's --help imports this module
    from flagtui.archive.location import archive_url, default_archive_path
    from flagtui.archive.sqlite_reads import sqlite_path

    url = archive_url(profile)
    file = sqlite_path(url) if url else None
    archive = file or default_archive_path(profile.url)
    return archive.with_name(archive.stem + STATE_SUFFIX)


def _iso(moment: Any) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def group_record(group: FailureGroup, names: dict[int, str], sourced: Sourced) -> dict[str, Any]:
    """A group as printed: its integration (named as in the table of failures), the error, how
    many and when, and its newest failure's text and triggering change (masked as a row)."""
    newest = sourced(group.newest) if group.newest is not None else {}
    event = newest.get("event") if isinstance(newest.get("event"), dict) else None
    ref = group.integration
    return {
        "integrationId": ref.id,
        "integration": names.get(ref.id, ref.label),
        "provider": ref.provider,
        "errorKey": group.error_key,
        "count": group.count,
        "firstSeen": _iso(group.first_seen),
        "lastSeen": _iso(group.last_seen),
        "stateDetails": newest.get("stateDetails", group.example),
        "newestDelivery": newest.get("id"),
        "newestChange": {k: event.get(k) for k in CHANGE_FIELDS if k in event} if event else None,
        "source": newest.get("source"),
    }


def change_record(change: Change, names: dict[int, str], sourced: Sourced) -> dict[str, Any]:
    """A line of the report: `change` (new, changed, recovered) and the group; a recovered one
    as the state remembered it (its last failure, its text), its integration as it is now."""
    if change.group is not None:
        return {"change": change.kind} | group_record(change.group, names, sourced)
    held = change.remembered
    ref = change.integration
    return {
        "change": change.kind,
        "integrationId": ref.id,
        "integration": names.get(ref.id, ref.label),
        "provider": ref.provider,
        "errorKey": held.get("errorKey"),
        "count": held.get("count"),
        "firstSeen": held.get("firstSeen"),
        "lastSeen": held.get("lastSeen"),
        "stateDetails": held.get("text"),
        "newestDelivery": None,
        "newestChange": None,
        "source": None,
    }


def print_groups(
    window: FailureWindow, out: Printer, args: argparse.Namespace, sourced: Sourced
) -> int:
    """The window's groups; the exit code --fail-on-failures asks for."""
    names = labels(window.integrations)
    rows = [group_record(g, names, sourced) for g in window.groups]
    _printer(out, ()).many(rows)
    if args.fail_on_failures and window.total:
        return FAILURES_FOUND
    return INCOMPLETE if args.fail_on_failures and not window.complete else OK


def report_changes(
    window: FailureWindow,
    out: Printer,
    state: Path,
    sourced: Sourced,
    *,
    say: Callable[[], None],
    integration_id: int | None = None,
) -> int:
    """The groups new, changed or recovered since the state, then the state written: exit 1
    when there are any, else 8 when the answer is incomplete, else 0. Nothing is printed on a
    table or CSV when nothing changed and the answer is complete (`say`, which prints what the
    answer says of itself, is then not called), so that cron mails only what changed."""
    # Here, not at the top: only this report reads a state
    from flagtui.triage.changes import changes, state_data

    held = _read_state(state)
    found, kept = changes(window, held, lambda g: _text(g, sourced), integration_id)
    names = labels(window.integrations)
    if found or window.complete is False or out.is_json:
        say()
        _printer(out, ("change",)).many(change_record(c, names, sourced) for c in found)
    _write_state(state, state_data(kept))
    if found:
        return FAILURES_FOUND
    return OK if window.complete else INCOMPLETE


def _text(group: FailureGroup, sourced: Sourced) -> str:
    if group.newest is None:
        return group.example
    return str(sourced(group.newest).get("stateDetails") or "")


def _printer(out: Printer, first: tuple[str, ...]) -> Printer:
    if out.format == "table":
        return Printer("table", (*first, *TABLE_COLUMNS), whole=("integration",))
    return Printer(out.format, (*first, *GROUP_COLUMNS))


def _read_state(path: Path) -> dict[tuple[int, str], dict[str, Any]]:
    from flagtui.private_files import TooLarge, read_capped
    from flagtui.triage.changes import read_state

    named = f"--report-changes {path}"
    try:
        text = read_capped(path)
    except FileNotFoundError:
        return {}
    except (OSError, TooLarge) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise UsageError(f"{named}: cannot be read ({why})") from None
    try:
        return read_state(json.loads(text))
    except ValueError as exc:
        raise UsageError(f"{named}: {exc} (remove it to start again)") from None


def _write_state(path: Path, data: dict[str, Any]) -> None:
    from flagtui.private_files import write_private

    try:
        write_private(path, json.dumps(data, indent=1), ours=False)
    except OSError as exc:
        raise UsageError(f"--report-changes {path}: cannot be written ({exc.strerror})") from None
