"""`client.context_fields`: the fields constraints and stickiness name, created, edited and
deleted as real Unleash 6.10.1, 7.5.1 and 8.2.0 do it (checked against each), and where each
is used.

- `POST /api/admin/context` creates one (context-field-created); a name taken is a 409.
- `PUT /api/admin/context/:name` replaces its legal values and stickiness with what is sent
  (absent: none, false) and its description when sent, and resets its sort order to 0
  (context-field-updated). An edit therefore always sends the whole field as it is meant to
  be; one made from the field as shown is compared with the server's just before sending.
- `DELETE /api/admin/context/:name` (context-field-deleted): 7.5.1 and 8.2.0 refuse a field a
  live flag's strategy uses (409 ConflictError); 6.10.1 deletes it and the constraints stay.
- `GET /api/admin/context/:name/strategies` says which strategies use it (every version here).

Legal values never reach an SDK: the client API (`/api/client/features`) carries flags and
segments, and the SDKs' engine evaluates constraints on the values they hold. Unleash checks
legal values only when a strategy is saved. So an edit of legal values changes no flag's
evaluation; what it can change is whether a strategy that uses a value no longer legal can be
saved again as it is (`no_longer_legal` names those constraints).
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flagtui.api import errors
from flagtui.api.core import Core
from flagtui.api.edits import Edit, EditConflict, changed_fields
from flagtui.api.events import Events
from flagtui.api.models import ContextField, ContextFieldUse, EventRecord, LegalValue, Strategy
from flagtui.api.rollout_requests import PlannedWrite, environment_path
from flagtui.api.wire import ContextFieldList, ContextFieldUses, adapter, seg
from flagtui.contract import CONTEXT_DESCRIPTION_MAX, LEGAL_VALUE_MAX, NAME_MAX, is_flag_name

PATH = "/api/admin/context"
NO_EVALUATION_CHANGE = (
    "SDKs never receive context fields (the client API carries flags and segments): no flag's"
    " evaluation changes. Unleash checks legal values only when a strategy is saved."
)
_FIELD = adapter(ContextField)
_UNSET: Any = object()


@dataclass(frozen=True)
class NoLongerLegal:
    """A constraint on the field whose values would not all be legal values any more: SDKs
    evaluate it as before, and Unleash refuses to save its strategy again as it is."""

    project: str
    feature: str
    environment: str
    strategy_id: str
    strategy_name: str
    constraint: int  # its index in the strategy's constraints
    values: tuple[str, ...]  # those not among the legal values

    def words(self) -> str:
        said = ", ".join(self.values)
        return (
            f"{self.feature} in {self.environment}: strategy {self.strategy_id}"
            f" ({self.strategy_name}), constraints[{self.constraint}] uses {said}"
        )


def check_name(name: str) -> str:
    if not is_flag_name(name):
        limit = f"1 to {NAME_MAX} URL-friendly characters (letters, digits, -_.!~*'()), not . or .."
        raise errors.InvalidArgument("name", limit)
    return name


def check_description(description: str | None) -> str | None:
    if description is not None and len(description) > CONTEXT_DESCRIPTION_MAX:
        limit = f"at most {CONTEXT_DESCRIPTION_MAX} characters ({len(description)} given)"
        raise errors.InvalidArgument("description", limit)
    return description


def check_legal_values(given: Sequence[LegalValue]) -> list[LegalValue]:
    seen: dict[str, int] = {}
    for i, legal in enumerate(given):
        if not 1 <= len(legal.value) <= LEGAL_VALUE_MAX:
            limit = f"1 to {LEGAL_VALUE_MAX} characters ({len(legal.value)} given)"
            raise errors.InvalidArgument(f"legalValues[{i}].value", limit)
        if legal.value in seen:
            said = f"each value once: {legal.value!r} is legalValues[{seen[legal.value]}] too"
            raise errors.InvalidArgument(f"legalValues[{i}].value", said)
        seen[legal.value] = i
    return list(given)


def edit_body(field: ContextField) -> dict[str, Any]:
    """What a PUT carries to leave `field` as it is: its legal values and stickiness always
    (absent, Unleash empties them), its description when it has one (absent, kept)."""
    body: dict[str, Any] = {}
    if field.description is not None:
        body["description"] = field.description
    body["legalValues"] = [
        v.model_dump(mode="json", by_alias=True, exclude_none=True) for v in field.legal_values
    ]
    body["stickiness"] = bool(field.stickiness)
    return body


def _used_values(strategy: Strategy, name: str) -> list[tuple[int, list[str]]]:
    found = []
    for i, c in enumerate(strategy.constraints or []):
        if c.context_name == name:
            found.append((i, list(c.values or []) + ([c.value] if c.value else [])))
    return found


class ContextFields:
    def __init__(self, core: Core, events: Events) -> None:
        self._core = core
        self._events = events

    # -- reads -----------------------------------------------------------------------------------

    async def list(self) -> builtins.list[ContextField]:
        """Every context field, in the server's order (`sortOrder`)."""
        fields = await self._core.read("GET", PATH, adapter(ContextFieldList))
        return sorted(fields, key=lambda f: (f.sort_order is None, f.sort_order or 0))

    async def get(self, name: str) -> ContextField:
        """One field; unknown: NotFoundError."""
        return await self._core.read("GET", f"{PATH}/{seg(name)}", _FIELD)

    async def usage(self, name: str) -> builtins.list[ContextFieldUse]:
        """The strategies with a constraint on the field, by flag and environment."""
        path = f"{PATH}/{seg(name)}/strategies"
        return (await self._core.read("GET", path, adapter(ContextFieldUses))).strategies

    async def no_longer_legal(
        self,
        name: str,
        legal: Sequence[str],
        uses: Sequence[ContextFieldUse] | None = None,
    ) -> builtins.list[NoLongerLegal]:
        """The constraints on `name` whose values would not all be among `legal` (none when
        `legal` is empty: then any value is taken). `uses`: `usage(name)`, if already read."""
        if not legal:
            return []
        uses = await self.usage(name) if uses is None else uses
        paths = [f"{environment_path(u.project_id, u.feature_name, u.environment)}/strategies"
                 f"/{seg(u.id)}" for u in uses]  # fmt: skip
        read = [self._core.read("GET", p, adapter(Strategy)) for p in paths]
        found = []
        for use, strategy in zip(uses, await asyncio.gather(*read), strict=True):
            for index, values in _used_values(strategy, name):
                off = tuple(v for v in values if v not in legal)
                if off:
                    where = (use.project_id, use.feature_name, use.environment, use.id)
                    found.append(NoLongerLegal(*where, use.strategy_name, index, off))
        return found

    # -- writes ----------------------------------------------------------------------------------

    def plan_create(self, field: ContextField) -> Edit:
        """The checked POST creating `field` (its name, description, legal values and
        stickiness; the sort order is the server's)."""
        body: dict[str, Any] = {"name": check_name(field.name)}
        if check_description(field.description) is not None:
            body["description"] = field.description
        check_legal_values(field.legal_values)
        body.update({k: v for k, v in edit_body(field).items() if k != "description"})
        return Edit(PlannedWrite("create context field", "POST", PATH, body), None, field)

    async def create(self, field: ContextField) -> ContextField:
        """Create `field` (context-field-created); the field as stored. A name taken is a
        ConflictError (409 NameExistsError)."""
        plan = self.plan_create(field).plan
        created = await self._core.write(plan.action, plan.method, plan.path, _FIELD, plan.body)
        assert created is not None
        return created

    def plan_edit(
        self,
        current: ContextField,
        *,
        description: str | None = _UNSET,
        legal_values: Sequence[LegalValue] = _UNSET,
        stickiness: bool = _UNSET,
    ) -> Edit:
        """The checked PUT leaving `current` (as shown) with the changes given, the rest as it
        is. Already so: NothingToSend."""
        changes: dict[str, Any] = {}
        if description is not _UNSET:
            changes["description"] = check_description(description)
        if legal_values is not _UNSET:
            changes["legal_values"] = check_legal_values(legal_values)
        if stickiness is not _UNSET:
            changes["stickiness"] = stickiness
        meant = current.model_copy(update=changes)
        shown, body = edit_body(current), edit_body(meant)
        if body == shown:
            raise errors.NothingToSend(
                f"context field {current.name}", "already so", "edit context field"
            )
        path = f"{PATH}/{seg(current.name)}"
        return Edit(PlannedWrite("edit context field", "PUT", path, body), shown, meant)

    async def send_edit(self, edit: Edit, *, anyway: bool = False) -> ContextField:
        """Send a planned edit as shown, then read the field back (the PUT answers no body).
        Read again first: changed since `edit.opened_on` is EditConflict (nothing sent) unless
        `anyway`; already as the plan leaves it, NothingToSend."""
        plan = edit.plan
        self._core.require_writable(plan.action)
        name = plan.path.rsplit("/", 1)[1]
        now = await self._core.read("GET", plan.path, _FIELD)
        if edit.opened_on is not None and not anyway:
            changed = changed_fields(edit.opened_on, edit_body(now))
            if changed:
                recorded = await self._recorded(now.name)
                what = f"context field {now.name}"
                raise EditConflict(what, plan.action, changed, now, recorded)
        if edit_body(now) == plan.body:
            raise errors.NothingToSend(f"context field {now.name}", "already so", plan.action)
        await self._core.write(plan.action, plan.method, plan.path, json=plan.body)
        return await self._core.read("GET", f"{PATH}/{name}", _FIELD)

    def plan_delete(self, name: str) -> PlannedWrite:
        return PlannedWrite("delete context field", "DELETE", f"{PATH}/{seg(name)}")

    async def delete(self, name: str) -> None:
        """Delete the field (context-field-deleted). Unknown: NotFoundError; used by a live
        flag: ConflictError on Unleash 7.5.1 and 8.2.0 (6.10.1 deletes it)."""
        plan = self.plan_delete(name)
        await self._core.write(plan.action, plan.method, plan.path)

    async def _recorded(self, name: str) -> builtins.list[EventRecord]:
        """The field's newest updates (who, when); none where the log cannot say."""
        try:
            page = await self._events.search(type="context-field-updated", limit=20)
        except errors.FlagtuiError:
            return []
        return [e for e in page.events if (e.data or {}).get("name") == name][:3]
