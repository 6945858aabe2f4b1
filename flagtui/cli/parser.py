"""The command line: `flagtui` opens the TUI; nouns then verbs for everything else (a group of
verbs may sit between them: `feature strategy add`).

Built from the list of commands (commands/__init__.py); each command's options are added by
its module, imported when that command is parsed (`CommandParser.load`). Scriptable commands
share `-P/--profile` and `-o/--output`; each sets `run` (its coroutine), `columns` (the
table's), and for writes `write_action` (refused on read-only profiles before any request):
see `session.scriptable`. argparse is enough here: it ships with Python (no new dependency
for a tool people install on servers), nested subcommands and `--help` come free, and the exit
code 2 of a usage error is already the contract's.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from flagtui import __version__
from flagtui.cli.commands import COMMANDS, NOUNS, Entry
from flagtui.cli.completion import profile_names
from flagtui.cli.exits import EXIT_CODES_HELP
from flagtui.cli.output import FORMATS


class CommandParser(argparse.ArgumentParser):
    """A command's parser; its options come from its module the first time it parses (or is
    loaded), so building the command line imports no command's module."""

    def __init__(self, *args: Any, entry: Entry | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entry = entry  # None once its options are added (and for a noun)

    def load(self) -> CommandParser:
        if self.entry is not None:
            entry, self.entry = self.entry, None
            module = importlib.import_module(f"flagtui.cli.commands.{entry.module}")
            getattr(module, entry.options)(self)
        return self

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        self.load()
        return super().parse_known_args(*args, **kwargs)


def _common() -> CommandParser:
    """-P and -o on every scriptable command (SUPPRESS: a -P given before the noun stays)."""
    common = CommandParser(add_help=False)
    common.add_argument(
        "-P", "--profile", default=argparse.SUPPRESS, help="profile (default: default_profile)"
    ).completer = profile_names  # type: ignore[attr-defined]  # argcomplete reads it
    common.add_argument(
        "-o",
        "--output",
        choices=FORMATS,
        default=None,
        help="table on a terminal, json when piped (default); jsonl: one record per line",
    )
    return common


def build_parser() -> argparse.ArgumentParser:
    return command_line()[0]


def command_line() -> tuple[argparse.ArgumentParser, dict[str, CommandParser]]:
    """The top-level parser, and each command's parser by its words (options not loaded)."""
    parser = argparse.ArgumentParser(
        prog="flagtui",
        description="Administer Unleash feature flags: the TUI, or scriptable commands.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"flagtui {__version__}")
    parser.add_argument(
        "-P", "--profile", help="profile to open (default: default_profile)"
    ).completer = profile_names  # type: ignore[attr-defined]
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    common = _common()
    verbs: dict[str, Any] = {}  # a noun's, or a group's ("feature strategy")
    commands: dict[str, CommandParser] = {}
    for entry in COMMANDS:
        *above, name = entry.words.split(" ")
        under = sub
        for depth in range(len(above)):
            words = " ".join(above[: depth + 1])
            if words not in verbs:
                help = NOUNS[words]
                parent = under.add_parser(above[depth], help=help, description=help)
                dest = "verb" if depth == 0 else "subverb"
                verbs[words] = parent.add_subparsers(dest=dest, metavar="VERB", required=True)
            under = verbs[words]
        if entry.scriptable:
            leaf = under.add_parser(
                name,
                entry=entry,
                help=entry.summary,
                description=entry.summary,
                parents=[common],
                epilog=EXIT_CODES_HELP,
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
        else:
            leaf = under.add_parser(
                name, entry=entry, help=entry.summary, add_help=not entry.own_options
            )
        if entry.own_options:
            leaf.set_defaults(own_options=True)
        commands[entry.words] = leaf
    return parser, commands
