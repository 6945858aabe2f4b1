"""How a start of the TUI goes, decided from files alone (the config, the start hints, the
remembered UI state) before anything costly is imported: whether the profile is validated
before the app, whether cached rows are drawn first, and which project's first page a cold start
reads early. The launch decides it (`launch.py`), and so does a cold start's early read, forked
before it (`early_read.py`): both read the same files, so they decide alike."""

from __future__ import annotations

from dataclasses import dataclass

from flagtui.profile import Profile, asks_token_command
from flagtui.row_cache_file import default_cache_dir
from flagtui.tui.areas import DEFAULT_AREA, FEATURES
from flagtui.tui.start_hint import (
    StartInputs,
    provisional,
    recall,
    start_inputs,
)
from flagtui.tui.state import UiState, default_state_path

EARLY_AREA = FEATURES  # the area read early: its rows go in the row cache under its name


@dataclass(frozen=True)
class StartPlan:
    inputs: StartInputs | None
    expected: Profile | None
    """A returning start: the profile these inputs opened last time, its cached rows first."""
    named: Profile
    """The profile the start names, unvalidated: the first frame's header."""
    validate_first: bool
    """No terminal to draw on, or a token_command that may ask the terminal for a passphrase."""
    early_project: str | None
    """A cold start of the features area: the project whose first page is read early."""


def plan_start(profile_arg: str | None, terminal: bool) -> StartPlan:
    inputs = start_inputs(profile_arg)
    expected = recall(default_cache_dir(), inputs) if inputs else None
    named = provisional(inputs, profile_arg)
    validate_first = not terminal or (expected is None and asks_token_command(named))
    early = remembered_early(named) if expected is None and not validate_first else None
    return StartPlan(inputs, expected, named, validate_first, early)


def remembered_early(named: Profile) -> str | None:
    """The project whose first page a cold start of `named` shows, when that is the features
    area's: the area and its project as the profile's remembered state has them."""
    state = UiState(default_state_path(), named.name)
    project = state.get("project")
    if not isinstance(project, str) or not project:  # a hand-edited file: "" would ask for all
        return None
    return project if (state.get("area") or DEFAULT_AREA) == EARLY_AREA else None
