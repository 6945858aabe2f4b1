"""`flagtui feature enable|disable` judged as the admin means it: the SDK of that environment (and
only that one) evaluates the flag on, then off; the event log records the switch; the lifecycle
stage does not move (Unleash moves a flag to pre-live or live from SDK metrics, never from a
switch; these SDKs send none)."""

from __future__ import annotations

import pytest
from real_intent import PROJECT, lifecycle_stage, newest_event_id, wait_for_flag_events

pytestmark = pytest.mark.unleash

OTHER = {"development": "production", "production": "development"}


def enabled_in(admin, flag: str) -> dict[str, bool]:
    feature = admin.get(f"/api/admin/projects/{PROJECT}/features/{flag}").json()
    return {e["name"]: e["enabled"] for e in feature["environments"]}


@pytest.mark.parametrize(
    ("environment", "confirm"),
    [("development", ()), ("production", ("--yes",))],  # production asks first
)
def test_enable_then_disable_reaches_that_environments_sdk(
    flagtui, admin, sdk, flag, environment, confirm
):
    here, there = sdk(environment), sdk(OTHER[environment])
    here.wait_until(flag, False)  # the SDK knows the new flag, switched off

    mark = newest_event_id(admin)
    done = flagtui("feature", "enable", PROJECT, flag, environment, *confirm)
    assert done.code == 0, done.err
    here.wait_until(flag, True)
    # A flag with no strategy gets Unleash's default (flexibleRollout, 100 %) first.
    expected = [("feature-strategy-add", environment), ("feature-environment-enabled", environment)]
    assert wait_for_flag_events(admin, flag, mark, expected) == expected
    # The other environment's client API keeps its revision (Unleash counts them per
    # environment), so its SDK has nothing new to wait for: it answers as before, and the
    # server agrees.
    assert there.evaluation(flag) is False
    assert enabled_in(admin, flag) == {environment: True, OTHER[environment]: False}
    assert lifecycle_stage(admin, PROJECT, flag) == "initial"

    mark = newest_event_id(admin)
    done = flagtui("feature", "disable", PROJECT, flag, environment, *confirm)
    assert done.code == 0, done.err
    here.wait_until(flag, False)
    expected = [("feature-environment-disabled", environment)]
    assert wait_for_flag_events(admin, flag, mark, expected) == expected
    assert lifecycle_stage(admin, PROJECT, flag) == "initial"


def test_enable_twice_records_one_event(flagtui, admin, sdk, flag):
    development = sdk("development")
    assert flagtui("feature", "enable", PROJECT, flag, "development").code == 0
    development.wait_until(flag, True)
    mark = newest_event_id(admin)
    again = flagtui("feature", "enable", PROJECT, flag, "development")
    assert again.code == 0, again.err
    # The second switch changes nothing: no event (checked after a later one is in).
    assert flagtui("feature", "disable", PROJECT, flag, "development").code == 0
    expected = [("feature-environment-disabled", "development")]
    assert wait_for_flag_events(admin, flag, mark, expected) == expected
    development.wait_until(flag, False)
