"""Deterministic demo data: the same seed and `now` always give the same database.

Sizes: `empty` (tokens and their two users, roles, feature types), `demo` (a few hundred
features, several thousand events, a few thousand integration deliveries), `large` (50,000
features, 200,000 events and their deliveries). `demo` also holds the `hostile` project
(`hostile_data`), whose records carry text that attacks terminals. Everything is inserted
with executemany in one transaction.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flagtui.contract import CHANGE_REQUEST_STATES, LIFECYCLE_STAGES
from flagtui.sandbox.auth import Tokens
from flagtui.sandbox.clock import iso
from flagtui.sandbox.db import dumps
from flagtui.sandbox.feature_types import reevaluate
from flagtui.sandbox.features import search_text
from flagtui.sandbox.hostile_data import add_hostile_project
from flagtui.sandbox.integrations import deliveries as integration_rows
from flagtui.sandbox.integrations import subscriptions

DEMO_NOW = datetime(2025, 6, 2, 12, 0, tzinfo=UTC)
DEMO_SEED = 20250602


@dataclass(frozen=True)
class Size:
    features: int
    events: int


SIZES = {"empty": Size(0, 0), "demo": Size(320, 6000), "large": Size(50_000, 200_000)}

ROLES = [
    (1, "Admin", "root", "Users with the root admin role have superuser access to Unleash."),
    (2, "Editor", "root", "Users with the root editor role can create projects and flags."),
    (3, "Viewer", "root", "Users with the root viewer role can only read root resources."),
    (
        4,
        "Owner",
        "project",
        "Users with the project owner role have full control over the project.",
    ),
    (5, "Member", "project", "Users with the project member role can change flags in the project."),
    (6, "Release Manager", "custom", "Can enable flags in production and approve change requests."),
    (7, "Flag Reviewer", "custom", "Can review and approve change requests."),
    (8, "Auditor", "root-custom", "Read-only access to the event log and integrations."),
]
FEATURE_TYPES = [
    ("release", "Release", "Release feature flags are used to release new features.", 40),
    (
        "experiment",
        "Experiment",
        "Experiment feature flags are used to test and verify multiple"
        " different versions of a feature.",
        40,
    ),
    (
        "operational",
        "Operational",
        "Operational feature flags are used to control aspects of a rollout.",
        7,
    ),
    (
        "kill-switch",
        "Kill switch",
        "Kill switch feature flags are used to quickly turn on or off"
        " critical functionality in your system.",
        None,
    ),
    (
        "permission",
        "Permission",
        "Permission feature flags are used to control permissions in your system.",
        None,
    ),
]
ENVIRONMENTS = [
    ("development", "development", 100),
    ("qa", "test", 150),
    ("staging", "preproduction", 200),
    ("production", "production", 300),
]
PROJECTS = [
    ("default", "Default", "Default project", ["development", "production"], "open"),
    (
        "payments",
        "Payments",
        "Checkout, billing and payment providers",
        ["development", "qa", "staging", "production"],
        "protected",
    ),
    (
        "mobile-app",
        "Mobile app",
        "The iOS and Android apps",
        ["development", "staging", "production"],
        "open",
    ),
    (
        "platform",
        "Platform",
        "Infrastructure, APIs and internal tooling",
        ["development", "staging", "production"],
        "open",
    ),
    (
        "growth",
        "Growth",
        "Onboarding, activation and pricing experiments",
        ["development", "production"],
        "open",
    ),
    (
        "search",
        "Search",
        "Search ranking and discovery",
        ["development", "qa", "production"],
        "private",
    ),
    (
        "data-pipeline",
        "Data pipeline",
        "Ingestion, exports and analytics jobs",
        ["development", "staging", "production"],
        "open",
    ),
]
AREAS = {
    "default": ["web", "admin", "profile", "settings", "notifications"],
    "payments": ["checkout", "payment", "billing", "invoice", "refund", "wallet"],
    "mobile-app": ["mobile", "ios", "android", "push", "offline"],
    "platform": ["api", "cache", "auth", "gateway", "queue", "db"],
    "growth": ["onboarding", "signup", "pricing", "referral", "trial"],
    "search": ["search", "ranking", "autocomplete", "filters"],
    "data-pipeline": ["export", "ingest", "etl", "reporting"],
}
QUALIFIERS = [
    "new",
    "improved",
    "async",
    "smart",
    "instant",
    "beta",
    "v2",
    "redesigned",
    "faster",
    "dark",
    "one-click",
    "guided",
    "bulk",
    "live",
    "lazy",
    "batched",
]
THINGS = [
    "flow",
    "mode",
    "banner",
    "screen",
    "api",
    "cache",
    "retry",
    "pricing",
    "dashboard",
    "layout",
    "sync",
    "rollout",
    "limits",
    "widget",
    "emails",
    "timeout",
    "webhooks",
    "checkout",
    "payment-flow",
    "onboarding",
    "navigation",
]
FIRST = [
    "Ada",
    "Ben",
    "Chloe",
    "David",
    "Elena",
    "Farid",
    "Grace",
    "Hiroshi",
    "Ines",
    "Jonas",
    "Kara",
    "Liam",
    "Maya",
    "Noah",
    "Olga",
    "Pablo",
    "Quinn",
    "Rosa",
    "Sven",
    "Tara",
    "Umar",
    "Vera",
    "Wei",
    "Ximena",
    "Yusuf",
    "Zoe",
    "Amir",
    "Björn",
    "Camille",
    "Dmitri",
    "Emeka",
    "Freya",
    "Gustavo",
    "Hana",
    "Ivan",
    "Julia",
    "Kofi",
    "Lena",
]
LAST = [
    "Lovelace",
    "Okafor",
    "Martin",
    "Nakamura",
    "Rossi",
    "Haddad",
    "Hopper",
    "Tanaka",
    "García",
    "Berg",
    "Novak",
    "Murphy",
    "Patel",
    "Schmidt",
    "Ivanova",
    "Moreno",
    "Quirke",
    "Silva",
    "Larsen",
    "Singh",
    "Farouk",
    "Nowak",
    "Chen",
    "López",
    "Demir",
    "Dubois",
    "Karimi",
    "Andersson",
    "Lefèvre",
    "Petrov",
    "Eze",
    "Johansson",
    "Pereira",
    "Kim",
    "Horvat",
    "Weber",
    "Mensah",
    "Fischer",
]
TAGS = [
    ("simple", "beta"),
    ("simple", "tech-debt"),
    ("simple", "q3-launch"),
    ("team", "checkout"),
    ("team", "core"),
    ("team", "mobile"),
    ("area", "frontend"),
    ("area", "backend"),
    ("simple", "gdpr"),
]
SEGMENTS = [
    ("beta-testers", "Users who opted into beta features", "userId", ["1001", "1002", "1003"]),
    ("internal-staff", "Employees", "email", ["@acme.example"]),
    ("eu-customers", "Customers in the EU", "country", ["DE", "FR", "NL", "SE", "ES"]),
    ("premium-tier", "Paying premium customers", "plan", ["premium", "enterprise"]),
    ("ios-devices", "iOS app users", "platform", ["ios"]),
    ("android-devices", "Android app users", "platform", ["android"]),
]
ADDONS = [
    (
        "webhook",
        "Deploy pipeline notifications",
        True,
        "reliable",
        ["*"],
        {
            "url": "https://ci.acme.example/hooks/unleash?token=6f1c9a2e",
            "contentType": "application/json",
            "authorization": "Bearer ci-4b1d",
        },
    ),
    (
        "webhook",
        "Legacy audit collector (flaky endpoint)",
        True,
        "flaky-endpoint",
        ["*"],
        {
            "url": "https://audit.old.acme.example/ingest?key=93ab77",
            "contentType": "application/json",
        },
    ),
    (
        "slack-app",
        "Release announcements in Slack",
        True,
        "missing-channel",
        ["*"],
        {"accessToken": "xoxb-1234-demo", "defaultChannels": "#feature-flags,#old-release-alerts"},
    ),
    (
        "teams",
        "Payments team channel",
        True,
        "reliable",
        ["payments"],
        {"url": "https://acme.webhook.office.com/webhookb2/7d2e"},
    ),
    (
        "datadog",
        "Datadog events (key revoked)",
        True,
        "revoked-key",
        ["*"],
        {
            "url": "https://api.datadoghq.eu/api/v1/events",
            "apiKey": "dd-revoked-0000",
            "sourceTypeName": "unleash",
        },
    ),
    (
        "new-relic",
        "New Relic change tracking",
        True,
        "rate-limited",
        ["platform", "mobile-app"],
        {
            "url": "https://insights-collector.eu01.nr-data.net/v1/accounts/42/events",
            "licenseKey": "nr-eu01-demo",
        },
    ),
    (
        "slack",
        "Old Slack webhook (disabled)",
        False,
        "reliable",
        ["*"],
        {
            "url": "https://hooks.slack.com/services/T000/B000/XXXX",
            "username": "Unleash",
            "defaultChannel": "#general",
        },
    ),
]
ADDON_EVENTS = {
    "reliable": [
        "feature-created",
        "feature-archived",
        "feature-revived",
        "feature-environment-enabled",
        "feature-environment-disabled",
        "feature-metadata-updated",
        "project-environment-removed",
    ],
    "flaky-endpoint": [
        "feature-created",
        "feature-metadata-updated",
        "feature-strategy-update",
        "feature-stale-on",
        "feature-stale-off",
        "feature-uncompleted",
        "feature-type-updated",
        "project-access-added",
        "change-request-discarded",
    ],
    "missing-channel": [
        "feature-environment-enabled",
        "feature-environment-disabled",
        "feature-archived",
        "feature-completed",
        "feature-uncompleted",
    ],
    "revoked-key": [
        "feature-environment-enabled",
        "feature-environment-disabled",
        "feature-metadata-updated",
    ],
    "rate-limited": [
        "feature-strategy-add",
        "feature-strategy-update",
        "feature-environment-enabled",
    ],
}
STRATEGY_TITLES = ["", "Gradual rollout", "Beta users", "Internal only", "EU launch", "Canary"]
OPERATORS = ["IN", "NOT_IN", "STR_CONTAINS", "STR_STARTS_WITH", "NUM_GT", "SEMVER_GTE"]


def _user_id(rng: random.Random, count: int) -> int:
    return rng.randint(1, count)


class Generator:
    def __init__(self, conn: sqlite3.Connection, seed: int, now: datetime, size: Size) -> None:
        self.conn = conn
        self.rng = random.Random(seed)
        self.now = now
        self.size = size
        self.users: list[tuple[int, str]] = []
        self.events: list[tuple[Any, ...]] = []

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
                "INSERT INTO segments VALUES (?,?,?,?)",
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
        while len(drafts) < self.size.events:
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

    def run(self, tokens: Tokens) -> None:
        self.base(tokens)
        if self.size.features == 0:
            return
        self.people()
        self.structure()
        self.features()
        self.change_requests()
        self.addons()
        self.audit_log()


def populate(conn: sqlite3.Connection, tokens: Tokens, size: str, seed: int, now: datetime) -> None:
    Generator(conn, seed, now, SIZES[size]).run(tokens)
    if size == "demo":  # after the seeded data, which it leaves as is
        add_hostile_project(conn, now)
