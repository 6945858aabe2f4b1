"""Real Unleash's project batch routes (6.10.1, 7.5.1 and 8.2.0 serve them), each flag changed
as its one-flag route would, with the same events:

- POST /api/admin/projects/:p/archive `{features}`: 202, no body. Unknown and archived names
  are skipped; each flag archived records its own feature-archived and enters `archived`.
- POST /api/admin/projects/:p/bulk_features/environments/:env/on|off `{features}`: 200, no
  body. One transaction: the first flag refused (unknown 404, archived 400, environment not
  linked 404) refuses them all, nothing switched; an event per flag whose state changed.
- POST /api/admin/projects/:p/stale `{features, stale}`: 202, no body. Unknown names skipped;
  feature-stale-on/-off for each flag whose mark changed (no metadata event, unlike a PATCH).

A name of another project's feature refuses the whole request (403), as real Unleash does.
"""

from __future__ import annotations

from flagtui.sandbox.archive import archive_in, names_in, rows_in_project
from flagtui.sandbox.errors import bad_request
from flagtui.sandbox.events import record
from flagtui.sandbox.feature_environments import switch_in
from flagtui.sandbox.inputs import Call, require_object


def archive_many(call: Call) -> None:
    project = call.path["project"]
    names = names_in(call.body)
    with call.db.write() as conn:
        for row in rows_in_project(conn, project, names):
            if row["archived_at"] is None:
                archive_in(conn, call, project, row["name"])


def switch_many_on(call: Call) -> None:
    _switch_many(call, True)


def switch_many_off(call: Call) -> None:
    _switch_many(call, False)


def _switch_many(call: Call, enabled: bool) -> None:
    names = names_in(call.body)
    with call.db.write() as conn:  # all or none: an error rolls back the flags before it
        for name in names:
            switch_in(conn, call, name, call.path["environment"], enabled)


def mark_stale(call: Call) -> None:
    project = call.path["project"]
    names = names_in(call.body)
    stale = require_object(call.body).get("stale")
    if not isinstance(stale, bool):
        raise bad_request('"stale" must be true or false')
    with call.db.write() as conn:
        for row in rows_in_project(conn, project, names):
            if bool(row["stale"]) == stale:
                continue
            conn.execute("UPDATE features SET stale = ? WHERE name = ?", (int(stale), row["name"]))
            kind = "feature-stale-on" if stale else "feature-stale-off"
            record(conn, call.caller, kind, project=project, feature=row["name"])
