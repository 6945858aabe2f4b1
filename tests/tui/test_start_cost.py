"""What a start pays for before its first frame (issue 17): modules imported, stylesheets parsed.

Not timed (the bench times): each checks that a cost that was removed stays removed."""

from __future__ import annotations

import subprocess
import sys

import pytest
from textual.css.stylesheet import Stylesheet

from flagtui.cli import tui_args
from testkit.pilot import settle

from .helpers import screen_text


def loaded_by(code: str) -> str:
    """What `code`, run by a fresh Python, prints: the modules it found loaded."""
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return loaded.stdout.strip() or loaded.stderr


def test_the_start_path_loads_no_commands_module_nor_the_archives_database_layer():
    """The commands' modules and SQLAlchemy (the delivery archive's) wait until used."""
    code = (
        "import sys, flagtui.cli, flagtui.tui.launch, flagtui.tui.app;"
        " import flagtui.tui.screens.features;"
        " flagtui.cli.tui_args(['-P', 'prod']);"
        " print(sorted(m for m in sys.modules"
        " if m.startswith(('sqlalchemy', 'flagtui.cli.commands.'))))"
    )
    assert loaded_by(code) == "[]"


def test_the_first_frame_needs_neither_the_client_nor_pydantic():
    """What a returning start imports before its first frame (the cached rows, see
    `start_hint.py`): the client, httpx and pydantic are imported once that frame is on
    screen. Fails on the code before: the app imported the client, and with it httpx and
    pydantic."""
    code = (
        "import sys, flagtui.cli, flagtui.tui.launch, flagtui.tui.app;"
        " import flagtui.tui.screens.features_layout;"
        " print(sorted(m for m, module in sys.modules.items() if module is not None and ("
        " m.partition('.')[0] in ('httpx', 'httpcore', 'pydantic', 'pydantic_core')"
        " or m == 'flagtui.api.client')))"
        # None: an import flagtui blocks (httpx's own command line, flagtui/__init__.py)
    )
    assert loaded_by(code) == "[]"


def test_the_first_frame_leaves_the_text_area_until_a_form_has_one():
    """TextArea's module (its document, themes and syntax hooks: about 10 ms) was imported by
    the type-ahead and the app only to ask whether the focus is one."""
    code = (
        "import sys, flagtui.cli, flagtui.tui.launch, flagtui.tui.app;"
        " import flagtui.tui.screens.features_layout;"
        " print(sorted(m for m in sys.modules if m.startswith('textual.widgets._text_area')))"
    )
    assert loaded_by(code) == "[]"


async def test_a_text_area_is_a_text_field_once_its_module_is_loaded():
    from textual.app import App
    from textual.widgets import Static, TextArea

    from flagtui.tui.widgets.focus import takes_text

    assert not takes_text(None)
    async with App().run_test() as pilot:
        area, label = TextArea("x"), Static("x")
        await pilot.app.mount(area, label)
        assert takes_text(area) and not takes_text(label)


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
    assert loaded_by(code) == "None"  # {} once the packages were scanned


async def test_the_first_area_is_shown_without_parsing_the_stylesheets_again(make_app, monkeypatch):
    """Before the fix: Textual parsed every stylesheet twice more when the first area's
    mode was shown (about 30 ms of a start)."""
    reparsed = []
    parse = Stylesheet.reparse
    monkeypatch.setattr(Stylesheet, "reparse", lambda sheet: reparsed.append(parse(sheet)))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "page 1/" in screen_text(app)
        await pilot.press("2")  # another area, built now: the same
        await settle(app, pilot)
        assert "Lifetime" in screen_text(app)
    assert reparsed == []


async def test_the_connect_answer_does_not_import_the_failures_view(make_app, monkeypatch):
    """Before the fix the app imported it to look for one to redraw (none at a start): triage,
    the feature detail and the SDK's engine came with it, before the first page's rows."""
    monkeypatch.delitem(sys.modules, "flagtui.tui.screens.failures", raising=False)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "page 1/" in screen_text(app)
        assert "flagtui.tui.screens.failures" not in sys.modules


def test_the_failures_view_leaves_the_flag_detail_until_a_flag_is_opened():
    """The failures view's first use (`5`) imports the view, not the flag detail its `o` opens:
    before the fix, the jump to a flag imported the detail at once, and with it the strategy
    editor and the SDKs' evaluation engine (about 0.1 s of the view's first use)."""
    code = (
        "import sys, flagtui.tui.app, flagtui.tui.screens.failures;"
        " print(sorted(m for m in sys.modules if m.partition('.')[0] == 'yggdrasil_engine'"
        " or m.startswith(('flagtui.tui.screens.feature_detail', 'flagtui.preview'))))"
    )
    assert loaded_by(code) == "[]"


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
    assert loaded_by(code) == "[]"
