"""What Enter on a feature pays for before the detail's first frame (issue 26).

Not timed (the bench times): each checks that a cost that was removed stays removed."""

from __future__ import annotations

import subprocess
import sys


def test_the_detail_leaves_the_strategy_form_and_the_sdk_engine_until_a_form_opens():
    """The first Enter imported the strategy form, and with it the preview's SDK engine (about
    20 ms, two thirds of the detail's imports), for a key most details never see pressed.
    Fails on the code before: strategy_keys imported the form at its top."""
    code = (
        "import sys, flagtui.tui.app, flagtui.tui.screens.features;"
        " import flagtui.tui.screens.feature_detail;"
        " print(sorted(m for m in sys.modules if m.startswith(("
        " 'flagtui.tui.screens.strategy_form', 'flagtui.preview', 'yggdrasil_engine'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.stdout.strip() == "[]", loaded.stdout + loaded.stderr
