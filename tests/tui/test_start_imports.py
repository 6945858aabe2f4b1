"""What the start path imports: every module is paid for before the first frame (issue 17)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from flagtui.cli import tui_args


def test_the_start_path_leaves_the_commands_and_the_on_call_modules_until_they_are_used():
    code = (
        "import sys, flagtui.cli, flagtui.tui.launch, flagtui.tui.app;"
        " import flagtui.tui.screens.features;"
        " flagtui.cli.tui_args(['-P', 'prod']);"
        " print(sorted(m for m in sys.modules"
        " if m.startswith(('flagtui.archive', 'flagtui.triage', 'flagtui.cli.'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.stdout.strip() == "[]", loaded.stderr


@pytest.mark.parametrize(
    ("argv", "profile"), [([], None), (["-P", "prod"], "prod"), (["--profile=prod"], "prod")]
)
def test_the_tui_is_opened_without_the_commands_parser(argv, profile):
    args = tui_args(argv)
    assert args is not None and args.profile == profile


@pytest.mark.parametrize(
    "argv", [["--help"], ["--version"], ["feature", "list"], ["-P"], ["-P", "x", "demo"], ["-x"]]
)
def test_anything_else_goes_to_the_full_parser(argv):
    assert tui_args(argv) is None


def test_pydantic_does_not_look_for_plugins_at_start():
    code = (
        "import os; os.environ.pop('PYDANTIC_DISABLE_PLUGINS', None);"
        " import flagtui.cli; flagtui.cli.without_pydantic_plugins();"
        " import flagtui.config, flagtui.api.models; from pydantic.plugin import _loader;"
        " flagtui.api.models.Feature.model_validate({'name': 'f'});"
        " print(_loader._plugins)"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.stdout.strip() == "None", loaded.stderr  # {} once the packages were scanned
