"""Two keys of a flag's detail for the objects around it (issue 46): `#` adds or removes its tags,
`L` makes it depend on a parent flag (or no longer). Each asks what to change in one line,
plans it with the client (what Unleash refuses is refused there first, saying why; what is
already as asked sends nothing), then shows the exact request (and for a dependency, who gets
the flag in each environment before and after, with the SDKs' engine) and asks; a dependency
that changes who gets the flag in a production environment asks for the flag's name typed.

    #   simple:beta team:payments -simple:old    (no colon: the simple type; `-`: remove)
    L   parent-flag          on only where parent-flag is on
        !parent-flag         on only where it is off
        parent-flag:a,b      on only where it gives variant a or b
        (empty)              no dependency
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from flagtui.api.errors import FlagtuiError, NothingToSend
from flagtui.api.models import Feature, Tag
from flagtui.tui.format import clean
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.line_prompt import LinePrompt
from flagtui.tui.widgets.request_text import shown_requests
from flagtui.tui.widgets.share_text import share_line

if TYPE_CHECKING:
    from flagtui.preview import PreviewError
    from flagtui.preview.share import ShareChange

GROUP = "flag-objects"


def _tags(tags: list[Tag] | None) -> str:
    return " ".join(f"{t.type}:{t.value}" for t in tags or []) or "none"


def compact(share: ShareChange | PreviewError) -> str:
    """`1,000 → 0`, or for an environment that stays off `off; once on: 1,000 → 0`."""
    if isinstance(share, ValueError):  # PreviewError is one
        return share_line(share)
    was, will = share.before.when_on, share.after.when_on
    if was is not None and will is not None:
        return f"off (no one now); once on: {was.enabled:,} → {will.enabled:,}"
    return f"{share.before.population.enabled:,} → {share.after.population.enabled:,}"


def parent_of(text: str) -> tuple[str | None, bool, list[str]]:
    """`L`'s line as (parent, enabled, variants); no parent: remove the dependency."""
    text = text.strip()
    if not text:
        return None, True, []
    enabled = not text.startswith("!")
    name, _, variants = text.lstrip("!").partition(":")
    return name.strip(), enabled, [v.strip() for v in variants.split(",") if v.strip()]


