"""`flagtui api METHOD PATH`: any route of the profile's server, as `gh api` sends GitHub's,
through the client's one transport (the profile's URL, token, ca_bundle, proxy and timeout).
Fields, headers and the body: cli/api_input.py; printing: cli/api_output.py; paging:
api/raw.py. A method other than GET and HEAD is a write: refused on a read-only profile before
anything is sent, asked on a production one (`--yes`), never retried; its outcome said by its
exit code as every write's. An answer that is not a success is printed too, then said on
stderr with the exit code of its kind (flagtui/cli/exits.py)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from flagtui.cli.api_input import BODYLESS, FieldOption
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")

DESCRIPTION = """\
Send one request to the profile's server and print its answer: JSON indented on a
terminal, as sent when piped; secrets masked. GET and HEAD send fields as query
parameters, other methods as a JSON object body (or, with --input, as query parameters).
-F types a value (true, false, null, integers; @FILE reads a file, @- standard input),
-f keeps it as text; KEY[SUB]=V nests, KEY[]=V makes a list.

--paginate follows Unleash's offset/limit paging: a GET answered with an object holding
one list and a whole-number `total` (search/features, search/events, ...) is asked again
at the next offset, the same limit, until `total` rows are in; with no `total`, a request
that gives a limit (addons/ID/events) is, until a short page. The pages print as one
object: the first page's, its list every page's rows (a row seen twice kept once). Any
other answer is the whole answer."""


class MethodOption(argparse.Action):
    """METHOD, upper case; any but GET and HEAD makes the command a write (refused on a
    read-only profile before any request, asked on a production one)."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.write_action = None if values in BODYLESS else f"send a {values} request"


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, api)
    p.description = DESCRIPTION
    # No ui-config read first, and a --dry-run stops every request (a GET's too): the request
    # shown, or sent, is the one asked for, alone.
    p.set_defaults(connect_first=False, dry_run_stops_reads=True)
    p.add_argument(
        "method", metavar="METHOD", type=str.upper, choices=METHODS, action=MethodOption,
        help=f"one of {', '.join(METHODS)}",
    )  # fmt: skip
    p.add_argument(
        "path", metavar="PATH",
        help="a path on the profile's server: /api/admin/projects, api/admin/... (a query may"
        " follow); a URL of another server is refused",
    )  # fmt: skip
    p.add_argument(
        "-F", "--field", dest="fields", action=FieldOption, const="typed", metavar="KEY=VALUE",
        help="a typed field (true, false, null, integers, @FILE); repeatable",
    )  # fmt: skip
    p.add_argument(
        "-f", "--raw-field", dest="fields", action=FieldOption, const="raw",
        metavar="KEY=VALUE", help="a text field, as typed; repeatable",
    )  # fmt: skip
    p.add_argument(
        "--input", metavar="FILE|-", help="the body, from a file or standard input (-), as it is"
    )
    p.add_argument(
        "-H", "--header", dest="headers", action="append", metavar="'NAME: VALUE'",
        help="a request header (not Authorization: the profile's token is sent); repeatable",
    )  # fmt: skip
    p.add_argument(
        "--paginate", action="store_true",
        help="GET every page of Unleash's offset/limit paging, printed as one object (the rule:"
        " docs/api.md)",
    )  # fmt: skip
    p.add_argument(
        "-i", "--include", action="store_true", help="print the status and headers first"
    )
    p.add_argument("--dry-run", action="store_true", help="print the exact request; send nothing")
    p.add_argument(
        "--yes", action="store_true",
        help="do not ask (a production profile asks before any write); required when not on a"
        " terminal",
    )  # fmt: skip


async def api(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: they load httpx and pydantic
    from flagtui.api.raw import RawRequest, split_path
    from flagtui.api.transport import error_from_response
    from flagtui.cli.api_output import print_answer, print_dry_run
    from flagtui.cli.session import DryRunStop

    request = _request(client, out, args, RawRequest, split_path)

    def waiting(seconds: float, offset: int) -> None:
        said = f"api: the server limits this route (429); waiting {seconds:g} s for offset {offset}"
        print(f"flagtui: {said}", file=sys.stderr, flush=True)

    try:
        answer = await client.raw.pages(request, paginate=args.paginate, waiting=waiting)
    except DryRunStop as stop:
        print_dry_run(out, stop.request)
        return
    print_answer(out, answer, include=args.include)
    if not answer.last.is_success:
        raise error_from_response(request.method, request.path, answer.last, client.profile)


def _request(
    client: AdminClient, out: Printer, args: argparse.Namespace, make: Any, split_path: Any
) -> Any:
    """The request the command line asks for; what cannot be sent is refused naming its
    option, before anything is."""
    from flagtui.api.validation import json_value
    from flagtui.cli.api_input import field_values, headers, json_body, query, read_body

    method = args.method
    if out.format == "csv":
        raise UsageError("-o csv: an answer of any shape prints as JSON (-o json, jsonl, table)")
    if args.paginate and (method != "GET" or args.input):
        raise UsageError("--paginate: GET requests only, without --input")
    if args.input and method in BODYLESS:
        raise UsageError(f"--input: a {method} request sends no body")
    path, params = split_path(client.base_url, args.path)
    values = field_values(args.fields or [])
    sent_headers = headers(args.headers or [])
    body: bytes | None = None
    if args.input is not None:
        body = read_body(args.input)
        params += query(values)
    elif method in BODYLESS:
        params += query(values)
    elif values:
        document = json_value("--field", json_body(values))
        body = json.dumps(document, ensure_ascii=False).encode("utf-8")
    if body is not None and not any(n.lower() == "content-type" for n, _ in sent_headers):
        sent_headers.append(("Content-Type", "application/json"))
    return make(method, path, tuple(params), body, tuple(sent_headers))
