"""The areas of flagtui: one screen per area, registered in `AREAS`.

A module of its own, below the screens and the widgets: the header and the app read it, and
it names each screen as a string, imported only when the area is first opened.

To add an area:
1. Write `flagtui/tui/screens/<area>.py` with a screen class deriving from
   `flagtui.tui.screens.base.AreaScreen`: set `AREA = "<name>"`, yield the body in
   `compose_body()`, do all I/O in `@work(exclusive=True, group=..., exit_on_error=False)`
   methods of the screen (failures reach the one error handler in `base.py`), and list write
   actions in `WRITE_ACTIONS` (hidden and refused on read-only profiles). Shared keys are
   parts the screen holds, not base classes: `x` (an integration on/off,
   `screens/integration_switch.py`) and `t` (a flag on/off in one environment,
   `screens/env_toggle.py`) each give a binding and a write action, and the screen's action
   method calls the part.
2. Add ONE line to `AREAS` below: name, title, short bar label, global key (`""`: none), the
   screen as "module:Class" (imported only when the area is first opened), and
   `enterprise_only=True` when the server needs Unleash Enterprise.
The app turns each entry into a mode and a command palette entry; an area with a key also gets
a global key binding and a slot in the header's area bar (the keys 1-9 are taken, and the bar
fits 80 columns with nine: the others are reached from the command palette, ctrl+p, and the
bar names one while it is open). Register only areas that exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from textual.screen import Screen


@dataclass(frozen=True)
class Area:
    name: str
    title: str
    short: str
    key: str
    screen: str
    enterprise_only: bool = False
    description: str = ""

    def make_screen(self, **options: Any) -> Screen[None]:
        """The area's screen; `options` preset it (a jump from another record, such as the
        event log filtered to one flag)."""
        module, _, cls = self.screen.partition(":")
        screen: Screen[None] = getattr(import_module(module), cls)(**options)
        return screen


FEATURES = "features"
"""The features area's name: its screen, and its rows in the row cache."""

AREAS: tuple[Area, ...] = (
    Area(FEATURES, "Features", "Flags", "1", "flagtui.tui.screens.features:FeaturesScreen",
         description="Search, inspect and patch feature flags"),
    Area("feature-types", "Feature types", "Types", "2",
         "flagtui.tui.screens.feature_types:FeatureTypesScreen",
         description="Lifetimes after which flags become potentially stale"),
    Area("environments", "Project environments", "Envs", "3",
         "flagtui.tui.screens.environments:EnvironmentsScreen",
         description="Environments linked to the current project"),
    Area("integrations", "Integrations", "Integr", "4",
         "flagtui.tui.screens.integrations:IntegrationsScreen",
         description="Integrations, their recent failures and deliveries"),
    Area("failures", "Failures", "Fails", "5", "flagtui.tui.screens.failures:FailuresScreen",
         description="Every unsuccessful delivery of every integration"),
    Area("events", "Event log", "Events", "6", "flagtui.tui.screens.events:EventsScreen",
         description="Search the audit log by type, project, feature and text"),
    Area("users", "Users", "Users", "7", "flagtui.tui.screens.users:UsersScreen",
         description="Search users by name, username or e-mail"),
    Area("access", "Project access", "Access", "8", "flagtui.tui.screens.access:AccessScreen",
         enterprise_only=True, description="Who holds which roles in a project; grant roles"),
    Area("change-requests", "Change requests", "CRs", "9",
         "flagtui.tui.screens.change_requests:ChangeRequestsScreen", enterprise_only=True,
         description="A project's change requests: inspect and delete"),
    Area("context-fields", "Context fields", "Context", "",
         "flagtui.tui.screens.context_fields:ContextFieldsScreen",
         description="Context fields: legal values, stickiness, where used; create, edit, delete"),
    Area("segments", "Segments", "Segs", "", "flagtui.tui.screens.segments:SegmentsScreen",
         description="Segments: who they match, where used; new, edit (previewed), delete"),
    Area("api-tokens", "API tokens", "Tokens", "", "flagtui.tui.screens.api_tokens:ApiTokensScreen",
         description="SDK and frontend keys: list, create (secret shown once), revoke"),
)  # fmt: skip

AREAS_BY_NAME = {area.name: area for area in AREAS}
DEFAULT_AREA = FEATURES
