"""`client.context_fields` on the sandbox: create, edit, delete and where used; bad input named
by field and limit before any request; a read-only profile refused before any request; an edit
made from a field someone changed since is not sent; the constraints whose values an edit of
legal values leaves off the list are named."""

from __future__ import annotations

import httpx
import pytest

from flagtui.api import AdminClient
from flagtui.api.edits import EditConflict
from flagtui.api.errors import ConflictError, InvalidArgument, NothingToSend, ReadOnlyProfile
from flagtui.api.models import ContextField, LegalValue

FLAG = "/api/admin/projects/default/features"


def field(name: str, *legal: str, **more) -> ContextField:
    return ContextField(name=name, legal_values=[LegalValue(value=v) for v in legal], **more)


def server_field(sandbox, name: str) -> dict | None:
    answer = httpx.get(
        f"{sandbox.url}/api/admin/context/{name}", headers={"Authorization": sandbox.admin_token}
    )
    return answer.json() if answer.status_code == 200 else None


async def test_create_edit_and_delete_reach_the_server(admin, sandbox):
    created = await admin.context_fields.create(
        field("region", "eu", "us", description="Where", stickiness=True)
    )
    assert (created.name, created.stickiness) == ("region", True)
    assert [v.value for v in created.legal_values] == ["eu", "us"]
    edit = admin.context_fields.plan_edit(created, legal_values=[LegalValue(value="eu")])
    # the whole field is sent: legal values and stickiness left out would be emptied
    assert edit.plan.body == {
        "description": "Where",
        "legalValues": [{"value": "eu"}],
        "stickiness": True,
    }
    stored = await admin.context_fields.send_edit(edit)
    assert [v.value for v in stored.legal_values] == ["eu"]
    assert server_field(sandbox, "region")["stickiness"] is True
    with pytest.raises(NothingToSend):
        admin.context_fields.plan_edit(stored, stickiness=True)
    await admin.context_fields.delete("region")
    assert server_field(sandbox, "region") is None


async def test_bad_input_names_the_field_and_the_limit_before_any_request(admin):
    sent = admin.requests_sent
    cases = [
        (field("a b"), "name", "URL-friendly"),
        (field("n" * 101), "name", "1 to 100"),
        (field("x", description="d" * 251), "description", "at most 250 characters"),
        (field("x", ""), "legalValues[0].value", "1 to 100 characters"),
        (field("x", "v" * 101), "legalValues[0].value", "1 to 100 characters"),
        (field("x", "a", "b", "a"), "legalValues[2].value", "legalValues[0] too"),
    ]
    for given, name, limit in cases:
        with pytest.raises(InvalidArgument) as refused:
            await admin.context_fields.create(given)
        assert refused.value.field == name
        assert limit in str(refused.value)
    assert admin.requests_sent == sent


async def test_a_read_only_profile_is_refused_before_any_request(sandbox):
    async with AdminClient(sandbox.url, sandbox.admin_token, read_only=True) as locked:
        with pytest.raises(ReadOnlyProfile):
            await locked.context_fields.create(field("region"))
        shown = field("userId")
        edit = locked.context_fields.plan_edit(shown, description="x")
        with pytest.raises(ReadOnlyProfile):
            await locked.context_fields.send_edit(edit)
        with pytest.raises(ReadOnlyProfile):
            await locked.context_fields.delete("userId")
        assert locked.requests_sent == 0
    assert server_field(sandbox, "region") is None


async def test_an_edit_made_from_a_field_changed_since_is_not_sent(admin, sandbox):
    shown = await admin.context_fields.create(field("tier", "gold"))
    edit = admin.context_fields.plan_edit(shown, description="mine")
    other = httpx.put(
        f"{sandbox.url}/api/admin/context/tier",
        headers={"Authorization": sandbox.admin_token},
        json={"legalValues": [{"value": "gold"}, {"value": "silver"}]},
    )
    assert other.status_code == 200
    with pytest.raises(EditConflict) as moved:
        await admin.context_fields.send_edit(edit)
    assert [c.field for c in moved.value.changed] == ["legalValues"]
    assert moved.value.recorded[0].type == "context-field-updated"
    assert server_field(sandbox, "tier")["description"] is None
    stored = await admin.context_fields.send_edit(edit, anyway=True)
    assert stored.description == "mine"


async def test_usage_and_the_constraints_a_legal_values_edit_leaves_off(admin, sandbox):
    await admin.context_fields.create(field("tier", "gold", "silver"))
    http = httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token})
    assert http.post(FLAG, json={"name": "tiered"}).status_code == 201
    constraint = {"contextName": "tier", "operator": "IN", "values": ["gold", "silver"]}
    path = f"{FLAG}/tiered/environments/production/strategies"
    added = http.post(path, json={"name": "default", "constraints": [constraint]}).json()
    uses = await admin.context_fields.usage("tier")
    assert [(u.feature_name, u.environment, u.id) for u in uses] == [
        ("tiered", "production", added["id"])
    ]
    off = await admin.context_fields.no_longer_legal("tier", ["gold"])
    assert [o.words() for o in off] == [
        f"tiered in production: strategy {added['id']} (default), constraints[0] uses silver"
    ]
    assert await admin.context_fields.no_longer_legal("tier", ["gold", "silver"]) == []
    assert await admin.context_fields.no_longer_legal("tier", []) == []  # any value then
    with pytest.raises(ConflictError):
        await admin.context_fields.delete("tier")
    assert server_field(sandbox, "tier") is not None
