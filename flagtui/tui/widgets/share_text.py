"""Who gets a flag before and after a change, as every question before such a write says it:
the flag read again (with its parents and the segments its strategies name), the change
applied as the server will store it (`flagtui.preview.share`), then the SDKs' engine for
10,000 synthetic userIds, off the UI loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from flagtui.api.errors import FlagtuiError
from flagtui.tui.format import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature, Segment, Strategy
    from flagtui.preview import PreviewError
    from flagtui.preview.engine import Population
    from flagtui.preview.share import ShareChange

NO_VARIANT = "disabled"  # the engine's name for "no variant"

After = Callable[["Feature"], dict[str, Any]]


async def share_of(
    client: AdminClient,
    project: str,
    name: str,
    environment: str,
    after: After,
    *,
    users: int | None = None,
) -> ShareChange | PreviewError:
    """`after(flag)`: the flag's record once the change is stored, from the flag read now."""
    # here: the SDKs' engine loads with the first preview, not with every screen that may ask
    from flagtui.preview import PreviewError
    from flagtui.preview.share import USERS, share_change

    client_features = client.features
    flag = await client_features.get(project, name)
    related = await asyncio.gather(
        *(client_features.get(project, d.feature) for d in flag.dependencies or [])
    )
    try:
        proposed = after(flag)
    except PreviewError as exc:
        return exc
    named = any(
        s.get("segments")
        for record in (flag.model_dump(by_alias=True), proposed)
        for e in record.get("environments") or []
        if e.get("name") == environment
        for s in e.get("strategies") or []
    )
    segments = await client.segments.list() if named else []
    try:
        return await asyncio.to_thread(
            share_change, flag, proposed, environment,
            segments=segments, related=related, users=users or USERS,
        )  # fmt: skip
    except PreviewError as exc:
        return exc


Defaults = Mapping[str, "Strategy | None"] | str
"""Per environment of a project, the strategy a switch-on adds (None: Unleash's own), or why
they could not be read (a switch-on's count is then not available)."""


async def switch_defaults(client: AdminClient, project: str) -> Defaults:
    """The project's default strategy of each environment: one request."""
    try:
        envs = await client.environments.list(project)
    except FlagtuiError as exc:
        return f"the project's default strategy could not be read: {exc}"
    return {e.name: e.default_strategy for e in envs}


def switched_with(flag: Feature, environment: str, enabled: bool, defaults: Defaults) -> Any:
    """`switched`, with the project's default strategy; a switch-on whose default could not be
    read raises PreviewError (said as not available), not a guess."""
    from flagtui.preview import PreviewError
    from flagtui.preview.share import switched

    if isinstance(defaults, str):
        if enabled:
            raise PreviewError(defaults)
        return switched(flag, environment, enabled)
    return switched(flag, environment, enabled, defaults.get(environment))


async def switch_shares(
    flag: Feature,
    segments: Sequence[Segment],
    related: Sequence[Feature],
    defaults: Defaults,
) -> dict[str, ShareChange | PreviewError]:
    """Per environment, who gets the flag now and once `t` switches it, from the record shown
    and the project's default strategies (`switch_defaults`): 1,000 synthetic userIds each,
    off the UI loop (a few ms per environment)."""
    # here: the SDKs' engine loads with the first preview, not with every screen that may ask
    from flagtui.preview import PreviewError
    from flagtui.preview.share import PLAN_USERS, share_change

    def one(env: str, enabled: bool) -> ShareChange | PreviewError:
        try:
            after = switched_with(flag, env, not enabled, defaults)
            return share_change(flag, after, env, segments=segments, related=related,
                                users=PLAN_USERS)  # fmt: skip
        except PreviewError as exc:
            return exc

    def every() -> dict[str, ShareChange | PreviewError]:
        return {e.name: one(e.name, bool(e.enabled)) for e in flag.environments or []}

    return await asyncio.to_thread(every)


def _of(p: Population) -> str:
    return f"{p.enabled:,} of {p.users:,} synthetic userIds"


def switch_line(share: ShareChange | PreviewError) -> str:
    """What `t` would do, for a flag's detail: `off · if switched on (t): 312 of 1,000
    synthetic userIds`, or `on for 312 of 1,000 synthetic userIds · if switched off (t): no
    one`."""
    if isinstance(share, ValueError):  # PreviewError is one
        return f"who gets it if switched (t): not available: {clean(str(share))}"
    before, after = share.before.population, share.after.population
    if share.before.enabled:
        left = _of(after) if after.enabled else "no one"
        return f"on for {_of(before)} · if switched off (t): {left}"
    return f"off · if switched on (t): {_of(after)}"


def switch_numbers(share: ShareChange | PreviewError | None) -> str:
    """`1,000 → 0 of 1,000` (synthetic userIds), as a switch's picker and toast say what its
    preview counted (`""` when none was made)."""
    if share is None or isinstance(share, ValueError):  # PreviewError is one
        return ""
    before, after = share.before.population, share.after.population
    return f"{before.enabled:,} → {after.enabled:,} of {share.users:,}"


def _share(p: Population) -> str:
    return f"{p.enabled:,} ({p.enabled / p.users:.1%})" if p.users else "0"


def _split(p: Population) -> str:
    named = sorted((clean(n), k) for n, k in p.variants.items() if n != NO_VARIANT)
    return ", ".join(f"{n} {k:,}" for n, k in named) or "none"


def share_line(share: ShareChange | PreviewError) -> str:
    """One line: `1,002 (10.0 %) → 0 (0.0 %) of 10,000`; an environment that stays off adds
    what it will be once switched on."""
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.preview import PreviewError  # loaded already: a preview was made

    if isinstance(share, PreviewError):
        return f"not available: {clean(str(share))}"
    before, after = share.before, share.after
    said = f"{_share(before.population)} → {_share(after.population)} of {share.users:,}"
    if before.when_on is not None and after.when_on is not None:
        said += (
            f"; {clean(share.environment)} is off: no one now, and once switched on"
            f" {_share(before.when_on)} → {_share(after.when_on)}"
        )
    return said


def share_text(share: ShareChange | PreviewError) -> Text:
    """The question's paragraph: who gets the flag, before → after, per variant where any."""
    out = Text("Who gets it ", style="bold")
    out.append("(the SDKs' engine, synthetic userIds u-1…): ", style="bold")
    out.append(share_line(share) + "\n")
    if not isinstance(share, ValueError):  # PreviewError is one
        sides = (share.before.population, share.after.population)
        if {n for p in sides for n in p.variants} - {NO_VARIANT}:
            out.append(f"  per variant: {_split(sides[0])} → {_split(sides[1])}\n")
    return out
