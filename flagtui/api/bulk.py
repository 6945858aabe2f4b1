"""`client.bulk`: one change to many flags of a project, planned, then sent, each flag's outcome
its own (the TUI's marked rows and the CLI's several names alike).

`plan` only reads: the project's live flags in one request (and, for names not among them, the
archived flags), so each flag is known to be there, already as asked (nothing to send), or not
changeable (archived, unknown: refused, and why). `send` sends the planned flags with real
Unleash's batch route (`bulk_changes`), BATCH names a request, or one request per flag, at most
CONCURRENT at once, where the server lacks the route (404 or 405), or where one flag refused
the whole batch (400, 404, 409: the others are read again and those unchanged sent alone). A
batch route is all or nothing on the server, so its one status proves no flag's outcome: every
flag sent is read again, and its outcome says what is now true of it (done), or why it is not
(refused), or that nothing proves either (unknown: re-read before sending again).

A plan is made against the flags as read for it (`Planned.before`): `send` reads them again
first, and if another admin changed one since (on or off in an environment, stale, archived),
nothing is sent (`EditConflict`, each flag's change and the event log's who and when) unless
asked to send anyway. The result reads every flag of the plan again, those it did not send too:
one planned "already off" that someone switched on since is said as it is now ("changed").
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from flagtui.api import errors
from flagtui.api.bulk_changes import Change, Request
from flagtui.api.core import Core
from flagtui.api.edits import EditConflict, FieldChange
from flagtui.api.environments import Environments
from flagtui.api.events import Events
from flagtui.api.features import Features
from flagtui.api.models import Feature, Strategy
from flagtui.contract import PAGE_MAX
from flagtui.words import counted

T = TypeVar("T")

BATCH = 100  # names in one batch request
# One-flag requests in flight at once: a server's rate limits are shared with its other users.
CONCURRENT = 4
FEW = 3  # up to this many names off the live list are looked up one by one (2 reads each)
ARCHIVE_PAGES = 5  # else the archived flags are paged through (feature searches: rationed)

# A batch refused so may be refused for one of its flags (unknown, archived, changed since the
# plan): the others are then sent alone. A refusal of the caller (401, 403, 429) is not retried.
ONE_FLAG_REFUSES = (errors.ValidationError, errors.NotFoundError, errors.ConflictError)

Step = Literal["send", "unchanged", "refused"]
Said = Literal["done", "unchanged", "changed", "refused", "unknown"]


@dataclass(frozen=True)
class Planned:
    """One flag in a plan: what `send` will do with it, and why."""

    feature: str
    step: Step
    detail: str
    before: Feature | None = None  # the flag as read for the plan
    error: errors.FlagtuiError | None = None  # why it is refused


@dataclass(frozen=True)
class Plan:
    project: str
    change: Change
    flags: list[Planned]
    production: bool = False  # the change's environment is of type production
    requests: list[Request] = field(default_factory=list)
    """What `send` sends first: the batch route (one request per flag if the server lacks it)."""
    # the project environment's default strategy (None: Unleash's own), what a switch-on adds
    default_strategy: Strategy | None = None

    @property
    def to_send(self) -> list[str]:
        return [p.feature for p in self.flags if p.step == "send"]


@dataclass(frozen=True)
class Outcome:
    feature: str
    outcome: Said
    detail: str
    before: Feature | None = None
    error: errors.FlagtuiError | None = None


class Bulk:
    def __init__(
        self, core: Core, features: Features, environments: Environments, events: Events
    ) -> None:
        self._core = core
        self._features = features
        self._environments = environments
        self._events = events

    async def plan(self, project: str, change: Change, names: Iterable[str]) -> Plan:
        """Read each flag; decide, per flag, send / unchanged / refused. Sends nothing."""
        self._core.require_writable(change.action)
        wanted = list(dict.fromkeys(names))
        production, default = False, None
        if change.environment is not None:
            envs = await self._environments.list(project)
            env = next((e for e in envs if e.name == change.environment), None)
            production = env is not None and env.type == "production"
            default = env.default_strategy if env is not None else None
        live = {f.name: f for f in await self._features.list(project)}
        archived, unknown = await self._archived_among(
            project, [n for n in wanted if n not in live]
        )
        live.update({n: f for n, f in archived.items() if not f.is_archived})  # raced: live now
        flags = [self._planned(change, name, live, archived, unknown) for name in wanted]
        sending = [p.feature for p in flags if p.step == "send"]
        requests = [change.batch(project, chunk) for chunk in _chunks(sending, BATCH)]
        return Plan(project, change, flags, production, requests, default)

    async def send(self, plan: Plan, *, anyway: bool = False) -> list[Outcome]:
        """Send the plan's flags; one outcome per flag of the plan, in its order. A flag changed
        since the plan read it: EditConflict, nothing sent (unless `anyway`)."""
        change, project = plan.change, plan.project
        self._core.require_writable(change.action)
        if not anyway:
            await self._unchanged_since_planned(plan)
        failed: dict[str, errors.FlagtuiError] = {}
        batch_missing = False
        for chunk in _chunks(plan.to_send, BATCH):
            if not batch_missing:
                request = change.batch(project, chunk)
                try:
                    await self._send(change, request)
                    continue
                except errors.ApiError as exc:
                    if _route_missing(exc):
                        batch_missing = True
                    elif isinstance(exc, ONE_FLAG_REFUSES):
                        chunk = await self._not_yet(plan, chunk, exc, failed)
                    else:
                        failed.update(dict.fromkeys(chunk, exc))
                        continue
            failed.update(await self._one_by_one(plan, chunk))
        return await self._judged(plan, failed)

    # -- sending ----------------------------------------------------------------------------------

    async def _send(self, change: Change, request: Request) -> None:
        await self._core.write(change.action, request.method, request.path, json=request.body)

    async def _not_yet(
        self,
        plan: Plan,
        names: list[str],
        refusal: errors.ApiError,
        failed: dict[str, errors.FlagtuiError],
    ) -> list[str]:
        """After a batch refused (one flag can refuse it all): those not changed, read again,
        to be sent one by one so each gets its own answer. If the read fails, none is sent:
        each keeps the batch's refusal."""
        try:
            proven = await self._proven(plan.project, plan.change, names)
        except errors.FlagtuiError:
            failed.update(dict.fromkeys(names, refusal))
            return []
        return [n for n in names if n not in proven]

    async def _one_by_one(self, plan: Plan, names: list[str]) -> dict[str, errors.FlagtuiError]:
        """Each flag its own request (the batch route missing, or refusing one of them)."""

        async def one(name: str) -> None:
            await self._send(plan.change, plan.change.one(plan.project, name))

        results = await _gathered(names, one)
        return {n: e for n, e in results.items() if e is not None}

    async def _unchanged_since_planned(self, plan: Plan) -> None:
        live = {f.name: f for f in await self._features.list(plan.project)}
        changed = [
            FieldChange(p.feature, _state(p.before), _state(live.get(p.feature)))
            for p in plan.flags
            if p.before is not None
            and not p.before.is_archived
            and _state(p.before) != _state(live.get(p.feature))
        ]
        if not changed:
            return
        recorded = []
        for moved in changed[:FEW]:
            try:
                page = await self._events.search(project=plan.project, feature=moved.field, limit=1)
            except errors.FlagtuiError:
                continue
            recorded.extend(page.events)
        what = f"{len(changed)} of the plan's {counted(len(plan.flags), 'flag')}"
        raise EditConflict(what, plan.change.action, changed, live, recorded)

    # -- proving ----------------------------------------------------------------------------------

    async def _judged(self, plan: Plan, failed: dict[str, errors.FlagtuiError]) -> list[Outcome]:
        change = plan.change
        sent = plan.to_send
        proven: set[str] = set()
        now: dict[str, Feature] = {}
        unread: errors.FlagtuiError | None = None
        try:
            now = {f.name: f for f in await self._features.list(plan.project)}
            if sent:
                proven = await self._proven(plan.project, change, sent, now)
        except errors.FlagtuiError as exc:
            unread = exc
        outcomes = []
        for p in plan.flags:
            if p.step == "unchanged" and unread is None and _moved(p, now.get(p.feature)):
                said_now = f"not sent (planned: {p.detail}); now {_said(now.get(p.feature))}"
                outcomes.append(Outcome(p.feature, "changed", said_now, p.before))
                continue
            if p.step != "send":
                said: Said = "unchanged" if p.step == "unchanged" else "refused"
                outcomes.append(Outcome(p.feature, said, p.detail, p.before, p.error))
                continue
            outcomes.append(_outcome(p, change, p.feature in proven, failed.get(p.feature), unread))
        return outcomes

    async def _proven(
        self, project: str, change: Change, sent: list[str], live: dict[str, Feature] | None = None
    ) -> set[str]:
        """The flags sent that the server now shows changed (`live`: the live flags just read)."""
        if live is None:
            live = {f.name: f for f in await self._features.list(project)}
        held = {n for n in sent if change.holds(live.get(n))}
        if change.verb != "archive":
            return held
        archived, _ = await self._archived_among(project, sorted(held))
        return {n for n, f in archived.items() if f.is_archived}

    # -- reading ----------------------------------------------------------------------------------

    async def _archived_among(
        self, project: str, names: list[str]
    ) -> tuple[dict[str, Feature], dict[str, errors.FlagtuiError]]:
        """Of flags not among the live ones: those archived (or live after all), and why each
        other one is not (a 404: unknown in this project)."""
        found: dict[str, Feature] = {}
        complete = False
        if len(names) > FEW:
            found, complete = await self._archived_pages(project, set(names))
        rest = [n for n in names if n not in found]
        read = self._features.get if complete else self._features.get_or_archived

        async def one(name: str) -> Feature:
            return await read(project, name)

        results = await _gathered(rest, one)
        unknown: dict[str, errors.FlagtuiError] = {}
        for name, result in results.items():
            if isinstance(result, Feature):
                found[name] = result
            else:
                assert result is not None
                unknown[name] = result
        return found, unknown

    async def _archived_pages(
        self, project: str, names: set[str]
    ) -> tuple[dict[str, Feature], bool]:
        """The named flags among the project's archived ones, newest archived first; whether
        every archived flag was seen (then a name not found is not archived)."""
        found: dict[str, Feature] = {}
        offset = 0
        for _ in range(ARCHIVE_PAGES):
            try:
                page = await self._features.archived.list(project, offset=offset, limit=PAGE_MAX)
            except errors.FlagtuiError:
                return found, False
            found.update({f.name: f for f in page.features if f.name in names})
            offset += PAGE_MAX
            if offset >= page.total or len(found) == len(names):
                return found, offset >= page.total
        return found, False

    def _planned(
        self,
        change: Change,
        name: str,
        live: dict[str, Feature],
        archived: dict[str, Feature],
        unknown: dict[str, errors.FlagtuiError],
    ) -> Planned:
        if name in live:
            flag = live[name]
            why = change.already(flag)
            if why is None:
                return Planned(name, "send", f"{change.verb}: will be {change.result}", flag)
            return Planned(
                name, "unchanged", f"{name} is {why}: {change.action} was not sent", flag
            )
        if name in archived:
            flag = archived[name]
            if change.verb == "revive":
                return Planned(name, "send", f"revive: will be {change.result}", flag)
            if change.verb == "archive":
                said = f"{name} is already archived: {change.action} was not sent"
                return Planned(name, "unchanged", said, flag)
            refusal = errors.ArchivedFlag(name, change.action)
            return Planned(name, "refused", str(refusal), flag, refusal)
        error = unknown[name]
        return Planned(name, "refused", _message(error), None, error)


