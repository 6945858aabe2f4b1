"""README's "Install for daily use": the built wheel, installed into a fresh environment (what
`uv tool install` and `pipx install` do), gives a `flagtui` that runs, with its package data.

Built and installed with the installer `./dev` uses: uv (in .venv or on PATH), else pip. The
dependencies come from that installer's cache, or its index when the cache lacks them."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What a wheel is built from (copied, so the build leaves no build/ folder in the work tree).
SOURCES = ("pyproject.toml", "README.md", "flagtui")


def _run(*argv: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{argv} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done.stdout


def _uv() -> str | None:
    return shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")


def _build_wheel(source: Path, dist: Path) -> Path:
    uv = _uv()
    if uv:
        _run(uv, "build", "--wheel", "--out-dir", dist, source)
    else:
        _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", dist, source)
    (wheel,) = dist.glob("flagtui-*.whl")
    return wheel


def _fresh_environment_with(wheel: Path, env: Path) -> Path:
    uv = _uv()
    if uv:
        _run(uv, "venv", "--python", sys.executable, env)
        _run(uv, "pip", "install", "--python", env / "bin" / "python", wheel)
    else:
        _run(sys.executable, "-m", "venv", env)
        _run(env / "bin" / "python", "-m", "pip", "install", wheel)
    return env / "bin" / "flagtui"


@pytest.mark.slow
def test_the_built_wheel_installs_into_a_fresh_environment_and_runs(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy(ROOT / name, source / name)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]

    wheel = _build_wheel(source, tmp_path / "dist")
    assert wheel.name.startswith(f"flagtui-{version}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"flagtui/tui/flagtui.tcss", "flagtui/py.typed"} <= names

    flagtui = _fresh_environment_with(wheel, tmp_path / "env")
    printed = _run(flagtui, "--version", cwd=tmp_path).split()
    assert printed == ["flagtui", version]
