"""An apply is made against the plan that was shown: just before its first write, the objects
it writes are read again and planned again the same way (`compare_with_server`, the plan's
own comparison, for the plan's flags alone; the catalog for its segments and context
fields). If any of them is not as the plan said (someone edited, created or archived it
since), nothing is sent: `EditConflict` names each change, shown and now, and who made the
newest one where the event log says. Unleash has no conditional writes: this is the guard,
and the window it leaves is the apply itself."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from flagtui.api import errors
from flagtui.api.edits import EditConflict, FieldChange
from flagtui.fleet.flag_export import read_catalog
from flagtui.fleet.flag_shape import context_field_shape, segment_shape
from flagtui.fleet.flags_file import FlagsFile
from flagtui.fleet.plan import (
    Key,
    compare_with_server,
    object_changes,
    plain_shape,
    segment_ids_of,
)

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.fleet.flag_export import Catalog

RECORDED_FLAGS = 3  # changed flags whose newest events are looked up


def _said(action: str, changes: list[dict[str, Any]]) -> dict[str, Any]:
    """What the plan says of one object, as the comparison would say it again."""
    return {"action": action, "changes": [(c["what"], c["before"], c["after"]) for c in changes]}


def _flag_now(rows: list[dict[str, Any]]) -> dict[str, Any]:
    present = next((r for r in rows if r["what"] == "present"), None)
    if present is not None:
        action = "absent" if present["before"] else "create"
        return {"action": action, "changes": []}
    changes = [(r["what"], r["before"], r["after"]) for r in rows]
    return {"action": "update" if changes else "nothing", "changes": changes}


async def _flags_now(
    client: AdminClient, planned: Mapping[str, Any], catalog: Catalog
) -> dict[Key, dict[str, Any]]:
    by_project: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for flag in planned["flags"]:
        by_project[str(flag["project"])].append(flag)
    now: dict[Key, dict[str, Any]] = {}
    segments = [s["desired"] for s in planned["segments"]]
    for project, flags in by_project.items():
        desired = {(project, str(f["name"])): f["desired"] for f in flags if f.get("desired")}
        file = FlagsFile(
            projects=[project], environments=list(planned["environments"]),
            selected=[str(f["name"]) for f in flags], flags=list(desired.values()),
            segments=segments, context_fields=[],
        )  # fmt: skip
        compared = await compare_with_server(client, file, desired, segment_ids_of(file, catalog),
                                             catalog)  # fmt: skip
        rows: dict[Key, list[dict[str, Any]]] = defaultdict(list)
        for row in compared.rows:
            rows[(row["project"], row["featureName"])].append(row)
        for flag in flags:
            key = (project, str(flag["name"]))
            now[key] = _flag_now(rows.get(key, []))
    return now


async def check_unchanged(client: AdminClient, planned: Mapping[str, Any]) -> None:
    """Raises EditConflict, having sent nothing, if an object the plan writes is not as the
    plan said."""
    changed: list[FieldChange] = []
    catalog = await read_catalog(client)
    flags_now = await _flags_now(client, planned, catalog)
    moved: list[Key] = []
    for flag in planned["flags"]:
        key = (str(flag["project"]), str(flag["name"]))
        action = "absent" if flag["action"] == "prune" else flag["action"]
        shown = _said(action, flag.get("changes") or [])
        if flags_now[key] != shown:
            moved.append(key)
            changed.append(FieldChange(f"flag {key[0]}/{key[1]}", shown, flags_now[key]))
    kinds = (
        ("segment", "segments", {s.name: segment_shape(s) for s in catalog.segments}),
        ("context field", "contextFields",
         {f.name: context_field_shape(f) for f in catalog.context_fields}),
    )  # fmt: skip
    for kind, part, server in kinds:
        planned_objects = planned[part]
        now = {
            o["name"]: o
            for o in object_changes([plain_shape(o["desired"]) for o in planned_objects], server)
        }
        for item in planned_objects:
            shown = _said(item["action"], item.get("changes") or [])
            again = now.get(item["name"])
            said_now = _said(again["action"], again.get("changes") or []) if again else None
            if said_now != shown:
                changed.append(FieldChange(f"{kind} {item['name']}", shown, said_now))
    if not changed:
        return
    recorded = []
    for project, name in moved[:RECORDED_FLAGS]:
        try:
            page = await client.events.search(project=project, feature=name, limit=1)
        except (errors.NotSupported, errors.NotFoundError, errors.NoAccessError):
            break  # the conflict says the event log does not say who
        recorded += page.events
    raise EditConflict(
        f"{len(changed)} of the plan's objects", "the apply", changed, None, recorded
    )
