"""Exit codes, a contract for scripts: each error kind maps to one code, said the same way.

With JSON output an error is one envelope on stderr, `{"error": {kind, status, name, message,
method, path}}`; otherwise one readable line starting with `flagtui:`.

The command line imports this module for its `--help` (the codes): the error types are imported
when an error is classified, so `--help`, `--version` and a usage error never load the client
(httpx, pydantic) or the config.
"""

from __future__ import annotations

import functools
import json
import sys
from typing import Any

from flagtui.api import errors
from flagtui.archive.errors import ArchiveTooNew, ArchiveUnavailable, CollectorBusy
from flagtui.config import ConfigError, Interrupted
from flagtui.display import clean

OK = 0
FAILURES_FOUND = 1
USAGE = 2
AUTH = 3
NOT_FOUND = 4
NOT_SUPPORTED = 5
UNREACHABLE = 6
OUTCOME_UNKNOWN = 7
INCOMPLETE = 8

# Laid out by hand for 80 columns (`--help` prints it as written): lines of at most 78.
EXIT_CODES_HELP = """exit codes:
  0  success
  1  failures found (with --fail-on-failures); groups new, changed or
     recovered (with --report-changes)
  2  usage or configuration: a bad option, a value over a contract limit or
     that JSON cannot carry, a read-only profile asked to write, a destructive
     command without --yes, a request the server refused as invalid (400, 409,
     415), an object another admin changed since the command read it or a
     segment in use asked to be deleted (nothing sent), a second collector of
     one server into one SQLite archive (or `collect --once` into any archive)
  3  authentication or permission (401, 403)
  4  not found (404)
  5  not supported by this server's edition or version
  6  unreachable, timed out, TLS failed, or the server failed (5xx, 429, an
     answer that is not the API's)
  7  a write's outcome is unknown: sent, then no answer that proves it (a
     timeout, a broken connection, a gateway's 502/503/504, a success with an
     unexpected body): re-read before sending it again
  8  the answer is incomplete (with --fail-on-failures, none found; with
     --report-changes, nothing to report): the server, read alone or for an
     archive that is old or never collected it, no longer lists every delivery
     of the window (it keeps only recent ones), or could not be read
  130/143  interrupted (Ctrl-C, SIGTERM)"""


class UsageError(Exception):
    """A command given something it cannot use (a file, a confirmation); exit 2."""


class Refused(Exception):
    """The user did not confirm a destructive command; nothing was sent. Exit 2."""


@functools.cache
def _kinds() -> list[tuple[type[BaseException], str, int]]:
    # Here, not at the top: it loads pydantic
    from flagtui.api.edits import EditConflict
    from flagtui.api.segments import SegmentInUse

    return [
        (EditConflict, "edit-conflict", USAGE),
        (SegmentInUse, "in-use", USAGE),
        (errors.OutcomeUnknown, "outcome-unknown", OUTCOME_UNKNOWN),
        (errors.NotSupported, "not-supported", NOT_SUPPORTED),
        (errors.AuthenticationRequired, "authentication", AUTH),
        (errors.NoAccessError, "permission", AUTH),
        (errors.NotFoundError, "not-found", NOT_FOUND),
        (errors.RequestTimeout, "timeout", UNREACHABLE),
        (errors.TlsError, "tls", UNREACHABLE),
        (errors.Unreachable, "unreachable", UNREACHABLE),
        (errors.RateLimited, "rate-limited", UNREACHABLE),
        (errors.ServerError, "server-error", UNREACHABLE),
        (ArchiveUnavailable, "archive-unavailable", UNREACHABLE),
        (errors.UnexpectedResponse, "unexpected-response", UNREACHABLE),
        (errors.ValidationError, "invalid-request", USAGE),
        (errors.ConflictError, "invalid-request", USAGE),
        (errors.ContentTypeError, "invalid-request", USAGE),
        (errors.InvalidArgument, "invalid-argument", USAGE),
        (errors.ArchivedFlag, "invalid-request", USAGE),
        (errors.LiveFlag, "invalid-request", USAGE),
        (errors.ReadOnlyProfile, "read-only", USAGE),
        (ConfigError, "configuration", USAGE),
        (ArchiveTooNew, "archive-too-new", USAGE),
        (CollectorBusy, "collector-busy", USAGE),
        (UsageError, "usage", USAGE),
        (Refused, "not-confirmed", USAGE),
    ]


def classify(exc: BaseException) -> tuple[str, int]:
    """(kind, exit code) of an error; `NotConnected` is judged by why connecting failed."""
    if isinstance(exc, errors.NotConnected):
        return classify(exc.reason)
    if isinstance(exc, Interrupted):
        return "interrupted", exc.exit_code
    for kind_type, kind, code in _kinds():
        if isinstance(exc, kind_type):
            return kind, code
    if isinstance(exc, errors.ApiError):
        status = exc.status or 0
        return ("invalid-request", USAGE) if 400 <= status < 500 else ("server-error", UNREACHABLE)
    return "internal-error", UNREACHABLE  # a bug of flagtui's: said in one line all the same


def envelope(exc: BaseException) -> dict[str, Any]:
    kind, _ = classify(exc)
    cause = exc.reason if isinstance(exc, errors.NotConnected) else exc
    api = cause if isinstance(cause, errors.ApiError) else None
    message = api.message if api else str(cause)
    if isinstance(cause, errors.InvalidArgument):
        message = f"{cause.field}: {cause.limit}"
    if isinstance(cause, errors.OutcomeUnknown):
        message = f"{message}; {cause.CHECK}"
    return {
        "error": {
            "kind": kind,
            "status": api.status if api else None,
            "name": api.name if api else type(cause).__name__,
            "message": message,
            "method": api.method if api else None,
            "path": api.path if api else None,
        }
    }


def report(exc: BaseException, *, as_json: bool) -> int:
    """Say what failed on stderr, the one way the output format asks for; the exit code."""
    _, code = classify(exc)
    if as_json:
        print(json.dumps(envelope(exc)), file=sys.stderr)
    else:
        print(f"flagtui: {clean(exc)}", file=sys.stderr)
    return code
