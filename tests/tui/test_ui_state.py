"""What the app remembers between runs (flagtui/tui/state.py): read once, written through."""

from __future__ import annotations

import json
from pathlib import Path

from flagtui.tui.state import UiState


def test_get_reads_the_file_once(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"work": {"area": "events", "project": "payments"}}))
    state = UiState(path, "work")
    assert state.get("area") == "events"
    path.write_text("{}")  # later reads answer from memory
    assert state.get("area") == "events"
    assert state.get("project") == "payments"


def test_set_keeps_what_other_profiles_wrote(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    state = UiState(path, "work")
    assert state.get("area") is None
    path.write_text(json.dumps({"home": {"area": "users"}}))  # another flagtui, meanwhile
    state.set("area", "features")
    assert state.get("area") == "features"
    assert json.loads(path.read_text()) == {"home": {"area": "users"}, "work": {"area": "features"}}
    assert UiState(path, "home").get("area") == "users"


def test_a_broken_file_or_entry_means_nothing_remembered(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"work": "not an object"}))
    assert UiState(path, "work").get("area") is None
    path.write_text("{not json")
    state = UiState(path, "work")
    assert state.get("area") is None
    state.set("area", "events")
    assert json.loads(path.read_text()) == {"work": {"area": "events"}}
