"""`client.playground.users`: many userIds through the server's advanced playground, in as few
requests as its two limits allow (evaluations a request, body size), each user's answer read
back by its userId; a limit the server names in a refusal is adopted."""

from __future__ import annotations

import pytest

from flagtui.api import AdminClient
from flagtui.api.errors import InvalidArgument
from flagtui.api.playground import BODY_BYTES, COMBINATIONS, PlaygroundRefused
from flagtui.sandbox.playground_advanced import LIMIT_ENV

HOSTILE = ["hostile"]
HOSTILE_FLAGS = 5  # the hostile project's flags (demo_tables)
CONTEXT = {"appName": "users-test"}


async def _sent(admin, users: list[str], flags: int = HOSTILE_FLAGS) -> tuple[dict, int]:
    before = admin.requests_sent
    found = await admin.playground.users(
        "production", CONTEXT, users, flags=flags, projects=HOSTILE
    )
    return found, admin.requests_sent - before


@pytest.fixture
async def admin(sandbox):
    """The sandbox evaluates 15,000 flag-contexts (one full request) in about 3 s on an idle
    core, and past the client's default 10 s on a busy machine: a timeout that only ends a
    hang."""
    async with AdminClient(
        sandbox.url, sandbox.admin_token, profile="sandbox-admin", timeout=300
    ) as client:
        await client.connect()
        yield client


def _every_user_answered(found: dict, users: list[str]) -> None:
    assert len(found) == HOSTILE_FLAGS
    for by_user in found.values():
        assert list(by_user) == users
        assert all(answer.context["userId"] == user for user, answer in by_user.items())


async def test_as_many_users_a_request_as_the_limit_allows(admin) -> None:
    per_request = COMBINATIONS // HOSTILE_FLAGS  # 3,000
    users = [f"u-{i}" for i in range(1, per_request + 2)]
    found, sent = await _sent(admin, users)
    assert sent == 2  # 3,000 and 1
    _every_user_answered(found, users)


async def test_a_body_over_100_kb_is_split(admin) -> None:
    """Long userIds: 3,000 fit the evaluations' limit but not one body (the sandbox refuses
    above 100 kB, as real Unleash does)."""
    users = [f"user-{i:06d}-" + "x" * 40 for i in range(3000)]
    assert len(",".join(users)) > BODY_BYTES
    found, sent = await _sent(admin, users)
    assert sent == 2
    _every_user_answered(found, users)


async def test_a_smaller_limit_the_server_names_is_adopted(admin, monkeypatch) -> None:
    """A server whose limit is 50 (real Unleash's `advancedPlayground` flag): the first request
    is refused, naming it; the users are split again into requests of 10."""
    monkeypatch.setenv(LIMIT_ENV, "50")
    users = [f"u-{i}" for i in range(1, 36)]
    found, sent = await _sent(admin, users)
    assert sent == 1 + 4  # refused, then 10, 10, 10, 5
    _every_user_answered(found, users)


async def test_more_flags_than_counted_are_adopted_too(admin) -> None:
    """Told 1 flag where the server counts 5: refused once, then in requests of 3,000."""
    users = [f"u-{i}" for i in range(1, 3002)]
    found, sent = await _sent(admin, users, flags=1)
    assert sent == 1 + 2
    _every_user_answered(found, users)


async def test_a_limit_below_the_flags_is_said(admin, monkeypatch) -> None:
    monkeypatch.setenv(LIMIT_ENV, "4")
    with pytest.raises(PlaygroundRefused, match="evaluates 5 flags per context and allows 4"):
        await _sent(admin, ["u-1"])


@pytest.mark.parametrize(
    ("context", "users", "field"),
    [
        ({"appName": "a", "sessionId": "s-1,s-2"}, ["u-1"], "context.sessionId"),
        ({"appName": "a", "properties": {"tenantId": "a,b"}}, ["u-1"], "context.properties"),
        ({"appName": "a"}, ["u-1", "u-2,u-3"], "userId"),
    ],
)
async def test_a_value_with_a_comma_is_refused_before_sending(
    admin, context: dict, users: list[str], field: str
) -> None:
    """The server would split it into several contexts: the answers would not be the users'."""
    before = admin.requests_sent
    with pytest.raises(InvalidArgument, match=field):
        await admin.playground.users("production", context, users, flags=5, projects=HOSTILE)
    assert admin.requests_sent == before


async def test_more_requests_than_allowed_are_refused_before_sending(admin) -> None:
    """3,001 users of 5 flags need 2 requests: with at most 1, none is sent."""
    before = admin.requests_sent
    users = [f"u-{i}" for i in range(1, 3002)]
    with pytest.raises(PlaygroundRefused, match="3,001 users of 5 flags need 2 requests of 3,000"):
        await admin.playground.users(
            "production", CONTEXT, users, flags=HOSTILE_FLAGS, projects=HOSTILE, at_most=1
        )
    assert admin.requests_sent == before
    found = await admin.playground.users(
        "production", CONTEXT, users[:3000], flags=HOSTILE_FLAGS, projects=HOSTILE, at_most=1
    )
    _every_user_answered(found, users[:3000])
