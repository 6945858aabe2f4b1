"""`flagtui playground`: what SDKs answer for a context, evaluated here with their own engine.

Each flag's record (`client.features.get`) and the server's segments go to flagtui.preview,
which feeds yggdrasil-engine (the SDKs' evaluation core) what `/api/client/features` serves:
the answer is an SDK's, for the flags as the server holds them now. Where the server has
`POST /api/admin/playground` (OSS Unleash, the sandbox), its answer for the same context is
shown beside it, `agrees` saying whether the two are the same, and it lists the flags to
evaluate (the environment's, or --project's); a server without it needs --project.
Each answer has the variant's payload (None: none), the server's too.
`--users N` evaluates N synthetic userIds (u-1 … u-N) with the rest of the context instead of
one context: how many get each flag, per variant; where the server has the advanced playground
(`POST /api/admin/playground/advanced`, Unleash 5.2 on, the sandbox) each user's answer is
compared with the server's, in as few requests as its limits allow (`client.playground.users`):
`server` says how many agree and the first that do not, with both answers. A server without it,
or refusing the size, leaves the population local, and says so. One comparison (`_compared`)
judges a single context and each user alike.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from typing import TYPE_CHECKING, Any

from flagtui.api.errors import InvalidArgument, NotFoundError
from flagtui.cli.context_input import context_of, context_option
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer, warn
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature, Segment
    from flagtui.api.playground import PlaygroundFlag
    from flagtui.preview import Evaluation, Preview

COLUMNS = ("project", "name", "enabled", "variant", "server.enabled", "server.variant", "agrees")
POPULATION_COLUMNS = ("project", "name", "users", "enabled", "variants", "server.agree")
MAX_USERS = 1_000_000
READS_AT_ONCE = 8
DISAGREEING_SHOWN = 5
SERVER_REQUESTS = 40  # of the advanced playground: seconds each on a server with many flags


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, playground, columns=COLUMNS)
    p.add_argument("--env", required=True, help="the environment to evaluate in")
    p.add_argument("--project", help="only this project's flags (needed without a playground)")
    p.add_argument("--flag", help="only this flag")
    context_option(p)
    p.add_argument(
        "--users",
        type=int,
        metavar="N",
        help="N synthetic userIds (u-1 … u-N, the rest of the context alike) instead of one"
        " context: how many get each flag, per variant, and how many the server's advanced"
        " playground answers alike (the first that differ, with both answers)",
    )


async def playground(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.preview import Preview, PreviewError

    if args.users is not None and not 1 <= args.users <= MAX_USERS:
        raise UsageError(f"--users: from 1 to {MAX_USERS:,}")
    context = context_of(args.context or [])
    server = await _server_answers(client, args, context)  # also lists the flags
    wanted = await _flags(client, args, server)
    by_user: dict[str, dict[str, PlaygroundFlag]] | None = None
    if args.users:
        by_user = await _server_users(client, out, args, context, server, wanted)
    records = await _records(client, wanted)
    segments = await _segments(client, args.env, records.values())
    rows: list[dict[str, Any]] = []
    for project, name in wanted:
        try:
            record = records[name]
            parents = [records[d.feature] for d in record.dependencies or []]
            preview = Preview(record, args.env, segments=segments, related=parents)
        except PreviewError as exc:
            if args.flag:
                raise UsageError(str(exc)) from None
            rows.append({"project": project, "name": name, "error": str(exc)})
            continue
        if args.users:
            theirs = None if by_user is None else by_user.get(name)
            answer = _population(preview, args.users, context, theirs)
        else:
            answer = _compared(preview.evaluate(context), (server or {}).get(name))
        rows.append({"project": project, "name": name, **answer})
    if args.users:
        out.columns = POPULATION_COLUMNS
    out.many(rows)
    _notes(out, rows, server is not None, by_user is not None)


def _compared(mine: Evaluation, theirs: PlaygroundFlag | None) -> dict[str, Any]:
    """An SDK's answer here beside the server's (None: it gave none), and whether they agree."""
    payload = dict(mine.payload) if mine.payload else None
    row: dict[str, Any] = {"enabled": mine.enabled, "variant": mine.variant, "payload": payload}
    if theirs is None:
        return {**row, "server": None, "agrees": None}
    variant = theirs.variant
    said = {
        "enabled": theirs.is_enabled,
        "variant": variant and variant.name,
        "payload": (variant.payload or None) if variant else None,
    }
    return {**row, "server": said, "agrees": said == row}


def _population(
    preview: Preview,
    users: int,
    context: dict[str, Any],
    theirs: dict[str, PlaygroundFlag] | None,
) -> dict[str, Any]:
    """How the users split here and, given the server's answer per userId, how many of them it
    agrees with and the first it does not."""
    enabled, variants, agree = 0, Counter[str](), 0
    disagreeing: list[dict[str, Any]] = []
    for user, mine in preview.answers(users, context):
        enabled += mine.enabled
        variants[mine.variant] += 1
        if theirs is None:
            continue
        compared = _compared(mine, theirs.get(user))
        if compared["agrees"]:
            agree += 1
        elif len(disagreeing) < DISAGREEING_SHOWN:
            local = {k: compared[k] for k in ("enabled", "variant", "payload")}
            said = {"context": {**context, "userId": user}, "local": local}
            disagreeing.append({**said, "server": compared["server"]})
    row: dict[str, Any] = {
        "users": users,
        "enabled": enabled,
        "variants": dict(sorted(variants.items())),
    }
    if theirs is None:
        return {**row, "server": None, "agrees": None}
    server = {"users": users, "agree": agree, "disagreeing": disagreeing}
    return {**row, "server": server, "agrees": agree == users}


async def _server_answers(
    client: AdminClient, args: argparse.Namespace, context: dict[str, Any]
) -> dict[str, PlaygroundFlag] | None:
    """The server's playground answer per flag name; None where the server has no playground."""
    projects = [args.project] if args.project else None
    try:
        answer = await client.playground.evaluate(args.env, context, projects=projects)
    except NotFoundError:
        return None
    return {f.name: f for f in answer}


