"""What a strategy change does, before it is sent: the flag as it is and as it would be, in one
environment, evaluated with the SDKs' own engine (flagtui.preview) for the context the admin
typed and for 10,000 synthetic userIds. The proposed flag is a copy of the record read before
the form opened, with the strategy added or replaced (disabled ones are left out, as SDKs
never see them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from flagtui.api.client import AdminClient
from flagtui.api.errors import FlagtuiError, InvalidArgument, NotFoundError
from flagtui.api.models import Feature, Segment, Strategy
from flagtui.api.playground import PlaygroundFlag
from flagtui.api.rollout_requests import strategy_body
from flagtui.preview import (
    Change,
    Evaluation,
    Population,
    Preview,
    PreviewError,
    Record,
    before_after,
    with_strategy,
)
from flagtui.preview.client_shape import environment_of, plain
from flagtui.preview.share import switched
from flagtui.tui.format import clean
from flagtui.tui.screens.base import describe_error
from flagtui.typed_context import typed_context

USERS = 10_000
APP_NAME = "flagtui-preview"  # the server's playground needs one; appName=… in the context sets it
NO_VARIANT = "disabled"  # the engine's name for "no variant" (off, or a flag without variants)


def contexts_of(user_ids: str, more: str) -> list[dict[str, Any]]:
    """The contexts the admin typed: one per userId (comma-separated; none: one without),
    each with the `KEY=VALUE` pairs (space-separated) of `more`."""
    base = {"appName": APP_NAME, **context_of(more)}
    ids = [u.strip() for u in user_ids.split(",") if u.strip()]
    return [{**base, "userId": u} for u in ids] or [base]


def context_of(more: str) -> dict[str, Any]:
    """`KEY=VALUE` pairs; a key that is no standard field is a property, as SDKs send it."""
    try:
        return typed_context(more.split())
    except ValueError as exc:
        raise InvalidArgument("context", str(exc)) from None


def proposed(feature: Feature, environment: str, strategy: Strategy) -> dict[str, Any]:
    """`feature` as Unleash will store it with `strategy` (as sent) in `environment`: replacing
    the one of its id, or added last (flagtui.preview.with_strategy)."""
    return with_strategy(feature, environment, strategy_body(strategy) | {"id": strategy.id})


@dataclass(frozen=True)
class Outlook:
    """The preview of one change: the typed context before/after, and the population."""

    changes: Sequence[tuple[Mapping[str, Any], Change]]
    before: Population
    after: Population
    # in an environment that is off (before and after): the population once it is switched on
    when_on: tuple[Population, Population] | None = None


def outlook(
    before: Feature,
    after: Record,
    environment: str,
    contexts: Sequence[Mapping[str, Any]],
    segments: Sequence[Segment],
    related: Sequence[Feature],
) -> Outlook:
    """CPU work (a population is ~0.3 s): run it off the UI thread. Raises PreviewError.
    The population has the typed context, each synthetic user its own userId."""
    changes = [
        (c, before_after(before, after, environment, c, segments=segments, related=related))
        for c in contexts
    ]
    sides = [Preview(f, environment, segments=segments, related=related) for f in (before, after)]
    typed = contexts[0] if contexts else None  # the contexts differ only in their userIds
    was, will = (side.population(USERS, typed) for side in sides)
    if any(environment_of(plain(f), environment).get("enabled") for f in (before, after)):
        return Outlook(changes, was, will)
    on = [
        Preview(switched(f, environment, True), environment, segments=segments, related=related)
        for f in (before, after)
    ]
    when_on = on[0].population(USERS, typed), on[1].population(USERS, typed)
    return Outlook(changes, was, will, when_on)


def _asked(context: Mapping[str, Any]) -> str:
    shown = {k: v for k, v in context.items() if (k, v) != ("appName", APP_NAME)}
    said = [f"{k}={v}" for k, v in shown.items() if k != "properties"]
    said += [f"{k}={v}" for k, v in (context.get("properties") or {}).items()]
    return " ".join(said) or "(empty context)"


def _said(e: Evaluation) -> str:
    state = "on" if e.enabled else "off"
    if e.variant == NO_VARIANT:
        return state
    payload = e.payload or {}
    typed = f", payload {clean(payload.get('type', ''))} {clean(payload.get('value', ''))}"
    return f"{state}, variant {clean(e.variant)}{typed if payload else ''}"


def _share(p: Population) -> str:
    return f"{p.enabled:,} of {p.users:,} ({p.share:.1%})"


def _split(p: Population) -> str:
    named = sorted((clean(name), n) for name, n in p.variants.items() if name != NO_VARIANT)
    if p.variants.get(NO_VARIANT):
        named.append(("no variant", p.variants[NO_VARIANT]))
    counts = ", ".join(f"{name} {n:,}" for name, n in named)
    return counts or "none"


def server_note(flag: PlaygroundFlag | None, local: Evaluation) -> str:
    """The server's playground answer for the flag as it is now, against the engine's."""
    if flag is None:
        return "the server's playground did not list the flag"
    given = flag.variant if flag.variant and flag.variant.enabled else None
    theirs = Evaluation(flag.is_enabled, given.name if given else NO_VARIANT,
                        payload=given.payload if given else None)  # fmt: skip
    verdict = "agrees" if _said(theirs) == _said(local) else "DISAGREES with the engine's before"
    return f"server's playground now: {_said(theirs)} ({verdict})"


def outlook_text(o: Outlook | PreviewError, environment: str, server: Sequence[str] = ()) -> Text:
    """The preview as the review shows it, above the request; `server`: a note per context
    (the server's playground for the flag as it is), or one note saying why there is none."""
    out = Text(f"Preview in {environment} (the SDKs' engine, before → after):\n", style="bold")
    if isinstance(o, PreviewError):
        out.append(f"  not available: {o}\n", style="yellow")
        return out
    per_context = len(server) == len(o.changes)
    for i, (context, change) in enumerate(o.changes):
        mark = "  (changes)" if change.changed else ""
        out.append(f"  {_asked(context)}: {_said(change.before)} → {_said(change.after)}{mark}\n")
        if per_context:
            out.append(f"    {server[i]}\n", style="dim")
    out.append(f"  {USERS:,} synthetic userIds on: {_share(o.before)} → {_share(o.after)}\n")
    if o.when_on is not None:
        was, will = o.when_on
        out.append(f"  {clean(environment)} is off: this changes no one now; once it is switched"
                   f" on: {_share(was)} → {_share(will)}\n", style="bold")  # fmt: skip
    if {*o.before.variants, *o.after.variants} - {NO_VARIANT}:
        out.append(f"  per variant: {_split(o.before)} → {_split(o.after)}\n")
    if server and not per_context:
        out.append(f"  {server[0]}\n", style="dim")
    return out


async def server_notes(
    client: AdminClient, project: str, environment: str, feature: str, seen: Outlook
) -> list[str]:
    """The server's own playground (OSS Unleash, the sandbox) for each context, on the flag as
    it is now; none where the server has no playground."""
    notes = []
    for context, change in seen.changes:
        try:
            answer = await client.playground.evaluate(
                environment, dict(context), projects=[project]
            )
        except NotFoundError:
            return []
        except FlagtuiError as exc:  # the preview stands without it: said, not fatal
            return [f"the server's playground failed: {describe_error(exc)}"]
        flag = next((f for f in answer if f.name == feature), None)
        notes.append(server_note(flag, change.before))
    return notes
