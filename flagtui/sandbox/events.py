"""The audit log: recording events (and handing them to integrations) and both event searches.

POST /api/admin/events/search (the contract's deprecated search): `offset` is an event id;
a page lists events with id <= offset, newest first; 0 or absent means from the newest.
GET /api/admin/search/events (real Unleash's replacement): `offset` is a plain row offset.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from flagtui.contract import EVENT_SEARCH_MAX, EVENT_TYPES, PAGE_DEFAULT, PAGE_MAX
from flagtui.sandbox import shapes
from flagtui.sandbox.auth import Caller
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.db import Database, RawJSON, dumps
from flagtui.sandbox.errors import bad_request
from flagtui.sandbox.inputs import (
    Call,
    Filter,
    is_int,
    optional_str,
    page,
    query_filter,
    require_object,
)
from flagtui.sandbox.integrations import deliver

MAX_EVENT_ID = 9007199254740991
# The Event record built by SQLite itself: the stored JSON columns are spliced in as they are,
# with no parse and re-encode in Python (the search answers are built from these strings).
EVENT_JSON = (
    "json_object('id', id, 'createdAt', created_at, 'type', type, 'createdBy', created_by,"
    " 'createdByUserId', created_by_user_id, 'environment', environment, 'project', project,"
    " 'featureName', feature_name, 'data', json(data), 'preData', json(pre_data),"
    " 'tags', json(tags))"
)


def record(
    conn: sqlite3.Connection,
    caller: Caller,
    type_: str,
    *,
    project: str | None = None,
    feature: str | None = None,
    environment: str | None = None,
    data: Any = None,
    pre_data: Any = None,
) -> dict[str, Any]:
    """Store one event inside the caller's write transaction and deliver it to integrations."""
    created_at = now_iso()
    cursor = conn.execute(
        "INSERT INTO events (created_at, type, created_by, created_by_user_id, project,"
        " feature_name, environment, data, pre_data, tags) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            created_at,
            type_,
            caller.username,
            caller.user_id,
            project,
            feature,
            environment,
            None if data is None else dumps(data),
            None if pre_data is None else dumps(pre_data),
            "[]",
        ),
    )
    event = {
        "id": cursor.lastrowid,
        "createdAt": created_at,
        "type": type_,
        "createdBy": caller.username,
        "createdByUserId": caller.user_id,
        "environment": environment,
        "project": project,
        "featureName": feature,
        "data": data,
        "preData": pre_data,
        "tags": [],
    }
    deliver(conn, event)
    return event


CONTRACT_TEXT = ("type", "created_by", "data")
# Real Unleash's GET search matches the state before too (a segment-deleted event, its data
# null, is found by the deleted segment's name: 6.10.1, 7.5.1 and 8.2.0).
SEARCH_TEXT = (*CONTRACT_TEXT, "pre_data")


def _free_text(
    query: str, where: list[str], params: list[Any], columns: tuple[str, ...] = CONTRACT_TEXT
) -> None:
    """Case-insensitive match over type, creator and the data payload (`columns`)."""
    if query.isascii():
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append("(" + " OR ".join(f"{c} LIKE ? ESCAPE '\\'" for c in columns) + ")")
        params.extend([pattern] * len(columns))
    else:
        where.append("(" + " OR ".join(f"icontains({c}, ?)" for c in columns) + ")")
        params.extend([query] * len(columns))


def _count(db: Database, conn: sqlite3.Connection, where: list[str], params: list[Any]) -> int:
    """Count matching events; cached per filter until a new event is recorded."""
    newest = conn.execute("SELECT max(id) FROM events").fetchone()[0]
    key = (" AND ".join(where), tuple(params), newest)
    cached = db.count_cache.get(key)
    if cached is None:
        clause = f" WHERE {key[0]}" if where else ""
        cached = conn.execute(f"SELECT count(*) FROM events{clause}", params).fetchone()[0]
        if len(db.count_cache) > 512:
            db.count_cache.clear()
        db.count_cache[key] = cached
    return int(cached)


