"""Data: the fixed tables the demo generator (`demo_data`, `demo_history`) draws from.

Roles, feature types, environments, projects, name parts, people, tags, segments and
integrations, and the sizes a database can be generated at. Changing any of them changes
every generated database.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Size:
    features: int
    events: int
    hostile: bool = False  # adds the `hostile` project (`hostile_data`)


# `demo` is what a newcomer sees first: realistic data only. `hostile` is the same data plus
# the project whose text attacks terminals, for the tests and `--size hostile`.
SIZES = {
    "empty": Size(0, 0),
    "demo": Size(320, 6000),
    "hostile": Size(320, 6000, hostile=True),
    "large": Size(50_000, 200_000),
}

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
