"""Tags, tag types, dependencies and default strategies answer as real Unleash 8.2 does
(statuses, error names, events), and SDKs read a dependency from the client API."""

from __future__ import annotations

import secrets

import httpx

from tests.sandbox.conftest import assert_error, events_of

PROJECT = "/api/admin/projects/payments"


async def new_flag(admin: httpx.AsyncClient) -> str:
    name = f"obj-{secrets.token_hex(4)}"
    created = await admin.post(f"{PROJECT}/features", json={"name": name})
    assert created.status_code == 201, created.text
    return name


async def types_of(admin: httpx.AsyncClient, name: str) -> list[str]:
    return [e["type"] for e in await events_of(admin, feature=name)]


async def test_tagging_records_real_unleash_events_and_keeps_one_copy(
    admin: httpx.AsyncClient,
) -> None:
    name = await new_flag(admin)
    tags = f"/api/admin/features/{name}/tags"
    value = f"v-{secrets.token_hex(3)}"
    for _ in range(2):  # a second POST: 201 and a second feature-tagged, as on real Unleash
        added = await admin.post(tags, json={"type": "simple", "value": value})
        assert added.status_code == 201 and added.json() == {"type": "simple", "value": value}
    assert (await admin.get(tags)).json()["tags"] == [{"type": "simple", "value": value}]
    created = await events_of(admin, type="tag-created")
    assert [e["data"] for e in created if e["data"]["value"] == value] == [
        {"type": "simple", "value": value}
    ]
    removed = await admin.delete(f"{tags}/simple/{value}")
    assert removed.status_code == 200 and removed.content == b""
    assert (await admin.get(tags)).json()["tags"] == []
    again = await admin.delete(f"{tags}/simple/{value}")  # absent: 200 and an event all the same
    assert again.status_code == 200
    untagged = [e for e in await events_of(admin, feature=name) if e["type"] == "feature-untagged"]
    assert [e["preData"] for e in untagged] == [{"type": "simple", "value": value}] * 2
    assert await types_of(admin, name) == [
        "feature-untagged", "feature-untagged", "feature-tagged", "feature-tagged",
        "feature-created",
    ]  # fmt: skip


async def test_bad_tags_are_refused_before_the_flag_is_looked_up(admin: httpx.AsyncClient) -> None:
    short = await admin.post("/api/admin/features/nope/tags", json={"type": "simple", "value": "x"})
    assert_error(short, 400, "ValidationError")
    assert "2 to 50" in short.json()["message"]
    unknown = await admin.post(
        "/api/admin/features/nope/tags", json={"type": "no-such-type", "value": "xy"}
    )
    assert_error(unknown, 400, "ValidationError")
    assert unknown.json()["message"] == "Tag type 'no-such-type' does not exist"
    missing = await admin.post(
        "/api/admin/features/nope/tags", json={"type": "simple", "value": "xy"}
    )
    assert_error(missing, 404, "NotFoundError")


async def test_put_and_bulk_change_tags_on_each_flag(admin: httpx.AsyncClient) -> None:
    one, two = await new_flag(admin), await new_flag(admin)
    await admin.post(f"/api/admin/features/{one}/tags", json={"type": "simple", "value": "old"})
    put = await admin.put(
        f"/api/admin/features/{one}/tags",
        json={"addedTags": [{"type": "simple", "value": "new"}],
              "removedTags": [{"type": "simple", "value": "old"}]},
    )  # fmt: skip
    assert put.status_code == 200
    assert put.json() == {"version": 1, "tags": [{"type": "simple", "value": "new"}]}
    bulk = await admin.put(
        f"{PROJECT}/tags",
        json={"features": [one, two],
              "tags": {"addedTags": [{"type": "simple", "value": "both"}], "removedTags": []}},
    )  # fmt: skip
    assert bulk.status_code == 200 and bulk.content == b""
    for name in (one, two):
        got = (await admin.get(f"/api/admin/features/{name}/tags")).json()["tags"]
        assert {"type": "simple", "value": "both"} in got
    elsewhere = await admin.put(
        "/api/admin/projects/growth/tags",
        json={"features": [one], "tags": {"addedTags": [{"type": "simple", "value": "xx"}],
                                          "removedTags": []}},
    )  # fmt: skip
    assert_error(elsewhere, 404, "NotFoundError")


