"""The demo data's history: change requests, integrations and the audit log (with each
event's integration deliveries), generated after the features from the same random stream."""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime, timedelta
from typing import Any

from flagtui.contract import CHANGE_REQUEST_STATES
from flagtui.sandbox.clock import iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.demo_tables import ADDON_EVENTS, ADDONS, PROJECTS, TAGS
from flagtui.sandbox.integrations import deliveries as integration_rows
from flagtui.sandbox.integrations import subscriptions

# A generated feature as the history needs it: (name, project, createdAt, final stage).
FeatureRow = tuple[str, str, str, str]


class History:
    def __init__(
        self,
        conn: sqlite3.Connection,
        rng: random.Random,
        now: datetime,
        users: list[tuple[int, str]],
        feature_rows: list[FeatureRow],
        events: int,
    ) -> None:
        self.conn = conn
        self.rng = rng  # the generator's own: the history continues its stream
        self.now = now
        self.users = users
        self.feature_rows = feature_rows
        self.events = events

    def ago(self, days: float) -> str:
        return iso(self.now - timedelta(days=days))

    def run(self) -> None:
        self.change_requests()
        self.addons()
        self.audit_log()

    def change_requests(self) -> None:
        rng = self.rng
        live = [f for f in self.feature_rows if f[3] != "archived"]
        rows = []
        for cid in range(1, min(43, len(live) // 4) + 1):
            state = CHANGE_REQUEST_STATES[cid % len(CHANGE_REQUEST_STATES)]
            project, env = rng.choice(
                [
                    ("payments", "production"),
                    ("payments", "staging"),
                    ("mobile-app", "production"),
                    ("platform", "production"),
                    ("search", "production"),
                ]
            )
            candidates = [f for f in live if f[1] == project] or live
            picked = rng.sample(candidates, min(len(candidates), rng.randint(1, 3)))
            author = rng.randint(3, len(self.users))
            created = rng.uniform(1, 120)
            feats = [
                {"name": f[0], "changes": [self._change(cid * 10 + i, created, author)]}
                for i, f in enumerate(picked)
            ]
            approvals = (
                [self._actor(rng.randint(3, len(self.users)), created - 0.5)]
                if state in ("Approved", "Applied", "Scheduled")
                else []
            )
            rejections = (
                [self._actor(rng.randint(3, len(self.users)), created - 0.3)]
                if state == "Rejected"
                else []
            )
            comments = [
                {
                    "id": cid * 100 + k,
                    "text": text,
                    "createdAt": self.ago(created - 0.1 * k),
                    **{"createdBy": self._who(rng.randint(3, len(self.users)))},
                }
                for k, text in enumerate(
                    rng.sample(
                        [
                            "Looks good to me",
                            "Can we roll out to 10% first?",
                            "Please add a constraint for the EU",
                            "Approved after QA sign-off",
                        ],
                        rng.randint(0, 2),
                    ),
                    start=1,
                )
            ]
            schedule = (
                {
                    "scheduledAt": iso(self.now + timedelta(days=rng.randint(1, 14))),
                    "status": rng.choice(["pending", "suspended"]),
                }
                if state == "Scheduled"
                else None
            )
            title = f"{'Enable' if rng.random() < 0.6 else 'Adjust'} {picked[0][0]} in {env}"
            rows.append(
                (
                    cid,
                    project,
                    env,
                    title,
                    state,
                    self.ago(created),
                    author,
                    rng.choice([1, 1, 2]),
                    dumps(feats),
                    dumps(approvals),
                    dumps(rejections),
                    dumps(comments),
                    dumps(schedule) if schedule else None,
                )
            )
        self.conn.executemany(f"INSERT INTO change_requests VALUES ({','.join('?' * 13)})", rows)

    def _who(self, uid: int) -> dict[str, Any]:
        username = self.users[uid - 1][1]
        return {
            "id": uid,
            "username": username,
            "imageUrl": f"https://gravatar.com/avatar/{uid:032x}?s=42&d=retro",
        }

    def _actor(self, uid: int, days: float) -> dict[str, Any]:
        return {"createdBy": self._who(uid), "createdAt": self.ago(days)}

    def _change(self, change_id: int, days: float, author: int) -> dict[str, Any]:
        action, payload = self.rng.choice(
            [
                ("updateEnabled", {"enabled": True}),
                (
                    "addStrategy",
                    {"name": "flexibleRollout", "parameters": {"rollout": "25"}, "constraints": []},
                ),
                (
                    "updateStrategy",
                    {"id": "s1", "name": "flexibleRollout", "parameters": {"rollout": "50"}},
                ),
                ("deleteStrategy", {"id": "s2"}),
                ("patchVariant", {"variants": []}),
                ("archiveFeature", {}),
            ]
        )
        return {
            "id": change_id,
            "action": action,
            "payload": payload,
            "createdAt": self.ago(days),
            "createdBy": self._who(author),
        }

    def addons(self) -> None:
        rows = []
        for aid, (provider, desc, enabled, behaviour, projects, params) in enumerate(ADDONS, 1):
            events = ADDON_EVENTS.get(behaviour, ADDON_EVENTS["reliable"])
            rows.append(
                (
                    aid,
                    provider,
                    desc,
                    int(enabled),
                    dumps(events),
                    dumps(projects),
                    dumps([]),
                    dumps(params),
                    self.ago(200 - aid * 10),
                    behaviour,
                )
            )
        self.conn.executemany(f"INSERT INTO addons VALUES ({','.join('?' * 10)})", rows)

    def audit_log(self) -> None:
        rng = self.rng
        rows = self.feature_rows
        if not rows:
            return
        per_feature = [
            ("feature-environment-enabled", True),
            ("feature-environment-disabled", True),
            ("feature-strategy-add", True),
            ("feature-strategy-update", True),
            ("feature-strategy-remove", True),
            ("feature-metadata-updated", False),
            ("feature-tagged", False),
            ("feature-variants-updated", False),
            ("feature-stale-on", False),
            ("feature-completed", False),
        ]
        drafts: list[tuple[Any, ...]] = []
        for name, project, created, _ in rows:
            drafts.append(
                (
                    created,
                    "feature-created",
                    project,
                    name,
                    None,
                    {"name": name, "project": project},
                    None,
                )
            )
        envs_of = {p[0]: p[3] for p in PROJECTS}
        while len(drafts) < self.events:
            name, project, created, _ = rows[rng.randrange(len(rows))]
            type_, with_env = rng.choice(per_feature)
            age = (self.now - datetime.fromisoformat(created.replace("Z", "+00:00"))).days
            when = self.ago(rng.uniform(0, max(age, 0.2)))
            env = rng.choice(envs_of[project]) if with_env else None
            data, pre = self._payload(type_, name, env)
            drafts.append((when, type_, project, name, env, data, pre))
        drafts.sort(key=lambda d: d[0])
        addons = subscriptions(self.conn)
        events, deliveries = [], []
        for eid, (when, type_, project, name, env, data, pre) in enumerate(drafts, start=1):
            uid, username = self.users[rng.randrange(len(self.users))]
            events.append(
                (
                    eid,
                    when,
                    type_,
                    username,
                    uid,
                    project,
                    name,
                    env,
                    dumps(data),
                    None if pre is None else dumps(pre),
                    "[]",
                )
            )
            record = {
                "id": eid,
                "createdAt": when,
                "type": type_,
                "createdBy": username,
                "createdByUserId": uid,
                "environment": env,
                "project": project,
                "featureName": name,
                "data": data,
                "preData": pre,
                "tags": [],
            }
            deliveries.extend(integration_rows(addons, record))
        self.conn.executemany(f"INSERT INTO events VALUES ({','.join('?' * 11)})", events)
        self.conn.executemany(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) VALUES (?,?,?,?,?,?)",
            deliveries,
        )

    def _payload(self, type_: str, name: str, env: str | None) -> tuple[Any, Any]:
        rng = self.rng
        if type_.startswith("feature-strategy"):
            rollout = rng.choice([10, 25, 50, 100])
            data = {"name": "flexibleRollout", "parameters": {"rollout": str(rollout)}}
            pre = {"name": "flexibleRollout", "parameters": {"rollout": str(rollout // 2)}}
            return (
                None if type_.endswith("remove") else data,
                None if type_.endswith("add") else pre,
            )
        if type_ == "feature-metadata-updated":
            return (
                {"name": name, "description": "Updated rollout notes"},
                {"name": name, "description": ""},
            )
        if type_ == "feature-tagged":
            tag_type, value = rng.choice(TAGS)
            return {"type": tag_type, "value": value}, None
        if type_ == "feature-completed":
            return {"status": rng.choice(["kept", "discarded"])}, None
        return {"name": name, "environment": env} if env else {"name": name}, None