def _outcome(
    p: Planned,
    change: Change,
    proven: bool,
    error: errors.FlagtuiError | None,
    unread: errors.FlagtuiError | None,
) -> Outcome:
    if proven:
        return Outcome(p.feature, "done", f"now {change.result}", p.before)
    if error is not None and not isinstance(error, errors.OutcomeUnknown):
        # a refusal: a batch route refuses all its flags or none, so none of it was applied
        return Outcome(p.feature, "refused", _message(error), p.before, error)
    if unread is not None:
        why = f"sent; the read that would prove it failed: {_message(unread)}"
    elif error is not None:
        why = f"{_message(error)}; a read just after shows it is not {change.result}"
    else:
        why = f"the server took the request, yet a read shows it is not {change.result}"
    check = errors.OutcomeUnknown.CHECK
    return Outcome(p.feature, "unknown", f"{why}; {check}", p.before, error or unread)


def _state(flag: Feature | None) -> dict[str, object]:
    """What a plan's step depends on: archived (not among the live flags), stale, and the
    environments it is on in."""
    if flag is None:
        return {"archived": True}
    on = sorted(e.name for e in flag.environments or [] if e.enabled)
    return {"archived": False, "stale": bool(flag.stale), "on in": on}


def _moved(p: Planned, now: Feature | None) -> bool:
    """A flag the plan left alone is no longer as the plan read it."""
    return p.before is not None and not p.before.is_archived and _state(p.before) != _state(now)


