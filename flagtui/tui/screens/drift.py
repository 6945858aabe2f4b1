"""The drift view: what differs between two servers (two profiles of the config) or between
two environments of this server: flags on one side only, their type, and per environment the
enabled state, the strategies (rollout %, constraints, segments) and the variants. Compared by
`flagtui.fleet.drift`, as `flagtui diff` does; strategies and variants in the detail's words."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input

from flagtui.config import load_config
from flagtui.fleet.drift import Reading, compare, words
from flagtui.tui.format import clean, counted, moment
from flagtui.tui.profile_switch import open_profile
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.drift_promotion import DriftPromotion
from flagtui.tui.screens.promote_form import Sides
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.table import Column, FilteredTable, ResourceTable
from flagtui.tui.widgets.text import PlainStatic

if TYPE_CHECKING:
    from flagtui.api import AdminClient

HINT = "Two profiles (servers), or two environments of this server; Enter compares."
SAID = {"present": {True: "present", False: "absent"}, "enabled": {True: "on", False: "off"}}


def said(what: str, value: object) -> str:
    """A side's value as a person reads it: on/off, present/absent, rules in words."""
    kind = what.split()[0]
    if kind in SAID and isinstance(value, bool):
        return SAID[kind][value]
    return str(words(value))


def both_said(what: str, mine: object, theirs: object) -> tuple[str, str]:
    """Strategies and variants: each side's own, the ones both have left out (a row has room
    for what differs, not for every rule); the same ones in another order say so."""
    if not (isinstance(mine, list) and isinstance(theirs, list)):
        return said(what, mine), said(what, theirs)
    own = [s for s in mine if s not in theirs]
    other = [s for s in theirs if s not in mine]
    if not own and not other:
        return "same, in this order", "same, in another order"
    return (said(what, own) if own else "—"), (said(what, other) if other else "—")


def columns(left: str, right: str) -> list[Column]:
    return [
        Column("project", "Project", max=16),
        Column("flag", "Flag", max=40, middle=True),
        Column("what", "What", max=26),
        Column("left", clean(left)[:24], max=60),
        Column("right", clean(right)[:24], flex=True),
    ]


class DriftScreen(AreaScreen):
    AREA = "features"
    DEFAULT_CSS = """
    DriftScreen #drift-sides { height: auto; }
    DriftScreen #drift-sides Input { width: 1fr; margin-right: 1; }
    """
    status_line = getters.query_one("#drift-status", PlainStatic)
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="drift.back", tooltip="Back"),
        Binding("r", "reload", "Reload", id="drift.reload",
                tooltip="Read both sides again and compare"),
        *DriftPromotion.BINDINGS,
    ]  # fmt: skip

    def __init__(self, project: str | None) -> None:
        super().__init__()
        self.project = project
        self.promotion = DriftPromotion(self, self.compare_again)

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="drift-sides"):
            yield InertInput(placeholder="profile or environment", id="drift-a", compact=True)
            yield InertInput(placeholder="profile or environment", id="drift-b", compact=True)
            yield InertInput(self.project or "", placeholder="project (empty: all)",
                        id="drift-project", compact=True)  # fmt: skip
        yield PlainStatic(HINT, id="drift-status", classes="status-line")
        yield FilteredTable(ResourceTable(columns("A", "B"), id="drift"))

    def on_mount(self) -> None:
        focus_now(self.query_one("#drift-a", Input))

    def sides(self) -> tuple[str, str, str | None]:
        a, b, project = (self.query_one(f"#drift-{i}", InertInput).raw_value.strip()
                         for i in ("a", "b", "project"))  # fmt: skip
        return a, b, project or None

    @on(Input.Submitted, "#drift-sides Input")
    def action_reload(self) -> None:
        a, b, project = self.sides()
        if not a or not b:
            self.status_line.update("Name both sides: " + HINT)
            return
        self.status_line.update(f"Comparing {a} and {b}…")
        self.compare(a, b, project)

    def action_promote(self) -> None:
        self.promotion.act()

    def compare_again(self) -> None:
        """The sides last compared, read again (after a promotion wrote to one of them)."""
        sides = self.promotion.compared
        if sides is not None:
            self.compare(sides.left, sides.right, sides.project)

    @work(exclusive=True, group="drift", exit_on_error=False)
    @read
    async def compare(self, a: str, b: str, project: str | None) -> None:
        profiles = (await asyncio.to_thread(load_config)).profiles
        if (a in profiles) != (b in profiles):
            self.status_line.update("One profile and one environment: name two of either.")
            return
        async with contextlib.AsyncExitStack() as stack:
            if a in profiles:
                left, right = [
                    Reading(name, await self.client_of(stack, name), project, None)
                    for name in (a, b)
                ]
                between, kind = f"profiles {a} and {b}", "profiles"
            else:
                client = self.flagtui.client
                left, right = [Reading(env, client, project, env) for env in (a, b)]
                between = f"environments {a} and {b} of {self.flagtui.profile.name}"
                kind = "environments"
            found = await compare(left, right)
        self.promotion.compared = Sides(kind, a, b, project)
        await self.show(found, left.label, right.label)
        scope = f"project {project}" if project else "every project"
        read_at = moment(datetime.now(UTC))
        self.status_line.update(
            f"{counted(len(found), 'difference')} between {between} ({scope}); read at {read_at}"
        )

    async def client_of(self, stack: contextlib.AsyncExitStack, name: str) -> AdminClient:
        """The app's client for its own profile; another profile's, opened until `stack` ends."""
        if name == self.flagtui.profile.name:
            return self.flagtui.client
        _profile, client = await open_profile(self.app, name)
        await stack.enter_async_context(client)
        await client.connect()
        return client

    async def show(self, found: list[dict[str, Any]], left: str, right: str) -> None:
        table = ResourceTable[dict[str, Any]](columns(left, right), id="drift")
        await self.query_one(FilteredTable).remove()  # the columns name this comparison's sides
        await self.mount(FilteredTable(table), after=self.status_line)
        rows = [
            (f"{i}", (d["project"], d["featureName"], d["what"],
                      *both_said(d["what"], d[left], d[right])))
            for i, d in enumerate(found)
        ]  # fmt: skip
        table.set_rows(rows, found)
        focus_now(table)
