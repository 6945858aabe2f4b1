"""The secret scan (issue 7): after the whole run, every token the run used is looked for in
every artifact it produced: files under pytest's temp dir (databases aside, which hold tokens by
design), snapshot and screenshot SVGs, benchmark results, and each test's captured output and
failure text. A token found anywhere fails the run, naming where (never the token).

Under pytest-xdist the controller scans: each worker's temp dir is inside the controller's (its
databases name that worker's tokens), and every worker's reports, output included, reach the
controller's `pytest_runtest_logreport`. A worker's own finish would scan only its share and
could not fail the run, so workers leave it to the controller."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parent
CANARY = "flagtui-canary-"  # tests that build a token of their own start it with this
DATABASE_SUFFIXES = (".db", ".db-wal", ".db-shm")
COMMITTED_ARTIFACTS = ("screenshots/*.svg", "tests/**/__snapshots__/**/*.svg", "bench/*.json")
# pytest-textual-snapshot writes this on a snapshot failure, with every environment variable
# of the run in it (the real server's token included): redacted before the scan.
SNAPSHOT_REPORT = ROOT / "snapshot_report.html"
REDACTED = b"[token redacted by the secret scan]"
_captured: list[tuple[str, str]] = []


def tokens_in_databases(folder: Path) -> set[str]:
    tokens: set[str] = set()
    for db in folder.rglob("*.db"):
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
                tokens |= {row[0] for row in conn.execute("SELECT secret FROM tokens")}
        except sqlite3.Error:
            continue
    return tokens


def artifact_files(basetemp: Path | None) -> Iterator[Path]:
    if basetemp is not None and basetemp.exists():
        for path in basetemp.rglob("*"):
            # databases and the credentials files the config tests write hold tokens by design
            by_design = path.name.endswith(DATABASE_SUFFIXES) or path.name == "tokens.toml"
            if path.is_file() and not by_design:
                yield path
    for pattern in COMMITTED_ARTIFACTS:
        yield from ROOT.glob(pattern)
    if SNAPSHOT_REPORT.exists():
        yield SNAPSHOT_REPORT


def redact(path: Path, tokens: set[str]) -> int:
    """Replace each token in the file; how many kinds of token were found."""
    try:
        data = path.read_bytes()
    except OSError:
        return 0
    found = [t.encode() for t in tokens if len(t) >= 12 and t.encode() in data]
    for token in found:
        data = data.replace(token, REDACTED)
    if found:
        path.write_bytes(data)
    return len(found)


def find_leaks(
    tokens: set[str], files: Iterable[Path], texts: Iterable[tuple[str, str]]
) -> list[str]:
    needles = [t.encode() for t in tokens if len(t) >= 12] + [CANARY.encode()]
    leaks = []
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if any(needle in data for needle in needles):
            leaks.append(str(path))
    for where, text in texts:
        if any(needle.decode() in text for needle in needles):
            leaks.append(where)
    return leaks


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    for name, content in report.sections:
        _captured.append((f"{report.nodeid} ({name})", content))
    if report.failed:
        _captured.append((f"{report.nodeid} (failure text)", report.longreprtext))


@pytest.hookimpl(trylast=True)  # after the snapshot plugin has written its report
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput"):  # a pytest-xdist worker: see the docstring
        return
    factory = getattr(session.config, "_tmp_path_factory", None)
    basetemp = factory.getbasetemp() if factory is not None else None
    tokens = tokens_in_databases(basetemp) if basetemp else set()
    if os.environ.get("UNLEASH_API_TOKEN"):
        tokens.add(os.environ["UNLEASH_API_TOKEN"])
    redacted = redact(SNAPSHOT_REPORT, tokens)
    leaks = find_leaks(tokens, artifact_files(basetemp), _captured)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"secret scan: {len(tokens)} tokens looked for in the run's artifacts and output: "
            + ("none found" if not leaks else f"FOUND in {len(leaks)} places")
        )
        if redacted:
            reporter.write_line(
                f"secret scan: {redacted} tokens redacted from {SNAPSHOT_REPORT.name}"
            )
        for where in leaks:
            reporter.write_line(f"  token leaked into: {where}", red=True)
    if leaks:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
