"""What real Unleash accepts but an admin does not mean, refused before anything is sent.

Real Unleash (6.10.1, 7.5.1, 8.2.0) stores a PATCH of `/archived` without the archive's event
or lifecycle stage (and unarchiving that way turns production back on), stores a `/type` that
is no feature type, answers a JSON Patch to a strategy path with a 500, and answers 200 to an
uncomplete of a flag that does not exist. So a patch may change only the four fields Unleash
honours, a type must be one of the server's feature types, and the flag-level writes read the
flag first (`archive`). An event search's type must be one the contract lists: real Unleash 7+
answers a typo (`feature-archive`) with no events, as if none had happened.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from flagtui.api.errors import InvalidArgument
from flagtui.api.models import FeatureType, PatchOperation
from flagtui.contract import EVENT_TYPES, PATCH_OPS_WITH_FROM

PATCHABLE = ("/description", "/type", "/stale", "/impressionData")

_ELSEWHERE = {
    "/archived": (
        "a PATCH of /archived is not Unleash's archive (no feature-archived event, the "
        "lifecycle stays; unarchiving turns its environments back on): use "
        "`flagtui feature archive` / `flagtui feature revive`, or A / v in the flag's detail"
    ),
    "/environments": (
        "environments have their own operations: `flagtui feature enable|disable`, "
        "`flagtui env link|remove`, or t in the flag's detail"
    ),
    "/strategies": (
        "strategies have their own routes in Unleash (…/environments/:env/strategies): use "
        "`flagtui feature strategy add|set|disable|enable|remove|order` (real Unleash answers "
        "this patch with a 500)"
    ),
    "/variants": (
        "variants have their own routes in Unleash (…/environments/:env/variants): use "
        "`flagtui feature strategy set --variant` (strategy variants) or `flagtui feature "
        "variants set` (real Unleash refuses this patch)"
    ),
}


def _root(pointer: str) -> str:
    return "/" + pointer.lstrip("/").split("/", 1)[0]


def check_patch_paths(ops: Iterable[PatchOperation]) -> None:
    """Each op's path (and `from`) is one of the four fields Unleash's PATCH honours; a type
    comes as a value (`check_types` checks it), never copied or moved from another field."""
    for index, op in enumerate(ops):
        if op.path == "/type" and op.op in PATCH_OPS_WITH_FROM:
            raise InvalidArgument(
                f"patch[{index}].op",
                f"a {op.op} into /type stores another field's text as the type, unchecked (real "
                "Unleash stores any string): replace /type with one of the server's feature types",
            )
        for key, pointer in (("path", op.path), ("from", op.from_)):
            if pointer is None or pointer in PATCHABLE:
                continue
            field = f"patch[{index}].{key}"
            reason = _ELSEWHERE.get(_root(pointer))
            if reason is None:
                reason = f"{pointer} cannot be patched; the fields are {', '.join(PATCHABLE)}"
            raise InvalidArgument(field, reason)


def types_named(ops: Iterable[PatchOperation]) -> list[object]:
    """The values a patch would store as the flag's type."""
    return [op.value for op in ops if op.path == "/type" and op.op in ("add", "replace")]


def check_types(named: Iterable[object], types: Iterable[FeatureType]) -> None:
    """Each type is one of the server's feature types; a near miss is named."""
    ids = [t.id for t in types]
    for value in named:
        if isinstance(value, str) and value in ids:
            continue
        shown = value if isinstance(value, str) else repr(value)
        close = difflib.get_close_matches(shown, ids, n=1) if isinstance(value, str) else []
        hint = f"did you mean {close[0]}? " if close else ""
        raise InvalidArgument(
            "type", f"{shown!r} is not a feature type of this server; {hint}one of {', '.join(ids)}"
        )


def check_event_type(value: str | None) -> None:
    """An event type the contract lists (None: any type)."""
    if value is None or value in EVENT_TYPES:
        return
    close = difflib.get_close_matches(value, EVENT_TYPES, n=1)
    hint = f"; did you mean {close[0]}?" if close else " (such as feature-created, feature-updated)"
    raise InvalidArgument("type", f"{value!r} is not an event type{hint}")