async def test_tag_types_are_created_once_with_their_event(admin: httpx.AsyncClient) -> None:
    name = f"team-{secrets.token_hex(3)}"
    created = await admin.post("/api/admin/tag-types", json={"name": name, "description": "d"})
    assert created.status_code == 201 and created.json() == {"name": name, "description": "d"}
    assert_error(await admin.post("/api/admin/tag-types", json={"name": name}), 409,
                 "NameExistsError")  # fmt: skip
    assert_error(await admin.post("/api/admin/tag-types", json={"name": "a b"}), 400,
                 "ValidationError")  # fmt: skip
    listed = (await admin.get("/api/admin/tag-types")).json()["tagTypes"]
    assert {"simple", name} <= {t["name"] for t in listed}
    assert (await admin.get(f"/api/admin/tag-types/{name}")).json()["tagType"]["description"] == "d"
    events = await events_of(admin, type="tag-type-created")
    assert [e["data"] for e in events if e["data"]["name"] == name] == [
        {"name": name, "description": "d"}
    ]
    tagged = await admin.post(
        f"/api/admin/features/{await new_flag(admin)}/tags", json={"type": name, "value": "ab"}
    )
    assert tagged.status_code == 201


async def test_a_dependency_is_refused_as_real_unleash_refuses_it(admin: httpx.AsyncClient) -> None:
    parent, child, grandchild = [await new_flag(admin) for _ in range(3)]
    deps = f"{PROJECT}/features/{{}}/dependencies"
    added = await admin.post(deps.format(child), json={"feature": parent, "variants": ["blue"]})
    assert added.status_code == 200 and added.content == b""
    read = (await admin.get(f"{PROJECT}/features/{child}")).json()
    assert read["dependencies"] == [{"feature": parent, "enabled": True, "variants": ["blue"]}]
    refusals = {
        (grandchild, child): "has parent dependency",
        (parent, grandchild): "other features depend on",
        (child, child): "cannot depend on itself",
        (grandchild, "no-such-flag"): "No active feature no-such-flag exists",
    }
    for (who, on), said in refusals.items():
        refused = await admin.post(deps.format(who), json={"feature": on})
        assert_error(refused, 403, "InvalidOperationError")
        assert said in refused.json()["message"]
    other = f"elsewhere-{secrets.token_hex(3)}"
    await admin.post("/api/admin/projects/growth/features", json={"name": other})
    assert_error(await admin.post(deps.format(grandchild), json={"feature": other}), 404,
                 "NotFoundError")  # fmt: skip
    events = await events_of(admin, feature=child)
    assert events[0]["type"] == "feature-dependency-added"
    assert events[0]["data"] == {"feature": parent, "enabled": True, "variants": ["blue"]}


async def test_a_dependency_is_removed_once_and_served_to_sdks(admin: httpx.AsyncClient) -> None:
    parent, child = await new_flag(admin), await new_flag(admin)
    one = f"{PROJECT}/features/{child}/dependencies"
    await admin.post(one, json={"feature": parent, "enabled": False})
    served = (await admin.get("/api/client/features")).json()["features"]
    assert [f["dependencies"] for f in served if f["name"] == child] == [
        [{"feature": parent, "enabled": False}]
    ]
    assert (await admin.delete(f"{one}/{parent}")).status_code == 200
    assert_error(await admin.delete(f"{one}/{parent}"), 404, "NotFoundError")
    assert_error(await admin.delete(one), 404, "NotFoundError")
    await admin.post(one, json={"feature": parent})
    assert (await admin.delete(one)).status_code == 200
    assert (await admin.get(f"{PROJECT}/features/{child}")).json()["dependencies"] == []
    assert (await types_of(admin, child))[:3] == [
        "feature-dependencies-removed",
        "feature-dependency-added",
        "feature-dependency-removed",
    ]


async def test_a_default_strategy_is_what_a_flag_switched_on_gets(admin: httpx.AsyncClient) -> None:
    url = f"{PROJECT}/environments/development/default-strategy"
    parameters = {"rollout": "25", "stickiness": "default", "groupId": ""}
    strategy = {"name": "flexibleRollout", "constraints": [], "parameters": parameters}
    assert_error(await admin.post(url, json={"name": "default"}), 400, "ValidationError")
    assert_error(await admin.post(url, json={}), 400, "ValidationError")
    set_ = await admin.post(url, json=strategy)
    assert set_.status_code == 200 and set_.json() == strategy
    envs = (await admin.get("/api/admin/environments/project/payments")).json()["environments"]
    assert [e.get("defaultStrategy") for e in envs if e["name"] == "development"] == [strategy]
    again = {**strategy, "parameters": {**strategy["parameters"], "rollout": "30"}}
    await admin.post(url, json=again)
    event = (await events_of(admin, type="default-strategy-updated"))[0]
    assert (event["project"], event["environment"]) == ("payments", "development")
    assert (event["data"], event["preData"]) == (again, strategy)
    name = await new_flag(admin)
    strategies = f"{PROJECT}/features/{name}/environments/development/strategies"
    assert (await admin.get(strategies)).json() == []  # created: no strategy
    await admin.post(f"{PROJECT}/features/{name}/environments/development/on")
    [got] = (await admin.get(strategies)).json()
    assert got["parameters"] == {"rollout": "30", "stickiness": "default", "groupId": name}
    unlinked = await admin.post(f"{PROJECT}/environments/nowhere/default-strategy", json=strategy)
    assert_error(unlinked, 404, "NotFoundError")
