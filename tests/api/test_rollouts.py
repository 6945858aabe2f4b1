"""Creating a flag and changing its rollout through AdminClient, on the sandbox: what is stored,
the event each write records, refusals before any request (bad input, read-only), honest
outcomes (nothing to send, not supported)."""

from __future__ import annotations

import pytest

from flagtui.api import (
    AdminClient,
    InvalidArgument,
    NothingToSend,
    NotSupported,
    ReadOnlyProfile,
    errors,
)
from flagtui.api.models import Constraint, Strategy, Variant

PROJECT, ENV = "default", "production"


async def newest_event(client: AdminClient, feature: str):
    return (await client.events.search(feature=feature, limit=1)).events[0]


@pytest.fixture
async def flag(admin: AdminClient) -> str:
    created = await admin.features.create(PROJECT, "roll-new", description="for its rollout")
    return created.name


async def test_create_checks_the_name_then_records_feature_created(admin: AdminClient) -> None:
    created = await admin.features.create(
        PROJECT, "roll-created", type="experiment", description="why", impression_data=True
    )
    assert (created.type, created.description, created.impression_data) == (
        "experiment",
        "why",
        True,
    )
    assert created.lifecycle and created.lifecycle.stage == "initial"
    assert {e.name: (e.enabled, e.strategies) for e in created.environments or []} == {
        "development": (False, []),
        "production": (False, []),
    }
    assert (await newest_event(admin, "roll-created")).type == "feature-created"
    with pytest.raises(errors.ConflictError, match="already exists"):
        await admin.features.create(PROJECT, "roll-created")


async def test_create_refuses_a_bad_name_or_type_before_writing(admin: AdminClient) -> None:
    sent = admin.requests_sent
    with pytest.raises(InvalidArgument, match="name: a flag name of letters"):
        await admin.features.create(PROJECT, "roll new")
    assert admin.requests_sent == sent
    with pytest.raises(InvalidArgument, match=r"did you mean experiment\?"):
        await admin.features.create(PROJECT, "roll-typed", type="experment")
    assert admin.requests_sent == sent + 1  # the feature types, read to check it
    with pytest.raises(errors.NotFoundError):
        await admin.features.get(PROJECT, "roll-typed")


async def test_add_update_and_their_events(admin: AdminClient, flag: str) -> None:
    catalog = await admin.rollouts.catalog()
    segment = catalog.segments[0]
    added = await admin.rollouts.add(
        PROJECT,
        flag,
        ENV,
        Strategy(
            name="flexibleRollout",
            title="ten",
            parameters={"rollout": 10, "stickiness": "userId"},
            constraints=[Constraint(context_name="userId", operator="IN", values=["u-1"])],
            segments=[segment.id],
            variants=[Variant(name="a"), Variant(name="b", weight=300, weight_type="fix")],
        ),
        catalog=catalog,
    )
    assert added.parameters == {"rollout": "10", "stickiness": "userId", "groupId": flag}
    assert [(v.name, v.weight, v.stickiness) for v in added.variants or []] == [
        ("a", 700, "userId"),
        ("b", 300, "userId"),
    ]
    assert added.segments == [segment.id] and added.title == "ten"
    event = await newest_event(admin, flag)
    assert (event.type, event.environment, event.data["id"]) == (
        "feature-strategy-add",
        ENV,
        added.id,
    )

    lower = added.model_copy(update={"parameters": {**(added.parameters or {}), "rollout": "0"}})
    updated = await admin.rollouts.update(PROJECT, flag, ENV, lower)
    assert updated.parameters and updated.parameters["rollout"] == "0"
    assert updated.constraints == added.constraints and updated.segments == added.segments
    event = await newest_event(admin, flag)
    assert event.type == "feature-strategy-update"
    assert (event.pre_data["parameters"]["rollout"], event.data["parameters"]["rollout"]) == (
        "10",
        "0",
    )
    assert [s.id for s in await admin.rollouts.list(PROJECT, flag, ENV)] == [added.id]
    with pytest.raises(NothingToSend, match="already so"):  # Unleash would record it again
        await admin.rollouts.update(PROJECT, flag, ENV, updated)
    assert (await newest_event(admin, flag)).id == event.id


async def test_bad_rollouts_are_refused_before_any_request(admin: AdminClient, flag: str) -> None:
    catalog = await admin.rollouts.catalog()
    sent = admin.requests_sent
    cases = [
        ("parameters.rollout", Strategy(name="flexibleRollout", parameters={"rollout": 101})),
        (
            "variants.weight",
            Strategy(
                name="flexibleRollout",
                variants=[
                    Variant(name="a", weight=600, weight_type="fix"),
                    Variant(name="b", weight=300, weight_type="fix"),
                ],
            ),
        ),
        (
            "constraints[0].value",
            Strategy(
                name="default",
                constraints=[
                    Constraint(context_name="appVersion", operator="SEMVER_GT", value="abc")
                ],
            ),
        ),
        (
            "constraints[0].value",
            Strategy(
                name="default",
                constraints=[Constraint(context_name="email", operator="REGEX", value="(?=a)")],
            ),
        ),
        ("name", Strategy(name="gradualRolloutRandom")),
        ("segments[0]", Strategy(name="default", segments=[987654])),
    ]
    for field, strategy in cases:
        with pytest.raises(InvalidArgument) as caught:
            await admin.rollouts.add(PROJECT, flag, ENV, strategy, catalog=catalog)
        assert caught.value.field == field
    assert admin.requests_sent == sent
    assert await admin.rollouts.list(PROJECT, flag, ENV) == []


