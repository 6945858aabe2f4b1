"""What a skipped test says: why it skipped and how to run it (pytest's -ra lists them)."""

from __future__ import annotations

NO_REAL_UNLEASH = (
    "no real Unleash: start one with `scripts/unleash-oss start`, then "
    '`eval "$(scripts/unleash-oss env)"` (sets UNLEASH_URL and UNLEASH_API_TOKEN)'
)
NO_POSTGRESQL = (
    "no PostgreSQL: set FLAGTUI_TEST_ARCHIVE_PG to a postgresql:// URL that may create databases"
    " (./dev test sets it while `scripts/unleash-oss start` runs, from its PostgreSQL)"
)
OPENAPI_ENV = "FLAGTUI_OPENAPI_REFERENCE"
NO_OPENAPI_REFERENCE = (
    "no Unleash OpenAPI reference: Unleash's published admin OpenAPI document (v7.5.0) is kept"
    " outside the repository, in shared/reference/unleash-openapi-7.5.0.json beside the checkout;"
    f" or set {OPENAPI_ENV} to the file's path"
)
NO_PROMETHEUS = (
    "no Prometheus or Alertmanager: install Debian's (`apt-get install prometheus"
    " prometheus-alertmanager`, as .ci/run does) for promtool, prometheus and"
    " prometheus-alertmanager on PATH"
)
