"""Which subsystems a command's start loads, by name: `--version`, `--help`, a noun's or a
command's `--help` and a usage error load no UI, HTTP, model, database or evaluation library; a
command loads only the subsystems it uses (`feature list`: the client's, named below). Asserted
on the modules `python -X importtime` lists, never on times (bench/figures/commands.py times
them)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from .processes import command_env

# Textual (and rich, its renderer), the client's HTTP and models, the delivery archive's
# database layer, the sandbox's server, the SDKs' evaluation engine.
HEAVY = (
    "textual", "rich", "httpx", "httpcore", "pydantic", "pydantic_core", "sqlalchemy",
    "starlette", "uvicorn", "yggdrasil_engine",
)  # fmt: skip


def imported(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, set[str]]:
    """The exit code of `python -X importtime -m flagtui ARGV`, and every module it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flagtui", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    rows = [line.split("|") for line in done.stderr.splitlines() if line.startswith("import time:")]
    modules = {row[2].strip() for row in rows if row[1].strip().isdigit()}
    assert modules, done.stderr  # importtime's rows were read: an empty set proves nothing
    return done.returncode, modules


# Starts that send nothing, with their exit codes: every test below runs these.
QUIET = [
    (["--version"], 0),
    (["--help"], 0),
    (["feature", "--help"], 0),
    (["feature", "list", "--help"], 0),
    (["failures", "--help"], 0),
    (["feature", "show"], 2),  # its arguments missing
]


def argv_id(value: object) -> str:
    return " ".join(value) if isinstance(value, list) else f"exit {value}"


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        *QUIET,
        (["collect", "--help"], 0),
        (["event", "search", "--help"], 0),
        (["sandbox", "--help"], 0),
        (["feature", "list", "--no-such-option"], 2),
        (["no-such-command"], 2),
    ],
    ids=argv_id,
)
def test_a_start_that_sends_nothing_imports_no_heavy_library(argv, code):
    exit_code, modules = imported(argv)
    assert exit_code == code
    assert "flagtui.cli" in modules  # flagtui started: an empty set proves nothing
    assert sorted(m for m in modules if m.partition(".")[0] in HEAVY) == []


def test_version_loads_no_commands_module():
    """`--version` prints and exits before the command line is built: no command's module (its
    options) is imported."""
    exit_code, modules = imported(["--version"])
    assert exit_code == 0
    assert "flagtui.cli.commands" in modules  # the list was read: an empty set proves nothing
    assert sorted(m for m in modules if m.startswith("flagtui.cli.commands.")) == []


def test_every_commands_options_load_without_a_heavy_library():
    """Each command's module is imported for its `--help` (its options are there): what it
    needs to run is imported when it runs."""
    code = (
        "import sys, flagtui.cli.parser;"
        " [c.load() for c in flagtui.cli.parser.command_line()[1].values()];"
        " print(sorted(m for m, module in sys.modules.items()"
        f" if module is not None and m.partition('.')[0] in {HEAVY!r}))"  # None: blocked
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.stdout.strip() == "[]", loaded.stderr


def test_a_command_that_runs_never_loads_httpxs_own_command_line(cli_env, sandbox):
    """httpx imports its command-line client (click, pygments, rich) when click is installed:
    flagtui/__init__.py blocks it before any module imports httpx (a guard set by the client
    came too late while the runner imported httpx first)."""
    exit_code, modules = imported(["type", "list", "-o", "json"], command_env(cli_env, sandbox))
    assert exit_code == 0
    assert {"flagtui.api.core", "httpx"} <= modules  # it ran: the client was imported
    assert sorted(m for m in modules if m.partition(".")[0] in ("click", "pygments", "rich")) == []


def test_a_list_loads_neither_the_ui_nor_the_archive(cli_env, sandbox):
    """Listing a project's archived flags loads the client, not Textual nor SQLAlchemy."""
    exit_code, modules = imported(
        ["feature", "list", "--project", "default", "--archived", "-o", "json"],
        command_env(cli_env, sandbox),
    )
    assert exit_code == 0
    assert "flagtui.api.features" in modules  # it ran
    assert sorted(m for m in modules if m.partition(".")[0] in ("textual", "sqlalchemy")) == []


def test_reading_the_config_and_the_api_errors_loads_no_http_library():
    """The api package names its parts on first use: reading the profile and the API's errors
    (what every command's start and error path use) imports no httpx."""
    code = (
        "import sys, flagtui.config, flagtui.api.errors, flagtui.cli.runner;"
        " print(sorted(m for m, module in sys.modules.items() if module is not None"
        " and (m.partition('.')[0] == 'httpx' or m == 'flagtui.api.client')))"  # None: blocked
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.stdout.strip() == "[]", loaded.stderr


@pytest.mark.parametrize("config_file", [False, True])
def test_reading_a_profile_loads_no_pydantic(tmp_path, config_file):
    """A profile is checked without pydantic, from the environment alone or from a config
    file. Fails on the code before with a config file: its schema was two pydantic models,
    whose building cost every start that reads one about 0.1 s (`failures` from an archive
    included)."""
    code = (
        "import sys, flagtui.config as c; c.select_profile(c.load_config(), None);"
        " print(sorted(m for m in sys.modules if m.partition('.')[0] == 'pydantic'))"
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    if config_file:
        config = tmp_path / "flagtui" / "config.toml"
        config.parent.mkdir()
        config.write_text('[profiles.a]\nurl = "http://127.0.0.1:9"\ntimeout = 5\n')
    else:
        env["UNLEASH_URL"] = "http://127.0.0.1:9"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert loaded.stdout.strip() == "[]", loaded.stderr


# What `feature list` may load beyond the standard library: flagtui, and the client's stack
# (httpx with what it is made of, pydantic with its own, flpc for the constraints' regular
# expressions; platformdirs for the config's place, tomli_w its writer).
CLIENT_STACK = (
    "httpx", "httpcore", "h11", "anyio", "sniffio", "certifi", "idna",
    "pydantic", "pydantic_core", "typing_extensions", "annotated_types", "typing_inspection",
    "flpc", "platformdirs", "tomli_w",
)  # fmt: skip
# What Python's own start loads (`python -c pass`) that is not in the standard library's list.
PYTHONS_OWN = ("sitecustomize", "_sysconfigdata_")


def installed(name: str) -> bool:
    """Whether a top-level module can be found: importtime lists a module tried and not found
    too (httpx tries its optional decoders, anyio looks for trio)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def test_a_listing_loads_the_clients_stack_and_no_other_library(cli_env, sandbox):
    """`feature list` reads through the client, so it loads the client's stack (its budget, by
    name) and nothing else beyond the standard library (no SQLAlchemy, Starlette or SDK
    engine); of flagtui no UI, sandbox or preview (of the archive, the exit codes' errors)."""
    exit_code, modules = imported(
        ["feature", "list", "--project", "default", "-o", "json"], command_env(cli_env, sandbox)
    )
    assert exit_code == 0
    assert {"flagtui.api.transport", "flagtui.api.features", "httpx"} <= modules  # it ran
    tops = {m.partition(".")[0] for m in modules}
    beyond = {
        top
        for top in tops - set(sys.stdlib_module_names) - {"flagtui", *CLIENT_STACK}
        if not top.startswith(PYTHONS_OWN) and installed(top)
    }
    assert sorted(beyond) == []
    ours = {m.split(".")[1] for m in modules if m.startswith("flagtui.") and "." in m}
    assert sorted(ours & {"tui", "sandbox", "preview", "triage", "fleet"}) == []
