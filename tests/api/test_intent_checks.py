"""What real Unleash accepts but an admin does not mean, refused by the client before sending
(`flagtui.api.intent`), on the sandbox, which accepts each of them as real Unleash does."""

from __future__ import annotations

import pytest

from flagtui.api import AdminClient, errors
from flagtui.api.feature_query import FeatureQuery


async def _events(admin: AdminClient, name: str) -> list[str]:
    return [e.type for e in (await admin.events.search(feature=name, limit=10)).events]


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/archived", "flagtui feature archive"),
        ("/environments/0/enabled", "flagtui feature enable|disable"),
        ("/strategies/0/parameters", "strategies have their own routes"),
        ("/environments/1/strategies/0", "flagtui feature enable|disable"),
        ("/variants/0", "variants have their own routes"),
        ("/name", "/name cannot be patched"),
    ],
)
async def test_a_patch_outside_the_four_fields_is_refused_before_sending(
    admin: AdminClient, some_feature, path: str, says: str
) -> None:
    sent = admin.requests_sent
    with pytest.raises(errors.InvalidArgument, match=r"patch\[0\]\.path") as caught:
        await admin.features.patch(
            "payments", some_feature.name, [{"op": "replace", "path": path, "value": True}]
        )
    assert says in str(caught.value)
    assert admin.requests_sent == sent


async def test_a_move_from_a_strategy_is_refused_too(admin: AdminClient, some_feature) -> None:
    move = [{"op": "move", "from": "/strategies/0", "path": "/description"}]
    with pytest.raises(errors.InvalidArgument, match=r"patch\[0\]\.from"):
        await admin.features.patch("payments", some_feature.name, move)


async def test_a_type_that_is_no_feature_type_is_refused_naming_the_valid_ones(
    admin: AdminClient, some_feature
) -> None:
    """The sandbox stores it, as real Unleash does: failed before the client checked it."""
    before = await admin.features.get("payments", some_feature.name)
    typo = [{"op": "replace", "path": "/type", "value": "relase"}]
    with pytest.raises(errors.InvalidArgument) as caught:
        await admin.features.patch("payments", some_feature.name, typo)
    assert caught.value.field == "type"
    assert "did you mean release?" in caught.value.limit
    assert "kill-switch" in caught.value.limit
    assert (await admin.features.get("payments", some_feature.name)).type == before.type
    fine = [{"op": "replace", "path": "/type", "value": "kill-switch"}]
    assert (await admin.features.patch("payments", some_feature.name, fine)).type == "kill-switch"


@pytest.mark.parametrize("op", ["copy", "move"])
async def test_a_type_copied_or_moved_from_another_field_is_refused(
    admin: AdminClient, some_feature, op: str
) -> None:
    """Real Unleash 8.2.0 stores a description copied into /type as the type (checked): the
    value never passed the feature-type check, so flagtui sent it."""
    sent = admin.requests_sent
    into_type = [{"op": op, "from": "/description", "path": "/type"}]
    with pytest.raises(errors.InvalidArgument, match=r"patch\[0\]\.op") as caught:
        await admin.features.patch("payments", some_feature.name, into_type)
    assert "replace /type with one of the server's feature types" in caught.value.limit
    assert admin.requests_sent == sent


async def test_archive_records_the_archive_and_is_not_sent_twice(admin: AdminClient) -> None:
    live = (
        await admin.features.search(FeatureQuery(project="payments", lifecycle=["live"], limit=3))
    ).features
    name = live[-1].name
    await admin.features.archive("payments", name)
    assert (await _events(admin, name))[0] == "feature-archived"
    archived = await admin.archived.find("payments", name)
    assert archived is not None and archived.lifecycle and archived.lifecycle.stage == "archived"
    sent = admin.requests_sent
    with pytest.raises(errors.NothingToSend, match="already archived: archive was not sent"):
        await admin.features.archive("payments", name)
    assert admin.requests_sent > sent  # it read the flag, and sent nothing:
    assert (await _events(admin, name)).count("feature-archived") == 1
    with pytest.raises(errors.NotFoundError):
        await admin.features.archive("payments", "no-such-flag-anywhere")


async def test_revive_of_a_live_or_unknown_flag_sends_nothing(
    admin: AdminClient, some_feature
) -> None:
    with pytest.raises(errors.NothingToSend, match="not archived"):
        await admin.features.revive("payments", some_feature.name)
    with pytest.raises(errors.NotFoundError):
        await admin.features.revive("payments", "no-such-flag-anywhere")


async def test_uncomplete_reads_the_flag_first(admin: AdminClient) -> None:
    with pytest.raises(errors.NotFoundError):
        await admin.features.uncomplete("payments", "no-such-flag-anywhere")
    live = (
        await admin.features.search(FeatureQuery(project="payments", lifecycle=["live"], limit=1))
    ).features
    with pytest.raises(errors.NothingToSend, match=r"not completed \(stage live\)"):
        await admin.features.uncomplete("payments", live[0].name)
    assert "feature-uncompleted" not in await _events(admin, live[0].name)


async def test_a_read_only_profile_sends_not_even_the_reads_before_a_write(sandbox) -> None:
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as locked:
        for write in (
            locked.features.archive("payments", "x"),
            locked.features.revive("payments", "x"),
            locked.features.uncomplete("payments", "x"),
            locked.features.patch(
                "payments", "x", [{"op": "replace", "path": "/type", "value": "t"}]
            ),
        ):
            with pytest.raises(errors.ReadOnlyProfile):
                await write
        assert locked.requests_sent == 0
