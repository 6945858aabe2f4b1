"""The two screens of a change to many flags (`bulk_marks`): the plan, asked once (every flag
and what will happen to it, and who gets it before → after where the change reaches anyone;
production environments highlighted, and a change that reaches one asks for its name typed),
and the result (each flag's outcome: done, unchanged, refused and why, unknown and how to
check). Flag names and server messages are data (`format.put`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text
from textual.app import App
from textual.binding import Binding

from flagtui.api import AdminClient
from flagtui.api.bulk import Outcome, Plan
from flagtui.api.edits import EditConflict
from flagtui.api.models import Feature
from flagtui.tui.format import put
from flagtui.tui.screens.overtaken import ask_overtaken
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.result_dialog import ResultDialog, counted_outcomes
from flagtui.tui.widgets.share_text import share_line, share_of

PRODUCTION = "bold reverse red"
READS_AT_ONCE = 4
STYLES = {"send": "bold", "done": "green", "unchanged": "dim", "changed": "bold yellow",
          "refused": "red", "unknown": "red"}  # fmt: skip


def production_envs(flag: Feature | None) -> list[str]:
    """The flag's production environments it is on in (archiving stops SDKs getting it there)."""
    envs = (flag.environments if flag else None) or []
    return [e.name for e in envs if e.enabled and e.type == "production"]


def _production_reached(plan: Plan) -> str | None:
    """The production environment the change reaches, if any: the one to type."""
    if plan.change.environment is not None:
        return plan.change.environment if plan.production else None
    if plan.change.verb != "archive":
        return None
    sent = (p.before for p in plan.flags if p.step == "send")
    return next((env for flag in sent for env in production_envs(flag)), None)


def reached(plan: Plan, flag: Feature | None) -> list[str]:
    """The environments where the change changes who gets `flag`: the one switched, or every
    one it is on in (archiving stops SDKs getting it there)."""
    change = plan.change
    if change.verb in ("enable", "disable") and change.environment is not None:
        return [change.environment]
    if change.verb == "archive":
        return [e.name for e in (flag.environments if flag else None) or [] if e.enabled]
    return []


async def plan_shares(client: AdminClient, plan: Plan) -> dict[str, str]:
    """Per flag the plan sends, who gets it before → after in each environment it reaches
    (the flag read again, the SDKs' engine, PLAN_USERS synthetic userIds a flag)."""
    # Here, not at the top: it loads the SDK engine
    from flagtui.preview.share import PLAN_USERS, switched

    gate = asyncio.Semaphore(READS_AT_ONCE)
    enabled = plan.change.verb == "enable"

    async def one(name: str, environment: str) -> str:
        def turned(flag: Feature) -> dict[str, Any]:
            return switched(flag, environment, enabled, plan.default_strategy)  # the plan's read

        async with gate:
            share = await share_of(client, plan.project, name, environment, turned,
                                   users=PLAN_USERS)  # fmt: skip
        return f"{environment} {share_line(share)}"

    wanted = [(p.feature, env) for p in plan.flags if p.step == "send"
              for env in reached(plan, p.before)]  # fmt: skip
    said = await asyncio.gather(*(one(name, env) for name, env in wanted))
    shares: dict[str, list[str]] = {}
    for (name, _), line in zip(wanted, said, strict=True):
        shares.setdefault(name, []).append(line)
    return {name: "; ".join(lines) for name, lines in shares.items()}


def plan_text(plan: Plan, shares: Mapping[str, str] | None = None) -> Text:
    """`shares`: who gets each flag before → after (`plan_shares`), a line under its own."""
    out = Text()
    for p in plan.flags:
        put(out, f"{p.step:<9} ", STYLES[p.step])
        put(out, p.feature, "bold")
        on_in = production_envs(p.before) if plan.change.verb == "archive" else []
        if on_in and p.step == "send":
            put(out, "  on in ")
            put(out, ", ".join(on_in), PRODUCTION)
        put(out, f"\n          {p.detail}\n")
        if shares and p.feature in shares:
            put(out, f"          who gets it: {shares[p.feature]}\n")
    return out


def plan_confirmation(
    plan: Plan,
    flags: str = "marked flags",
    scope: str = "",
    shares: Mapping[str, str] | None = None,
) -> ConfirmModal:
    """The plan's question: how many of `flags` it sends to; `scope` (what the screen showed,
    its filter) leads the body; `shares`: who gets each flag before → after (`plan_shares`)."""
    change = plan.change
    count = len(plan.to_send)
    what = change.action.replace(" feature", "")
    where = f" in {change.environment}" if change.environment else ""
    flags = flags if len(plan.flags) != 1 else flags.replace("flags", "flag")  # "1 of 1 flag"
    title = f"{what.capitalize()} {count} of {len(plan.flags)} {flags}{where}?"
    typed = _production_reached(plan)
    label = f"{what.capitalize()} {count}"
    body = Text()
    if scope:
        put(body, f"{scope}\n\n")
    body.append_text(plan_text(plan, shares))
    if typed is None:
        return ConfirmModal(title, body, confirm_label=label)
    reaches = "" if typed == "production" else "production environment "  # said once
    put(body, f"\nThis reaches {reaches}")
    put(body, typed, PRODUCTION)
    put(body, ".")
    return TypedConfirmModal(title, body, typed, confirm_label=label)


def ask_plan_overtaken(
    app: App[object], plan: Plan, moved: EditConflict, reload: Callable[[], object],
    anyway: Callable[[], object],
) -> None:  # fmt: skip
    """Flags of the plan changed since it read them: nothing sent; what changed, who, when."""
    lead = f"Since the plan was made, {moved.what} changed on the server"
    reload_says = "the plan made again on the flags as they are now."
    ask_overtaken(app, moved, lead, reload_says, _production_reached(plan), reload, anyway)


def outcome_text(outcomes: list[Outcome]) -> Text:
    out = Text()
    for o in outcomes:
        put(out, f"{o.outcome:<9} ", STYLES[o.outcome])
        put(out, o.feature, "bold")
        put(out, f"\n          {o.detail}\n")
    return out


class BulkResult(ResultDialog):
    """Each flag's outcome; Escape or Enter closes."""

    BINDINGS = [
        Binding(
            "escape", "close_result", "Close", id="bulk-result.close", tooltip="Back to the flags"
        )
    ]

    def __init__(self, plan: Plan, outcomes: list[Outcome], *, title: str = "") -> None:
        said = counted_outcomes(o.outcome for o in outcomes)
        super().__init__(
            title or f"{plan.change.action.capitalize()}: {said}", outcome_text(outcomes)
        )
        self.outcomes = outcomes

    @classmethod
    def unsent(cls, plan: Plan) -> BulkResult:
        """A plan with nothing to send: why, flag by flag."""
        outcomes = [
            Outcome(p.feature, "unchanged" if p.step == "unchanged" else "refused", p.detail)
            for p in plan.flags
        ]
        return cls(plan, outcomes, title="Nothing to send: no marked flag needs this change")
