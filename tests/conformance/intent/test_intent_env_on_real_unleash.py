"""`flagtui env remove` and `flagtui env link` on the project's development environment, judged
by the event log (`project-environment-removed`/`-added`), the flag's environments, its stage,
and what the development SDK evaluates.

Real Unleash (6.10.1, 7.5.1, 8.2.0) serves SDKs from a cache keyed by a revision that moves on flag
events only: neither the removal nor the link moves it, so an SDK keeps the state it had until
the next change of a flag. The test makes that change itself (a description) before asking the
SDK (the facts: `tests/conformance/README.md`, section 14).

Removing development touches every flag of the shared project: the environment is linked again
whatever happens (as `test_environments_on_real_unleash.py` does)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from real_intent import (
    PROJECT,
    flag_events_since,
    lifecycle_stage,
    newest_event_id,
    wait_for_project_event,
)

pytestmark = pytest.mark.unleash

ENVIRONMENT = "development"


@pytest.fixture
def relinked_afterwards(admin) -> Iterator[None]:
    yield
    admin.post(f"/api/admin/projects/{PROJECT}/environments", json={"environment": ENVIRONMENT})


def environments_of(admin, flag: str) -> dict[str, bool]:
    feature = admin.get(f"/api/admin/projects/{PROJECT}/features/{flag}").json()
    return {e["name"]: e["enabled"] for e in feature["environments"]}


def next_flag_change(admin, flag: str, sdk_watch, text: str) -> None:
    """A change the client API counts, and the SDK fetching the state after it."""
    mark = newest_event_id(admin)
    patched = admin.patch(
        f"/api/admin/projects/{PROJECT}/features/{flag}",
        json=[{"op": "replace", "path": "/description", "value": text}],
    )
    assert patched.status_code == 200, patched.text
    sdk_watch.wait_for_revision(max(e["id"] for e in flag_events_since(admin, flag, mark)))


def test_remove_then_link_the_environment(flagtui, admin, sdk, flag, relinked_afterwards):
    development = sdk(ENVIRONMENT)
    assert flagtui("feature", "enable", PROJECT, flag, ENVIRONMENT).code == 0
    development.wait_until(flag, True)

    mark = newest_event_id(admin)
    done = flagtui("env", "remove", PROJECT, ENVIRONMENT, "--yes")
    assert done.code == 0, done.err
    removed = wait_for_project_event(
        admin, PROJECT, "project-environment-removed", ENVIRONMENT, mark
    )
    assert removed["featureName"] is None
    assert ENVIRONMENT not in environments_of(admin, flag)
    assert lifecycle_stage(admin, PROJECT, flag) == "initial"
    next_flag_change(admin, flag, development, "after the removal")
    assert development.evaluation(flag) is False  # still served, switched off

    mark = newest_event_id(admin)
    done = flagtui("env", "link", PROJECT, ENVIRONMENT)
    assert done.code == 0, done.err
    wait_for_project_event(admin, PROJECT, "project-environment-added", ENVIRONMENT, mark)
    # Linked again, the flag has the environment back switched off: its state was not kept.
    assert environments_of(admin, flag) == {ENVIRONMENT: False, "production": False}
    next_flag_change(admin, flag, development, "after the link")
    assert development.evaluation(flag) is False
    assert lifecycle_stage(admin, PROJECT, flag) == "initial"

    # And it can be switched on there again, which the SDK sees.
    assert flagtui("feature", "enable", PROJECT, flag, ENVIRONMENT).code == 0
    development.wait_until(flag, True)