async def test_disable_enable_remove_and_the_environment_switched_off(
    admin: AdminClient, flag: str
) -> None:
    only = await admin.rollouts.add(PROJECT, flag, ENV, Strategy(name="default"))
    await admin.features.set_environment_enabled(PROJECT, flag, ENV, True)
    disabled = await admin.rollouts.set_disabled(PROJECT, flag, ENV, str(only.id), True)
    assert disabled.disabled is True
    # no enabled strategy left: Unleash switches the environment off
    feature = await admin.features.get(PROJECT, flag)
    assert next(e.enabled for e in feature.environments or [] if e.name == ENV) is False
    with pytest.raises(NothingToSend, match="already disabled"):
        await admin.rollouts.set_disabled(PROJECT, flag, ENV, str(only.id), True)
    enabled = await admin.rollouts.set_disabled(PROJECT, flag, ENV, str(only.id), False)
    assert enabled.disabled is False
    await admin.rollouts.remove(PROJECT, flag, ENV, str(only.id))
    assert (await newest_event(admin, flag)).type == "feature-strategy-remove"
    with pytest.raises(errors.NotFoundError):
        await admin.rollouts.remove(PROJECT, flag, ENV, str(only.id))


async def test_order(admin: AdminClient, flag: str) -> None:
    ids = [
        (await admin.rollouts.add(PROJECT, flag, ENV, Strategy(name=name))).id
        for name in ("default", "flexibleRollout", "default")
    ]
    assert all(ids)
    moved = await admin.rollouts.set_order(PROJECT, flag, ENV, [str(ids[2])])
    assert [s.id for s in moved] == [ids[2], ids[0], ids[1]]
    event = await newest_event(admin, flag)
    assert event.type == "strategy-order-changed"
    assert event.data == {"strategyIds": [ids[2], ids[0], ids[1]]}
    with pytest.raises(NothingToSend):
        await admin.rollouts.set_order(PROJECT, flag, ENV, [str(ids[2]), str(ids[0])])
    with pytest.raises(InvalidArgument, match="strategies\\[1\\]: no strategy 'nope'"):
        await admin.rollouts.set_order(PROJECT, flag, ENV, [str(ids[0]), "nope"])


async def test_environment_variants(admin: AdminClient, flag: str) -> None:
    with pytest.raises(NotSupported, match="Environment variants need a flag that has some"):
        await admin.rollouts.set_variants(PROJECT, flag, ENV, [Variant(name="a")])
    holder = next(
        (f.name, e.name)
        for f in await admin.features.list("payments")
        for e in f.environments or []
        if e.variant_count
    )
    stored = await admin.rollouts.set_variants(
        "payments",
        holder[0],
        holder[1],
        [Variant(name="on", weight=250, weight_type="fix"), Variant(name="off")],
    )
    assert sorted((v.name, v.weight) for v in stored) == [("off", 750), ("on", 250)]
    assert await admin.rollouts.variants("payments", *holder) == stored
    assert (await newest_event(admin, holder[0])).type == "feature-environment-variants-updated"


async def test_catalog_reads(admin: AdminClient) -> None:
    offered = [t.name for t in await admin.strategy_types.list()]
    assert offered[0] == "flexibleRollout" and "userWithId" not in offered
    assert "userWithId" in [t.name for t in await admin.strategy_types.list(deprecated=True)]
    fields = await admin.context_fields.list()
    assert [f.name for f in fields][:5] == [
        "environment",
        "userId",
        "appName",
        "currentTime",
        "sessionId",
    ]
    assert any(f.legal_values for f in fields)
    assert all(s.name for s in await admin.segments.list())


async def test_read_only_refuses_every_write_before_any_request(sandbox) -> None:
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as client:
        writes = [
            client.features.create(PROJECT, "roll-ro"),
            client.rollouts.add(PROJECT, "f", ENV, Strategy(name="default")),
            client.rollouts.update(PROJECT, "f", ENV, Strategy(id="s", name="default")),
            client.rollouts.set_disabled(PROJECT, "f", ENV, "s", True),
            client.rollouts.remove(PROJECT, "f", ENV, "s"),
            client.rollouts.set_order(PROJECT, "f", ENV, ["s"]),
            client.rollouts.set_variants(PROJECT, "f", ENV, [Variant(name="a")]),
        ]
        for write in writes:
            with pytest.raises(ReadOnlyProfile):
                await write
        assert client.requests_sent == 0
