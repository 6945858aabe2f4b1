"""Migration 2 (released in 0b9035b): deliveries stored before the archive masked them lose
their secrets (webhook URLs, body templates). The archive keeps what triage needs, and a secret
never stays on disk.

The rules are flagtui/masking.py's as released with this migration, copied here: a change to
the live masking must not change what migration 2 does to an archive it has yet to reach. The
deliveries table is declared here too, with the columns it had then.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Connection,
    MetaData,
    String,
    Table,
    Text,
    literal,
    select,
    tuple_,
    update,
)

BATCH = 500  # rows read at a time, in key order: a large archive is never held in memory whole

MASK = "•••••"
SERVER_MASK = "*****"  # what Unleash sends in place of a sensitive parameter
SECRET_NAME = re.compile(
    r"token|key|secret|password|passwd|auth|credential|signature|header|template", re.I
)
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s\"'<>]+", re.I)

_deliveries = Table(
    "deliveries",
    MetaData(),
    Column("server", String(512), primary_key=True),
    Column("integration_id", BigInteger, primary_key=True),
    Column("delivery_id", BigInteger, primary_key=True),
    Column("state_details", Text),
    Column("event", JSON),
    Column("details", JSON),
)


def apply(conn: Connection) -> None:
    table = _deliveries
    key = tuple_(table.c.server, table.c.integration_id, table.c.delivery_id)
    last: tuple[str, int, int] | None = None
    while True:
        query = select(table).order_by(table.c.server, table.c.integration_id, table.c.delivery_id)
        if last is not None:
            query = query.where(key > tuple_(*map(literal, last)))
        rows = conn.execute(query.limit(BATCH)).all()
        for row in rows:
            masked = {
                "state_details": None
                if row.state_details is None
                else _mask_urls(row.state_details),
                "event": _urls_masked(row.event),
                "details": _masked_details(row.details)
                if isinstance(row.details, dict)
                else row.details,
            }
            if masked != {
                "state_details": row.state_details,
                "event": row.event,
                "details": row.details,
            }:
                conn.execute(
                    update(table)
                    .where(key == tuple_(row.server, row.integration_id, row.delivery_id))
                    .values(masked)
                )
        if len(rows) < BATCH:
            return
        last = (rows[-1].server, rows[-1].integration_id, rows[-1].delivery_id)


# -- flagtui/masking.py as of 0b9035b, the parts migration 2 uses ------------------------------


def _mask_url(url: str) -> str:
    scheme, _, rest = url.partition("://")
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, rest = rest[:end], rest[end:]
    _userinfo, at, host = authority.rpartition("@")
    out = f"{scheme}://{MASK + '@' if at else ''}{host}"
    rest, hash_, fragment = rest.partition("#")
    path, question, query = rest.partition("?")
    out += path if path in ("", "/") else "/" + MASK
    if question:
        out += "?" + "&".join(_masked_parameter(item) for item in query.split("&"))
    if hash_:
        out += "#" + (MASK if fragment else "")
    return out


def _masked_parameter(item: str) -> str:
    name, equals, value = item.partition("=")
    if not equals:
        return MASK if name else ""
    return f"{name}={MASK if value else ''}"


def _mask_urls(text: str) -> str:
    return URL.sub(lambda match: _mask_url(match.group(0)), text)


def _masked_value(value: Any, name: str = "") -> Any:
    if value in (None, "", [], {}) or isinstance(value, bool | int | float):
        return value
    if name and SECRET_NAME.search(name):
        return MASK
    if isinstance(value, dict):
        return {key: _masked_value(item, str(key)) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked_value(item) for item in value]
    return _mask_urls(str(value)).replace(SERVER_MASK, MASK)


def _urls_masked(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _urls_masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_urls_masked(item) for item in value]
    return _mask_urls(value) if isinstance(value, str) else value


def _masked_details(details: dict[str, Any]) -> dict[str, Any]:
    return {
        key: MASK
        if key == "body" and isinstance(value, str) and value
        else _masked_value(value, key)
        for key, value in details.items()
    }
