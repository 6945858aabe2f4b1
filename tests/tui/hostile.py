"""Hostile text (terminal escapes, markup, bidirectional overrides) and how a screen must show it:
as data, never obeyed."""

from __future__ import annotations

import sqlite3
from typing import Any

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery

PROJECT = "payments"


OSC52 = "\x1b]52;c;aGFja2Vk\x1b\\"


TITLE = "\x1b]0;pwned\x07"


HOSTILE = f"{OSC52}[/x] [link=https://evil.example]click[/link] \x1b[2J\u202eevil\u202c{TITLE}end"


# What a person sees instead: control pictures, the markup as written, <U+...> for BiDi.
SHOWN = ("␛]52;c;aGFja2Vk␛\\", "[/x] [link=https://evil.example]click[/link]", "<U+202E>evil")


MARKUP_TYPE = "[/x]"


def assert_shown_as_data(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    for part in SHOWN:
        assert part in text, part


async def hostile_feature(client: AdminClient, db_path: Any) -> str:
    """A feature whose description is hostile and whose type is `[/x]` (real Unleash accepts
    any type; the sandbox only known ones, so the type is added to its store first)."""
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO feature_types (id, name, description, lifetime_days) VALUES (?,?,?,?)",
            (MARKUP_TYPE, MARKUP_TYPE, HOSTILE, 7),
        )
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    ops = [
        {"op": "replace", "path": "/description", "value": HOSTILE},
        {"op": "replace", "path": "/type", "value": MARKUP_TYPE},
    ]
    await client.features.patch(PROJECT, name, ops)
    return name
