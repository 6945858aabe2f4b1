"""`flagtui feature patch` of a flag's metadata, and `flagtui feature uncomplete`, judged as the
admin means them: the event log records the change (`feature-metadata-updated`, plus
`feature-stale-on`/`-off`; `feature-uncompleted`), the SDK goes on evaluating the flag as before
(checked once it has fetched the state after the write), the stage moves only for uncomplete.
A type that is not one of the server's feature types, and an unknown flag, are refused."""

from __future__ import annotations

import uuid

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

METADATA = ("feature-metadata-updated", None)


def feature(admin, flag: str) -> dict:
    answer = admin.get(f"/api/admin/projects/{PROJECT}/features/{flag}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def switched_on_in_production(admin, sdk, flag: str):
    on = admin.post(f"/api/admin/projects/{PROJECT}/features/{flag}/environments/production/on")
    assert on.status_code == 200, on.text
    production = sdk("production")
    production.wait_until(flag, True)
    return production


@pytest.mark.parametrize(
    ("assignment", "field", "value", "events"),
    [
        (
            "description=switched by the on-call admin",
            "description",
            "switched by the on-call admin",
            [METADATA],
        ),
        ("impressionData=true", "impressionData", True, [METADATA]),
        ("type=experiment", "type", "experiment", [METADATA]),
        ("stale=true", "stale", True, [METADATA, ("feature-stale-on", None)]),
    ],
)
def test_patch_records_the_change_and_leaves_evaluation_and_stage(
    flagtui, admin, sdk, flag, assignment, field, value, events
):
    production = switched_on_in_production(admin, sdk, flag)
    mark = newest_event_id(admin)
    done = flagtui("feature", "patch", PROJECT, flag, "--set", assignment)
    assert done.code == 0, done.err
    assert wait_for_flag_events(admin, flag, mark, events) == events
    assert feature(admin, flag)[field] == value
    production.wait_for_revision(max(e["id"] for e in flag_events_since(admin, flag, mark)))
    assert production.evaluation(flag) is True
    assert lifecycle_stage(admin, PROJECT, flag) == "initial"


def test_stale_off_records_stale_off(flagtui, admin, sdk, flag):
    production = switched_on_in_production(admin, sdk, flag)
    stale = admin.patch(
        f"/api/admin/projects/{PROJECT}/features/{flag}",
        json=[{"op": "replace", "path": "/stale", "value": True}],
    )
    assert stale.status_code == 200, stale.text
    mark = newest_event_id(admin)
    done = flagtui("feature", "patch", PROJECT, flag, "--set", "stale=false")
    assert done.code == 0, done.err
    expected = [METADATA, ("feature-stale-off", None)]
    assert wait_for_flag_events(admin, flag, mark, expected) == expected
    assert feature(admin, flag)["stale"] is False
    production.wait_for_revision(max(e["id"] for e in flag_events_since(admin, flag, mark)))
    assert production.evaluation(flag) is True
    assert lifecycle_stage(admin, PROJECT, flag) == "initial"


def test_a_type_that_is_not_a_feature_type_is_refused(flagtui, admin, flag):
    """Real Unleash stores any string as a PATCHed type (6.10.1 to 8.2.0), and the flag then
    escapes every lifetime: the typo must stop at flagtui."""
    mark = newest_event_id(admin)
    done = flagtui("feature", "patch", PROJECT, flag, "--set", "type=relase")
    assert done.code == 2, (done.code, done.out, done.err)
    assert done.error() is not None, done.err
    assert feature(admin, flag)["type"] == "release"
    assert flag_event_types_since(admin, flag, mark) == []


def test_uncomplete_returns_to_the_stage_before_completion(flagtui, admin, sdk, flag):
    production = switched_on_in_production(admin, sdk, flag)
    production.report_seen(flag)  # seen in production: live, so "back" is not just "initial"
    wait_for_stage(admin, PROJECT, flag, "live")
    completed = admin.post(
        f"/api/admin/projects/{PROJECT}/features/{flag}/lifecycle/complete",
        json={"status": "kept"},
    )
    assert completed.status_code == 200, completed.text
    wait_for_stage(admin, PROJECT, flag, "completed")
    mark = newest_event_id(admin)
    done = flagtui("feature", "uncomplete", PROJECT, flag)
    assert done.code == 0, done.err
    expected = [("feature-uncompleted", None)]
    assert wait_for_flag_events(admin, flag, mark, expected) == expected
    wait_for_stage(admin, PROJECT, flag, "live")
    assert production.evaluation(flag) is True  # completion is bookkeeping: SDKs never see it


def test_uncomplete_of_a_flag_that_does_not_exist_is_not_found(flagtui, admin):
    """Real Unleash answers 200 and records `feature-uncompleted` for any name (8.2.0, 6.10.1;
    its OpenAPI says 404): flagtui must say the flag is not there, and write nothing."""
    missing = f"intent-missing-{uuid.uuid4().hex[:10]}"
    mark = newest_event_id(admin)
    done = flagtui("feature", "uncomplete", PROJECT, missing)
    assert done.code == 4, (done.code, done.out, done.err)
    assert flag_event_types_since(admin, missing, mark) == []
