"""What the archive holds per integration, counted for the collector's metrics
(`flagtui.metrics`): deliveries by state, the newest success and failure, the gaps recorded, and
up to when the server was read completely. Counted from the stored rows at each read, so the
counts only grow (rows are never deleted) and a collector's restart resets nothing.

Two grouped queries over the server's rows; rows whose time cannot be read are left out, as
every read of the archive leaves them out (`queries.READABLE`). Integrations the server no
longer has (deleted) are left out: their series end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select

from flagtui.archive import queries, schema
from flagtui.archive.store import Archive
from flagtui.triage.records import IntegrationRef

D = schema.deliveries
SUCCESS = "success"
# Unleash's delivery states (its integration events store): each is counted from zero for every
# integration, so a first failure is an increase a rule can see.
STATES = (SUCCESS, "failed", "successWithErrors")


@dataclass
class IntegrationTally:
    ref: IntegrationRef
    deliveries: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATES, 0))
    last_success: datetime | None = None
    last_failure: datetime | None = None  # any state but success (schema.FAILED)
    gaps: int = 0


@dataclass
class ServerTally:
    integrations: list[IntegrationTally]
    collected_until: datetime | None  # the last poll that read every integration


def tally(archive: Archive) -> ServerTally:
    server = archive.server
    with archive.reading() as conn:
        tallies = {
            ref.id: IntegrationTally(ref)
            for ref in queries.integrations(conn, server)
            if not ref.deleted
        }
        by_state = conn.execute(
            select(D.c.integration_id, D.c.state, func.count(), func.max(D.c.created_at))
            .where(queries.of_server(server), queries.READABLE)
            .group_by(D.c.integration_id, D.c.state)
        ).all()
        gaps = conn.execute(
            select(schema.gaps.c.integration_id, func.count())
            .where(schema.gaps.c.server == server)
            .group_by(schema.gaps.c.integration_id)
        ).all()
        until = queries.collected_until(conn, server, None)
    for integration_id, state, count, newest in by_state:
        found = tallies.get(int(integration_id))
        if found is None:
            continue
        found.deliveries[state] = int(count)
        if state == SUCCESS:
            found.last_success = newest
        elif found.last_failure is None or newest > found.last_failure:
            found.last_failure = newest
    for integration_id, count in gaps:
        if int(integration_id) in tallies:
            tallies[int(integration_id)].gaps = int(count)
    return ServerTally(list(tallies.values()), until)
