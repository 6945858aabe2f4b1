"""9. Commands (issue 26): a `flagtui` command as a script meets it. For each command, the
process's wall time (`Popen` to exit, the console script as installed) and its import time (the
own times `python -X importtime` lists, summed over the modules Python's own start does not
import), each against its budget; Python's own start (`python -c pass`, same interpreter and
environment) is measured beside them as the floor.

With bytecode: an uncounted first run of each command writes the .pyc files (the bench's
environment does not carry PYTHONDONTWRITEBYTECODE), as pip compiles an installed package;
`commands_bytecode` says whether they were there. Without them every start compiles what it
imports from source: not what an installed flagtui does.

The commands that send nothing (`--version`, `--help`, a noun's and a command's `--help`, a
usage error) import no Textual, httpx, pydantic or SQLAlchemy (tests/cli/test_start_imports.py
checks the modules; only this figure times them). `feature list` reads the demo sandbox;
`failures` reads an archive collected from it once (`collect --once`): its 8,000-odd deliveries
make it the import cost, not the 1M-row reads of bench/figures/archive.py;
`failures_archive_config` is the same with its profile from a config file, as a user with
profiles runs it. Every command's
`--help` is run once more, the slowest is `cmd_help_slowest_s` (`commands_detail` names it).
Median of 7 runs each (3 quick), the commands taking turns; `commands_detail.cpu_s` has each
one's CPU time (user + system), which a busy machine inflates less than the wall time.
"""

from __future__ import annotations

import importlib.util
import os
import resource
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness import (
    FLAGTUI,
    PY,
    ROOT,
    Sandbox,
    base_env,
    curl_jq_feature_list,
    log,
    median,
    rnd,
)


@dataclass(frozen=True)
class Case:
    key: str  # the figures: cmd_<key>_s and cmd_<key>_import_ms
    argv: tuple[str, ...]
    wall_s: float | None  # budget: Popen to exit (None: none)
    import_ms: float | None  # budget: `-X importtime`'s total (None: see BEYOND_NEEDS_MS)
    code: int = 0  # the exit code it must end with
    config: bool = False  # its profile from a config file, not from the environment
    python: str | None = None  # a `python -c` script run instead of the console script


# Budgets. Wall: issue 26's target of 0.08 s for a start that sends nothing (a compiled tool's
# feel); none for `feature list` (issue 45: it pays the client's imports and a round trip per
# page, with no target against curl + jq on loopback), nor for `failures` from an archive
# (issue 43: an archive answers only up to its last collection, so the rest of the window is
# read from the server through the client: issue 26's 0.15 s was for an answer that could be
# incomplete).
# Imports: half of what the wall budget leaves after Python's own start (about 0.03 s here),
# the other half for the work.
PYTHON_START_S = 0.03


def _half_left(wall_s: float) -> int:
    """The import budget: half of what the wall budget leaves after Python's own start, ms."""
    return round((wall_s - PYTHON_START_S) / 2 * 1000)


