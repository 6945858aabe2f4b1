"""The contract's fixed lists and limits (spec/admin-api.md), defined once.

The admin client, the TUI and the sandbox all read them from here; this module imports
nothing of flagtui, so the sandbox (which stands alone) may import it.
"""

from __future__ import annotations

import re
from typing import Literal, get_args

# Section Events, in the contract's order: case-sensitive and exact. The event log completes
# its type filter from this list; the sandbox refuses other types with a 400.
EVENT_TYPES: tuple[str, ...] = (
    "application-created",
    "feature-created",
    "feature-deleted",
    "feature-updated",
    "feature-metadata-updated",
    "feature-variants-updated",
    "feature-environment-variants-updated",
    "feature-project-change",
    "feature-archived",
    "feature-revived",
    "feature-import",
    "feature-tagged",
    "feature-tag-import",
    "feature-strategy-update",
    "feature-strategy-add",
    "feature-strategy-remove",
    "feature-type-updated",
    "feature-completed",
    "feature-uncompleted",
    "strategy-order-changed",
    "drop-feature-tags",
    "feature-untagged",
    "feature-stale-on",
    "feature-stale-off",
    "drop-features",
    "feature-environment-enabled",
    "feature-environment-disabled",
    "strategy-created",
    "strategy-deleted",
    "strategy-deprecated",
    "strategy-reactivated",
    "strategy-updated",
    "strategy-import",
    "drop-strategies",
    "context-field-created",
    "context-field-updated",
    "context-field-deleted",
    "project-access-added",
    "project-access-user-roles-updated",
    "project-access-group-roles-updated",
    "project-access-user-roles-deleted",
    "project-access-group-roles-deleted",
    "project-access-updated",
    "project-created",
    "project-updated",
    "project-deleted",
    "project-archived",
    "project-revived",
    "project-import",
    "project-user-added",
    "project-user-removed",
    "project-user-role-changed",
    "project-group-role-changed",
    "project-group-added",
    "project-group-removed",
    "role-created",
    "role-updated",
    "role-deleted",
    "drop-projects",
    "tag-created",
    "tag-deleted",
    "tag-import",
    "drop-tags",
    "tag-type-created",
    "tag-type-deleted",
    "tag-type-updated",
    "tag-type-import",
    "drop-tag-types",
    "addon-config-created",
    "addon-config-updated",
    "addon-config-deleted",
    "db-pool-update",
    "user-created",
    "user-updated",
    "user-deleted",
    "drop-environments",
    "environment-import",
    "environment-created",
    "environment-updated",
    "environment-deleted",
    "segment-created",
    "segment-updated",
    "segment-deleted",
    "group-created",
    "group-updated",
    "group-deleted",
    "group-user-added",
    "group-user-removed",
    "setting-created",
    "setting-updated",
    "setting-deleted",
    "client-metrics",
    "client-register",
    "pat-created",
    "pat-deleted",
    "public-signup-token-created",
    "public-signup-token-user-added",
    "public-signup-token-updated",
    "change-request-created",
    "change-request-discarded",
    "change-added",
    "change-discarded",
    "change-edited",
    "change-request-rejected",
    "change-request-approved",
    "change-request-approval-added",
    "change-request-cancelled",
    "change-request-sent-to-review",
    "change-request-schedule-suspended",
    "change-request-applied",
    "change-request-scheduled",
    "change-request-scheduled-application-success",
    "change-request-scheduled-application-failure",
    "change-request-configuration-updated",
    "api-token-created",
    "api-token-updated",
    "api-token-deleted",
    "feature-favorited",
    "feature-unfavorited",
    "project-favorited",
    "project-unfavorited",
    "features-exported",
    "features-imported",
    "service-account-created",
    "service-account-deleted",
    "service-account-updated",
    "feature-potentially-stale-on",
    "feature-dependency-added",
    "feature-dependency-removed",
    "feature-dependencies-removed",
    "banner-created",
    "banner-updated",
    "banner-deleted",
    "project-environment-added",
    "project-environment-removed",
    "default-strategy-updated",
    "segment-import",
    "signal-endpoint-created",
    "signal-endpoint-updated",
    "signal-endpoint-deleted",
    "signal-endpoint-token-created",
    "signal-endpoint-token-updated",
    "signal-endpoint-token-deleted",
    "actions-created",
    "actions-updated",
    "actions-deleted",
)

# JSON Patch (RFC 6902) operations a feature PATCH accepts; `test` is not among them.
PatchOp = Literal["add", "remove", "replace", "copy", "move"]
PATCH_OPS: tuple[str, ...] = get_args(PatchOp)
# Ops that need a `value`, and ops that need a `from` pointer.
PATCH_OPS_WITH_VALUE: tuple[str, ...] = ("add", "replace")
PATCH_OPS_WITH_FROM: tuple[str, ...] = ("copy", "move")

# A feature's lifecycle stages in the order a feature passes them (the contract leaves the
# values unshown; these are real Unleash's).
LIFECYCLE_STAGES: tuple[str, ...] = ("initial", "pre-live", "live", "completed", "archived")

# Change-request states (real Unleash Enterprise's).
CHANGE_REQUEST_STATES: tuple[str, ...] = (
    "Draft",
    "In review",
    "Approved",
    "Applied",
    "Cancelled",
    "Rejected",
    "Scheduled",
)

