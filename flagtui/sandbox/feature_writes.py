"""Feature flag writes: PATCH and lifecycle uncomplete.

PATCH applies RFC 6902 operations (add, remove, replace, copy, move: the contract's five;
`test` is refused) to the Feature record as GET returns it. As on real Unleash, a body that
is not an array of operations with a known op and a string path is a 400 before the feature
is looked up; anything else wrong with it is a 400 only after an unknown feature's 404.
Only description, type, stale, impressionData and archived may end up different; any other
change (for example /name or /project) is a 400 ValidationError, as is a non-boolean flag. A
type that is no feature type is stored, as real Unleash 6.10-8.2 store it (the contract is
silent; the client refuses it before sending). Removing /description sets it to null.

`/archived` is stored as real Unleash stores it, which is not its archive (`archive`): only the
archived mark changes, with no feature-archived or -revived event, the lifecycle stage stays,
and a flag unarchived this way keeps its environments on. The client never sends it.

Events: any change records feature-metadata-updated (data and preData: the feature's
metadata), plus feature-stale-on/-off when stale changed. A PATCH that changes nothing records
nothing.

Uncomplete: a completed feature drops its completed stage and is back in the stage it was in
before; on a feature that is not completed it answers 200 and changes nothing (real Unleash).
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Mapping
from typing import Any, cast

import jsonpatch
import jsonpointer

from flagtui.contract import PATCH_OPS, PATCH_OPS_WITH_FROM, PATCH_OPS_WITH_VALUE
from flagtui.sandbox import shapes
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.errors import bad_request
from flagtui.sandbox.events import record
from flagtui.sandbox.features import feature_record, feature_row, search_text
from flagtui.sandbox.inputs import Call

PATCHABLE = ("description", "type", "stale", "impressionData", "archived")

FLAG_EVENTS = (("stale", "feature-stale-on", "feature-stale-off"),)


def metadata(row: sqlite3.Row) -> dict[str, Any]:
    """The short feature row real Unleash puts in metadata events."""
    return {
        "name": row["name"],
        "description": row["description"],
        "type": row["type"],
        "project": row["project"],
        "stale": bool(row["stale"]),
        "impressionData": bool(row["impression_data"]),
        "archived": row["archived_at"] is not None,
        "createdAt": row["created_at"],
    }


def _validate_shape(body: Any) -> list[dict[str, Any]]:
    """What real Unleash's request schema checks, before it looks the feature up: an array
    of objects with a known op and a string path (and from, when given)."""
    if not isinstance(body, list):
        raise bad_request("The request body must be an array of JSON patch operations")
    for op in body:
        if not isinstance(op, dict):
            raise bad_request("Each patch operation must be an object")
        if op.get("op") not in PATCH_OPS:
            raise bad_request(f'"op" must be one of {", ".join(PATCH_OPS)}')
        if not isinstance(op.get("path"), str):
            raise bad_request('Each patch operation needs a string "path"')
        if "from" in op and not isinstance(op["from"], str):
            raise bad_request('"from" must be a string')
    return body


def _validate_arguments(operations: list[dict[str, Any]]) -> None:
    """What only applying the patch finds out, so an unknown feature is a 404 first."""
    for op in operations:
        if op["op"] in PATCH_OPS_WITH_FROM and "from" not in op:
            raise bad_request(f'A {op["op"]} operation needs a string "from"')
        if op["op"] in PATCH_OPS_WITH_VALUE and "value" not in op:
            raise bad_request(f'An {op["op"]} operation needs a "value"')


def _working_copy(document: Mapping[str, Any], operations: list[dict[str, Any]]) -> dict[str, Any]:
    """A copy the patch may change in place: top-level values the operations reach into (by
    path or from) are deep copies, the others are shared with the original, untouched."""
    touched: set[str] = set()
    for op in operations:
        for pointer in (op["path"], op.get("from")):
            if isinstance(pointer, str):
                touched.add(pointer[1:].split("/", 1)[0].replace("~1", "/").replace("~0", "~"))
    if "" in touched:
        return copy.deepcopy(dict(document))
    return {k: copy.deepcopy(v) if k in touched else v for k, v in document.items()}


def _apply(document: Mapping[str, Any], operations: list[dict[str, Any]]) -> dict[str, Any]:
    try:
        patched = jsonpatch.JsonPatch(operations).apply(
            _working_copy(document, operations), in_place=True
        )
    except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as error:
        raise bad_request(f"The patch could not be applied: {error}") from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
        raise bad_request(f"The patch could not be applied: {error}") from None
    if not isinstance(patched, dict):
        raise bad_request("The patch must leave a feature object")
    return patched


def _checked_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The patched fields that changed, validated; a change elsewhere is a 400."""
    after = dict(after)
    if "description" not in after:
        after["description"] = None
    for key in set(before) | set(after):
        if key not in PATCHABLE and before.get(key, ...) != after.get(key, ...):
            raise bad_request(f"/{key} cannot be patched; only {', '.join(PATCHABLE)} can")
    changes = {k: after.get(k, ...) for k in PATCHABLE if after.get(k, ...) != before[k]}
    if "description" in changes and not isinstance(changes["description"], str | None):
        raise bad_request('"description" must be a string or null')
    for flag in ("stale", "impressionData", "archived"):
        if flag in changes and not isinstance(changes[flag], bool):
            raise bad_request(f'"{flag}" must be a boolean')
    if "type" in changes and not isinstance(changes["type"], str):
        raise bad_request('"type" must be a string')
    return changes


