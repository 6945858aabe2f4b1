"""Who gets a flag before and after one change, in one environment: how many of 10,000
synthetic userIds (with the context the admin typed), per variant, as the TUI's confirmations
and the commands' JSON say it before anything is sent.

The "after" record of a switch, a strategy disabled, enabled or removed is built here from the
record read just before, the way the server stores the change (its rules are named at each
function); a strategy or variants sent are stored as `flagtui.preview.stored` builds them.
An environment that is off gets no one now, so the preview of a change that leaves it off also
says what each side gives once it is switched on (`when_on`): the share a rollout will have
the moment it goes live.

    after = switched(flag, "production", True)  # or flagtui.preview.with_strategy(…)
    share_change(flag, after, "production", {"properties": {"country": "NO"}}, segments=s)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flagtui.preview.client_shape import Record, environment_of, plain
from flagtui.preview.engine import Population, Preview

USERS = 10_000
PLAN_USERS = 1_000  # a flag of a plan: hundreds of flags previewed in seconds, not minutes
NO_VARIANT = "disabled"  # the engine's name for "no variant"


@dataclass(frozen=True)
class Side:
    """One side of the change: the population now, and once the environment is on."""

    enabled: bool  # the environment's state on this side
    population: Population
    # once the environment is switched on: only when the change leaves it off on both sides
    when_on: Population | None = None


@dataclass(frozen=True)
class ShareChange:
    environment: str
    context: Mapping[str, Any]
    before: Side
    after: Side

    @property
    def users(self) -> int:
        return self.after.population.users

    def as_json(self) -> dict[str, Any]:
        """`{"users", "before", "after", "context", "environmentEnabled": {before, after},
        "variants": {before, after}` (when a side has variants), `"whenSwitchedOn": {before,
        after, variants?}` (when the environment is off before and after the change)}`."""
        out: dict[str, Any] = {
            "users": self.users,
            "before": self.before.population.enabled,
            "after": self.after.population.enabled,
            "context": dict(self.context),
            "environmentEnabled": {"before": self.before.enabled, "after": self.after.enabled},
        }
        out.update(_variants(self.before.population, self.after.population))
        was, will = self.before.when_on, self.after.when_on
        if was is not None and will is not None:
            on = {"before": was.enabled, "after": will.enabled}
            out["whenSwitchedOn"] = {**on, **_variants(was, will)}
        return out


def _variants(before: Population, after: Population) -> dict[str, Any]:
    if not {*before.variants, *after.variants} - {NO_VARIANT}:
        return {}
    return {"variants": {"before": dict(sorted(before.variants.items())),
                         "after": dict(sorted(after.variants.items()))}}  # fmt: skip


def share_change(
    before: Record,
    after: Record,
    environment: str,
    context: Mapping[str, Any] | None = None,
    *,
    segments: Iterable[Record] = (),
    related: Sequence[Record] = (),
    users: int = USERS,
    default: Record | None = None,
) -> ShareChange:
    """About a second of CPU (two to four populations): run it off a UI loop. `default`: the
    project environment's default strategy, for the "once switched on" side (`switched`).
    Raises PreviewError (an environment, segment or parent flag not given)."""
    segments, context = list(segments), dict(context or {})

    def counted(record: Record) -> Population:
        preview = Preview(record, environment, segments=segments, related=related)
        return preview.population(users, context)

    def side(record: Record, off_throughout: bool) -> Side:
        enabled = bool(environment_of(plain(record), environment).get("enabled"))
        when_on = counted(switched(record, environment, True, default)) if off_throughout else None
        return Side(enabled, counted(record), when_on)

    off = not any(environment_of(plain(r), environment).get("enabled") for r in (before, after))
    return ShareChange(environment, context, side(before, off), side(after, off))


# -- the record as the server will store the change --------------------------------------------


def _edited(
    flag: Record, environment: str, edit: Callable[[dict[str, Any]], None]
) -> dict[str, Any]:
    record: dict[str, Any] = plain(flag)
    environment_of(record, environment)  # PreviewError when the flag has no such environment
    for env in record.get("environments") or []:
        if environment in (env.get("name"), env.get("environment")):
            edit(env)
    return record


def _active(env: Mapping[str, Any]) -> bool:
    return any(not s.get("disabled") for s in env.get("strategies") or [])


def _off_unless_active(env: dict[str, Any]) -> None:
    # Unleash's optionallyDisableFeature: no enabled strategy left switches the environment off.
    if not _active(env):
        env["enabled"] = False


def switched(
    flag: Record, environment: str, enabled: bool, default: Record | None = None
) -> dict[str, Any]:
    """Switched on or off. Switched on with no enabled strategy, Unleash first adds the
    project environment's default strategy (`default`: a copy of it, an empty groupId the
    flag's name), or with none set (None) its own: flexibleRollout at 100 %, on for everyone."""
    name = plain(flag).get("name")
    if default is None:
        parameters = {"groupId": "", "rollout": "100", "stickiness": "default"}
        default = {"name": "flexibleRollout", "constraints": [], "parameters": parameters}

    def edit(env: dict[str, Any]) -> None:
        env["enabled"] = enabled
        if enabled and not _active(env):
            added = {k: v for k, v in plain(default).items() if k not in ("id", "sortOrder")}
            added.setdefault("constraints", [])
            parameters = dict(added.get("parameters") or {})
            if not parameters.get("groupId") and added.get("name") == "flexibleRollout":
                parameters["groupId"] = name
            added["parameters"] = parameters
            env["strategies"] = [*(env.get("strategies") or []), added]

    return _edited(flag, environment, edit)


def without_strategy(flag: Record, environment: str, strategy_id: str) -> dict[str, Any]:
    def edit(env: dict[str, Any]) -> None:
        env["strategies"] = [s for s in env.get("strategies") or [] if s.get("id") != strategy_id]
        _off_unless_active(env)

    return _edited(flag, environment, edit)


def with_strategy_disabled(
    flag: Record, environment: str, strategy_id: str, disabled: bool
) -> dict[str, Any]:
    def edit(env: dict[str, Any]) -> None:
        env["strategies"] = [
            {**s, "disabled": disabled} if s.get("id") == strategy_id else s
            for s in env.get("strategies") or []
        ]
        if disabled:
            _off_unless_active(env)

    return _edited(flag, environment, edit)
