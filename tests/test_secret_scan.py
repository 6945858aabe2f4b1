"""The secret scan of the root conftest can fail: it finds a planted token in a file and in
captured output, and passes clean ones."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from inner_pytest import ROOT, run_pytest

spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
assert spec and spec.loader
scan = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scan)

TOKEN = "*:*.0123456789abcdef0123"


def test_a_token_in_a_file_is_found(tmp_path):
    clean, dirty = tmp_path / "clean.svg", tmp_path / "dirty.svg"
    clean.write_text("<svg>Authorization: ****</svg>")
    dirty.write_text(f"<svg>{TOKEN}</svg>")
    assert scan.find_leaks({TOKEN}, [clean, dirty], []) == [str(dirty)]


def test_a_token_in_captured_output_is_found():
    texts = [("test_a (stdout)", "all fine"), ("test_b (log)", f"header {TOKEN}")]
    assert scan.find_leaks({TOKEN}, [], texts) == ["test_b (log)"]


def test_the_canary_prefix_is_always_looked_for():
    assert scan.find_leaks(set(), [], [("t", "*:*.flagtui-canary-x")]) == ["t"]


def test_tokens_are_read_from_sandbox_databases(sandbox):
    found = scan.tokens_in_databases(Path(sandbox.db_path).parent)
    assert {sandbox.admin_token, sandbox.viewer_token} <= found


def test_databases_and_credentials_files_are_not_artifacts(tmp_path):
    for name in ("a.db", "a.db-wal", "tokens.toml", "shot.svg"):
        (tmp_path / name).write_text("x")
    names = {p.name for p in scan.artifact_files(tmp_path) if p.parent == tmp_path}
    assert names == {"shot.svg"}


def test_the_snapshot_report_is_redacted(tmp_path):
    """pytest-textual-snapshot's failure report holds the run's environment variables."""
    report = tmp_path / "snapshot_report.html"
    report.write_text(f"<td>UNLEASH_API_TOKEN</td><td>{TOKEN}</td> and again {TOKEN}")
    assert scan.redact(report, {TOKEN, "short"}) == 1
    assert TOKEN not in report.read_text() and "redacted" in report.read_text()
    assert scan.find_leaks({TOKEN}, [report], []) == []


LEAKING_TESTS = """
import os

def test_writes_the_token_to_an_artifact(tmp_path):
    (tmp_path / "shot.svg").write_text(os.environ["UNLEASH_API_TOKEN"])

def test_prints_the_token():
    print(os.environ["UNLEASH_API_TOKEN"])
"""


def test_tokens_leaked_in_xdist_workers_are_found(tmp_path):
    """`./dev test` runs several workers: the controller's scan still sees each worker's temp dir
    and output, and fails the run."""
    (tmp_path / "test_leaks.py").write_text(LEAKING_TESTS)
    run = run_pytest(
        tmp_path,
        *("-p", "conftest", "-n", "2", "--basetemp", str(tmp_path / "run"), "test_leaks.py"),
        env={"UNLEASH_API_TOKEN": TOKEN},
    )
    out = run.stdout
    leaks = {line.strip() for line in out.splitlines() if "token leaked into:" in line}
    assert run.returncode == 1 and "2 passed" in out, out
    assert any("popen-gw" in leak and leak.endswith("shot.svg") for leak in leaks), out
    assert any("test_prints_the_token (Captured stdout call)" in leak for leak in leaks), out