def patch_feature(call: Call) -> shapes.Feature:
    operations = _validate_shape(call.body)
    project, name = call.path["project"], call.path["feature"]
    with call.db.write() as conn:
        row = feature_row(conn, project, name)
        _validate_arguments(operations)
        before = feature_record(conn, row)
        changes = _checked_changes(before, _apply(before, operations))
        if not changes:
            return before
        now = now_iso()
        description = changes.get("description", before["description"])
        tags = before["tags"]
        conn.execute(
            "UPDATE features SET description = ?, type = ?, stale = ?, impression_data = ?,"
            " search_text = ? WHERE name = ?",
            (
                description,
                changes.get("type", before["type"]),
                int(changes.get("stale", before["stale"])),
                int(changes.get("impressionData", before["impressionData"])),
                search_text(name, description, tags),
                name,
            ),
        )
        if "archived" in changes:  # the mark alone: neither stage nor environments (see above)
            archived_at = now if changes["archived"] else None
            conn.execute("UPDATE features SET archived_at = ? WHERE name = ?", (archived_at, name))
            after = feature_record(conn, feature_row(conn, project, name))
        else:  # nothing else in the record depends on the patched fields
            after = cast(shapes.Feature, {**before, **changes})  # checked fields only
        pre_data = metadata(row)
        scope = {"project": project, "feature": name}
        record(
            conn,
            call.caller,
            "feature-metadata-updated",
            data={**pre_data, **{k: v for k, v in changes.items() if k in pre_data}},
            pre_data=pre_data,
            **scope,
        )
        # A flag switched on or off also records its own event, as Unleash does.
        for field, when_on, when_off in FLAG_EVENTS:
            if field in changes:
                value = changes[field]
                record(
                    conn,
                    call.caller,
                    when_on if value else when_off,
                    data={"name": name, field: value},
                    pre_data={"name": name, field: not value},
                    **scope,
                )
        return after


def _sync_stage(conn: sqlite3.Connection, name: str, now: str) -> None:
    """Copy the latest lifecycle stage onto the feature (re-entering `initial` if none is left)."""
    latest = conn.execute(
        "SELECT stage, entered_at FROM lifecycle_stages WHERE feature = ? ORDER BY seq DESC"
        " LIMIT 1",
        (name,),
    ).fetchone()
    if latest is None:
        conn.execute(
            "INSERT INTO lifecycle_stages (feature, stage, entered_at) VALUES (?, 'initial', ?)",
            (name, now),
        )
        latest = {"stage": "initial", "entered_at": now}
    conn.execute(
        "UPDATE features SET stage = ?, stage_entered_at = ? WHERE name = ?",
        (latest["stage"], latest["entered_at"], name),
    )


def uncomplete(call: Call) -> None:
    project, name = call.path["project"], call.path["feature"]
    with call.db.write() as conn:
        row = feature_row(conn, project, name)
        if row["stage"] != "completed":
            return
        completed = conn.execute(
            "SELECT seq, entered_at, status, status_value FROM lifecycle_stages"
            " WHERE feature = ? AND stage = 'completed' ORDER BY seq DESC LIMIT 1",
            (name,),
        ).fetchone()
        conn.execute("DELETE FROM lifecycle_stages WHERE seq = ?", (completed["seq"],))
        _sync_stage(conn, name, now_iso())
        after = feature_row(conn, project, name)
        record(
            conn,
            call.caller,
            "feature-uncompleted",
            project=project,
            feature=name,
            data={"featureName": name, "stage": after["stage"]},
            pre_data={
                "featureName": name,
                "stage": "completed",
                "enteredStageAt": completed["entered_at"],
                "status": completed["status"],
                "statusValue": completed["status_value"],
            },
        )