# `feature list` reads its pages through the client: its imports are held to what that needs,
# timed alone in the same run (NEEDS: asyncio, the client with its features area, the page's
# model with its schema built; tests/cli/test_start_imports.py names the libraries), plus the
# budget of a start that sends nothing (the command line, the profile, the output): what it
# imports beyond what it uses, which is what the budget guards.
BEYOND_NEEDS_MS = _half_left(0.08)
NEEDS = Case(
    "feature_list_needs",
    (),
    0.0,
    None,
    python="import asyncio; from flagtui.api import AdminClient;"
    " AdminClient('http://127.0.0.1:9', 'token').features;"
    " from flagtui.api.models import FeaturePage; from flagtui.api.wire import adapter;"
    ' adapter(FeaturePage).validate_json(b\'{"features": [], "total": 0}\')',
)
FLOOR_SCRIPT = ROOT / "bench" / "floor_feature_list.py"
FAILURES = ("failures", "--since", "24h", "-o", "json")
CASES = tuple(
    Case(key, argv, wall, None if wall is None else _half_left(wall), code, config)
    for key, argv, wall, code, config in (
        ("version", ("--version",), 0.08, 0, False),
        ("help", ("--help",), 0.08, 0, False),
        ("noun_help", ("feature", "--help"), 0.08, 0, False),
        ("command_help", ("feature", "list", "--help"), 0.08, 0, False),
        ("usage_error", ("feature", "show"), 0.08, 2, False),  # its arguments missing
        ("feature_list", ("feature", "list", "--project", "default", "-o", "json"), None, 0, False),
        ("failures_archive", FAILURES, None, 0, False),
        ("failures_archive_config", FAILURES, None, 0, True),  # as a user with profiles runs it
    )
)
FEATURE_LIST = next(c for c in CASES if c.key == "feature_list")
FLOOR = Case("python", (), 0.0, None, python="pass")  # no budget: the floor
COMMAND_TARGETS = {
    **{f"cmd_{c.key}_s": ("<=", c.wall_s) for c in CASES if c.wall_s is not None},
    **{f"cmd_{c.key}_import_ms": ("<=", c.import_ms) for c in CASES if c.import_ms is not None},
    "cmd_feature_list_import_beyond_needs_ms": ("<=", BEYOND_NEEDS_MS),
}
COMMAND_KEYS = [
    "cmd_python_s", "cmd_python_import_ms",
    *(k for c in CASES for k in (f"cmd_{c.key}_s", f"cmd_{c.key}_import_ms")),
    "cmd_feature_list_needs_import_ms", "cmd_feature_list_import_beyond_needs_ms",
    "cmd_feature_list_curl_jq_s", "cmd_feature_list_floor_s",
    "cmd_help_slowest_s",
]  # fmt: skip


