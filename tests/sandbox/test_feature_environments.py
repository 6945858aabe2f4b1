"""A flag switched on or off per environment, and an environment linked back to a project:
real Unleash's answers, events and deliveries."""

from __future__ import annotations

import httpx

from tests.sandbox.conftest import a_feature, assert_error, events_of

PROJECT = "/api/admin/projects/default"


def env_of(feature: dict, name: str) -> dict:
    return next(e for e in feature["environments"] if e["name"] == name)


async def read(admin: httpx.AsyncClient, name: str) -> dict:
    return (await admin.get(f"{PROJECT}/features/{name}")).json()


async def test_switching_on_and_off_records_one_event_each(admin: httpx.AsyncClient) -> None:
    name = (await a_feature(admin, "&project=IS:default"))["name"]
    url = f"{PROJECT}/features/{name}/environments/production"
    await admin.post(f"{url}/off")
    before = len(await events_of(admin, feature=name))
    on = await admin.post(f"{url}/on")
    assert on.status_code == 200 and on.content == b""  # real Unleash 8.2.0 sends no body
    assert env_of(await read(admin, name), "production")["enabled"] is True
    again = await admin.post(f"{url}/on")
    assert again.status_code == 200
    off = await admin.post(f"{url}/off")
    assert off.status_code == 200 and off.content == b""
    assert env_of(await read(admin, name), "production")["enabled"] is False
    events = await events_of(admin, feature=name)
    new = [e for e in events[: len(events) - before] if e["type"].startswith("feature-env")]
    assert [e["type"] for e in new] == [
        "feature-environment-disabled",
        "feature-environment-enabled",
    ]  # the second "on" changed nothing: no event
    assert all((e["project"], e["environment"]) == ("default", "production") for e in new)
    assert all(e["createdBy"] and e["featureName"] == name for e in new)


async def test_switching_on_without_an_active_strategy_adds_the_default_one(
    admin: httpx.AsyncClient,
) -> None:
    await admin.delete(f"{PROJECT}/environments/production")
    await admin.post(f"{PROJECT}/environments", json={"environment": "production"})
    name = (await a_feature(admin, "&project=IS:default"))["name"]
    assert env_of(await read(admin, name), "production")["strategies"] == []
    await admin.post(f"{PROJECT}/features/{name}/environments/production/on")
    production = env_of(await read(admin, name), "production")
    assert production["enabled"] is True
    [strategy] = production["strategies"]
    assert strategy["name"] == "flexibleRollout"
    assert strategy["parameters"] == {"groupId": name, "rollout": "100", "stickiness": "default"}
    types = [e["type"] for e in await events_of(admin, feature=name)][:2]
    assert types == ["feature-environment-enabled", "feature-strategy-add"]


async def test_a_switch_is_delivered_to_subscribed_integrations(admin: httpx.AsyncClient) -> None:
    addons = (await admin.get("/api/admin/addons")).json()["addons"]
    subscribed = [
        a["id"]
        for a in addons
        if a["enabled"]
        and "feature-environment-enabled" in a["events"]
        and {"*", "default"} & set(a["projects"] or ["*"])
        and {"*", "development"} & set(a["environments"] or ["*"])
    ]
    assert subscribed
    name = (await a_feature(admin, "&project=IS:default"))["name"]
    url = f"{PROJECT}/features/{name}/environments/development"
    await admin.post(f"{url}/off")
    await admin.post(f"{url}/on")
    delivered = (await admin.get(f"/api/admin/addons/{subscribed[0]}/events")).json()
    newest = delivered["integrationEvents"][0]["event"]
    assert (newest["type"], newest["featureName"]) == ("feature-environment-enabled", name)


async def test_switch_refusals_are_real_unleashs(admin: httpx.AsyncClient) -> None:
    name = (await a_feature(admin, "&project=IS:default"))["name"]
    missing = await admin.post(f"{PROJECT}/features/{name}/environments/nope/on")
    assert_error(missing, 404, "NotFoundError")
    assert missing.json()["message"] == f"Could not find environment nope for feature: {name}"
    # staging exists but is not linked to the default project: the flag does not have it
    unlinked = await admin.post(f"{PROJECT}/features/{name}/environments/staging/on")
    assert_error(unlinked, 404, "NotFoundError")
    unknown_flag = await admin.post(f"{PROJECT}/features/nope-xyz/environments/production/on")
    assert_error(unknown_flag, 404, "NotFoundError")
    patch = [{"op": "replace", "path": "/archived", "value": True}]
    assert (await admin.patch(f"{PROJECT}/features/{name}", json=patch)).status_code == 200
    archived = await admin.post(f"{PROJECT}/features/{name}/environments/production/off")
    assert_error(archived, 400, "ArchivedFeatureError")


async def test_switch_needs_write_permission(viewer: httpx.AsyncClient) -> None:
    response = await viewer.post(f"{PROJECT}/features/x/environments/production/on")
    assert_error(response, 403, "NoAccessError")


async def test_linking_an_environment_gives_every_flag_it_switched_off(
    admin: httpx.AsyncClient,
) -> None:
    envs = (await admin.get("/api/admin/environments/project/default")).json()["environments"]
    assert {e["name"]: e["visible"] for e in envs}["staging"] is False
    response = await admin.post(f"{PROJECT}/environments", json={"environment": "staging"})
    assert response.status_code == 200 and response.content == b""
    envs = (await admin.get("/api/admin/environments/project/default")).json()["environments"]
    assert {e["name"]: e["visible"] for e in envs}["staging"] is True
    features = (await admin.get(f"{PROJECT}/features")).json()["features"]
    assert features and all(env_of(f, "staging")["enabled"] is False for f in features)
    event = (await events_of(admin, type="project-environment-added"))[0]
    assert (event["project"], event["environment"], event["data"]) == ("default", "staging", None)
    name = features[0]["name"]
    on = await admin.post(f"{PROJECT}/features/{name}/environments/staging/on")
    assert on.status_code == 200


async def test_link_refusals_are_real_unleashs(admin: httpx.AsyncClient) -> None:
    again = await admin.post(f"{PROJECT}/environments", json={"environment": "production"})
    assert_error(again, 409, "NameExistsError")
    assert again.json()["message"] == "default already has the environment production enabled"
    unknown = await admin.post(f"{PROJECT}/environments", json={"environment": "nope"})
    assert_error(unknown, 400, "ValidationError")
    assert unknown.json()["message"] == "Environment nope does not exist"
    assert_error(await admin.post(f"{PROJECT}/environments", json={}), 400, "ValidationError")
    no_project = await admin.post(
        "/api/admin/projects/nope/environments", json={"environment": "staging"}
    )
    assert_error(no_project, 404, "NotFoundError")
    assert await events_of(admin, type="project-environment-added") == []  # refusals: none
