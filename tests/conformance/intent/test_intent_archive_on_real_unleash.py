"""Archive and revive through flagtui, judged as the web UI's actions are: the archive records
`feature-archived`, moves the stage to `archived` and the SDK stops getting the flag; the revival
records `feature-revived`, puts the flag back in its `initial` stage with every environment off
(the SDK evaluates it off in production although it was on before the archive).

A `feature patch --set archived=...` may be routed to those actions or refused (exit 2, flagtui's
own error, the flag untouched); what it must never do is what the bare PATCH does on real Unleash:
archive or revive recording only `feature-metadata-updated`, lifecycle and integrations unaware.
"""

from __future__ import annotations

import pytest
from real_intent import (
    PROJECT,
    flag_event_types_since,
    lifecycle_stage,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)

pytestmark = pytest.mark.unleash

ARCHIVE = {
    "archive": ("feature", "archive", PROJECT, "{flag}", "--yes"),
    "patch-archived-true": (
        "feature",
        "patch",
        PROJECT,
        "{flag}",
        "--set",
        "archived=true",
    ),
}
REVIVE = {
    "revive": ("feature", "revive", PROJECT, "{flag}"),
    "patch-archived-false": (
        "feature",
        "patch",
        PROJECT,
        "{flag}",
        "--set",
        "archived=false",
    ),
}


def command(template: tuple[str, ...], flag: str) -> list[str]:
    return [part.format(flag=flag) for part in template]


def switched_on_in_production(admin, sdk, flag: str):
    on = admin.post(f"/api/admin/projects/{PROJECT}/features/{flag}/environments/production/on")
    assert on.status_code == 200, on.text
    production = sdk("production")
    production.wait_until(flag, True)
    return production


def is_archived(admin, flag: str) -> bool:
    """An archived flag's read is a 404 (6.10.1 to 8.2.0)."""
    return admin.get(f"/api/admin/projects/{PROJECT}/features/{flag}").status_code == 404


def refused_by_flagtui(done) -> bool:
    """Exit 2 with flagtui's own error; argparse refusing an option flagtui lacks is not it."""
    return done.code == 2 and done.error() is not None


@pytest.mark.parametrize("how", list(ARCHIVE))
def test_archive_stops_the_sdk_and_records_the_archive(flagtui, admin, sdk, flag, how):
    production = switched_on_in_production(admin, sdk, flag)
    mark = newest_event_id(admin)
    done = flagtui(*command(ARCHIVE[how], flag))
    if how != "archive" and refused_by_flagtui(done):
        assert not is_archived(admin, flag)
        assert flag_event_types_since(admin, flag, mark) == []
        assert lifecycle_stage(admin, PROJECT, flag) == "initial"
        assert production.evaluation(flag) is True
        return
    assert done.code == 0, (done.code, done.err)
    expected = [("feature-archived", None)]
    assert wait_for_flag_events(admin, flag, mark, expected) == expected
    assert is_archived(admin, flag)
    wait_for_stage(admin, PROJECT, flag, "archived")
    production.wait_until(flag, None)  # the client API no longer serves it


@pytest.mark.parametrize("how", list(REVIVE))
def test_revive_brings_the_flag_back_switched_off(flagtui, admin, sdk, flag, how):
    production = switched_on_in_production(admin, sdk, flag)
    archived = admin.delete(f"/api/admin/projects/{PROJECT}/features/{flag}")
    assert archived.status_code == 202, archived.text
    wait_for_stage(admin, PROJECT, flag, "archived")
    production.wait_until(flag, None)

    mark = newest_event_id(admin)
    done = flagtui(*command(REVIVE[how], flag))
    if how != "revive" and refused_by_flagtui(done):
        assert is_archived(admin, flag)
        assert flag_event_types_since(admin, flag, mark) == []
        assert lifecycle_stage(admin, PROJECT, flag) == "archived"
        assert production.evaluation(flag) is None
        return
    assert done.code == 0, (done.code, done.err)
    expected = [("feature-revived", None)]
    # Unleash writes the new stage after answering; the flag's clean-up must wait for it too.
    wait_for_stage(admin, PROJECT, flag, "initial")
    assert wait_for_flag_events(admin, flag, mark, expected) == expected
    production.wait_until(flag, False)  # back, and off although it was on before the archive
    feature = admin.get(f"/api/admin/projects/{PROJECT}/features/{flag}").json()
    assert {e["name"]: e["enabled"] for e in feature["environments"]} == {
        "development": False,
        "production": False,
    }
