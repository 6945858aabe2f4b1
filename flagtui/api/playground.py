"""`client.playground`: what the server's own playground answers (OSS Unleash and the sandbox):
each flag on or off and the variant it gives, evaluated by the server for the environment and
projects asked about, for one context (`POST /api/admin/playground`) or for many userIds at
once (`POST /api/admin/playground/advanced`, Unleash 5.2 on).

The advanced playground takes comma-separated values (`userId: "u-1,u-2"`) and answers each
combination of them. Real Unleash refuses (400 BadDataError) a request whose environments
times flags times contexts exceed its limit (15,000 unless its `advancedPlayground` flag says
otherwise; the refusal names the limit and the flags it counted: they are adopted and the
users split again), and a body above express's 100 kB (413): `users` sends as few requests as
both allow.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import Field

from flagtui.api.core import Core
from flagtui.api.errors import ApiError, FlagtuiError, InvalidArgument, ValidationError
from flagtui.api.records import Record
from flagtui.api.wire import adapter

ONE = "/api/admin/playground"
ADVANCED = "/api/admin/playground/advanced"
COMBINATIONS = 15_000  # real Unleash's default limit of environments times flags times contexts
BODY_BYTES = 100 * 1024  # express.json's default limit on a request body ("100kb")
REFUSAL = re.compile(r"exceeding (\d+) limit.*?features \((\d+)\)")
RESPLITS = 3  # refusals naming a smaller limit (the flags counted grew meanwhile) before giving up


class PlaygroundVariant(Record):
    name: str
    enabled: bool = False
    payload: dict[str, Any] | None = None


class PlaygroundFlag(Record):
    """One flag's answer. Unleash also says why (`strategies`), read by nothing here yet."""

    name: str
    project_id: str
    is_enabled: bool
    is_enabled_in_current_environment: bool | None = None
    variant: PlaygroundVariant | None = None


class PlaygroundAnswer(Record):
    features: list[PlaygroundFlag] = Field(default_factory=list)


class EvaluatedContext(PlaygroundFlag):
    """One flag for one of the contexts of an advanced request, which it echoes (flat: the
    properties beside the standard fields)."""

    context: dict[str, Any] = Field(default_factory=dict)


class AdvancedFlag(Record):
    name: str
    project_id: str
    environments: dict[str, list[EvaluatedContext]] = Field(default_factory=dict)


class AdvancedAnswer(Record):
    features: list[AdvancedFlag] = Field(default_factory=list)


class PlaygroundRefused(FlagtuiError):
    """The advanced playground cannot answer these users in requests of any size it takes."""


class Playground:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def evaluate(
        self, environment: str, context: dict[str, Any], *, projects: Sequence[str] | None = None
    ) -> list[PlaygroundFlag]:
        """Every flag of `projects` (all when None) as the server evaluates it for `context` in
        `environment`. NotFoundError where the server has no playground."""
        body = {"environment": environment, "projects": _projects(projects), "context": context}
        answer = await self._core.read("POST", ONE, adapter(PlaygroundAnswer), json=body)
        return answer.features

    async def users(
        self,
        environment: str,
        context: dict[str, Any],
        user_ids: Sequence[str],
        *,
        flags: int,
        projects: Sequence[str] | None = None,
        at_most: int | None = None,
    ) -> dict[str, dict[str, PlaygroundFlag]]:
        """Every flag of `projects` as the server evaluates it for `context` with each of
        `user_ids` as its userId: flag name → userId → answer. `flags`: how many flags the
        server evaluates per context (as many as its one-context answer lists). NotFoundError
        where the server has no advanced playground; PlaygroundRefused where it takes no
        request these users fit in; InvalidArgument for a value with a comma (the server
        would split it into several contexts). `at_most`: PlaygroundRefused, before sending,
        where more requests than that would be needed at the default limit."""
        _no_commas(context, user_ids)
        base = {"environments": [environment], "projects": _projects(projects)}
        limit, counted = COMBINATIONS, max(flags, 1)
        needed = -(-len(user_ids) // max(limit // counted, 1))
        if at_most is not None and needed > at_most:
            raise PlaygroundRefused(
                f"{len(user_ids):,} users of {counted:,} flags need {needed:,} requests of"
                f" {limit // counted:,} users (at most {at_most:,} are sent): fewer flags or"
                " users would do"
            )
        found: dict[str, dict[str, PlaygroundFlag]] = {}
        left, refusals = list(user_ids), 0
        while left:
            chunk = _fitting(base, context, left, limit // counted)
            body = {**base, "context": {**context, "userId": ",".join(chunk)}}
            try:
                answer = await self._core.read("POST", ADVANCED, adapter(AdvancedAnswer), json=body)
            except ValidationError as exc:
                limit, counted = _refused(exc, refusals)
                refusals += 1
                continue
            except ApiError as exc:
                if exc.status == 413:
                    raise PlaygroundRefused(f"the server refused a request body: {exc}") from None
                raise
            for flag in answer.features:
                said = found.setdefault(flag.name, {})
                for entry in flag.environments.get(environment, []):
                    said[str(entry.context.get("userId"))] = entry
            left = left[len(chunk) :]
        return found


def _projects(projects: Sequence[str] | None) -> list[str] | str:
    return list(projects) if projects is not None else "*"


def _no_commas(context: dict[str, Any], user_ids: Sequence[str]) -> None:
    properties = context.get("properties")
    fields = {
        **{f"context.{k}": v for k, v in context.items() if k not in ("userId", "properties")},
        **{f"context.properties.{k}": v for k, v in (properties or {}).items()},
    }
    for field, value in fields.items():
        if isinstance(value, str) and "," in value:
            raise InvalidArgument(field, "no comma (the server splits values at commas)")
    if any("," in user for user in user_ids):
        raise InvalidArgument("userId", "no comma (the server splits values at commas)")


def _fitting(
    base: dict[str, Any], context: dict[str, Any], users: list[str], most: int
) -> list[str]:
    """The first of `users`, at most `most`, whose request body stays within BODY_BYTES."""
    empty = {**base, "context": {**context, "userId": ""}}
    size = len(json.dumps(empty).encode())  # ASCII-escaped: never less than what is sent
    taken = 0
    for user in users[:most]:
        size += len(json.dumps(user)) - 1  # its text and a comma
        if size > BODY_BYTES:
            break
        taken += 1
    if taken == 0:
        raise PlaygroundRefused(
            f"no request fits one user: {most} contexts allowed per request, the body limit"
            f" is {BODY_BYTES} bytes"
        )
    return users[:taken]


def _refused(exc: ValidationError, refusals: int) -> tuple[int, int]:
    """The limit and the flags counted that a refusal names, to split the users again; or
    PlaygroundRefused, where it names none or no smaller request would do."""
    found = REFUSAL.search(exc.message)
    if found is None or refusals >= RESPLITS:
        raise PlaygroundRefused(f"the server refused the evaluation: {exc}") from None
    limit, counted = int(found.group(1)), max(int(found.group(2)), 1)
    if limit // counted < 1:
        raise PlaygroundRefused(
            f"the server evaluates {counted} flags per context and allows {limit} evaluations"
            " per request: not one user fits"
        ) from None
    return limit, counted
