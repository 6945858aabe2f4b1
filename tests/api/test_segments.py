"""`client.segments` on the sandbox: create, edit, delete and where used, each checked before
it is sent (the field and its limit named), read-only refused before any request."""

from __future__ import annotations

import pytest

from flagtui.api import AdminClient, InvalidArgument, NothingToSend, ReadOnlyProfile
from flagtui.api.edits import EditConflict
from flagtui.api.models import Constraint, Strategy
from flagtui.api.segments import SegmentInUse, SegmentSpec
from flagtui.contract import SEGMENT_VALUES_MAX

IN = Constraint(context_name="userId", operator="IN", values=["1", "2"])


async def _created(admin: AdminClient, name: str, *constraints: Constraint):
    catalog = await admin.rollouts.catalog()
    edit = admin.segments.plan_create(SegmentSpec(name, constraints=constraints or (IN,)), catalog)
    return await admin.segments.create(edit)


async def test_create_edit_and_delete(admin: AdminClient) -> None:
    made = await _created(admin, "api-made")
    assert (await admin.segments.get(made.id)).constraints == [IN]
    catalog = await admin.rollouts.catalog()
    wanted = SegmentSpec("api-made", "now with a description", "default", [IN])
    edit = admin.segments.plan_edit(made, wanted, catalog, ["default"])
    assert edit.plan.shown() == {
        "method": "PUT",
        "path": f"/api/admin/segments/{made.id}",
        "body": {
            "name": "api-made",
            "description": "now with a description",
            "project": "default",
            "constraints": [{"contextName": "userId", "operator": "IN", "values": ["1", "2"]}],
        },
    }
    stored = await admin.segments.send_edit(edit)
    assert (stored.description, stored.project) == ("now with a description", "default")
    with pytest.raises(NothingToSend):
        admin.segments.plan_edit(stored, wanted, catalog)
    await admin.segments.delete(stored)
    assert made.id not in [s.id for s in await admin.segments.list()]


async def test_an_edit_made_on_an_older_state_is_a_conflict(admin: AdminClient) -> None:
    made = await _created(admin, "api-raced")
    catalog = await admin.rollouts.catalog()
    first = admin.segments.plan_edit(made, SegmentSpec("api-raced", "mine", None, [IN]), catalog)
    other = admin.segments.plan_edit(made, SegmentSpec("api-raced", "theirs", None, [IN]), catalog)
    await admin.segments.send_edit(other)
    with pytest.raises(EditConflict) as conflict:
        await admin.segments.send_edit(first)
    assert "description" in str(conflict.value)
    assert (await admin.segments.get(made.id)).description == "theirs"


@pytest.mark.parametrize(
    ("spec", "field", "said"),
    [
        (SegmentSpec(" "), "name", "not blank"),
        (SegmentSpec("x", project="nowhere"), "project", "no project 'nowhere'"),
        (
            SegmentSpec("x", constraints=[Constraint(context_name="userId", operator="INN")]),
            "constraints[0].operator",
            "did you mean IN",
        ),
        (
            SegmentSpec(
                "x",
                constraints=[IN.model_copy(update={"values": [str(i) for i in range(250)]})] * 5,
            ),
            "constraints",
            f"at most {SEGMENT_VALUES_MAX:,} values",
        ),
        (SegmentSpec("beta-testers"), "name", "exists already"),
    ],
)
async def test_bad_input_names_the_field_and_the_limit(
    admin: AdminClient, spec: SegmentSpec, field: str, said: str
) -> None:
    catalog = await admin.rollouts.catalog()
    sent = admin.requests_sent
    with pytest.raises(InvalidArgument) as refused:
        admin.segments.plan_create(spec, catalog, ["default", "payments"])
    assert refused.value.field == field and said in refused.value.limit
    assert admin.requests_sent == sent


async def test_a_used_segment_is_not_deleted_and_its_strategies_are_named(
    admin: AdminClient,
) -> None:
    made = await _created(admin, "api-used")
    flag = await admin.features.create("default", "api-segment-user")
    strategy = await admin.rollouts.add(
        "default", flag.name, "development", Strategy(name="default", segments=[made.id])
    )
    [used] = await admin.segments.used_by(made.id)
    assert (used.feature_name, used.environment, used.id) == (flag.name, "development", strategy.id)
    sent = admin.requests_sent
    with pytest.raises(SegmentInUse) as refused:
        await admin.segments.delete(made)
    assert admin.requests_sent == sent + 1  # the usage read, no DELETE
    assert f"{flag.name}/development default {strategy.id}" in str(refused.value)
    assert made.id in [s.id for s in await admin.segments.list()]


async def test_read_only_refuses_before_any_request(sandbox) -> None:
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as locked:
        segment = (await locked.segments.list())[0]
        catalog = await locked.rollouts.catalog()
        edit = locked.segments.plan_edit(segment, SegmentSpec("renamed"), catalog)
        sent = locked.requests_sent
        for write in (
            locked.segments.send_edit(edit),
            locked.segments.delete(segment),
            locked.segments.create(locked.segments.plan_create(SegmentSpec("x"), catalog)),
        ):
            with pytest.raises(ReadOnlyProfile):
                await write
        assert locked.requests_sent == sent
