"""One feature in full (one `features.get` request): environments, strategies, variants, tags,
dependencies, children, collaborators, lifecycle, and its recent events (newest first, one
event search); `e` patches it, `u` marks it uncompleted, `t` switches it on or off in one
environment (`env_toggle`), `A` archives it (Unleash's archive, asked first: `archive_confirm`),
`h` opens its events in the event log;
`0` rolls its gradual rollouts in one environment back to 0 % and `D` disables one strategy
(`rollout_keys`: the requests shown first); `N` and `S` add and edit a strategy in a form
(`strategy_form`: the request and a preview with the SDKs' engine shown first), `E` enables
one, `X` removes one, `K`/`J` move one up or down (`strategy_keys`); `#`, `L` its tags and parent.

An archived feature has no live record (real Unleash answers 404): its row in the archived
flags is shown instead, and `v` revives it (the question lists each environment, off after).
One write at a time: a key pressed while one is in flight says so and sends nothing. A flag
found already as asked when the write reads it first is said, and nothing is sent."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding

from flagtui.api.errors import FlagtuiError, NotFoundError, NothingToSend
from flagtui.api.models import EventPage, Feature, Segment
from flagtui.tui.areas import AREAS_BY_NAME
from flagtui.tui.format import clean, put, safe, when
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.env_toggle import EnvironmentToggle
from flagtui.tui.screens.flag_object_keys import FlagObjectKeys
from flagtui.tui.screens.flag_op_keys import FlagOpKeys
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.screens.rollout_keys import (
    STRATEGY_ACTIONS,
    RolloutKeys,
    VariantsKey,
    strategy_bindings,
)
from flagtui.tui.screens.segment_names import (
    KNOWN_SEGMENTS,
    names_of,
    read_segments,
    segment_ids,
)
from flagtui.tui.screens.strategy_keys import StrategyKeys
from flagtui.tui.widgets.archive_confirm import archive_modal, revive_modal
from flagtui.tui.widgets.confirm import ConfirmModal
from flagtui.tui.widgets.feature_view import FeatureView
from flagtui.web_ui import flag_url

RECENT_EVENTS = 5


def _of_ids(segments: list[Segment], ids: set[int]) -> list[Segment]:
    return [s for s in segments if s.id in ids]


class FeatureDetailScreen(AreaScreen):
    AREA = "features"
    view = getters.query_one(FeatureView)
    flag_ops, action_flag_op = FlagOpKeys.part(), FlagOpKeys.action  # O M d Y: flag_op_keys
    WRITE_ACTIONS = frozenset(
        {
            "edit",
            "archive",
            "uncomplete",
            "revive",
            EnvironmentToggle.ACTION,
            *RolloutKeys.ACTIONS,
            *STRATEGY_ACTIONS,
            *VariantsKey.ACTIONS,
            *FlagObjectKeys.ACTIONS,
            *FlagOpKeys.ACTIONS,
        }
    )
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="detail.back", tooltip="Back to the list"),
        Binding("e", "edit", "Edit", id="detail.edit", tooltip="Patch description, type, flags"),
        EnvironmentToggle.binding("detail.toggle"),
        Binding("u", "uncomplete", "Uncomplete", id="detail.uncomplete",
                tooltip="Mark the completed feature uncompleted"),
        Binding("A", "archive", "Archive", id="detail.archive",
                tooltip="Archive it as the web UI does (asks first; SDKs stop getting it)"),
        Binding("v", "revive", "Revive", id="detail.revive",
                tooltip="Bring the archived feature back (environments off, lifecycle restarts)"),
        Binding("r", "reload", "Reload", id="detail.reload", tooltip="Read the feature again"),
        Binding("y", "copy", "Copy", id="detail.copy", tooltip="Copy the flag's web UI link"),
        Binding("h", "event_log", "Event log", id="detail.events",
                tooltip="The event log filtered to this flag"),
        *RolloutKeys.bindings(),  # last: the key bar keeps the older keys where room is short
        *strategy_bindings(),
        *VariantsKey.bindings(),
        *FlagObjectKeys.bindings(),
        *FlagOpKeys.bindings(),
    ]  # fmt: skip

    def __init__(
        self, project: str, name: str, summary: Feature | None = None, then: str | None = None
    ) -> None:
        """`summary`, the feature's row in a list, is shown until the full record is read;
        `then`, an action of this screen run once it is (the palette's "Patch a flag…")."""
        super().__init__()
        self.env_toggle = EnvironmentToggle(self, self.load)
        self.rollout_keys = RolloutKeys(self, self.load)
        self.strategy_keys = StrategyKeys(self.rollout_keys)
        self.variants_key = VariantsKey(self, self.load)
        self.object_keys = FlagObjectKeys(self, self.load)
        self.project = project
        self.feature_name = name
        self.feature: Feature | None = None
        self.summary = summary
        self.events_page: EventPage | None = None
        self.then = then
        # The segments, naming the strategies' segments: read beside the flag (`load`); an id
        # they do not hold (no such read allowed, a segment made since) shows as "segment #id".
        self.segments: list[Segment] = []

    def compose_body(self) -> ComposeResult:
        events = Text("Recent events: reading…")  # the record's part ends with them
        yield FeatureView(self.feature_name, self.summary, tail=events, id="feature")

    def on_mount(self) -> None:
        self.view.focus()
        self.load()
        self.load_events()

    @work(exclusive=True, group="feature", exit_on_error=False)
    @read
    async def load(self) -> None:
        """The flag, and the segments read at the same time. The flag is shown as it arrives
        when the segments an earlier detail read (this server's) name each of its segments:
        segments are few and rarely renamed, and reading them may take long on a big server
        (usage counts over every strategy). The fresh ones follow, and redraw the strategies
        (and count who gets the flag again) only if one of theirs changed."""
        client = self.flagtui.client
        reading = asyncio.ensure_future(read_segments(client))
        try:
            feature = await client.features.get_or_archived(self.project, self.feature_name)
        except BaseException:
            reading.cancel()
            raise
        known = KNOWN_SEGMENTS.get(client, [])
        used = segment_ids(feature)
        if used <= names_of(known).keys():
            self.segments = known
            self.show(feature)
        fresh = await reading
        if fresh:
            KNOWN_SEGMENTS[client] = fresh
        if not used <= names_of(known).keys():
            self.segments = fresh or self.segments
            self.show(feature)
        elif fresh and _of_ids(fresh, used) != _of_ids(known, used):
            self.segments, complete = fresh, not feature.is_archived
            self.view.show(feature, complete=complete, segment_names=names_of(fresh))
            if complete:
                self.count_switches(feature)

    def count_switches(self, feature: Feature) -> None:
        """Under each environment's heading, who gets the flag now and once `t` switches it."""
        self.env_toggle.count(self.project, feature, self.segments, self.view.show_switches)

    def show_read_failure(self, group: str, error: BaseException) -> None:
        if group == "feature-events":
            self.events_failed(error)
            return
        view = self.view
        if self.feature is None and isinstance(error, NotFoundError):
            view.fail(self.gone_text())
            return
        view.fail(self.detail_after_failure(group, error, None))  # what is drawn stays

    def show(self, feature: Feature) -> None:
        shown_before = self.feature is not None
        self.feature = feature
        if shown_before:  # after a write or a reload: what it recorded
            self.load_events()
        # an archived flag is its archive row (no live record): never shown as "0 strategies"
        complete = not feature.is_archived
        self.view.show(feature, complete=complete, segment_names=names_of(self.segments))
        if complete:
            self.count_switches(feature)
        self.refresh_bindings()
        if self.then is not None:
            action, self.then = self.then, None
            self.call_after_refresh(self.run_then, action)

    async def run_then(self, action: str) -> None:
        """The action asked for when the screen was opened, if the feature allows it now."""
        if self.check_action(action, ()):
            await self.run_action(action)
            return
        stage = self.feature.lifecycle.stage if self.feature and self.feature.lifecycle else None
        state = "archived" if self.feature and self.feature.is_archived else stage or "unknown"
        named = next(
            (b.description for b in self.BINDINGS if isinstance(b, Binding) and b.action == action),
            action,
        )
        self.notify(f"{named} is not offered for {self.feature_name} ({state})", timeout=5)

    def redraw_times(self) -> None:
        self.redraw_events()
        self.view.redraw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (offered := self.flag_ops.allows(action, parameters)) is not None:
            return offered and super().check_action(action, parameters)
        if action == "uncomplete" and not self._completed:
            return False
        archived = self.feature is not None and self.feature.is_archived
        if action == "revive" and not archived:
            return False
        if action == "toggle_environment" and (self.feature is None or archived):
            return False  # the full record says each environment's state; archived: 400
        if action in RolloutKeys.ACTIONS | STRATEGY_ACTIONS | VariantsKey.ACTIONS and (
            self.feature is None or archived
        ):
            return False  # the full record lists each environment's strategies
        if action in ("archive", *FlagObjectKeys.ACTIONS) and (self.feature is None or archived):
            return False
        return super().check_action(action, parameters)

    @property
    def _completed(self) -> bool:
        return bool(
            self.feature and self.feature.lifecycle and self.feature.lifecycle.stage == "completed"
        )

    def action_reload(self) -> None:
        self.load()
        if self.feature is None:  # else show() reads the events after the flag
            self.load_events()

    def action_copy(self) -> None:
        url = flag_url(self.flagtui.client.base_url, self.project, self.feature_name)
        self.app.copy_to_clipboard(url)
        self.notify(clean(f"Copied the flag's web UI link: {url}"), markup=False, timeout=3)

    def action_edit(self, focus: str = "description") -> None:
        if self.feature is None:
            return

        def saved(feature: Feature | None) -> None:
            if feature is not None:
                self.show(feature)

        self.app.push_screen(PatchFormScreen(self.project, self.feature, focus), saved)

    def action_archive(self) -> None:
        if self.feature is None:
            return

        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending("feature-write"):
                self.archive()

        production = self.flagtui.profile.production
        self.app.push_screen(archive_modal(self.feature, production=production), answered)

    @work(exclusive=True, group="feature-write", exit_on_error=False)
    async def archive(self) -> None:
        try:
            await self.flagtui.client.features.archive(self.project, self.feature_name)
        except NothingToSend as unchanged:
            self.notify(f"Nothing sent: {unchanged}", severity="warning")
        else:
            self.notify(f"{self.feature_name} archived: no SDK receives it any more")
        self.load()  # a failure of this read is its own: the archive is done

    def action_toggle_environment(self) -> None:
        if self.feature is not None:
            self.env_toggle.toggle(self.project, self.feature)

    def action_roll_back(self) -> None:
        if self.feature is not None:
            self.rollout_keys.roll_back(self.project, self.feature)

    def action_disable_strategy(self) -> None:
        if self.feature is not None:
            self.rollout_keys.disable(self.project, self.feature)

    # -- the strategy keys (strategy_keys.py) --

    def action_add_strategy(self) -> None:
        if self.feature is not None:
            self.strategy_keys.add(self.project, self.feature)

    def action_edit_strategy(self) -> None:
        if self.feature is not None:
            self.strategy_keys.edit(self.project, self.feature)

    def action_enable_strategy(self) -> None:
        if self.feature is not None:
            self.strategy_keys.enable(self.project, self.feature)

    def action_remove_strategy(self) -> None:
        if self.feature is not None:
            self.strategy_keys.remove(self.project, self.feature)

    def action_move_strategy_up(self) -> None:
        if self.feature is not None:
            self.strategy_keys.move(self.project, self.feature, -1)

    def action_move_strategy_down(self) -> None:
        if self.feature is not None:
            self.strategy_keys.move(self.project, self.feature, 1)

    def action_edit_variants(self) -> None:
        if self.feature is not None:
            self.variants_key.edit(self.project, self.feature)

    def action_edit_tags(self) -> None:  # `#`, L: `flag_object_keys`
        self.object_keys.tags(self.feature)

    def action_edit_parent(self) -> None:
        self.object_keys.parent(self.project, self.feature)

    def action_uncomplete(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending("feature-write"):
                self.uncomplete()

        body = f"{self.feature_name} leaves the completed stage and returns to its previous stage."
        self.app.push_screen(
            ConfirmModal("Mark feature uncompleted?", body, confirm_label="Uncomplete"), answered
        )

    @work(exclusive=True, group="feature-write", exit_on_error=False)
    async def uncomplete(self) -> None:
        client = self.flagtui.client
        try:
            await client.features.uncomplete(self.project, self.feature_name)
        except NothingToSend as unchanged:
            self.notify(f"Nothing sent: {unchanged}", severity="warning")
            self.load()
            return
        try:
            feature = await client.features.get(self.project, self.feature_name)
        except FlagtuiError as exc:  # the write is done: only the read after it failed
            said = f"{self.feature_name} marked uncompleted; reading it again failed: {exc}"
            self.notify(said, severity="warning")
            return
        self.show(feature)
        stage = feature.lifecycle.stage if feature.lifecycle else "unknown"
        self.notify(f"{self.feature_name} marked uncompleted (stage now {stage})")

    def action_revive(self) -> None:
        if self.feature is None:
            return

        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending("feature-write"):
                self.revive()

        self.app.push_screen(revive_modal(self.feature), answered)

    @work(exclusive=True, group="feature-write", exit_on_error=False)
    async def revive(self) -> None:
        try:
            await self.flagtui.client.features.revive(self.project, self.feature_name)
        except NothingToSend as unchanged:
            self.notify(f"Nothing sent: {unchanged}", severity="warning")
        else:
            self.notify(f"{self.feature_name} revived: every environment is off")
        self.load()  # a failure of this read is its own: the revive is done

    # ---- the flag's recent events (one event search) and the way to all of them ----

    def gone_text(self) -> Text:
        return Text(
            f"Flag {self.feature_name!r} is not in project {self.project!r}: not among its live"
            " flags nor its archived ones (deleted, or moved). Its events remain: h lists them.",
            style="bold yellow",
        )

    @work(exclusive=True, group="feature-events", exit_on_error=False)
    @read
    async def load_events(self) -> None:
        page = await self.flagtui.client.events.search(
            feature=self.feature_name, limit=RECENT_EVENTS
        )
        self.events_page = page
        self.view.show_tail(self.events_text(page))

    def events_text(self, page: EventPage) -> Text:
        out = Text()
        total = f" of {page.total}" if page.total is not None else ""
        heading = f"\nRecent events, newest first ({len(page.events)}{total})"
        put(out, heading, style="bold underline")
        put(out, "  h: all in the event log\n", style="dim")
        for event in page.events:
            put(out, f"  #{event.id}", style="dim")
            put(out, f"  {when(event.created_at)}  ")
            put(out, event.type, style="bold")
            put(out, f"  by {event.created_by or '—'}\n")
        if not page.events:
            put(out, "  —\n")
        return out

    def events_failed(self, error: BaseException) -> None:
        # The server's words: a control character in its message is shown, never dropped.
        said = safe(self.read_failure_text("feature-events", error, shown="events"), style="red")
        self.view.show_tail(Text.assemble("\n", Text("Recent events: ", style="red"), said, "\n"))

    def redraw_events(self) -> None:
        if self.events_page is not None:
            self.view.show_tail(self.events_text(self.events_page))

    def action_event_log(self) -> None:
        events = AREAS_BY_NAME["events"].make_screen(feature=self.feature_name)
        self.app.push_screen(events)
