"""Change requests of a project: the list, one by id, and deletion.

States: those of `flagtui.contract.CHANGE_REQUEST_STATES`. Deleting one (in any state)
answers 200 with no body and records change-request-discarded with the deleted request as
preData. An id that is not a number, or that belongs to no change request in that project,
is a 404.
"""

from __future__ import annotations

import json
import sqlite3

from flagtui.sandbox import shapes_admin
from flagtui.sandbox.errors import not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call

COLUMNS = (
    "c.id, c.project, c.environment, c.title, c.state, c.created_at, c.min_approvals,"
    " c.features, c.approvals, c.rejections, c.comments, c.schedule,"
    " u.id AS user_id, COALESCE(u.username, u.email) AS username, u.image_url"
)
FROM = "FROM change_requests c JOIN users u ON u.id = c.created_by"


def _record(row: sqlite3.Row) -> shapes_admin.ChangeRequest:
    """A change request as Unleash's list has it: `schedule` only on a scheduled one."""
    record: shapes_admin.ChangeRequest = {
        "id": row["id"],
        "title": row["title"],
        "environment": row["environment"],
        "state": row["state"],
        "project": row["project"],
        "createdAt": row["created_at"],
        "createdBy": {
            "id": row["user_id"],
            "username": row["username"],
            "imageUrl": row["image_url"],
        },
        "minApprovals": row["min_approvals"],
        "features": json.loads(row["features"]),
        "approvals": json.loads(row["approvals"]),
        "rejections": json.loads(row["rejections"]),
        "comments": json.loads(row["comments"]),
        "segments": [],  # the sandbox's change requests change flags only
    }
    if row["state"] == "Scheduled" and row["schedule"]:
        record["schedule"] = json.loads(row["schedule"])
    return record


def _full_record(row: sqlite3.Row) -> shapes_admin.ChangeRequest:
    """One change request as Unleash answers it: the list's record and `stateTimestamps`. The
    sandbox keeps no state history: it knows only when the request was made (a draft)."""
    return {**_record(row), "stateTimestamps": {"Draft": row["created_at"]}}


def _require_project(conn: sqlite3.Connection, project: str) -> None:
    if conn.execute("SELECT 1 FROM projects WHERE id = ?", (project,)).fetchone() is None:
        raise not_found(f"Could not find project {project}")


def _one(conn: sqlite3.Connection, project: str, raw_id: str) -> sqlite3.Row:
    _require_project(conn, project)
    row = None
    if raw_id.isascii() and raw_id.isdigit() and len(raw_id) <= 10:
        row = conn.execute(
            f"SELECT {COLUMNS} {FROM} WHERE c.id = ? AND c.project = ?", (int(raw_id), project)
        ).fetchone()
    if row is None:
        raise not_found(f"Could not find change request {raw_id} in project {project}")
    return row


def list_for_project(call: Call) -> list[shapes_admin.ChangeRequest]:
    project = call.path["project"]
    with call.db.read() as conn:
        _require_project(conn, project)
        rows = conn.execute(
            f"SELECT {COLUMNS} {FROM} WHERE c.project = ? ORDER BY c.id DESC LIMIT 300",
            (project,),
        ).fetchall()
    return [_record(r) for r in rows]


def get_one(call: Call) -> shapes_admin.ChangeRequest:
    with call.db.read() as conn:
        return _full_record(_one(conn, call.path["project"], call.path["id"]))


def delete(call: Call) -> None:
    project = call.path["project"]
    with call.db.write() as conn:
        row = _one(conn, project, call.path["id"])
        conn.execute("DELETE FROM change_requests WHERE id = ?", (row["id"],))
        before = _record(row)
        record(
            conn,
            call.caller,
            "change-request-discarded",
            project=project,
            environment=row["environment"],
            data={"changeRequestId": row["id"], "title": row["title"]},
            pre_data=before,
        )
