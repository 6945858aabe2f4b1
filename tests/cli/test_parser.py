"""The command line itself: a profile given before the noun; what building it, parsing one
command and loading every command's options import."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_a_profile_given_before_the_noun_is_used(run):
    assert run("-P", "env", "type", "list").code == 0
    assert run("-P", "nope", "type", "list").error["message"].startswith("No profile named 'nope'")


def test_commands_and_choosing_a_source_do_not_load_the_database_layer():
    # SQLAlchemy takes about 0.1 s to import: only reading or writing an archive may pay it.
    code = (
        "import sys, flagtui.cli.parser, flagtui.cli.exits, flagtui.archive.source;"
        " [c.load() for c in flagtui.cli.parser.command_line()[1].values()];"  # every command's
        " print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'psycopg')))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.stdout.strip() == "[]", loaded.stderr


@pytest.mark.parametrize(
    ("argv", "imported"),
    [
        (["--version"], []),
        (["--help"], []),
        (["feature", "--help"], []),
        (["feature", "list", "--help"], ["flagtui.cli.commands.feature_list"]),
        (["failures", "--help"], ["flagtui.cli.commands.failures"]),
    ],
    ids=" ".join,
)
def test_only_the_command_parsed_is_imported_and_never_textual(argv, imported):
    """The list of commands builds the parser: a command's module is imported when it is parsed,
    so `--help` or one command pays for no other (and none of them for Textual)."""
    code = (
        "import sys; from flagtui.cli import main\n"
        "try: main(sys.argv[1:])\n"
        "except SystemExit: pass\n"
        "watched = ('flagtui.cli.commands.', 'textual')\n"
        "print(sorted(m for m in sys.modules if m.startswith(watched)), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert done.stderr.strip().splitlines()[-1] == str(imported), done.stderr