def bench_commands(demo: Sandbox, runs: int) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="flagtui-bench-home-"))
    env = base_env(home) | {"UNLEASH_URL": demo.url, "UNLEASH_API_TOKEN": demo.token}
    # A config file naming the same server (the token still from the environment, which
    # applies to it once UNLEASH_URL is unset): the same archive, read as most users read it.
    config = home / "config-file" / "flagtui" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'default_profile = "bench"\n[profiles.bench]\nurl = "{demo.url}"\n')
    with_config = {k: v for k, v in env.items() if k != "UNLEASH_URL"}
    with_config["XDG_CONFIG_HOME"] = str(config.parent.parent)

    def argv(case: Case, *python_options: str) -> list[str]:
        """The console script, as a script runs it; with Python's options, run by Python."""
        if case.python is not None:
            return [PY, *python_options, "-c", case.python]
        script = [PY, *python_options, FLAGTUI] if python_options else [FLAGTUI]
        return [*script, *case.argv]

    def run(
        command: list[str], expected: int, config: bool = False
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            command, env=with_config if config else env, cwd=home, capture_output=True, text=True
        )
        if done.returncode != expected:
            raise RuntimeError(f"{command[1:]} exited {done.returncode}: {done.stderr[-2000:]}")
        return done

    cpu: dict[str, list[float]] = {}  # user + system: a busy machine's wait for a core left out

    def wall(case: Case) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        run(argv(case), case.code, case.config)
        took = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        cpu.setdefault(case.key, []).append(used)
        return took

    def imported(case: Case) -> dict[str, int]:
        """Each module `-X importtime` lists, with its own time in microseconds."""
        rows = run(argv(case, "-X", "importtime"), case.code, case.config).stderr.splitlines()
        cells = [r.split("|") for r in rows if r.startswith("import time:") and r.count("|") == 2]
        return {c[2].strip(): int(c[0].rpartition(":")[2]) for c in cells if c[1].strip().isdigit()}

    pythons_own: set[str] = set()  # what `python -c pass` imports: site, encodings, ...

    def own_ms(times: dict[str, int], beside: dict[str, int] | None = None) -> float:
        """Milliseconds importing what Python's own start does not, nor what `beside` lists."""
        counted_out = pythons_own | set(beside or ())
        return sum(us for name, us in times.items() if name not in counted_out) / 1000

    def import_ms(case: Case, times: dict[str, int]) -> float:
        """Milliseconds importing what Python's own start does not (the floor: all of it)."""
        if case is FLOOR:
            pythons_own.update(times)
            return sum(times.values()) / 1000
        return own_ms(times)

    # The yardsticks of `feature list`, the same two requests: curl + jq (the issue's), and
    # Python with flagtui's libraries and nothing of flagtui (bench/floor_feature_list.py).
    yardsticks = {
        "feature_list_curl_jq": curl_jq_feature_list(demo.url, demo.token, "default"),
        "feature_list_floor": [PY, str(FLOOR_SCRIPT), demo.url, demo.token],
    }
    if not (shutil.which("curl") and shutil.which("jq")):
        del yardsticks["feature_list_curl_jq"]

    def yardstick(key: str) -> float:
        t0 = time.perf_counter()
        run(yardsticks[key], 0)
        return time.perf_counter() - t0

    try:
        run([FLAGTUI, "collect", "--once"], 0)  # the archive `failures` reads
        for command in yardsticks.values():  # uncounted: writes the bytecode
            run(command, 0)
        for case in (FLOOR, NEEDS, *CASES):  # uncounted: writes the bytecode
            run(argv(case), case.code, case.config)
        walls: dict[str, list[float]] = {}
        imports: dict[str, list[float]] = {}
        beyond: list[float] = []
        for i in range(runs):
            listed: dict[str, int] = {}  # what `feature list` imported in this round
            for case in (FLOOR, *CASES):
                walls.setdefault(case.key, []).append(wall(case))
                times = imported(case)
                imports.setdefault(case.key, []).append(import_ms(case, times))
                if case is FEATURE_LIST:
                    listed = times
            # What `feature list` imports that reading its page does not (by module: a
            # module's own time varies run by run, more than the difference of two totals).
            needs = imported(NEEDS)
            imports.setdefault(NEEDS.key, []).append(own_ms(needs))
            beyond.append(own_ms(listed, beside=needs))
            for key in yardsticks:
                walls.setdefault(key, []).append(yardstick(key))
            log(f"commands {i}: " + ", ".join(f"{k} {v[-1]:.3f}s" for k, v in walls.items()))
        helps = {words: _help_wall(words, env, home) for words in _every_command()}
    finally:
        shutil.rmtree(home, ignore_errors=True)
    slowest = max(helps, key=lambda w: helps[w])
    results: dict[str, Any] = {}
    for case in (FLOOR, *CASES):
        results[f"cmd_{case.key}_s"] = rnd(median(walls[case.key]))
        results[f"cmd_{case.key}_import_ms"] = rnd(median(imports[case.key]), 1)
    results["cmd_feature_list_needs_import_ms"] = rnd(median(imports[NEEDS.key]), 1)
    results["cmd_feature_list_import_beyond_needs_ms"] = rnd(median(beyond), 1)
    for key in ("feature_list_curl_jq", "feature_list_floor"):
        results[f"cmd_{key}_s"] = rnd(median(walls[key])) if key in walls else None
    results["cmd_help_slowest_s"] = rnd(helps[slowest])
    results["commands_bytecode"] = _bytecode()
    results["commands_detail"] = {
        "help_slowest": f"flagtui {slowest} --help",
        "help_s": {words: rnd(s) for words, s in helps.items()},
        "runs_s": {k: [rnd(x) for x in xs] for k, xs in walls.items()},
        "cpu_s": {k: rnd(median(xs)) for k, xs in cpu.items()},
        "import_runs_ms": {k: [rnd(x, 1) for x in xs] for k, xs in imports.items()},
    }
    return results


def _every_command() -> list[str]:
    from flagtui.cli.commands import COMMANDS

    return [entry.words for entry in COMMANDS]


def _help_wall(words: str, env: dict[str, str], home: Path) -> float:
    """One `flagtui WORDS --help` after an uncounted one (its command's module compiled)."""
    command = [FLAGTUI, *words.split(), "--help"]
    subprocess.run(command, env=env, cwd=home, capture_output=True, check=True)
    t0 = time.perf_counter()
    subprocess.run(command, env=env, cwd=home, capture_output=True, check=True)
    return time.perf_counter() - t0


def _bytecode() -> str:
    """Whether the runs found .pyc files: flagtui's command line's and a dependency's (httpx)."""
    httpx = importlib.util.find_spec("httpx")
    sources = {
        "flagtui": ROOT / "flagtui" / "cli" / "parser.py",
        "httpx": Path(httpx.origin if httpx and httpx.origin else "httpx"),
    }
    missing = [
        name
        for name, source in sources.items()
        if not os.path.exists(importlib.util.cache_from_source(str(source)))
    ]
    return f"missing ({', '.join(missing)}): every start compiled them" if missing else "present"
