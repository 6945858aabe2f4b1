"""What differs between the Unleash versions CI runs (5.12.8 smoke, 6.10.1, 7.5.1, 8.2.0), and
that the client follows each: the event search route and its date parameters, areas that came in
a later version saying which one they need, the user and environment shapes."""

from __future__ import annotations

import contextlib
import datetime as dt

import pytest
from real_revive import wait_until_archived, wait_until_revived

from flagtui.api import NothingToSend, NotSupported
from flagtui.api.capabilities import parse_version
from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import UserList

pytestmark = pytest.mark.unleash


def _version(client) -> tuple[int, int, int]:
    version = parse_version(client.server.version)
    assert version is not None, client.server.version
    return version


async def test_the_contracts_post_event_search_exists_up_to_6(real_client, unleash_admin):
    """Operation 9 as the contract writes it, on the server itself: 200 up to 6.x, 404 from 7."""
    answer = await unleash_admin.post("/api/admin/events/search", json={"limit": 2})
    if _version(real_client) < (7, 0, 0):
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert len(body["events"]) <= 2
        assert body["events"][0]["id"] > body["events"][-1]["id"]
    else:
        assert answer.status_code == 404


async def test_event_search_by_date_uses_the_versions_parameters(real_client, real_feature):
    today = dt.datetime.now(dt.UTC).date()
    if _version(real_client) < (6, 1, 0):
        with pytest.raises(NotSupported, match=r"needs Unleash 6\.1 "):
            await real_client.events.search(since=today)
        return
    page = await real_client.events.search(feature=real_feature, since=today, until=today)
    assert real_feature in {e.feature_name for e in page.events}
    tomorrow = today + dt.timedelta(days=1)
    later = await real_client.events.search(feature=real_feature, since=tomorrow)
    assert later.events == []


async def test_deliveries_say_which_version_they_need(real_client):
    if _version(real_client) >= (6, 1, 0):
        assert await real_client.integrations.events(999_999) == []
        return
    with pytest.raises(NotSupported, match=r"Integration deliveries need Unleash 6\.1 "):
        await real_client.integrations.events(1)


async def test_users_carry_is_api_before_7(real_client, unleash_admin):
    answer = await unleash_admin.get("/api/admin/user-admin")
    users = UserList.model_validate(answer.json()).users
    admin = next(u for u in users if u.username == "admin")
    if _version(real_client) < (7, 0, 0):
        assert admin.is_api is False
    else:
        assert admin.is_api is None


async def test_the_default_environment_exists_before_7_and_is_not_linked(real_client):
    envs = {e.name: e for e in await real_client.environments.list("default")}
    assert {"development", "production"} <= set(envs)
    if _version(real_client) < (7, 0, 0):
        assert "default" in envs and not envs["default"].visible
    else:
        assert "default" not in envs


async def test_archived_flags_are_found_on_every_version(real_client, real_feature, unleash_admin):
    """`lifecycle=IS:archived` is unknown to 7.5.1 (an empty answer); `archived=IS:true` there.
    5.x's archive has a route of its own, which flagtui does not read: the area says so."""
    await real_client.features.archive("default", real_feature)
    if _version(real_client) < (6, 0, 0):
        with pytest.raises(NotSupported, match=r"Archived flags need Unleash 6\.0 "):
            await real_client.archived.find("default", real_feature)
        return
    found = await real_client.archived.find("default", real_feature)
    assert found is not None and found.is_archived
    await wait_until_archived(unleash_admin, "default", real_feature)
    await real_client.archived.revive_many("default", [real_feature])
    await wait_until_revived(real_client, "default", real_feature)  # before the fixture deletes it


async def test_the_archived_stage_filter_finds_archived_flags_on_every_version(
    real_client, real_feature, unleash_admin
):
    """The features area's archived view asks the search for the `archived` stage: each
    version is asked in the way it understands (7.5.1 answered `lifecycle=IS:archived` with
    nothing), and 5.x's area says what it needs."""
    await real_client.features.archive("default", real_feature)
    search = {"project": "default", "query": real_feature, "lifecycle": ["archived"]}
    if _version(real_client) < (6, 0, 0):
        with pytest.raises(NotSupported, match=r"Archived flags need Unleash 6\.0 "):
            await real_client.features.search(FeatureQuery(**search), fresh=True)
        return
    page = await real_client.features.search(FeatureQuery(**search), fresh=True)
    assert [f.name for f in page.features] == [real_feature]
    await wait_until_archived(unleash_admin, "default", real_feature)
    await real_client.archived.revive_many("default", [real_feature])
    await wait_until_revived(real_client, "default", real_feature)  # before the fixture deletes it


async def test_lifecycle_says_what_it_needs_where_its_flag_is_off(real_client, real_feature):
    """5.12 has the lifecycle routes behind a flag, off by default ("Feature lifecycle is
    disabled.", 404); from 6.3 they are always on."""
    if _version(real_client) >= (6, 3, 0):
        # the fresh flag is not completed: nothing sent once its stage is written
        with contextlib.suppress(NothingToSend):
            await real_client.features.uncomplete("default", real_feature)
        return
    with pytest.raises(NotSupported, match=r"Flag lifecycle needs Unleash 6\.3 \(or 5\.12 with"):
        await real_client.features.uncomplete("default", real_feature)


async def test_event_pages_follow_one_another_on_every_route(real_client, real_feature):
    """The contract's POST search takes `offset` as an event id; real Unleash up to 6.x (the
    versions serving it) as a row offset, as its GET search does. Either way, a flag's events
    read two at a time are the same list as read at once."""
    for n in range(5):
        await real_client.features.patch(
            "default", real_feature, [{"op": "replace", "path": "/description", "value": f"{n}"}]
        )
    whole = await real_client.events.search(feature=real_feature, limit=50)
    assert len(whole.events) >= 6  # created, then five metadata updates
    paged, cursor = [], None
    for _ in range(len(whole.events)):
        page = await real_client.events.search(feature=real_feature, limit=2, cursor=cursor)
        paged += page.events
        cursor = page.next_cursor
        if cursor is None:
            break
    assert [e.id for e in paged] == [e.id for e in whole.events]


async def test_the_patch_answer_is_short_and_carries_last_seen_at_before_8(
    real_client, unleash_admin, real_feature
):
    """The PATCH answer is the flag's row alone on every version (the client reads the flag
    after it); before 8.0 that row also has `lastSeenAt`."""
    answer = await unleash_admin.patch(
        f"/api/admin/projects/default/features/{real_feature}",
        json=[{"op": "replace", "path": "/description", "value": "shape"}],
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["description"] == "shape"
    assert not {"environments", "variants", "strategies"} & set(body)
    assert ("lastSeenAt" in body) == (_version(real_client) < (8, 0, 0))
