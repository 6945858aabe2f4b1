"""Promote… from the drift view: one side's flags made the other's, as `flagtui promote` does,
through its own code in `flagtui.fleet` (the source's export made in memory and renamed for
the target, the plan `flagtui plan` makes and says in its words, apply's writes).

The form (`promote_form`) asks which way, the project, the project to land in and prune;
the plan is read (nothing sent) and shown flag by flag, field by field, with who gets each
changed flag before → after; confirming sends exactly that plan (a production environment of
the target, or a production target profile: its name typed); each write's outcome is said
(done, refused and why, unknown), each flag read back, and the drift view compares again.

A part the drift screen holds: its binding goes in the screen's BINDINGS; `compared` is what
the view last compared; `refresh` runs once something was sent. Server text is data
(`format.put`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding

from flagtui.tui.format import put
from flagtui.tui.profile_switch import open_profile
from flagtui.tui.screens.base import AreaScreen, read_only_refusal
from flagtui.tui.screens.overtaken import ask_overtaken
from flagtui.tui.screens.promote_form import PromoteChoice, PromoteForm, Sides
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.result_dialog import ResultDialog, counted_outcomes
from flagtui.tui.widgets.text import PlainStatic

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.edits import EditConflict
    from flagtui.config import Profile
    from flagtui.fleet.flags_file import FlagsFile

PLAN_GROUP = "drift-promote-plan"
SEND_GROUP = "drift-promote-send"
USERS = 1_000  # synthetic users each changed flag is evaluated for, as the command's default
MARK_STYLES = {"+": "green", "~": "yellow", "-": "red", "?": "dim"}
OUTCOME_STYLES = {"done": "green", "refused": "red", "unknown": "red", "not sent": "dim"}


@dataclass(frozen=True)
class Shown:
    """A plan as the admin was shown it: between which sides, as chosen, and the name typed
    to confirm it (None: not production)."""

    sides: Sides
    choice: PromoteChoice
    planned: dict[str, Any]
    typed: str | None


def plan_body(where: str, lines: list[str], typed: str | None) -> Text:
    """The plan as `flagtui plan` says it (`fleet.plan_words.lines`), each line as data; what
    is written to production said first, in view before the plan scrolls."""
    body = Text()
    put(body, f"{where}.")
    if typed is not None:
        put(body, " This writes to production: ")
        put(body, typed, "bold reverse red")
        put(body, ".")
    put(body, " Nothing is sent until you confirm; the writes are exactly these.\n\n")
    for line in lines:
        style = "bold" if line.startswith("plan:") else MARK_STYLES.get(line[:1], "")
        put(body, line + "\n", style)
    return body


def result_body(result: dict[str, Any]) -> Text:
    # Here, not at the top: fleet's apply loads the client's models
    from flagtui.fleet.apply import where

    body = Text()
    for step in result["steps"]:
        put(body, f"{step['outcome']:<9} ", OUTCOME_STYLES.get(step["outcome"], ""))
        put(body, where(step))
        if step.get("requests"):
            put(body, f" [{', '.join(step['requests'])}]", "dim")
        if step.get("why"):
            put(body, f"\n          {step['why']}")
        put(body, "\n")
    for back in result["readBack"]:
        differs = f" ({', '.join(back['differs'])})" if "differs" in back else ""
        put(body, f"read back {back['project']}/{back['name']}: {back['state']}{differs}\n")
    return body


class PromoteResult(ResultDialog):
    """Each write's outcome and each flag read back; Escape or Enter closes."""

    BINDINGS = [
        Binding("escape", "close_result", "Close", id="promote-result.close",
                tooltip="Back to the drift view (it compares again)"),
    ]  # fmt: skip


