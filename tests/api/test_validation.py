"""The contract's limits are checked before a request is built: nothing reaches the server."""

from __future__ import annotations

import httpx
import pytest

from flagtui.api import AdminClient, InvalidArgument
from flagtui.api.models import PatchOperation
from flagtui.api.validation import MAX_JSON_DEPTH, json_value, lifetime_days, patch_operations
from flagtui.contract import MAX_LIFETIME_DAYS


def _no_request(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"a request left: {request.method} {request.url}")


@pytest.fixture
async def offline_client():
    client = AdminClient(
        "http://127.0.0.1:9", "*:*.secret", transport=httpx.MockTransport(_no_request)
    )
    yield client
    await client.aclose()


@pytest.mark.parametrize("days", [None, 0, 1, MAX_LIFETIME_DAYS])
def test_lifetime_accepts_the_contract_range(days):
    assert lifetime_days(days) == days


@pytest.mark.parametrize("days", [-1, MAX_LIFETIME_DAYS + 1, 1.5, "7", True])
async def test_lifetime_outside_the_range_is_refused(offline_client, days):
    with pytest.raises(InvalidArgument) as caught:
        await offline_client.feature_types.update_lifetime("release", days)
    assert caught.value.field == "lifetimeDays"
    assert str(MAX_LIFETIME_DAYS) in caught.value.limit


@pytest.mark.parametrize("q", ["", "a", " b "])
async def test_user_search_needs_two_characters(offline_client, q):
    with pytest.raises(InvalidArgument, match="at least 2 characters") as caught:
        await offline_client.users.search(q)
    assert caught.value.field == "q"


@pytest.mark.parametrize("limit", [0, 101, -5, 1.0])
async def test_event_search_limit_is_1_to_100(offline_client, limit):
    with pytest.raises(InvalidArgument) as caught:
        await offline_client.events.search(limit=limit)
    assert caught.value.field == "limit"
    assert "1 to 100" in caught.value.limit


@pytest.mark.parametrize(
    ("field", "kwargs"), [("limit", {"limit": -1}), ("offset", {"offset": -1})]
)
async def test_integration_events_paging_is_non_negative(offline_client, field, kwargs):
    with pytest.raises(InvalidArgument) as caught:
        await offline_client.integrations.events(1, **kwargs)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("ops", "field"),
    [
        ([], "patch"),
        ([{"op": "test", "path": "/stale", "value": True}], "patch[0].op"),
        ([{"op": "replace", "path": "stale", "value": True}], "patch[0].path"),
        ([{"op": "replace", "path": "/stale"}], "patch[0].value"),
        ([{"op": "add", "path": "/description"}], "patch[0].value"),
        ([{"op": "copy", "path": "/description"}], "patch[0].from"),
        ([{"op": "move", "path": "/a", "from": "b"}], "patch[0].from"),
        (["replace /stale"], "patch[0]"),
    ],
)
async def test_bad_patch_operations_are_refused(offline_client, ops, field):
    with pytest.raises(InvalidArgument) as caught:
        await offline_client.features.patch("default", "f", ops)
    assert caught.value.field == field


def nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("value", "limit"),
    [
        (float("nan"), "NaN is not a JSON value"),
        ({"a": [1, {"b": float("inf")}]}, "Infinity is not a JSON value"),
        ([float("-inf")], "-Infinity is not a JSON value"),
        (nested(MAX_JSON_DEPTH + 1), f"nested deeper than {MAX_JSON_DEPTH} levels"),
        (nested(5000), f"nested deeper than {MAX_JSON_DEPTH} levels"),
        ("\udcff", "holds text that is not valid UTF-8 (a lone surrogate)"),
        ({"\ud800": 1}, "holds text that is not valid UTF-8 (a lone surrogate)"),
    ],
    ids=["nan", "nested-infinity", "-infinity", "101-deep", "5000-deep", "surrogate", "key"],
)
async def test_a_patch_value_json_cannot_carry_is_refused_naming_it(offline_client, value, limit):
    ops = [{"op": "replace", "path": "/description", "value": "ok"},
           {"op": "replace", "path": "/description", "value": value}]  # fmt: skip
    with pytest.raises(InvalidArgument) as caught:
        await offline_client.features.patch("default", "f", ops)
    assert (caught.value.field, caught.value.limit) == ("patch[1].value", limit)
    with pytest.raises(InvalidArgument):  # the models' way in is checked alike
        patch_operations([PatchOperation(op="add", path="/description", value=value)])


def test_json_values_up_to_the_limit_pass() -> None:
    for value in (nested(MAX_JSON_DEPTH), 1e308, -0.0, "ünïcode ✓", {"a": None}):
        assert json_value("v", value) is value


def test_valid_patch_operations_keep_only_their_fields():
    ops = patch_operations(
        [
            {"op": "replace", "path": "/stale", "value": False},
            {"op": "remove", "path": "/description"},
            {"op": "copy", "path": "/description", "from": "/name"},
            PatchOperation(op="add", path="/impressionData", value=True),
        ]
    )
    assert [op.to_wire() for op in ops] == [
        {"op": "replace", "path": "/stale", "value": False},
        {"op": "remove", "path": "/description"},
        {"op": "copy", "path": "/description", "from": "/name"},
        {"op": "add", "path": "/impressionData", "value": True},
    ]


async def test_access_needs_a_role_and_someone(offline_client):
    with pytest.raises(InvalidArgument, match="roles"):
        await offline_client.access.grant("default", roles=[], users=[1], groups=[])
    with pytest.raises(InvalidArgument, match="users/groups"):
        await offline_client.access.grant("default", roles=[4], users=[], groups=[])
    with pytest.raises(InvalidArgument, match="integer ids"):
        await offline_client.access.grant("default", roles=["4"], users=[1], groups=[])


@pytest.mark.parametrize("author", ["admin", 1.5, True])
async def test_event_author_is_an_integer_user_id(offline_client, author):
    with pytest.raises(InvalidArgument, match="created_by"):
        await offline_client.events.search(created_by=author)
