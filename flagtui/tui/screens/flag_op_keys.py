"""Four keys of a feature's detail for what the web UI offers beside the contract (issue 46),
each the command's operation (`client.flag_ops`), asked first:
- `O` clones a live flag (the name asked; the clone's detail opens, every environment off);
- `M` marks a live flag completed: kept, kept with one of its variants, or discarded;
- `d` deletes an archived flag for good (its name typed: irreversible), then goes back;
- `Y` copies strategies to another environment (`strategy_copy_key`): the requests and who
  gets the flag there, before and after; a production target's name is typed.

A part the screen holds (`FlagOpKeys.part()`, made on first use): its bindings name one action,
`flag_op('<op>')` (`FlagOpKeys.action`); the screen puts `FlagOpKeys.bindings()` in its
BINDINGS, `FlagOpKeys.ACTIONS` in its WRITE_ACTIONS and asks `allows` in its `check_action`.
One write at a time (the screen's `feature-write` group); a failure is said by the screen's one
handler."""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any

from rich.text import Text
from textual.binding import Binding

from flagtui.api.errors import NothingToSend
from flagtui.api.flag_ops import variant_names
from flagtui.api.models import Feature
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.strategy_copy_key import StrategyCopyKey
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.clone_modal import CloneModal
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.request_text import shown_requests

WRITE_GROUP = "feature-write"  # the detail's other writes' group: one at a time
OPS = ("clone", "complete", "delete", "copy_strategies")


def op_of(action: str, parameters: tuple[object, ...]) -> str | None:
    """The op of `flag_op('clone')` (as Textual splits it, or as the palette names it)."""
    if parameters and action == FlagOpKeys.ACTION:
        return str(parameters[0])
    if action.startswith(f"{FlagOpKeys.ACTION}("):
        return action[len(FlagOpKeys.ACTION) + 1 :].strip("()'\"")
    return None


