"""Which features a feature search returns by archive state: the `lifecycle` filter and the
deprecated `archived=IS:true`, as real Unleash 8.2 combines them.

Without `lifecycle`, a search returns live features (archived ones with `archived=IS:true`).
`lifecycle=IS:archived` (or any list naming `archived`) adds the archived features to the live
ones in the other named stages; `archived=IS:true` narrows to archived features, then to the
named stages if `archived` is not among them. Negated lists (`IS_NOT`, `IS_NONE_OF`) only
concern live features.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flagtui.sandbox.errors import bad_request
from flagtui.sandbox.inputs import Filter, query_filter

LIVE = "archived_at IS NULL"
ARCHIVED = "archived_at IS NOT NULL"


def archived_view(query: Mapping[str, str]) -> bool:
    raw = query.get("archived")
    if raw in (None, "", "IS:false"):
        return False
    if raw == "IS:true":
        return True
    raise bad_request('"archived" must be IS:true or IS:false')


def lifecycle_where(query: Mapping[str, str], where: list[str], params: list[Any]) -> bool:
    """Add the archive-state clauses; False when neither parameter was given (the caller's
    default applies)."""
    lifecycle = query_filter(query, "lifecycle")
    archived = archived_view(query)
    if lifecycle is None:
        if archived:
            where.append(ARCHIVED)
        return archived
    _with_stages(lifecycle, archived, where, params)
    return True


def _with_stages(flt: Filter, archived: bool, where: list[str], params: list[Any]) -> None:
    names_archived = "archived" in flt.values
    stages = [v for v in flt.values if v != "archived"]
    marks = ",".join("?" * len(stages))
    if flt.negated:
        if archived and not names_archived:
            where.append(ARCHIVED)
            return
        where.append(LIVE)
        if stages:
            where.append(f"stage NOT IN ({marks})")
            params.extend(stages)
        return
    if archived:
        where.append(ARCHIVED)
        if stages and not names_archived:
            where.append(f"stage IN ({marks})")
            params.extend(stages)
        return
    either = [f"stage IN ({marks})"] if stages else []
    params.extend(stages)
    if names_archived:
        either.append(ARCHIVED)
    else:
        where.append(LIVE)
    where.append(f"({' OR '.join(either)})")