async def _server_users(
    client: AdminClient,
    out: Printer,
    args: argparse.Namespace,
    context: dict[str, Any],
    server: dict[str, PlaygroundFlag] | None,
    wanted: list[tuple[str, str]],
) -> dict[str, dict[str, PlaygroundFlag]] | None:
    """The server's answer per flag and userId for u-1 … u-N; None, said, where it gives none.
    It evaluates every flag of the projects asked about for each user: only the wanted flags'
    projects are."""
    from flagtui.api.playground import PlaygroundRefused

    why = None
    if server is None:
        why = "this server has no playground"
    else:
        users = [f"u-{i}" for i in range(1, args.users + 1)]
        projects = sorted({project for project, _ in wanted})
        flags = sum(f.project_id in projects for f in server.values())
        try:
            return await client.playground.users(
                args.env, context, users, flags=flags, projects=projects, at_most=SERVER_REQUESTS
            )
        except NotFoundError:
            why = "this server has no advanced playground (POST /api/admin/playground/advanced)"
        except InvalidArgument as exc:
            why = f"the server's advanced playground cannot take {exc}"
        except PlaygroundRefused as exc:
            why = str(exc)
    warn(out, "local-only", f"evaluated locally only: {why}")
    return None


async def _flags(
    client: AdminClient, args: argparse.Namespace, server: dict[str, PlaygroundFlag] | None
) -> list[tuple[str, str]]:
    """(project, name) of every flag to evaluate, by project and name."""
    if server is not None:
        chosen = sorted((f.project_id, n) for n, f in server.items() if args.flag in (None, n))
        if chosen or not args.flag:
            return chosen
        if not args.project:
            raise UsageError(f"no flag {args.flag!r} is in the server's playground answer")
        return [(args.project, args.flag)]  # the read says why it is not listed
    if not args.project:
        raise UsageError("this server has no playground to list the flags: give --project")
    if args.flag:
        return [(args.project, args.flag)]
    return sorted((args.project, f.name) for f in await client.features.list(args.project))


async def _records(client: AdminClient, wanted: list[tuple[str, str]]) -> dict[str, Feature]:
    """The flags' records, and those of the flags they depend on (in the same project)."""
    gate = asyncio.Semaphore(READS_AT_ONCE)

    async def read(project: str, name: str) -> Feature:
        async with gate:
            return await client.features.get(project, name)

    found = {f.name: f for f in await asyncio.gather(*(read(p, n) for p, n in wanted))}
    parents = {
        (f.project or "default", d.feature)
        for f in found.values()
        for d in f.dependencies or []
        if d.feature not in found
    }
    found.update({f.name: f for f in await asyncio.gather(*(read(p, n) for p, n in parents))})
    return found


async def _segments(client: AdminClient, env: str, records: Any) -> list[Segment]:
    """The server's segments, read only when a strategy in `env` names one."""
    named = any(
        s.segments
        for f in records
        for e in f.environments or []
        if env in (e.name, e.environment)
        for s in e.strategies or []
    )
    if not named:
        return []
    return await client.segments.list()


def _notes(out: Printer, rows: list[dict[str, Any]], compared: bool, population: bool) -> None:
    """Sentences under a table (JSON says the same in its fields)."""
    if population:
        apart = [r for r in rows if r.get("agrees") is False]
        for r in apart:
            first = r["server"]["disagreeing"][0]
            out.note(
                f"{r['name']}: the server disagrees for {r['users'] - r['server']['agree']:,} of"
                f" {r['users']:,} users; {first['context']['userId']} here"
                f" {_said(first['local'])}, the server {_said(first['server'])}"
            )
        if compared and not apart:
            out.note("The server's advanced playground agrees user by user on every flag.")
    elif not compared:
        out.note("This server has no playground (POST /api/admin/playground): local answers only.")
    else:
        differ = [r["name"] for r in rows if r.get("agrees") is False]
        if differ:
            out.note(f"The server's playground disagrees on {len(differ)}: {', '.join(differ)}")
    failed = [r["name"] for r in rows if "error" in r]
    if failed:
        out.note(f"Not evaluated ({len(failed)}): see their error field.")


def _said(answer: dict[str, Any] | None) -> str:
    if answer is None:
        return "no answer"
    said = "on" if answer["enabled"] else "off"
    if answer["variant"] not in (None, "disabled"):
        said += f", variant {answer['variant']}"
    return said