class FlagOpKeys:
    ACTION = "flag_op"
    ACTIONS = frozenset({ACTION})

    @staticmethod
    def part() -> functools.cached_property[FlagOpKeys]:
        """The screen's part, made when first used (the screen's `feature`, `load`)."""
        return functools.cached_property(
            lambda screen: FlagOpKeys(screen, lambda: screen.feature, screen.load)
        )

    @staticmethod
    def action(screen: Any, op: str) -> None:
        """The screen's `action_flag_op`."""
        screen.flag_ops.run(op)

    def __init__(self, screen: AreaScreen, shown: Callable[[], Feature | None],
                 reload: Callable[[], object]) -> None:  # fmt: skip
        """`shown()`: the flag as the screen shows it; `reload()` reads it again."""
        self.screen = screen
        self.shown = shown
        self.reload = reload
        self.copy_key = StrategyCopyKey(screen, reload)

    @classmethod
    def bindings(cls) -> list[Binding]:
        # off the key bar, which has no room left at 80 columns: `?` and the palette list them
        return [
            Binding("O", "flag_op('clone')", "Clone", id="detail.clone", show=False,
                    tooltip="A copy under a new name: strategies and variants, every"
                    " environment off (the name asked first)"),
            Binding("M", "flag_op('complete')", "Mark completed", id="detail.complete",
                    show=False,
                    tooltip="Mark the flag completed: kept, kept with a variant, or discarded"),
            Binding("d", "flag_op('delete')", "Delete", id="detail.delete", show=False,
                    tooltip="Delete the archived flag for good (its name typed: irreversible)"),
            Binding("Y", "flag_op('copy_strategies')", "Copy strategies",
                    id="detail.copy-strategies", show=False,
                    tooltip="Copy strategies to another environment (the requests and who gets"
                    " it there shown first; production asks for its name)"),
        ]  # fmt: skip

    def allows(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """False where the shown flag does not offer the op; None for another action."""
        op = op_of(action, parameters)
        if op is None:
            return None
        flag = self.shown()
        if flag is None or op not in OPS:
            return False
        if op == "delete":
            return flag.is_archived
        stage = flag.lifecycle.stage if flag.lifecycle else None
        return not flag.is_archived and not (op == "complete" and stage == "completed")

    def run(self, op: str) -> None:
        flag = self.shown()
        if flag is None or not self.allows(self.ACTION, (op,)):
            return
        project = getattr(self.screen, "project", "")
        {"clone": self.clone, "complete": self.complete, "delete": self.delete,
         "copy_strategies": self.copy_key.ask}[op](project, flag)  # fmt: skip

    def _send(self, work: Coroutine[Any, Any, None]) -> None:
        if not self.screen.still_sending(WRITE_GROUP):
            self.screen.run_worker(work, group=WRITE_GROUP, exclusive=True, exit_on_error=False)

    # -- clone -----------------------------------------------------------------------------------

    def clone(self, project: str, flag: Feature) -> None:
        def answered(choice: tuple[str, bool] | None) -> None:
            if choice is not None:
                self._send(self._clone(project, flag.name, *choice))

        self.screen.app.push_screen(CloneModal(flag.name), answered)

    async def _clone(self, project: str, source: str, name: str, replace: bool) -> None:
        ops = self.screen.flagtui.client.flag_ops
        clone = await ops.clone(project, source, name, replace_group_id=replace)
        self.screen.flagtui.notify(f"{source} cloned as {clone.name}: every environment is off")
        detail = type(self.screen)  # the detail that holds this part (which imports it)
        self.screen.app.push_screen(detail(project, clone.name, clone))

    # -- mark completed --------------------------------------------------------------------------

    def complete(self, project: str, flag: Feature) -> None:
        choices: list[tuple[str, str | None]] = [("kept", None)]
        choices += [("kept", v) for v in variant_names(flag)]
        choices.append(("discarded", None))
        labels = [
            "Kept: the flag's code stays" if s == "kept" and v is None
            else f"Kept, with variant {v}" if v is not None
            else "Discarded: the flag's code is removed"
            for s, v in choices
        ]  # fmt: skip

        def picked(index: int | None) -> None:
            if index is not None:
                self._ask_complete(project, flag, *choices[index])

        title = f"Mark {flag.name} completed: what became of it?"
        self.screen.app.push_screen(ChoicePicker(title, labels), picked)

    def _ask_complete(self, project: str, flag: Feature, status: str, variant: str | None) -> None:
        plan = self.screen.flagtui.client.flag_ops.plan_complete(
            project, flag.name, status, variant
        )
        kept = f"{status}, variant {variant}" if variant else status
        body = Text.assemble(
            f"{flag.name} enters the completed stage ({kept}), as the web UI's \"Mark"
            ' completed" does; SDKs evaluate it as before. u uncompletes it.\nSends this'
            " request:\n",
            shown_requests([plan]),
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(self._complete(project, flag.name, status, variant))

        modal = ConfirmModal(f"Mark {flag.name} completed?", body, confirm_label="Complete")
        self.screen.app.push_screen(modal, answered)

    async def _complete(self, project: str, name: str, status: str, variant: str | None) -> None:
        ops = self.screen.flagtui.client.flag_ops
        try:
            await ops.complete(project, name, status=status, variant=variant)
        except NothingToSend as same:
            self.screen.flagtui.notify(f"Nothing sent: {same}", severity="warning")
        else:
            self.screen.flagtui.notify(f"{name} marked completed ({status})")
        self.reload()

    # -- delete for good -------------------------------------------------------------------------

    def delete(self, project: str, flag: Feature) -> None:
        plan = self.screen.flagtui.client.flag_ops.plan_delete(project, [flag.name])
        body = Text.assemble(
            f"{flag.name} is deleted for good: it cannot be revived, only its events remain,"
            " and its name is free again. Sends this request:\n",
            shown_requests([plan]),
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(self._delete(project, flag.name))

        title = f"Delete {flag.name} for good?"
        modal = TypedConfirmModal(title, body, flag.name, confirm_label="Delete")
        self.screen.app.push_screen(modal, answered)

    async def _delete(self, project: str, name: str) -> None:
        ops = self.screen.flagtui.client.flag_ops
        await ops.delete(project, await ops.archived_rows(project, [name]))
        self.screen.flagtui.notify(f"{name} deleted for good")
        self.screen.app.pop_screen()