def search_post(call: Call) -> Annotated[RawJSON, shapes.EventSearchPost]:
    body = require_object(call.body)
    where: list[str] = []
    params: list[Any] = []
    type_ = optional_str(body, "type")
    # Real Unleash (6.x) reads a null type as "", which is no event type.
    if type_ is not None or "type" in body:
        if type_ not in EVENT_TYPES:
            raise bad_request('"type" must be one of the event types')
        where.append("type = ?")
        params.append(type_)
    for key, column in (("project", "project"), ("feature", "feature_name")):
        value = optional_str(body, key)
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    query = optional_str(body, "query")
    if query:
        _free_text(query, where, params)
    limit = body.get("limit", EVENT_SEARCH_MAX)
    if not is_int(limit) or not 1 <= limit <= EVENT_SEARCH_MAX:
        raise bad_request(f'"limit" must be an integer between 1 and {EVENT_SEARCH_MAX}')
    offset = body.get("offset", 0)
    if not is_int(offset) or not 0 <= offset <= MAX_EVENT_ID:
        raise bad_request('"offset" must be a non-negative integer (an event id)')
    with call.db.read() as conn:
        total = _count(call.db, conn, where, params)
        page_where = [*where, "id <= ?"] if offset else where
        page_params = [*params, offset] if offset else params
        clause = f" WHERE {' AND '.join(page_where)}" if page_where else ""
        rows = conn.execute(
            f"SELECT {EVENT_JSON} FROM events{clause} ORDER BY id DESC LIMIT ?",
            [*page_params, limit],
        ).fetchall()
    events = ",".join(r[0] for r in rows)
    return RawJSON(f'{{"version":1,"events":[{events}],"totalEvents":{total}}}')


def _in(column: str, flt: Filter, where: list[str], params: list[Any]) -> None:
    marks = ",".join("?" * len(flt.values))
    where.append(f"{column} {'NOT IN' if flt.negated else 'IN'} ({marks})")
    params.extend(int(v) if column == "created_by_user_id" else v for v in flt.values)


def _user_id(value: str) -> bool:
    digits = value.removeprefix("-")
    return digits.isascii() and digits.isdigit() and len(digits) < 10


def _day(flt: Filter | None, name: str) -> str | None:
    if flt is None:
        return None
    day = flt.values[0]
    if flt.negated or len(day) != 10 or not day.replace("-", "").isdigit() or day[4::3] != "--":
        raise bad_request(f'"{name}" must look like IS:yyyy-MM-dd')
    return day


def search_get(call: Call) -> Annotated[RawJSON, shapes.EventSearch]:
    q = call.query
    where: list[str] = []
    params: list[Any] = []
    for name, column in (
        ("type", "type"),
        ("project", "project"),
        ("feature", "feature_name"),
        ("environment", "environment"),
    ):
        flt = query_filter(q, name)
        if flt is not None:
            _in(column, flt, where, params)
    creator = query_filter(q, "createdBy")
    if creator is not None:
        # Real Unleash filters on the creator's user id (its admin token acts as -42); a
        # name is a database error there (500): here, a 400 that says what it wants.
        if not all(_user_id(v) for v in creator.values):
            raise bad_request('"createdBy" must be user ids, like IS:2 or IS_ANY_OF:2,-42')
        _in("created_by_user_id", creator, where, params)
    start = _day(query_filter(q, "from"), "from")
    if start is not None:
        where.append("created_at >= ?")
        params.append(f"{start}T00:00:00.000Z")
    end = _day(query_filter(q, "to"), "to")
    if end is not None:
        where.append("created_at <= ?")
        params.append(f"{end}T23:59:59.999Z")
    if q.get("query"):
        _free_text(q["query"], where, params, SEARCH_TEXT)
    limit, offset = page(q, PAGE_DEFAULT, PAGE_MAX)
    with call.db.read() as conn:
        total = _count(call.db, conn, where, params)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = conn.execute(
            f"SELECT {EVENT_JSON} FROM events{clause} ORDER BY id DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    events = ",".join(r[0] for r in rows)
    return RawJSON(f'{{"events":[{events}],"total":{total}}}')
