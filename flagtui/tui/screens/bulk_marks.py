"""Marked flags and one change to all of them, from the features table: space marks the
highlighted flag (again: unmarks it), `*` marks every flag matching the filter (all its pages),
`B` picks the change (archive, revive, switch on or off in an environment, mark stale or not),
then one plan screen lists every flag and what will happen to it (`bulk_screens`), asked once,
production by typing the environment's name; then one screen says each flag's outcome.

A part the features screen holds (as `EnvironmentToggle`): its bindings go in the screen's
BINDINGS, `ACTION` in its WRITE_ACTIONS, and the screen draws a mark on the rows named in
`marked`. The plan and the send are `client.bulk`'s, the CLI's too."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable
from textual.worker import WorkerError

from flagtui.api.bulk import Plan
from flagtui.api.bulk_changes import Change
from flagtui.api.edits import EditConflict
from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import Feature
from flagtui.contract import PAGE_MAX
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.bulk_screens import (
    BulkResult,
    ask_plan_overtaken,
    plan_confirmation,
    plan_shares,
)
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.words import counted

MAX_MARKED = 1000  # as the command line's limit
MARK = "● "
CHANGES: list[tuple[str, str]] = [
    ("Archive (SDKs stop receiving them)", "archive"),
    ("Revive (every environment comes back off)", "revive"),
    ("Switch on in an environment…", "enable"),
    ("Switch off in an environment…", "disable"),
    ("Mark stale", "stale"),
    ("Mark not stale", "unstale"),
]
BULK_GROUP = "bulk-send"  # the write's worker group
MARK_ALL = "bulk-mark-all"  # `*`'s reads


class BulkMarks:
    """`changed()` runs once a change was sent (the screen reads its page again); `redraw()`
    when the marks changed (the screen draws its rows again)."""

    ACTION = "bulk"  # the screen's `action_bulk(what)` calls `act`: a write action (hidden
    # on a read-only profile, marks included: nothing could be done with them). Space and `*`
    # are not in the key bar, which has no room left at 80 columns (Help, `?`, lists them);
    # `B` is: with nothing marked it says how to mark, so the bar leads to all three.
    BINDINGS: list[Binding] = [
        Binding("space", "bulk('mark')", "Mark", show=False, id="features.mark",
                tooltip="Mark the flag, then move down a row (again: unmark it)"),
        Binding("asterisk", "bulk('mark_all')", "Mark all", show=False, id="features.mark-all",
                tooltip="Mark every flag matching the filter, on every page (again: none)"),
        Binding("B", "bulk('change')", "Bulk change", id="features.bulk",
                tooltip="One change to every marked flag: a plan first, then each flag's outcome"),
    ]  # fmt: skip

    def __init__(
        self, screen: AreaScreen, changed: Callable[[], object], redraw: Callable[[], object]
    ) -> None:
        self.screen = screen
        self.changed = changed
        self.redraw = redraw
        self.marked: dict[str, Feature] = {}

    def act(
        self, what: str, project: str | None, highlighted: Feature | None, query: dict[str, Any]
    ) -> None:
        """The screen's `bulk(what)` action; `query`: the filter's, for marking all."""
        if project is None:
            return
        if what == "mark" and highlighted is not None:
            self.toggle(highlighted)
            self.screen.query_one(DataTable).action_cursor_down()  # the next one, to mark on
        elif what == "mark_all":
            self.mark_all(query)
        elif what == "change":
            self.choose(project)

    def label(self, name: str) -> str:
        return f"{MARK}{name}" if name in self.marked else name

    def toggle(self, feature: Feature) -> None:
        if self.marked.pop(feature.name, None) is None:
            self.marked[feature.name] = feature
        self.redraw()

    def clear(self) -> None:
        self.marked.clear()
        self.redraw()

    def mark_all(self, query: dict[str, Any]) -> None:
        """Every flag the filter matches; if all are marked already, none."""
        self.screen.run_worker(
            self._mark_all(query), group=MARK_ALL, exclusive=True, exit_on_error=False
        )

    async def _mark_all(self, query: dict[str, Any]) -> None:
        found: dict[str, Feature] = {}
        offset, total = 0, 1
        while offset < total and len(found) < MAX_MARKED:
            q = FeatureQuery(**query, offset=offset, limit=PAGE_MAX)
            page = await self.screen.flagtui.client.features.search(q)
            found.update((f.name, f) for f in page.features)
            offset, total = offset + PAGE_MAX, page.total
        if found and found.keys() <= self.marked.keys():
            self.clear()
            self.screen.flagtui.notify(f"{counted(len(found), 'flag')} unmarked")
            return
        self.marked.update(found)
        cut = f" (the first {MAX_MARKED} of {total})" if total > len(found) else ""
        self.screen.flagtui.notify(f"{counted(len(self.marked), 'flag')} marked{cut}")
        self.redraw()

    def choose(self, project: str) -> None:
        """Which change, for the marked flags; after the marking `*` started, if it still runs
        (`*` then `B` at once: the plan is for what `*` marks, never "no flag is marked")."""
        marking = next(
            (
                w
                for w in self.screen.workers
                if w.node is self.screen and w.group == MARK_ALL and not w.is_finished
            ),
            None,
        )
        if marking is not None:

            async def when_marked() -> None:
                with contextlib.suppress(WorkerError):  # a failed read is said by the screen
                    await marking.wait()
                self.choose(project)

            self.screen.run_worker(when_marked(), group="bulk-after-marking", exit_on_error=False)
            return
        if not self.marked:
            self.screen.flagtui.notify(
                "No flag is marked: space marks the highlighted flag, * every flag matching the"
                " filter.",
                severity="warning",
            )
            return

        def picked(index: int | None) -> None:
            if index is None:
                return
            verb = CHANGES[index][1]
            if verb in ("enable", "disable"):
                self.screen.run_worker(
                    self._pick_environment(project, verb),
                    group="bulk-plan",
                    exclusive=True,
                    exit_on_error=False,
                )
            else:
                self.plan(project, Change(verb))  # type: ignore[arg-type]

        title = f"Change {counted(len(self.marked), 'marked flag')} in project {project}"
        self.screen.app.push_screen(ChoicePicker(title, [c[0] for c in CHANGES]), picked)

    async def _pick_environment(self, project: str, verb: str) -> None:
        envs = await self.screen.flagtui.client.environments.list(project)

        def picked(index: int | None) -> None:
            if index is not None:
                self.plan(project, Change(verb, envs[index].name))  # type: ignore[arg-type]

        state = "on" if verb == "enable" else "off"
        labels = [f"{e.name} ({e.type})" if e.type else e.name for e in envs]
        title = f"Switch {counted(len(self.marked), 'flag')} {state} in which environment?"
        self.screen.app.push_screen(ChoicePicker(title, labels), picked)

    def plan(self, project: str, change: Change) -> None:
        self.screen.run_worker(
            self._plan(project, change), group="bulk-plan", exclusive=True, exit_on_error=False
        )

    async def _plan(self, project: str, change: Change) -> None:
        plan = await self.screen.flagtui.client.bulk.plan(project, change, list(self.marked))
        if not plan.to_send:
            self.screen.app.push_screen(BulkResult.unsent(plan))
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._sending(plan)

        shares = await plan_shares(self.screen.flagtui.client, plan)
        self.screen.app.push_screen(plan_confirmation(plan, shares=shares), answered)

    def _sending(self, plan: Plan, anyway: bool = False) -> None:
        if not self.screen.still_sending(BULK_GROUP):
            self.screen.run_worker(
                self._send(plan, anyway), group=BULK_GROUP, exclusive=True, exit_on_error=False
            )

    async def _send(self, plan: Plan, anyway: bool) -> None:
        try:
            outcomes = await self.screen.flagtui.client.bulk.send(plan, anyway=anyway)
        except EditConflict as moved:
            ask_plan_overtaken(
                self.screen.app, plan, moved,
                reload=lambda: self.plan(plan.project, plan.change),
                anyway=lambda: self._sending(plan, anyway=True),
            )  # fmt: skip
            return
        self.clear()
        self.screen.app.push_screen(BulkResult(plan, outcomes))
        self.changed()
