"""Deterministic demo data: the same seed and `now` always give the same database.

This module generates the people, projects and features; `demo_history` continues with the
change requests, integrations and audit log; `demo_tables` holds the fixed tables both draw
from.

Sizes: `empty` (tokens and their two users, roles, feature types, and what every Unleash
starts with: the `default` project in development and production), `demo` (a few hundred
features, several thousand events, a few thousand integration deliveries), `hostile` (`demo`
plus the `hostile` project of `hostile_data`, whose records carry text that attacks
terminals: what the tests run on), `large` (50,000 features, 200,000 events and their
deliveries). Everything is inserted
with executemany in one transaction.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

from flagtui.contract import LIFECYCLE_STAGES
from flagtui.sandbox.auth import Tokens
from flagtui.sandbox.clock import iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.demo_history import FeatureRow, History
from flagtui.sandbox.demo_rollouts import add_rollout_examples
from flagtui.sandbox.demo_tables import (
    AREAS,
    ENVIRONMENTS,
    FEATURE_TYPES,
    FIRST,
    LAST,
    PROJECTS,
    QUALIFIERS,
    ROLES,
    SEGMENTS,
    SIZES,
    STRATEGY_TITLES,
    TAGS,
    THINGS,
    Size,
)
from flagtui.sandbox.feature_types import reevaluate
from flagtui.sandbox.features import search_text
from flagtui.sandbox.hostile_data import add_hostile_project

DEMO_NOW = datetime(2025, 6, 2, 12, 0, tzinfo=UTC)
DEMO_SEED = 20250602


class Generator:
    def __init__(self, conn: sqlite3.Connection, seed: int, now: datetime, size: Size) -> None:
        self.conn = conn
        self.rng = random.Random(seed)
        self.now = now
        self.size = size
        self.users: list[tuple[int, str]] = []
        self.feature_rows: list[FeatureRow] = []

    def ago(self, days: float) -> str:
        return iso(self.now - timedelta(days=days))

    def base(self, tokens: Tokens) -> None:
        c = self.conn
        c.executemany("INSERT INTO roles VALUES (?,?,?,?,NULL)", ROLES)
        c.executemany("INSERT INTO feature_types VALUES (?,?,?,?)", FEATURE_TYPES)
        self._user(1, "Admin", "admin", "admin@acme.example", 1, 900)
        self._user(2, "Read-only Viewer", "viewer", "viewer@acme.example", 3, 800)
        c.executemany(
            "INSERT INTO tokens VALUES (?,?,?)",
            [(tokens.admin, "admin", 1), (tokens.viewer, "viewer", 2)],
        )
        if tokens.client is not None:  # a client token acts as no user (user id 0)
            c.execute("INSERT INTO tokens VALUES (?, 'client', 0)", (tokens.client,))

    def _user(
        self, uid: int, name: str, username: str | None, email: str, role: int, age: float
    ) -> None:
        digest = hashlib.md5(email.encode(), usedforsecurity=False).hexdigest()
        self.conn.execute(
            "INSERT INTO users VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                uid,
                name,
                email,
                username,
                f"https://gravatar.com/avatar/{digest}?s=42&d=retro",
                role,
                self.ago(age),
                self.ago(self.rng.uniform(0, 30)) if uid % 7 else None,
                0,
                1,
                "User",
            ),
        )
        self.users.append((uid, username or email))

    def people(self) -> None:
        rng = self.rng
        for i in range(38):
            first, last = FIRST[i], LAST[i]
            email = f"{first}.{last}@acme.example".lower()
            username = f"{first[0]}{last}".lower() if i % 3 else None
            self._user(
                i + 3,
                f"{first} {last}",
                username,
                email,
                rng.choice([2, 2, 2, 3, 3, 1]),
                rng.uniform(30, 700),
            )
        groups = [
            "Payments Team",
            "Mobile Developers",
            "Platform SRE",
            "Growth Squad",
            "QA",
            "Product Managers",
        ]
        for gid, name in enumerate(groups, start=1):
            self.conn.execute(
                "INSERT INTO groups_ VALUES (?,?,?,?,?)",
                (
                    gid,
                    name,
                    f"The {name} group",
                    3 if name == "QA" else None,
                    self.ago(rng.uniform(100, 500)),
                ),
            )
            members = rng.sample(range(3, 41), rng.randint(3, 9))
            self.conn.executemany(
                "INSERT INTO group_users VALUES (?,?)", [(gid, m) for m in members]
            )

    def fresh_install(self) -> None:
        """What every Unleash starts with: the `default` project in development and production."""
        envs = [e for e in ENVIRONMENTS if e[0] in ("development", "production")]
        self.conn.executemany("INSERT INTO environments VALUES (?,?,1,?,0)", envs)
        pid, name, description, _, mode = PROJECTS[0]
        self.conn.execute(
            "INSERT INTO projects VALUES (?,?,?,?,100,?,0)",
            (pid, name, description, iso(self.now), mode),
        )
        self.conn.executemany(
            "INSERT INTO project_environments VALUES (?,?)", [(pid, e[0]) for e in envs]
        )

    def structure(self) -> None:
        c, rng = self.conn, self.rng
        c.executemany("INSERT INTO environments VALUES (?,?,1,?,0)", ENVIRONMENTS)
        for pid, name, desc, envs, mode in PROJECTS:
            c.execute(
                "INSERT INTO projects VALUES (?,?,?,?,?,?,?)",
                (
                    pid,
                    name,
                    desc,
                    self.ago(rng.uniform(300, 900)),
                    rng.randint(55, 100),
                    mode,
                    int(pid in ("payments", "mobile-app")),
                ),
            )
            c.executemany("INSERT INTO project_environments VALUES (?,?)", [(pid, e) for e in envs])
            for uid in rng.sample(range(3, 41), 5):
                c.execute(
                    "INSERT INTO project_user_roles VALUES (?,?,?)",
                    (pid, uid, rng.choice([4, 5, 5, 6])),
                )
            c.execute("INSERT INTO project_group_roles VALUES (?,?,?)", (pid, rng.randint(1, 6), 5))
        for sid, (name, desc, ctx, values) in enumerate(SEGMENTS, start=1):
            c.execute(
                "INSERT INTO segments (id, name, description, constraints) VALUES (?,?,?,?)",
                (sid, name, desc, dumps([self._constraint(ctx, "IN", values)])),
            )

    @staticmethod
    def _constraint(context: str, operator: str, values: list[str]) -> dict[str, Any]:
        single = operator.startswith(("NUM_", "SEMVER_"))
        return {
            "contextName": context,
            "operator": operator,
            "caseInsensitive": False,
            "inverted": False,
            "values": [] if single else values,
            "value": values[0] if single else "",
        }

    def _names(self) -> list[tuple[str, str]]:
        rng = self.rng
        seen: set[str] = set()
        out: list[tuple[str, str]] = []
        weights = [3, 6, 5, 5, 4, 2, 2]
        projects = [p[0] for p in PROJECTS]
        while len(out) < self.size.features:
            project = rng.choices(projects, weights)[0]
            name = f"{rng.choice(AREAS[project])}-{rng.choice(QUALIFIERS)}-{rng.choice(THINGS)}"
            if name in seen:
                name = f"{name}-{len(out)}"
            seen.add(name)
            out.append((project, name))
        return out

    def features(self) -> None:
        rng = self.rng
        envs_of = {p[0]: p[3] for p in PROJECTS}
        env_types = {e[0]: e[1] for e in ENVIRONMENTS}
        features, stages, settings, strategies = [], [], [], []
        by_project: dict[str, list[str]] = {}
        for n, (project, name) in enumerate(self._names()):
            type_ = rng.choices([t[0] for t in FEATURE_TYPES], [50, 20, 15, 10, 5])[0]
            age = min(0.5 + rng.expovariate(1 / 60), 420)
            created = self.ago(age)
            final = rng.choices(LIFECYCLE_STAGES, [14, 16, 42, 16, 12])[0]
            path = list(LIFECYCLE_STAGES[: LIFECYCLE_STAGES.index(final) + 1])
            if final == "archived" and rng.random() < 0.5:
                path.remove("completed")
            moments = sorted(rng.uniform(0, age) for _ in path[1:])
            times = [age, *reversed(moments)]
            history = list(zip(path, times, strict=True))
            for stage, t in history:
                status = rng.choice(["kept", "discarded"]) if stage == "completed" else None
                value = "variant-b" if status == "kept" and rng.random() < 0.3 else None
                stages.append((name, stage, self.ago(t), status, value))
            stale = int(
                (final in ("completed", "archived") and rng.random() < 0.4) or rng.random() < 0.06
            )
            tags = [{"type": t, "value": v} for t, v in rng.sample(TAGS, rng.randint(0, 3))]
            description = rng.choice(
                [
                    f"Rolls out the {name.replace('-', ' ')} to {project} users",
                    f"Guards the {name.split('-')[-1]} change; remove after launch",
                    f"Experiment: does {name.replace('-', ' ')} improve conversion?",
                    "",
                ]
            )
            creator = rng.randint(1, len(self.users))
            collaborators = sorted(
                {creator, *rng.sample(range(1, len(self.users) + 1), rng.randint(0, 2))}
            )
            siblings = by_project.setdefault(project, [])
            parent = rng.choice(siblings) if siblings and rng.random() < 0.06 else None
            dependency = (
                dumps({"feature": parent, "enabled": True, "variants": []}) if parent else None
            )
            seen = self.ago(rng.uniform(0, 3)) if final in ("live", "completed") else None
            features.append(
                (
                    name,
                    project,
                    type_,
                    description or None,
                    stale,
                    0,
                    int(rng.random() < 0.2),
                    int(rng.random() < 0.05),
                    created,
                    creator,
                    self.ago(history[-1][1]) if final == "archived" else None,
                    seen,
                    final,
                    self.ago(history[-1][1]),
                    dumps(tags),
                    search_text(name, description, tags),
                    parent,
                    dependency,
                    dumps(collaborators),
                )
            )
            siblings.append(name)
            for env in envs_of[project]:
                on = final in ("live", "completed") or (env != "production" and rng.random() < 0.6)
                variants = self._variants() if type_ == "experiment" else []
                settings.append(
                    (name, env, int(on), seen if env == "production" else None, dumps(variants))
                )
                for order in range(rng.choice([0, 1, 1, 1, 2])):
                    strategies.append(self._strategy(n, name, env, order, env_types[env]))
        self.conn.executemany(f"INSERT INTO features VALUES ({','.join('?' * 19)})", features)
        self.conn.executemany(
            "INSERT INTO lifecycle_stages (feature, stage, entered_at, status, status_value)"
            " VALUES (?,?,?,?,?)",
            stages,
        )
        self.conn.executemany("INSERT INTO feature_environments VALUES (?,?,?,?,?)", settings)
        self.conn.executemany(f"INSERT INTO strategies VALUES ({','.join('?' * 11)})", strategies)
        for type_id, _, _, days in FEATURE_TYPES:
            reevaluate(self.conn, type_id, days, self.now)
        self.feature_rows = [(f[0], f[1], f[8], f[12]) for f in features]

    def _variants(self) -> list[dict[str, Any]]:
        names = self.rng.choice([["control", "treatment"], ["a", "b", "c"], ["blue", "green"]])
        weight = 1000 // len(names)
        return [
            {
                "name": v,
                "weight": weight,
                "weightType": "variable",
                "stickiness": "default",
                "payload": {"type": "string", "value": v},
                "overrides": [],
            }
            for v in names
        ]

    def _strategy(self, n: int, feature: str, env: str, order: int, env_type: str) -> tuple:
        rng = self.rng
        name = rng.choice(
            ["flexibleRollout", "flexibleRollout", "default", "userWithId", "remoteAddress"]
        )
        parameters: dict[str, str] = {}
        if name == "flexibleRollout":
            rollout = 100 if env_type == "development" else rng.choice([5, 10, 25, 50, 100])
            parameters = {"rollout": str(rollout), "stickiness": "default", "groupId": feature}
        elif name == "userWithId":
            parameters = {"userIds": ",".join(str(rng.randint(1000, 9999)) for _ in range(3))}
        elif name == "remoteAddress":
            parameters = {"IPs": "10.0.0.0/8,192.168.1.1"}
        constraints = [
            self._constraint(ctx, op, vals)
            for ctx, op, vals in rng.sample(
                [
                    ("appName", "IN", ["web", "ios", "android"]),
                    ("country", "NOT_IN", ["RU"]),
                    ("userId", "STR_STARTS_WITH", ["emp-"]),
                    ("appVersion", "SEMVER_GTE", ["4.2.0"]),
                    ("tenantSize", "NUM_GT", ["50"]),
                ],
                rng.choice([0, 0, 1, 2]),
            )
        ]
        segments = rng.sample(range(1, len(SEGMENTS) + 1), 1) if rng.random() < 0.15 else []
        variants = self._variants() if rng.random() < 0.1 else []
        return (
            f"{n:06x}-{env}-{order}",
            feature,
            env,
            name,
            rng.choice(STRATEGY_TITLES),
            int(rng.random() < 0.08),
            order,
            dumps(parameters),
            dumps(constraints),
            dumps(segments),
            dumps(variants),
        )

    def run(self, tokens: Tokens) -> None:
        self.base(tokens)
        if self.size.features == 0:
            self.fresh_install()
            return
        self.people()
        self.structure()
        self.features()
        History(
            self.conn, self.rng, self.now, self.users, self.feature_rows, self.size.events
        ).run()


def populate(conn: sqlite3.Connection, tokens: Tokens, size: str, seed: int, now: datetime) -> None:
    Generator(conn, seed, now, SIZES[size]).run(tokens)
    if size in ("demo", "hostile"):  # after the seeded data, which they leave as is
        add_rollout_examples(conn)
    if SIZES[size].hostile:
        add_hostile_project(conn, now)
