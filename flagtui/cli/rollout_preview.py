"""What a write that changes who gets a flag previews before it is sent (flagtui.preview.share,
the SDKs' engine): the flag as read just before and as the server will store the change, for
10,000 synthetic userIds with the `--context` typed (as `flagtui playground --context` reads
it). Said as a sentence on a terminal (and in the production question), and as `preview` in
JSON: the write's answer and its `--dry-run` alike, numbers a script can compare."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from flagtui.cli.context_input import context_of, context_option
from flagtui.cli.output import Printer
from flagtui.cli.session import DryRunStop
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature
    from flagtui.preview.share import ShareChange

    T = TypeVar("T")

CONTEXT_HELP = (
    "the context of the preview's 10,000 synthetic userIds (repeatable): a standard field"
    " (sessionId, remoteAddress, currentTime, appName) or any other (a property)"
)


def preview_options(p: argparse.ArgumentParser) -> None:
    context_option(p, CONTEXT_HELP)


class Said:
    """A preview as the command says it: `preview` in JSON, a sentence for a person."""

    def __init__(self, json: dict[str, Any], sentence: str) -> None:
        self.json, self.sentence = json, sentence


async def previewed(
    client: AdminClient,
    out: Printer,
    args: argparse.Namespace,
    after: Callable[[Feature], dict[str, Any]],
    name: str | None = None,
) -> Said:
    """The flag (`name`, default the command's NAME) as it is now, its parents and segments;
    `after(flag)`: its record once the change is stored. Said on a terminal before anything
    is sent. A flag the engine cannot read is said too (`{"error": …}`), and does not stop
    the write. A bad --context is a UsageError."""
    said = await preview_of(client, args, after, name or args.name)
    tell(out, f"preview: {said.sentence}")
    return said


async def preview_of(
    client: AdminClient,
    args: argparse.Namespace,
    after: Callable[[Feature], dict[str, Any]],
    name: str,
    users: int | None = None,
) -> Said:
    """`previewed`, unsaid: for `users` synthetic userIds (default 10,000)."""
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.preview import PreviewError
    from flagtui.preview.share import USERS, share_change

    context = context_of(args.context or [], "the command's ENV")
    flag = await client.features.get(args.project, name)
    related = await asyncio.gather(
        *(client.features.get(args.project, d.feature) for d in flag.dependencies or [])
    )
    try:
        proposed = after(flag)
        segments = await client.segments.list() if _names_segments(flag, proposed, args) else []
        share = share_change(
            flag, proposed, args.environment, context,
            segments=segments, related=related, users=users or USERS,
        )  # fmt: skip
    except PreviewError as exc:
        said = Said({"error": str(exc), "context": context}, f"not available ({exc})")
    else:
        said = Said(share.as_json(), sentence(share))
    return said


def tell(out: Printer, line: str) -> None:
    """Before the write and its question: to a person reading a table (stdout), or on the
    terminal beside JSON output (stderr), so a production question follows the numbers."""
    out.note(line)
    if out.is_json and sys.stderr.isatty():
        print(clean(line), file=sys.stderr, flush=True)


def _names_segments(flag: Feature, proposed: dict[str, Any], args: argparse.Namespace) -> bool:
    read = [e.model_dump(by_alias=True) for e in flag.environments or []]
    envs = [*read, *(proposed.get("environments") or [])]
    return any(
        s.get("segments")
        for e in envs
        if args.environment in (e.get("name"), e.get("environment"))
        for s in e.get("strategies") or []
    )


def sentence(share: ShareChange) -> str:
    """`1,002 → 5,013 of 10,000 synthetic userIds get the flag in production (per variant: …)`,
    and, in an environment that stays off, what it will be once switched on."""
    seen = share.as_json()
    said = f"{seen['before']:,} → {seen['after']:,} of {seen['users']:,} synthetic userIds get" \
        f" the flag in {share.environment}{_variants(seen)}"  # fmt: skip
    on = seen.get("whenSwitchedOn")
    if on is not None:
        said += (
            f"; {share.environment} is off, so this changes no one now; once it is switched on:"
            f" {on['before']:,} → {on['after']:,}{_variants(on)}"
        )
    return said


def _variants(seen: dict[str, Any]) -> str:
    split = seen.get("variants")
    if not split:
        return ""

    def shown(counts: dict[str, int]) -> str:
        return ", ".join(f"{name} {n:,}" for name, n in counts.items()) or "none"

    return f" (per variant: {shown(split['before'])} → {shown(split['after'])})"


def previewed_json(out: Printer, said: Said | None) -> dict[str, Any]:
    """`{"preview": …}` for a JSON answer (a table has said it as a sentence already)."""
    return {"preview": said.json} if said is not None and out.is_json else {}


async def sent(write: Awaitable[T], said: Said) -> T:
    """The write; under --dry-run, the request it stops carries the preview too."""
    try:
        return await write
    except DryRunStop as stop:
        stop.shown["preview"] = said.json
        raise
