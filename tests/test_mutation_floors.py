"""The mutation score floors (scripts/mutation_floors.toml) only go up: each module's floor is at
least 90 % and at least what every committed version of the file said, and the floors name the
modules pyproject.toml's [tool.mutmut] mutates, whose test files are there."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOORS = "scripts/mutation_floors.toml"
START = 90.0


def floors(text: str) -> dict[str, float]:
    return dict(tomllib.loads(text)["floors"])


def committed_versions() -> list[tuple[str, dict[str, float]]]:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout

    commits = git("log", "--format=%h", "--", FLOORS).split()
    return [(c, floors(git("show", f"{c}:{FLOORS}"))) for c in commits]


def lowered(now: dict[str, float], before: dict[str, float]) -> list[str]:
    return [
        f"{module}: {now.get(module, 0.0)} < {floor}"
        for module, floor in before.items()
        if now.get(module, 0.0) < floor
    ]


def test_no_floor_is_below_the_start_or_lower_than_a_committed_one() -> None:
    now = floors((ROOT / FLOORS).read_text(encoding="utf-8"))
    assert all(floor >= START for floor in now.values()), now
    for commit, before in committed_versions():
        assert not lowered(now, before), f"a floor went down since {commit}"


def test_a_lowered_or_dropped_floor_is_caught() -> None:
    before = {"a.py": 92.5, "b.py": 95.0}
    assert lowered({"a.py": 92.5, "b.py": 95.0, "c.py": 90.0}, before) == []
    assert lowered({"a.py": 92.4, "b.py": 95.0}, before) == ["a.py: 92.4 < 92.5"]
    assert lowered({"a.py": 93.0}, before) == ["b.py: 0.0 < 95.0"]


def test_the_floors_name_the_modules_mutmut_mutates() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mutated = pyproject["tool"]["mutmut"]["only_mutate"]
    now = floors((ROOT / FLOORS).read_text(encoding="utf-8"))
    assert sorted(now) == sorted(mutated)


def test_the_tests_mutmut_runs_are_there() -> None:
    """A test file mutmut is told to run but cannot find would leave its mutants unreached."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    selected = pyproject["tool"]["mutmut"]["pytest_add_cli_args_test_selection"]
    assert [path for path in selected if not (ROOT / path).is_file()] == []