def _said(flag: Feature | None) -> str:
    state = _state(flag)
    if state["archived"]:
        return "archived"
    on = ", ".join(state["on in"]) or "no environment"  # type: ignore[arg-type]
    return f"on in {on}{', stale' if state['stale'] else ''}"


def _route_missing(exc: errors.ApiError) -> bool:
    """The batch route itself is missing (not a flag of the batch unknown): say so once."""
    return exc.status == 405 or "not available" in exc.message


def _message(error: errors.FlagtuiError | None) -> str:
    if isinstance(error, errors.ApiError):
        return error.message or error.describe()
    return str(error)


def _chunks(names: list[str], size: int) -> list[list[str]]:
    return [names[i : i + size] for i in range(0, len(names), size)]


async def _gathered(
    names: list[str], call: Callable[[str], Awaitable[T]]
) -> dict[str, T | errors.FlagtuiError]:
    """`call` for each name, CONCURRENT at once: its answer, or the error it raised."""
    gate = asyncio.Semaphore(CONCURRENT)

    async def one(name: str) -> T | errors.FlagtuiError:
        async with gate:
            try:
                return await call(name)
            except errors.FlagtuiError as exc:
                return exc

    results = await asyncio.gather(*(one(n) for n in names))
    return dict(zip(names, results, strict=True))