class DriftPromotion:
    BINDINGS: list[Binding] = [
        Binding("U", "promote", "Promote…", id="drift.promote",
                tooltip="Make one side's flags the other's: a plan first, sent once confirmed"),
    ]  # fmt: skip

    def __init__(self, screen: AreaScreen, refresh: Callable[[], object]) -> None:
        self.screen = screen
        self.refresh = refresh
        self.compared: Sides | None = None

    def act(self) -> None:
        if self.compared is None:
            self.screen.flagtui.notify(
                "Compare two sides first (Enter): the promotion goes between them.",
                severity="warning",
            )
            return
        sides = self.compared

        def chosen(choice: PromoteChoice | None) -> None:
            if choice is not None:
                self.screen.run_worker(self._plan(sides, choice), group=PLAN_GROUP,
                                       exclusive=True, exit_on_error=False)  # fmt: skip

        self.screen.app.push_screen(PromoteForm(sides), chosen)

    def _say(self, line: str) -> None:
        self.screen.query_one("#drift-status", PlainStatic).update(line)

    @contextlib.asynccontextmanager
    async def _opened(self, name: str) -> AsyncIterator[tuple[Profile, AdminClient]]:
        """A profile and its client: this one's own, or another opened (and closed after)."""
        context = self.screen.flagtui
        if name == context.profile.name:
            yield context.profile, context.client
            return
        profile, client = await open_profile(self.screen.app, name)
        async with client:
            await client.connect()
            yield profile, client

    def _target_profile(self, sides: Sides, choice: PromoteChoice) -> str:
        return choice.target if sides.kind == "profiles" else self.screen.flagtui.profile.name

    def _where(self, sides: Sides, choice: PromoteChoice) -> str:
        if sides.kind == "profiles":
            return f"From profile {choice.source} to profile {choice.target}"
        profile = self.screen.flagtui.profile.name
        return f"From {choice.source} to {choice.target} on profile {profile}"

    async def _source_file(self, sides: Sides, choice: PromoteChoice) -> FlagsFile:
        # Here, not at the top: they load the client's models
        from flagtui.fleet.promote import promotion_file

        projects = [choice.project] if choice.project else []
        if sides.kind == "environments":
            return await promotion_file(
                self.screen.flagtui.client, projects, environments=[choice.source],
                to_environment=choice.target, rewrite_project=choice.rewrite_project,
            )  # fmt: skip
        async with self._opened(choice.source) as (_profile, source):
            return await promotion_file(source, projects, rewrite_project=choice.rewrite_project)

    async def _plan(self, sides: Sides, choice: PromoteChoice) -> None:
        # Here, not at the top: they load the client's models and the SDKs' engine
        from flagtui.fleet.apply import unsupported
        from flagtui.fleet.plan import make_plan
        from flagtui.fleet.plan_words import lines
        from flagtui.fleet.promote import check_target

        where = self._where(sides, choice)
        self._say(f"Planning (reads only): {where[0].lower()}{where[1:]}…")
        file = await self._source_file(sides, choice)
        async with self._opened(self._target_profile(sides, choice)) as (profile, target):
            if profile.read_only:
                self._say(f"{read_only_refusal(profile.name)}: nothing to promote to; nothing "
                          "was sent.")  # fmt: skip
                return
            await check_target(target, file)
            planned = await make_plan(target, file, users=USERS, prune=choice.prune)
            typed = await self._typed(target, profile, planned)
        said = lines(planned)
        if not planned["changes"]:
            self._say(f"Nothing to promote, nothing was sent: {said[-1]}.")
            return
        if cannot := unsupported(planned):
            self._say("Cannot promote, nothing was sent: " + "; ".join(cannot) + ".")
            return
        count = planned["summary"]
        flags = count["create"] + count["update"] + count["prune"]
        title = f"Promote {flags} flag{'s' if flags != 1 else ''} to {choice.target}?"
        body = plan_body(where, said, typed)

        def answered(yes: bool | None) -> None:
            if not yes:
                self._say(f"Not promoted: nothing was sent. {where}.")
            else:
                self._start_send(Shown(sides, choice, planned, typed))

        modal = (
            ConfirmModal(title, body, confirm_label="Promote")
            if typed is None
            else TypedConfirmModal(title, body, typed, confirm_label="Promote")
        )
        modal.add_class("review")
        self._say(f"{where}: {said[-1]}.")
        self.screen.app.push_screen(modal, answered)

    async def _typed(
        self, target: AdminClient, profile: Profile, planned: dict[str, Any]
    ) -> str | None:
        """The name to type: a production environment the plan writes to, or else a
        production profile's name; None: neither."""
        wanted = set(planned["environments"])
        for project in planned["projects"]:
            for env in await target.environments.list(project):
                if env.name in wanted and env.type == "production":
                    return env.name
        return profile.name if profile.production else None

    def _start_send(self, shown: Shown, *, anyway: bool = False) -> None:
        if not self.screen.still_sending(SEND_GROUP):
            sending = self._send(shown, anyway=anyway)
            self.screen.run_worker(sending, group=SEND_GROUP, exclusive=True, exit_on_error=False)

    def _overtaken(self, moved: EditConflict, shown: Shown) -> None:
        """The target changed since the plan was shown: nothing was sent; plan again, or send
        this plan anyway (the name typed first where it is production)."""
        self._say(f"Not promoted, nothing was sent: {moved}")

        def plan_again() -> None:
            self.screen.run_worker(self._plan(shown.sides, shown.choice), group=PLAN_GROUP,
                                   exclusive=True, exit_on_error=False)  # fmt: skip

        ask_overtaken(
            self.screen.app, moved, "The target changed since this plan was made",
            "plan again against the target as it is now.", shown.typed, reload=plan_again,
            anyway=lambda: self._start_send(shown, anyway=True),
        )  # fmt: skip

    async def _send(self, shown: Shown, *, anyway: bool = False) -> None:
        # Here, not at the top: it loads the client's models
        from flagtui.api.edits import EditConflict
        from flagtui.fleet.apply import apply_plan, step_line, steps

        sides, choice, planned = shown.sides, shown.choice, shown.planned
        total = len(steps(planned))
        sent = 0

        def progress(step: Any) -> None:
            nonlocal sent
            sent += 1
            self._say(f"Promoting, {sent} of {total} writes: {step_line(step)}")

        try:
            async with self._opened(self._target_profile(sides, choice)) as (_profile, target):
                result, failed = await apply_plan(target, planned, progress=progress,
                                                  anyway=anyway)  # fmt: skip
        except EditConflict as moved:
            self._overtaken(moved, shown)
            return
        finally:
            self.refresh()
        said = counted_outcomes(step["outcome"] for step in result["steps"])
        title = f"Promoted: {said}" if failed is None else f"Stopped at a failed write: {said}"
        self.screen.app.push_screen(PromoteResult(title, result_body(result)))
