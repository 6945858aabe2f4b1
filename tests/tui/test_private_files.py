"""The TUI's files at rest (issue 23, item 3): state, row cache and start hints are written 0600
in a 0700 folder whatever the umask, a looser folder of flagtui's own is tightened, and a file
over the size cap is not read (a 150 MB row cache was) but said once, as a toast."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from held_transport import Held

from flagtui.private_files import MAX_JSON_BYTES
from flagtui.tui.files import take_notices
from flagtui.tui.row_cache import RowCache
from flagtui.tui.start_hint import HINTS_FILE, StartInputs, recall, remember
from flagtui.tui.state import UiState
from testkit.pilot import settle

from .helpers import screen_text, toast_text
from .row_cache_state import CACHED, app_on, cache_of, first_project


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def usual_umask() -> Iterator[None]:
    old = os.umask(0o022)  # files 0644 and folders 0755 unless flagtui says otherwise
    yield
    os.umask(old)


def test_state_rows_and_start_hints_are_the_users_alone(tmp_path, usual_umask) -> None:
    home = tmp_path / "new" / "flagtui"
    UiState(home / "state" / "state.json", "prod").set("area", "features")
    RowCache(home / "rows", "prod", "https://a.example").save("features", "default", CACHED)
    remember(home / "hints", StartInputs("digest", {}), "prod")
    files = [home / "state" / "state.json", home / "hints" / HINTS_FILE]
    files += list((home / "rows").glob("rows-*.json"))
    assert len(files) == 3
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    folders = [home / "state", home / "rows", home / "hints", home, home.parent]
    assert {str(d): mode(d) for d in folders} == {str(d): 0o700 for d in folders}


def test_a_looser_file_or_folder_is_tightened_when_written(tmp_path, usual_umask) -> None:
    folder = tmp_path / "state"
    folder.mkdir(mode=0o755)
    path = folder / "state.json"
    path.write_text("{}")
    path.chmod(0o644)
    UiState(path, "prod").set("area", "events")
    assert (mode(folder), mode(path)) == (0o700, 0o600)


def oversized(path: Path) -> Path:
    """A file over the cap (sparse: no disk used), its start valid JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        file.write(b'{"prod": {"area": "events"}}')
        file.truncate(150 * 1024 * 1024)
    assert path.stat().st_size > MAX_JSON_BYTES
    return path


def test_files_over_the_cap_are_not_read_and_said_once(tmp_path) -> None:
    state = oversized(tmp_path / "state.json")
    assert UiState(state, "prod").get("area") is None
    assert UiState(state, "prod").get("area") is None
    hints = oversized(tmp_path / "hints" / HINTS_FILE)
    assert recall(tmp_path / "hints", StartInputs("digest", {})) is None
    notices = take_notices()
    assert [n.split(" is ")[0] for n in notices] == [str(state), str(hints)]
    assert all("ignored" in n for n in notices)


async def test_an_oversized_row_cache_is_said_as_a_toast(sandbox, tmp_path) -> None:
    project = await first_project(sandbox)
    cache = cache_of(sandbox, tmp_path)
    oversized(cache.path)
    app = app_on(sandbox, tmp_path, project, Held(lambda path: False))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await settle(app, pilot)
        said = toast_text(app)
        assert f"{cache.path} is 157,286,400 bytes" in said and "ignored" in said
        assert "page 1/" in screen_text(app)  # the area works from the server
