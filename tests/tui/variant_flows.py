"""What the environment-variants form's tests share: a demo flag that holds variants, and
the form opened on it from the flag's detail (`V`, the environment picked when asked)."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from flagtui.api import AdminClient
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.variant_form import VariantFormScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from testkit.pilot import settle

from .helpers import screen_text

PROJECT = "payments"


async def holder(client: AdminClient) -> tuple[str, str]:
    """A flag of the demo with variants in one environment (Unleash writes only those), and
    that environment, switched on (the preview gives a variant)."""
    return next(
        (f.name, e.name)
        for f in await client.features.list(PROJECT)
        for e in f.environments or []
        if e.variant_count and e.enabled
    )


async def open_form(
    app: FlagtuiApp, pilot: Any, name: str, env: str, *, failures: bool = False
) -> VariantFormScreen:
    """`failures`: the app's failed workers are expected (a fault test)."""
    await settle(app, pilot, failures=failures)
    app.push_screen(FeatureDetailScreen(PROJECT, name))
    await settle(app, pilot, failures=failures)
    await pilot.press("V")
    await settle(app, pilot, failures=failures)
    if isinstance(app.screen, ChoicePicker):
        index = next(i for i, label in enumerate(app.screen.labels) if label.startswith(f"{env} "))
        app.screen.query_one(OptionList).highlighted = index
        await pilot.press("enter")
        await settle(app, pilot, failures=failures)
    assert isinstance(app.screen, VariantFormScreen), screen_text(app)
    return app.screen