# Limits (section Limits).
INT32_MAX = 2_147_483_647  # the largest id, offset or lifetime the server stores
MAX_LIFETIME_DAYS = INT32_MAX  # null or 0 means never potentially stale
MIN_USER_QUERY = 2  # characters a user search needs
EVENT_SEARCH_MAX = 100  # event search: limit 1..100, default 100
PAGE_DEFAULT = 50  # browse lists and integration events: default page size
PAGE_MAX = 100  # above it (or 0), the page size falls back to the default

# Strategies and variants (real Unleash 8.2's rules; the contract leaves them unshown).
# Constraint operators by the kind of value they compare. String operators take `values`
# (at least one); the others take one `value`. REGEX cannot be inverted.
STRING_OPERATORS: tuple[str, ...] = (
    "IN",
    "NOT_IN",
    "STR_CONTAINS",
    "STR_STARTS_WITH",
    "STR_ENDS_WITH",
)
NUM_OPERATORS: tuple[str, ...] = ("NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE")
DATE_OPERATORS: tuple[str, ...] = ("DATE_AFTER", "DATE_BEFORE")
# SEMVER_GTE/LTE are new in 8.x (6.10.1 and 7.5.1 refuse them); so is REGEX (7.x on).
SEMVER_OPERATORS: tuple[str, ...] = (
    "SEMVER_EQ",
    "SEMVER_GT",
    "SEMVER_LT",
    "SEMVER_GTE",
    "SEMVER_LTE",
)
REGEX_OPERATOR = "REGEX"
CONSTRAINT_OPERATORS: tuple[str, ...] = (
    *STRING_OPERATORS,
    *NUM_OPERATORS,
    *DATE_OPERATORS,
    *SEMVER_OPERATORS,
    REGEX_OPERATOR,
)
CONSTRAINT_VALUE_MAX = 100  # characters of one entry of a constraint's `values`
NAME_MAX = 100  # flag and variant names: 1..100 URL-friendly characters
# What JavaScript's encodeURIComponent leaves as it is: Unleash's "URL-friendly" names.
URL_FRIENDLY = r"[A-Za-z0-9\-_.!~*'()]+"


def is_flag_name(value: str) -> bool:
    """A flag's (or a variant's) name as Unleash takes it: 1 to NAME_MAX URL-friendly
    characters, not `.` or `..`."""
    fits = 1 <= len(value) <= NAME_MAX and re.fullmatch(URL_FRIENDLY, value) is not None
    return fits and value not in (".", "..")


# A tag's type and value, and a tag type's name: 2..50 characters (Unleash's tagSchema and
# tagTypeSchema, 6.10.1 to 8.2.0); a tag type's name is URL-friendly too.
TAG_MIN, TAG_MAX = 2, 50


def is_tag_type_name(value: str) -> bool:
    return TAG_MIN <= len(value) <= TAG_MAX and re.fullmatch(URL_FRIENDLY, value) is not None


VARIANT_WEIGHT_TOTAL = 1000  # variant weights add up to this (variable ones share the rest)
VARIANT_WEIGHT_TYPES: tuple[str, ...] = ("variable", "fix")
VARIANT_PAYLOAD_TYPES: tuple[str, ...] = ("json", "csv", "string", "number")
# The order Unleash stores a flag's variants in (`fixVariantWeights` sorts them with JavaScript's
# `localeCompare`, ICU's root collation): on the URL-friendly characters a name may hold, the
# characters compare case-blind in this order first, then at the first difference of case the
# lowercase one comes first (`a` < `A` < `a_b` < `ab` < `aB` < `Ab` < `b`). Checked on 6.10.1,
# 7.5.1 and 8.2.0 by tests/conformance/intent/test_intent_stored_variants_on_real_unleash.py.
VARIANT_NAME_ORDER = "_-!.'()*~0123456789abcdefghijklmnopqrstuvwxyz"
_NAME_RANK = {c: i for i, c in enumerate(VARIANT_NAME_ORDER)}


def variant_order(name: str) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The sort key of a variant `name` in the order Unleash stores variants."""
    rank = len(_NAME_RANK)  # a character no name may hold: after the others, by code point
    primary = tuple(_NAME_RANK.get(c.lower(), rank + ord(c)) for c in name)
    return primary, tuple(c.isupper() for c in name)


# Real Unleash's default resource limits (UNLEASH_*_LIMIT): strategies in one environment of a
# flag, constraints in one strategy, values in one constraint.
STRATEGIES_PER_ENVIRONMENT_MAX = 30
CONSTRAINTS_MAX = 30
CONSTRAINT_VALUES_MAX = 250

# Context fields (real Unleash 6.10.1, 7.5.1 and 8.2.0 alike): a name as a flag's (`is_flag_name`),
# a description of at most 250 characters, legal values of 1 to 100 characters, each once.
CONTEXT_DESCRIPTION_MAX = 250
LEGAL_VALUE_MAX = 100
# Segments (real Unleash OSS's defaults, 6.10.1 to 8.2.0): how many a server keeps, how many
# values all of one segment's constraints hold together.
SEGMENTS_MAX = 300
SEGMENT_VALUES_MAX = 1000