class FlagObjectKeys:
    """`#` and `L` on `screen` (a flag's detail); `written()` runs once a change was sent."""

    TAGS, PARENT = "edit_tags", "edit_parent"
    ACTIONS = frozenset({TAGS, PARENT})

    def __init__(self, screen: AreaScreen, written: Callable[[], object]) -> None:
        self.screen = screen
        self.written = written

    @classmethod
    def bindings(cls) -> list[Binding]:
        return [
            Binding("number_sign", cls.TAGS, "Tags", id="detail.tags",
                    tooltip="Add or remove tags (TYPE:VALUE; -TYPE:VALUE removes; the request"
                    " shown first)"),
            Binding("L", cls.PARENT, "Parent", id="detail.parent",
                    tooltip="Depend on a parent flag, or no longer (who gets it, per"
                    " environment, shown first)"),
        ]  # fmt: skip

    def _say(self, text: str, severity: str = "information") -> None:
        self.screen.flagtui.notify(text, severity=severity, timeout=8)  # type: ignore[arg-type]

    def _run(self, work: object) -> None:
        if not self.screen.still_sending(GROUP):
            self.screen.run_worker(work, group=GROUP, exclusive=True, exit_on_error=False)  # type: ignore[arg-type]

    # -- #: tags --

    def tags(self, feature: Feature | None) -> None:
        if feature is None:
            return
        title = f"Tags of {feature.name} (now: {_tags(feature.tags)})"
        hint = "TYPE:VALUE to add, -TYPE:VALUE to remove, space between; no colon: simple"

        def typed(line: str | None) -> None:
            if line and line.strip():
                self._run(self._plan_tags(feature, line.split()))

        self.screen.app.push_screen(LinePrompt(title, hint), typed)

    async def _plan_tags(self, feature: Feature, words: list[str]) -> None:
        # Here, not at the top: the tag parser is the client's
        from flagtui.api.flag_tags import tag

        tags = self.screen.flagtui.client.tags
        try:
            add = [tag(w) for w in words if not w.startswith("-")]
            remove = [tag(w[1:]) for w in words if w.startswith("-")]
            plan = await tags.plan(feature.name, add, remove)
        except NothingToSend as same:
            self._say(f"Nothing sent: {same}", "warning")
            return
        except FlagtuiError as exc:
            self._say(f"Not sent: {exc}", "error")
            return
        body = Text(f"Now: {_tags(plan.before)}\n")
        body.append(f"Adds: {_tags(plan.added)}  Removes: {_tags(plan.removed)}\n")
        body.append_text(shown_requests([plan.write]))

        async def send() -> None:
            now = await tags.send(plan)
            self._say(f"{feature.name}: tags now {_tags(now)}")
            self.written()

        def answered(yes: bool | None) -> None:
            if yes:
                self._run(send())

        modal = ConfirmModal(f"Change the tags of {feature.name}?", body, confirm_label="Send")
        self.screen.app.push_screen(modal, answered)

    # -- L: the parent flag --

    def parent(self, project: str, feature: Feature | None) -> None:
        if feature is None:
            return
        now = ", ".join(d.feature for d in feature.dependencies or []) or "none"
        title = f"Parent flag of {feature.name} (now: {now})"
        hint = "NAME (on where it is on), !NAME (where off), NAME:v1,v2; empty: no parent"

        def typed(line: str | None) -> None:
            if line is not None:
                self._run(self._plan_parent(project, feature, line))

        self.screen.app.push_screen(LinePrompt(title, hint, now if now != "none" else ""), typed)

    async def _plan_parent(self, project: str, feature: Feature, line: str) -> None:
        # Here, not at the top: it loads the SDK engine
        from flagtui.preview.dependency import dependency_shares, with_dependency

        client = self.screen.flagtui.client
        parent, enabled, variants = parent_of(line)
        try:
            if parent is None:
                plan = await client.dependencies.plan_remove(project, feature.name)
            else:
                plan = await client.dependencies.plan_add(
                    project, feature.name, parent, enabled=enabled, variants=variants
                )
            related = [plan.parent] if plan.parent is not None else []
            if plan.replaces is not None and plan.replaces.feature != parent:
                related.append(await client.features.get(project, plan.replaces.feature))
            envs = {e.name: e.type for e in await client.environments.list(project)}
        except NothingToSend as same:
            self._say(f"Nothing sent: {same}", "warning")
            return
        except FlagtuiError as exc:
            self._say(f"Not sent: {exc}", "error")
            return
        after = with_dependency(plan.child, plan.dependency)
        shares = await asyncio.to_thread(
            dependency_shares, plan.child, after, related=related, users=1_000
        )
        body = Text("Who gets it, of 1,000 synthetic userIds (the SDKs' engine):\n", style="bold")
        changed = []
        for env, share in shares.items():
            body.append(f"  {clean(env)}: {compact(share)}\n")
            if isinstance(share, ValueError) or share.before != share.after:
                changed.append(env)
        body.append_text(shown_requests([plan.write]))

        async def send() -> None:
            stored = await client.dependencies.send(plan)
            said = ", ".join(d.feature for d in stored.dependencies or []) or "no flag"
            self._say(f"{feature.name} now depends on {said}")
            self.written()

        def answered(yes: bool | None) -> None:
            if yes:
                self._run(send())

        what = f"{feature.name} depends on {parent}?" if parent else f"{feature.name}: no parent?"
        if any(envs.get(e) == "production" for e in changed):
            modal: ConfirmModal = TypedConfirmModal(what, body, feature.name, confirm_label="Send")
        else:
            modal = ConfirmModal(what, body, confirm_label="Send")
        self.screen.app.push_screen(modal, answered)
