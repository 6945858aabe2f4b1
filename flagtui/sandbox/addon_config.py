"""POST /api/admin/addons, PUT and DELETE /api/admin/addons/:id: create, replace (enable,
disable, edit) and delete an integration's configuration.

As real Unleash 8.2 does (addon-service `updateAddon`): an unknown id is 404 before the body
is looked at; the body is provider, enabled (default true), description, parameters, events,
projects, environments, other keys dropped; the provider must be known and its required
parameters present; a sensitive parameter sent as `*****` keeps the stored value. The answer
is 200 with the record, and `addon-config-updated` is recorded with the record before and after,
both without parameters. One difference: real Unleash answers with the stored secrets; the
sandbox masks them, as its list does.

A created integration's deliveries succeed, unless its `url` is a loopback port that refuses a
connection (`integrations.target_behaviour`): they fail then, as a dead port's do on real
Unleash. Creation validates the body the same way (no id to look up) and answers 201 with the record
(as real Unleash 6.10.1, 7.5.1 and 8.2.0 do; the 7.5.0 OpenAPI document says 200), recording
`addon-config-created` without parameters.
Deletion: an unknown id is 404; otherwise 200 with no body, the configuration and its delivery
history gone (real Unleash's integration_events rows go with the addon, by foreign key), and
`addon-config-deleted` recorded with pre-data `{id}`. Where the contract is silent, the sandbox
chooses: a `*****` sent on creation is stored as it is (there is nothing to keep).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from flagtui.sandbox import shapes
from flagtui.sandbox.clock import now_iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.errors import bad_request, not_found
from flagtui.sandbox.events import record
from flagtui.sandbox.inputs import Call, require_object
from flagtui.sandbox.integrations import ADDON_COLUMNS, MASK, PROVIDERS, _addon, target_behaviour

_NAME = re.compile(r"^[A-Za-z0-9_.~-]{1,100}$")  # Unleash's nameType (URL-friendly)
_LISTS = ("events", "projects", "environments")


def _checked(body: dict[str, Any]) -> dict[str, Any]:
    provider = body.get("provider")
    if not isinstance(provider, str) or not _NAME.match(provider):
        raise bad_request('"provider" is required: a URL-friendly name')
    spec = next((p for p in PROVIDERS if p["name"] == provider), None)
    if spec is None:
        raise bad_request(f"Addon provider {provider} is not known")
    enabled = body.get("enabled", True)
    if not isinstance(enabled, bool):
        raise bad_request('"enabled" must be a boolean')
    description = body.get("description")
    if description is not None and not isinstance(description, str):
        raise bad_request('"description" must be a string')
    parameters = body.get("parameters", {})
    if not isinstance(parameters, dict) or not all(
        isinstance(v, str | int | float | bool) for v in parameters.values()
    ):
        raise bad_request('"parameters" must be an object of strings, numbers or booleans')
    for key in _LISTS:
        value = body.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad_request(f'"{key}" must be a list of strings')
    required = [p["name"] for p in spec["parameters"] if p["required"]]
    missing = [name for name in required if name not in parameters]
    if missing:
        raise bad_request(f'Missing required parameter "{missing[0]}"')
    return {
        "provider": provider,
        "enabled": enabled,
        "description": description or "",
        "parameters": parameters,
        **{key: body.get(key, []) for key in _LISTS},
    }


def update_addon(call: Call) -> shapes.Addon:
    raw_id = call.path["id"]
    with call.db.write() as conn:
        row = None
        if raw_id.isascii() and raw_id.isdigit() and len(raw_id) <= 10:
            row = conn.execute(
                f"SELECT {ADDON_COLUMNS} FROM addons WHERE id = ?", (int(raw_id),)
            ).fetchone()
        if row is None:
            raise not_found(f"Could not find addon with id {raw_id}")
        new = _checked(require_object(call.body))
        stored = json.loads(row["parameters"])
        parameters = {k: stored.get(k) if v == MASK else v for k, v in new["parameters"].items()}
        conn.execute(
            "UPDATE addons SET provider = ?, enabled = ?, description = ?, parameters = ?,"
            " events = ?, projects = ?, environments = ? WHERE id = ?",
            (
                new["provider"],
                int(new["enabled"]),
                new["description"],
                dumps(parameters),
                *(dumps(new[key]) for key in _LISTS),
                row["id"],
            ),
        )
        # Deliveries read the enabled addons once per connection: read them again.
        getattr(conn, "cached", {}).pop("subscriptions", None)
        after = conn.execute(f"SELECT {ADDON_COLUMNS} FROM addons WHERE id = ?", (row["id"],))
        updated = _addon(after.fetchone())
        record(
            conn,
            call.caller,
            "addon-config-updated",
            data=_without_parameters(updated),
            pre_data=_without_parameters(_addon(row)),
        )
    return updated


def create_addon(call: Call) -> shapes.Addon:
    new = _checked(require_object(call.body))
    behaviour = target_behaviour(new["parameters"])  # before the write: it may connect
    with call.db.write() as conn:
        cursor = conn.execute(
            "INSERT INTO addons (provider, description, enabled, events, projects, environments,"
            " parameters, created_at, behaviour) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                new["provider"],
                new["description"],
                int(new["enabled"]),
                *(dumps(new[key]) for key in _LISTS),
                dumps(new["parameters"]),
                now_iso(),
                behaviour,
            ),
        )
        getattr(conn, "cached", {}).pop("subscriptions", None)
        after = conn.execute(
            f"SELECT {ADDON_COLUMNS} FROM addons WHERE id = ?", (cursor.lastrowid,)
        )
        created = _addon(after.fetchone())
        record(conn, call.caller, "addon-config-created", data=_without_parameters(created))
    return created


def delete_addon(call: Call) -> None:
    raw_id = call.path["id"]
    with call.db.write() as conn:
        found = None
        if raw_id.isascii() and raw_id.isdigit() and len(raw_id) <= 10:
            found = conn.execute("SELECT id FROM addons WHERE id = ?", (int(raw_id),)).fetchone()
        if found is None:
            raise not_found(f"Could not find addon with id {raw_id}")
        conn.execute("DELETE FROM integration_events WHERE addon_id = ?", (found["id"],))
        conn.execute("DELETE FROM addons WHERE id = ?", (found["id"],))
        getattr(conn, "cached", {}).pop("subscriptions", None)
        record(conn, call.caller, "addon-config-deleted", pre_data={"id": found["id"]})


def _without_parameters(addon: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in addon.items() if k != "parameters"}
