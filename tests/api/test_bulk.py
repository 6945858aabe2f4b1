"""`client.bulk` on the sandbox: a plan that only reads, a send by the batch route (or one request
per flag where a server lacks it), each flag's outcome proven by a read afterwards."""

from __future__ import annotations

import json

import httpx
import pytest

from flagtui.api import AdminClient, errors
from flagtui.api.bulk_changes import Change
from flagtui.api.edits import EditConflict
from testkit.second_admin import second_admin

PROJECT = "payments"


class Recording(httpx.AsyncBaseTransport):
    """The requests that reached the server; `missing` paths answered as a server without the
    batch routes answers them (Unleash's 404 "... is not available")."""

    def __init__(self, missing: tuple[str, ...] = ()) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.missing = missing
        self.writes: list[tuple[str, str, object]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "GET":
            body = json.loads(request.content) if request.content else None
            self.writes.append((request.method, request.url.path, body))
        if request.url.path.endswith(self.missing):
            message = f"The path you were looking for ({request.url.path}) is not available."
            answer = {"id": "x", "name": "NotFoundError", "message": message}
            return httpx.Response(404, json=answer)
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def live_names(admin: AdminClient, count: int) -> list[str]:
    return [f.name for f in (await admin.features.list(PROJECT))[:count]]


async def event_types(admin: AdminClient, name: str) -> list[str]:
    page = await admin.events.search(feature=name)
    return [e.type for e in page.events]


async def test_plan_reads_only_and_says_each_flags_step(sandbox, admin):
    names = await live_names(admin, 3)
    await admin.features.archive(PROJECT, names[2])
    transport = Recording()
    async with AdminClient(sandbox.url, sandbox.admin_token, transport=transport) as client:
        plan = await client.bulk.plan(PROJECT, Change("archive"), [*names, "no-such-flag"])
    assert transport.writes == []
    steps = {p.feature: p.step for p in plan.flags}
    assert steps == {names[0]: "send", names[1]: "send", names[2]: "unchanged",
                     "no-such-flag": "refused"}  # fmt: skip
    refused = next(p for p in plan.flags if p.step == "refused")
    assert isinstance(refused.error, errors.NotFoundError)
    assert [(r.method, r.path, r.body) for r in plan.requests] == [
        ("POST", f"/api/admin/projects/{PROJECT}/archive", {"features": names[:2]})
    ]


async def test_archive_by_the_batch_route_each_proven_with_its_event(sandbox, admin):
    names = await live_names(admin, 5)
    transport = Recording()
    async with AdminClient(sandbox.url, sandbox.admin_token, transport=transport) as client:
        plan = await client.bulk.plan(PROJECT, Change("archive"), [*names, "no-such-flag"])
        outcomes = await client.bulk.send(plan)
    assert [w[1] for w in transport.writes] == [f"/api/admin/projects/{PROJECT}/archive"]
    said = {o.feature: o.outcome for o in outcomes}
    assert said == {**dict.fromkeys(names, "done"), "no-such-flag": "refused"}
    assert all(o.detail == "now archived" for o in outcomes if o.outcome == "done")
    for name in names:
        assert (await event_types(admin, name))[0] == "feature-archived"


async def test_without_the_batch_route_each_flag_goes_alone(sandbox, admin):
    names = await live_names(admin, 3)
    transport = Recording(missing=("/stale",))
    async with AdminClient(sandbox.url, sandbox.admin_token, transport=transport) as client:
        await client.connect()
        plan = await client.bulk.plan(PROJECT, Change("unstale"), names)
        await client.bulk.send(plan)  # whatever each was, now none is stale
        plan = await client.bulk.plan(PROJECT, Change("stale"), names)
        outcomes = await client.bulk.send(plan)
    assert [o.outcome for o in outcomes] == ["done"] * 3
    patches = [w for w in transport.writes if w[0] == "PATCH"]
    assert len(patches) >= 3 and all(w[2][0]["path"] == "/stale" for w in patches)
    for name in names:
        assert (await admin.features.get(PROJECT, name)).stale is True
        assert "feature-stale-on" in await event_types(admin, name)


async def test_a_batch_refused_for_one_flag_still_switches_the_others(sandbox, admin):
    names = await live_names(admin, 3)
    await admin.bulk.send(await admin.bulk.plan(PROJECT, Change("disable", "development"), names))
    plan = await admin.bulk.plan(PROJECT, Change("enable", "development"), names)
    await admin.features.archive(PROJECT, names[1])  # between the plan and the send
    transport = Recording()
    async with AdminClient(sandbox.url, sandbox.admin_token, transport=transport) as client:
        with pytest.raises(EditConflict) as stopped:  # changed since the plan: nothing sent
            await client.bulk.send(plan)
        assert [w for w in transport.writes if not w[1].endswith("/events/search")] == []
        assert [c.field for c in stopped.value.changed] == [names[1]]
        transport.writes.clear()
        outcomes = await client.bulk.send(plan, anyway=True)
    said = {o.feature: o for o in outcomes}
    assert said[names[1]].outcome == "refused"
    assert "archived" in said[names[1]].detail
    for name in (names[0], names[2]):
        assert said[name].outcome == "done" and said[name].detail == "now on in development"
        flag = await admin.features.get(PROJECT, name)
        assert next(e.enabled for e in flag.environments or [] if e.name == "development")
    batch = f"/api/admin/projects/{PROJECT}/bulk_features/environments/development/on"
    assert transport.writes[0][1] == batch  # refused as a whole (all or none), then one by one
    assert len(transport.writes) == 4


async def test_switch_in_production_is_flagged_and_flags_already_so_are_unchanged(admin):
    names = await live_names(admin, 2)
    await admin.features.set_environment_enabled(PROJECT, names[0], "production", True)
    plan = await admin.bulk.plan(PROJECT, Change("enable", "production"), names)
    assert plan.production
    assert plan.flags[0].step == "unchanged" and "already on in production" in plan.flags[0].detail


async def test_a_read_only_profile_plans_nothing(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as locked:
        with pytest.raises(errors.ReadOnlyProfile):
            await locked.bulk.plan(PROJECT, Change("archive"), ["x"])
        assert locked.requests_sent == 0


@pytest.mark.parametrize("forward", [True, False])
async def test_a_batch_whose_answer_is_lost_is_judged_by_reading_again(sandbox, admin, forward):
    """A gateway's 504: sent to the server (forward) or not; the one status says neither."""
    from gateway import Gateway, gateway_page

    names = await live_names(admin, 3)
    with Gateway(sandbox.url, answer=gateway_page(504), method="POST", forward=forward) as gw:
        async with AdminClient(gw.url, sandbox.admin_token) as client:
            plan = await client.bulk.plan(PROJECT, Change("archive"), names)
            outcomes = await client.bulk.send(plan)
    assert gw.count("POST") == (1 if forward else 0)
    if forward:  # applied: proven by the archived flags
        assert [o.outcome for o in outcomes] == ["done"] * 3
    else:  # not applied, and nothing says so for sure: re-read before sending again
        assert [o.outcome for o in outcomes] == ["unknown"] * 3
        assert all(errors.OutcomeUnknown.CHECK in o.detail for o in outcomes)
        assert all("a read just after shows it is not archived" in o.detail for o in outcomes)
        for name in names:
            assert not (await admin.features.get(PROJECT, name)).is_archived


async def test_another_admins_change_since_the_plan_stops_it_and_the_result_says_every_flag_now(
    sandbox, admin
):
    """A flag planned "already off, not sent" that another admin switches on before the send:
    the send stops, naming the flag, what changed, by whom; sent anyway, the result reads that
    flag again too and says it is on now, not "already off"."""
    names = await live_names(admin, 3)
    off = Change("disable", "development")
    await admin.bulk.send(await admin.bulk.plan(PROJECT, off, names[:1]), anyway=True)
    plan = await admin.bulk.plan(PROJECT, off, names)
    assert plan.flags[0].step == "unchanged"
    token, who = second_admin(sandbox)
    async with AdminClient(sandbox.url, token, profile="other") as other:
        await other.features.set_environment_enabled(PROJECT, names[0], "development", True)
    with pytest.raises(EditConflict) as stopped:
        await admin.bulk.send(plan)
    said = "\n".join(stopped.value.lines())
    assert f'{names[0]}: shown {{"archived": false, "on in": [' in said
    assert f"feature-environment-enabled by {who} at " in said
    on = await admin.features.get(PROJECT, names[0])
    assert next(e.enabled for e in on.environments or [] if e.name == "development")  # kept
    outcomes = {o.feature: o for o in await admin.bulk.send(plan, anyway=True)}
    first = outcomes[names[0]]
    assert first.outcome == "changed", first
    assert first.detail.startswith("not sent (planned: ") and "; now on in " in first.detail
    assert "development" in first.detail.split("; now ")[1]
