"""Every command test runs `flagtui.cli.main([...])` in-process against its own sandbox, with
config and credentials in tmp_path and the sandbox as the `env` profile (UNLEASH_URL and
UNLEASH_API_TOKEN). `run(...)` returns the exit code, stdout and stderr; `server` reads the
sandbox's state back over HTTP (a plain httpx client, not flagtui's)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from flagtui.cli import main
from testkit.event_count import event_count  # noqa: F401  (tests import it from here)


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)

    @property
    def error(self) -> dict[str, Any]:
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err
        return json.loads(lines[0])["error"]

    @property
    def line(self) -> str:
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err
        assert "Traceback" not in self.err
        return lines[0]


Run = Callable[..., Result]


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox) -> Path:
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    monkeypatch.setenv("UNLEASH_URL", sandbox.url)
    monkeypatch.setenv("UNLEASH_API_TOKEN", sandbox.admin_token)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # delivery archives
    return tmp_path


@pytest.fixture
def run(cli_env: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    def invoke(*argv: str) -> Result:
        capsys.readouterr()
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse: usage errors and --help
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


@pytest.fixture
def server(sandbox) -> Iterator[httpx.Client]:
    with httpx.Client(
        base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}, timeout=30
    ) as http:
        yield http
