"""Secrets masked by one rule wherever flagtui shows or keeps them: the TUI, every format of the
commands, and the delivery archive (which stores deliveries masked, never their secrets).

A URL keeps its scheme and host (enough to tell which endpoint it is) and masks its userinfo,
path, query values and fragment, where webhook tokens live. A value whose name says secret
(a token, a key, an authorization, headers, a body template) is masked whole, and so is a
delivery's body when it is text: real Unleash sends a webhook's rendered `bodyTemplate` there.
Showing a value unmasked (`--reveal`, the TUI's `m`) is the caller's choice, for what is on
screen only; nothing here reveals.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from flagtui.api.models import Addon, AddonList, EventRecord, IntegrationEvent

MASK = "•••••"
SERVER_MASK = "*****"  # what Unleash sends in place of a sensitive parameter
SECRET_NAME = re.compile(
    r"token|key|secret|password|passwd|auth|credential|signature|header|template", re.I
)
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s\"'<>]+", re.I)
# An event's fields that hold a secret (an API token's or a PAT's; the server sends `***`
# or nothing there today), and what an Unleash token looks like wherever it appears.
EVENT_SECRETS = frozenset({"secret", "password", "inviteLink"})
TOKEN_TEXT = re.compile(r"(?:[\w*\[\]-]+:[\w*-]+\.|user:)[0-9a-f]{16,}")


def mask_url(url: str) -> str:
    """`https://user:pw@hooks.example:8443/services/T0/B1?token=abc#x` ->
    `https://•••••@hooks.example:8443/•••••?token=•••••#•••••`."""
    scheme, _, rest = url.partition("://")
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, rest = rest[:end], rest[end:]
    _userinfo, at, host = authority.rpartition("@")
    out = f"{scheme}://{MASK + '@' if at else ''}{host}"
    rest, hash_, fragment = rest.partition("#")
    path, question, query = rest.partition("?")
    out += path if path in ("", "/") else "/" + MASK
    if question:
        out += "?" + "&".join(_masked_parameter(item) for item in query.split("&"))
    if hash_:
        out += "#" + (MASK if fragment else "")
    return out


def _masked_parameter(item: str) -> str:
    name, equals, value = item.partition("=")
    if not equals:
        return MASK if name else ""
    return f"{name}={MASK if value else ''}"


def mask_urls(text: str) -> str:
    """Every URL in a free text (a message, a JSON document) masked by `mask_url`."""
    return URL.sub(lambda match: mask_url(match.group(0)), text)


def masked(name: str, value: Any, sensitive: Collection[str]) -> str:
    """An integration parameter as shown: whole-masked when its name says secret (or the
    provider marks it sensitive), URLs masked by `mask_url`, the server's mask shown as ours."""
    text = str(value)
    if name in sensitive or SECRET_NAME.search(name):
        return MASK
    return mask_urls(text).replace(SERVER_MASK, MASK)


def sensitive_names(addons: AddonList) -> dict[str, set[str]]:
    """Parameter names each provider marks sensitive."""
    return {
        p.name: {spec.name for spec in p.parameters or [] if spec.sensitive}
        for p in addons.providers
    }


def masked_addon(addon: Addon, sensitive: Collection[str] = ()) -> Addon:
    """An integration with its parameters masked by `masked`."""
    if not addon.parameters:
        return addon
    parameters = {name: masked(name, value, sensitive) for name, value in addon.parameters.items()}
    return addon.model_copy(update={"parameters": parameters})


def masked_value(value: Any, name: str = "") -> Any:
    """A JSON value with every secret in it masked: by its name (`SECRET_NAME`), else the URLs
    in its text; structure, numbers and empty values kept."""
    if value in (None, "", [], {}) or isinstance(value, bool | int | float):
        return value
    if name and SECRET_NAME.search(name):
        return MASK
    if isinstance(value, dict):
        return {key: masked_value(item, str(key)) for key, item in value.items()}
    if isinstance(value, list):
        return [masked_value(item) for item in value]
    return mask_urls(str(value)).replace(SERVER_MASK, MASK)


def urls_masked(value: Any) -> Any:
    """URLs masked in every text of a JSON value, names not looked at: a triggering event's
    data is the admin's (a flag named `api-key-rotation` is not a secret)."""
    if isinstance(value, dict):
        return {key: urls_masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [urls_masked(item) for item in value]
    return mask_urls(value) if isinstance(value, str) else value


def masked_details(details: dict[str, Any]) -> dict[str, Any]:
    """A delivery's details (real Unleash: `url`, `contentType`, `body`; Slack: `channels`,
    `message`). A text body is the rendered body template: masked whole."""
    return {
        key: MASK
        if key == "body" and isinstance(value, str) and value
        else masked_value(value, key)
        for key, value in details.items()
    }


def masked_delivery(delivery: IntegrationEvent) -> IntegrationEvent:
    """The delivery with its state details, details and triggering event masked, by the one rule
    of `masked_delivery_json` (only the fields the server sent: a record printed as JSON keeps
    its shape)."""
    fields = delivery.model_dump(by_alias=True, exclude_unset=True)
    return type(delivery).model_validate(masked_delivery_json(fields))


def masked_delivery_json(delivery: dict[str, Any]) -> dict[str, Any]:
    """A delivery's fields as the API names them (its JSON, as triage keeps it in
    `triage.records.Delivery.wire`, or a model's dump): its state details, details and
    triggering event masked, the others as they are."""
    masked = dict(delivery)
    if delivery.get("stateDetails"):
        masked["stateDetails"] = mask_urls(delivery["stateDetails"])
    if delivery.get("details"):
        masked["details"] = masked_details(delivery["details"])
    if delivery.get("event") is not None:
        masked["event"] = urls_masked(delivery["event"])
    return masked


def _event_value(value: Any, name: str = "") -> Any:
    if name in EVENT_SECRETS and value not in (None, ""):
        return MASK
    if isinstance(value, dict):
        return {key: _event_value(item, str(key)) for key, item in value.items()}
    if isinstance(value, list):
        return [_event_value(item) for item in value]
    return TOKEN_TEXT.sub(MASK, value) if isinstance(value, str) else value


def masked_event(event: EventRecord) -> EventRecord:
    """An audit event as shown: a secret in its data or preData (by its field's name, or a
    text shaped like an Unleash token anywhere) masked; the rest as the server sent it
    (`tokenName` is a name, not a secret)."""
    update = {
        field: masked
        for field in ("data", "pre_data")
        if (masked := _event_value(getattr(event, field))) != getattr(event, field)
    }
    return event.model_copy(update=update) if update else event
