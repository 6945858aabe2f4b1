"""Clone, delete for good, mark completed and copy strategies through flagtui on real Unleash,
each judged as the admin sees it: what the server then holds, the events it recorded, the
lifecycle stage; and what is refused is refused before anything is sent (no event).

A flag is deleted only once Unleash has written its `archived` stage (6.10.1 dies on a delete
that races that write, see real-unleash notes); every other flag is archived at the end."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import httpx
import pytest
from real_intent import (
    PROJECT,
    flag_event_types_since,
    flag_events_since,
    lifecycle_stage,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)

pytestmark = pytest.mark.unleash

FEATURES = f"/api/admin/projects/{PROJECT}/features"


def strategies(admin: httpx.Client, flag: str, env: str) -> list[dict]:
    answer = admin.get(f"{FEATURES}/{flag}/environments/{env}/strategies")
    assert answer.status_code == 200, answer.text
    return list(answer.json())


def add_rollout(admin: httpx.Client, flag: str, variants: list[dict] | None = None) -> dict:
    body = {
        "name": "flexibleRollout",
        "parameters": {"rollout": "40", "stickiness": "default", "groupId": flag},
        "constraints": [{"contextName": "appName", "operator": "IN", "values": ["web"]}],
        "variants": variants or [],
    }
    added = admin.post(f"{FEATURES}/{flag}/environments/development/strategies", json=body)
    assert added.status_code == 200, added.text
    return dict(added.json())


def name_is_free(admin: httpx.Client, name: str) -> bool:
    answer = admin.post("/api/admin/features/validate", json={"name": name})
    return answer.status_code == 200


@pytest.fixture
def clones(admin: httpx.Client) -> Iterator[list[str]]:
    """Names the test clones into; each archived at the end, once Unleash has staged it."""
    made: list[str] = []
    yield made
    for name in made:
        if admin.get(f"{FEATURES}/{name}").status_code == 200:
            wait_for_stage(admin, PROJECT, name, "initial")
            admin.delete(f"{FEATURES}/{name}")


@pytest.fixture
def archived_flag(admin: httpx.Client) -> str:
    """A new flag with a strategy, archived, its `archived` stage written."""
    name = f"intent-del-{uuid.uuid4().hex[:10]}"
    assert admin.post(FEATURES, json={"name": name}).status_code in (200, 201)
    wait_for_stage(admin, PROJECT, name, "initial")
    add_rollout(admin, name)
    assert admin.delete(f"{FEATURES}/{name}").status_code == 202
    wait_for_stage(admin, PROJECT, name, "archived")
    return name


def test_clone_records_the_creation_and_copies_the_rollout(flagtui, admin, flag, clones):
    source = add_rollout(admin, flag)
    kept, own = f"{flag}-k", f"{flag}-o"
    clones += [kept, own]
    mark = newest_event_id(admin)
    done = flagtui("feature", "clone", PROJECT, flag, kept, "-o", "json")
    assert done.code == 0, done.err
    seen = wait_for_flag_events(
        admin, kept, mark, [("feature-created", None), ("feature-strategy-add", "development")]
    )
    assert seen == [("feature-created", None), ("feature-strategy-add", "development")]
    (copied,) = strategies(admin, kept, "development")
    assert copied["parameters"] == source["parameters"]  # the same groupId: the same users
    assert copied["constraints"] == source["constraints"] and copied["id"] != source["id"]
    clone = admin.get(f"{FEATURES}/{kept}").json()
    assert not any(e["enabled"] for e in clone["environments"])

    assert flagtui("feature", "clone", PROJECT, flag, own, "--replace-group-id").code == 0
    wait_for_flag_events(admin, own, mark, [("feature-strategy-add", "development")])
    assert strategies(admin, own, "development")[0]["parameters"]["groupId"] == own


def test_clone_of_a_child_keeps_its_parent(flagtui, admin, flag, clones):
    parent = f"{flag}-parent"
    clones.append(parent)
    assert admin.post(FEATURES, json={"name": parent}).status_code in (200, 201)
    depends = admin.post(f"{FEATURES}/{flag}/dependencies", json={"feature": parent})
    assert depends.status_code == 200, depends.text
    child = f"{flag}-child"
    clones.insert(0, child)  # archived before its parent
    mark = newest_event_id(admin)
    assert flagtui("feature", "clone", PROJECT, flag, child).code == 0
    seen = wait_for_flag_events(admin, child, mark, [("feature-dependency-added", None)])
    assert ("feature-created", None) in seen
    dependencies = admin.get(f"{FEATURES}/{child}").json()["dependencies"]
    assert [d["feature"] for d in dependencies] == [parent]
    # so that the parent can be archived at the end: no live child left
    for dependent in (flag, child):
        admin.delete(f"{FEATURES}/{dependent}/dependencies/{parent}")


def test_clone_to_a_taken_name_is_refused_with_nothing_created(flagtui, admin, flag, clones):
    mark = newest_event_id(admin)
    taken = flagtui("feature", "clone", PROJECT, flag, flag, "-o", "json")
    assert taken.code == 2 and taken.error()["name"] == "NameExistsError"
    assert flag_event_types_since(admin, flag, mark) == []


def test_delete_refuses_a_live_flag_and_deletes_an_archived_one(flagtui, admin, flag,
                                                               archived_flag):  # fmt: skip
    mark = newest_event_id(admin)
    live = flagtui("feature", "delete", PROJECT, flag, "--yes", "-o", "json")
    assert live.code == 2 and "archive it first" in live.error()["message"]
    # 6.10.1 and 7.5.1 record feature-deleted for a live flag they keep: none was sent
    assert flag_event_types_since(admin, flag, mark) == []
    assert admin.get(f"{FEATURES}/{flag}").status_code == 200

    done = flagtui("feature", "delete", PROJECT, archived_flag, "--yes", "-o", "json")
    assert done.code == 0, done.err
    assert json.loads(done.out)["done"] == "feature-deleted"
    wait_for_flag_events(admin, archived_flag, mark, [("feature-deleted", None)])
    (deleted,) = flag_events_since(admin, archived_flag, mark)
    assert deleted["preData"]["name"] == archived_flag and deleted["preData"]["archived"] is True
    assert name_is_free(admin, archived_flag)  # gone from the archive, its name free again


def test_delete_of_several_is_one_batch(flagtui, admin, archived_flag):
    other = f"intent-del-{uuid.uuid4().hex[:10]}"
    assert admin.post(FEATURES, json={"name": other}).status_code in (200, 201)
    wait_for_stage(admin, PROJECT, other, "initial")
    assert admin.delete(f"{FEATURES}/{other}").status_code == 202
    wait_for_stage(admin, PROJECT, other, "archived")
    mark = newest_event_id(admin)
    done = flagtui("feature", "delete", PROJECT, archived_flag, other, "--yes", "-o", "json")
    assert done.code == 0, done.err
    for name in (archived_flag, other):
        assert wait_for_flag_events(admin, name, mark, [("feature-deleted", None)])
        assert name_is_free(admin, name)


def test_complete_keeps_a_variant_and_is_not_sent_twice(flagtui, admin, flag):
    blue = {"name": "blue", "weight": 1000, "weightType": "variable", "stickiness": "default"}
    add_rollout(admin, flag, [blue])
    mark = newest_event_id(admin)
    done = flagtui("feature", "complete", PROJECT, flag, "--variant", "blue", "-o", "json")
    assert done.code == 0, done.err
    wait_for_stage(admin, PROJECT, flag, "completed")
    (completed,) = [e for e in flag_events_since(admin, flag, mark)
                    if e["type"] == "feature-completed"]  # fmt: skip
    assert completed["data"] == {"status": "kept", "statusValue": "blue", "kept": True}
    stages = admin.get(f"{FEATURES}/{flag}/lifecycle").json()
    assert stages[-1]["status"] == "kept"
    again = flagtui("feature", "complete", PROJECT, flag, "--status", "discarded", "-o", "json")
    assert again.code == 0, again.err
    events = [e["type"] for e in flag_events_since(admin, flag, mark)]
    assert events.count("feature-completed") == 1  # Unleash would have recorded a second one
    assert lifecycle_stage(admin, PROJECT, flag) == "completed"


def test_strategy_copy_adds_the_strategies_to_the_target_with_its_preview(flagtui, admin, flag):
    source = add_rollout(admin, flag)
    mark = newest_event_id(admin)
    done = flagtui("feature", "strategy", "copy", PROJECT, flag, "--from-env", "development",
                   "--to-env", "production", "--yes", "--context", "appName=web",
                   "-o", "json")  # fmt: skip
    assert done.code == 0, done.err
    wait_for_flag_events(admin, flag, mark, [("feature-strategy-add", "production")])
    assert flag_event_types_since(admin, flag, mark) == [("feature-strategy-add", "production")]
    (copied,) = strategies(admin, flag, "production")
    assert copied["parameters"] == source["parameters"]
    assert copied["constraints"] == source["constraints"]
    assert [s["id"] for s in strategies(admin, flag, "development")] == [source["id"]]
    preview = json.loads(done.out)["preview"]
    # production stays off: no one now; once switched on, about 40 % of appName=web users
    assert preview["before"] == preview["after"] == 0
    assert 3_500 < preview["whenSwitchedOn"]["after"] < 4_500
