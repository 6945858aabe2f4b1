"""What the rollout tests of the feature detail share (the `0`/`D` keys, the strategy form):
the demo's example rollouts, opening a flag's detail, the environment picker, the form, its
review and the confirmation."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from flagtui.api import AdminClient
from flagtui.api.models import Constraint, Strategy
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.strategy_form import StrategyFormScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import press_confirm, settle
from testkit.second_admin import second_admin

from .helpers import Wrapped, screen_text, toast_text, visible_text

DEMO = "default"
PATH = "/api/admin/projects/default/features/{}/environments/production/strategies/{}"
SPLIT = "A/B split"  # a gradual rollout at 100 %, no constraint (demo_rollouts.py)


def demo_flag(db_path: Path, title: str) -> str:
    """The flag of the demo's example rollout `title` (flagtui/sandbox/demo_rollouts.py)."""
    with sqlite3.connect(db_path) as conn:
        row = conn.execute("SELECT feature FROM strategies WHERE title = ?", (title,)).fetchone()
    return str(row[0])


async def open_detail(app: FlagtuiApp, pilot: Any, name: str) -> FeatureDetailScreen:
    app.push_screen(FeatureDetailScreen(DEMO, name))
    await settle(app, pilot)
    assert isinstance(app.screen, FeatureDetailScreen)
    return app.screen


async def pick_production(app: FlagtuiApp, pilot: Any) -> None:
    """The environment picker, when the flag has several environments to offer."""
    if isinstance(app.screen, ChoicePicker):
        labels = app.screen.labels
        index = next(i for i, label in enumerate(labels) if label.startswith(f"{ENVIRONMENT} "))
        app.screen.query_one(OptionList).highlighted = index
        await pilot.press("enter")
        await settle(app, pilot)


async def open_form(app: FlagtuiApp, pilot: Any, name: str, key: str) -> StrategyFormScreen:
    await open_detail(app, pilot, name)
    await pilot.press(key)
    await settle(app, pilot)
    await pick_production(app, pilot)
    assert isinstance(app.screen, StrategyFormScreen), screen_text(app)
    return app.screen


async def review(app: FlagtuiApp, pilot: Any) -> None:
    await pilot.press("ctrl+r")
    await settle(app, pilot)


async def confirm(app: FlagtuiApp, pilot: Any, title: str) -> Wrapped:
    """The question's body, after checking its title; then its confirm button pressed."""
    assert isinstance(app.screen, ConfirmModal), toast_text(app)
    assert title in visible_text(app, ".dialog-title")
    body = visible_text(app, ".dialog-body")
    await press_confirm(app, pilot)
    await settle(app, pilot)
    return body


async def until_shown(app: FlagtuiApp, pilot: Any, kind: type) -> None:
    """Until the top screen is a `kind` (a question waits for its preview, seconds of CPU on a
    busy machine): each settle waits for the workers, the guard only stops a hang."""
    for _ in range(12):
        if isinstance(app.screen, kind):
            return
        await settle(app, pilot)
    assert isinstance(app.screen, kind), screen_text(app)


VIP = Constraint(context_name="userId", operator="IN", values=["vip-only"])


async def vip_only(sandbox, name: str, strategy: Strategy) -> str:
    """Another admin, with a profile of their own, narrows the strategy to VIPs; their name."""
    token, who = second_admin(sandbox)
    async with AdminClient(sandbox.url, token, profile="other") as other:
        await other.connect()
        narrowed = strategy.model_copy(update={"constraints": [VIP], "title": "VIPs only"})
        await other.rollouts.update(DEMO, name, ENVIRONMENT, narrowed)
    return who


def rules(s: Strategy) -> list[tuple[str, str, list[str]]]:
    return [(c.context_name, str(c.operator), list(c.values or [])) for c in s.constraints or []]
