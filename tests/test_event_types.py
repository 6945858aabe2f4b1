"""The contract's event types live twice (the sandbox stands alone): the copies must agree."""

from flagtui.api.event_types import EVENT_TYPES as CLIENT_TYPES
from flagtui.sandbox.event_types import EVENT_TYPES as SANDBOX_TYPES


def test_client_and_sandbox_know_the_same_event_types():
    assert len(CLIENT_TYPES) == len(set(CLIENT_TYPES)) == 146
    assert set(CLIENT_TYPES) == set(SANDBOX_TYPES)
