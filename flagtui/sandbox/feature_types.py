"""Feature types and their lifetime.

Changing a type's lifetime re-evaluates every feature of that type in the same request (real
Unleash does it in a background job about once a minute): a feature is potentially stale
when createdAt + lifetimeDays < now; null or 0 means never, which clears the mark.
lifetimeDays must be null or an integer 0..2147483647, 7.0 counting as 7 as on real Unleash
(anything else: 400 ValidationError);
an unknown type is 404. The answer is 200 with the feature type. feature-type-updated is
recorded when the lifetime actually changed.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from flagtui.contract import MAX_LIFETIME_DAYS
from flagtui.sandbox import shapes
from flagtui.sandbox.clock import iso
from flagtui.sandbox.errors import bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, is_int, require_object


def _type_record(row: sqlite3.Row) -> shapes.FeatureType:
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "lifetimeDays": row["lifetime_days"],
    }


def list_types(call: Call) -> shapes.FeatureTypes:
    with call.db.read() as conn:
        rows = conn.execute(
            "SELECT id, name, description, lifetime_days FROM feature_types ORDER BY rowid"
        ).fetchall()
    return {"version": 1, "types": [_type_record(r) for r in rows]}


def reevaluate(
    conn: sqlite3.Connection, type_id: str, lifetime_days: int | None, now: datetime
) -> None:
    """Mark exactly the features of this type older than the lifetime as potentially stale."""
    if not lifetime_days:
        conn.execute("UPDATE features SET potentially_stale = 0 WHERE type = ?", (type_id,))
        return
    try:
        cutoff = iso(now - timedelta(days=lifetime_days))
    except OverflowError:  # a lifetime longer than the calendar: nothing is old enough
        cutoff = ""
    conn.execute(
        "UPDATE features SET potentially_stale = (created_at < ?) WHERE type = ?",
        (cutoff, type_id),
    )


def put_lifetime(call: Call) -> shapes.FeatureType:
    body = require_object(call.body)
    if "lifetimeDays" not in body:
        raise bad_request('"lifetimeDays" is required (an integer or null)')
    days = body["lifetimeDays"]
    # JSON has one number type: real Unleash takes 7.0 for 7 (and refuses 7.5).
    if isinstance(days, float) and days.is_integer():
        days = int(days)
    if days is not None and (not is_int(days) or not 0 <= days <= MAX_LIFETIME_DAYS):
        limit = f"null or an integer between 0 and {MAX_LIFETIME_DAYS}"
        raise bad_request(f'"lifetimeDays" must be {limit}')
    type_id = call.path["id"]
    with call.db.write() as conn:
        row = conn.execute(
            "SELECT id, name, description, lifetime_days FROM feature_types WHERE id = ?",
            (type_id,),
        ).fetchone()
        if row is None:
            raise not_found(f"Could not find feature type {type_id}")
        conn.execute("UPDATE feature_types SET lifetime_days = ? WHERE id = ?", (days, type_id))
        reevaluate(conn, type_id, days, datetime.now(UTC))
        after: shapes.FeatureType = {**_type_record(row), "lifetimeDays": days}
        if row["lifetime_days"] != days:
            record(
                conn, call.caller, "feature-type-updated", data=after, pre_data=_type_record(row)
            )
    return after
