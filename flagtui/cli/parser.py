"""The command line: `flagtui` opens the TUI; nouns then verbs for everything else.

Built from the list of commands (commands/__init__.py); each command's options are added by
its module, imported when that command is parsed (`CommandParser.load`), and a noun's verbs
when the noun is (`CommandParser.verbs`). Scriptable commands
share `-P/--profile` and `-o/--output`; each sets `run` (its coroutine), `columns` (the
table's), and for writes `write_action` (refused on read-only profiles before any request):
see `session.scriptable`. argparse is enough here: it ships with Python (no new dependency
for a tool people install on servers), nested subcommands and `--help` come free, and the exit
code 2 of a usage error is already the contract's.
"""

from __future__ import annotations

import argparse
import functools
import importlib
from collections.abc import Sequence
from typing import Any

from flagtui import __version__
from flagtui.cli.commands import COMMANDS, NOUNS, Entry
from flagtui.cli.exits import EXIT_CODES_HELP
from flagtui.cli.output import FORMATS


class CommandParser(argparse.ArgumentParser):
    """A noun's or a command's parser, filled the first time it parses (or is loaded): a
    command's options come from its module, a noun's verbs are added then. So building the
    command line builds one parser per noun and per lone command, and imports no command's
    module: `--version` and `--help` pay for no verb's parser (issue 26)."""

    def __init__(
        self, *args: Any, entry: Entry | None = None, verbs: Sequence[Entry] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.entry = entry  # None once its options are added (and for a noun)
        self._pending = list(verbs)  # a noun's verbs, until their parsers are added
        self._verbs: dict[str, CommandParser] = {}

    def load(self) -> CommandParser:
        if self.entry is not None:
            entry, self.entry = self.entry, None
            module = importlib.import_module(f"flagtui.cli.commands.{entry.module}")
            getattr(module, entry.options)(self)
        return self

    def verbs(self) -> dict[str, CommandParser]:
        """A noun's commands' parsers by their words (options not loaded)."""
        if self._pending:
            pending, self._pending = self._pending, []
            under = self.add_subparsers(dest="verb", metavar="VERB", required=True)
            for entry in pending:
                self._verbs[entry.words] = _leaf(under, entry.words.partition(" ")[2], entry)
        return self._verbs

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        self.load()
        self.verbs()
        return super().parse_known_args(*args, **kwargs)


@functools.cache
def _common() -> CommandParser:
    """-P and -o on every scriptable command (SUPPRESS: a -P given before the noun stays)."""
    common = CommandParser(add_help=False)
    common.add_argument(
        "-P", "--profile", default=argparse.SUPPRESS, help="profile (default: default_profile)"
    )
    common.add_argument(
        "-o",
        "--output",
        choices=FORMATS,
        default=None,
        help="table on a terminal, json when piped (default); jsonl: one record per line",
    )
    return common


def _leaf(under: Any, name: str, entry: Entry) -> CommandParser:
    """A command's parser under its noun's (or the top level's) subparsers."""
    leaf: CommandParser
    if entry.scriptable:
        leaf = under.add_parser(
            name,
            entry=entry,
            help=entry.summary,
            description=entry.summary,
            parents=[_common()],
            epilog=EXIT_CODES_HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
    else:
        leaf = under.add_parser(
            name, entry=entry, help=entry.summary, add_help=not entry.own_options
        )
    if entry.own_options:
        leaf.set_defaults(own_options=True)
    return leaf


def build_parser() -> argparse.ArgumentParser:
    """The command line as `flagtui` parses it: a noun's verbs are added when it parses."""
    return _top_level()[0]


def command_line() -> tuple[argparse.ArgumentParser, dict[str, CommandParser]]:
    """The top-level parser, and each command's parser by its words (options not loaded)."""
    parser, children = _top_level()
    commands: dict[str, CommandParser] = {}
    for name, child in children.items():
        commands.update(child.verbs() or {name: child})  # a lone command has no verbs
    return parser, commands


def _top_level() -> tuple[argparse.ArgumentParser, dict[str, CommandParser]]:
    """The top-level parser, and its nouns' and lone commands' parsers by name."""
    parser = argparse.ArgumentParser(
        prog="flagtui",
        description="Administer Unleash feature flags: the TUI, or scriptable commands.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"flagtui {__version__}")
    parser.add_argument("-P", "--profile", help="profile to open (default: default_profile)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    groups: dict[str, list[Entry]] = {}  # by noun (a lone command by its word), in COMMANDS' order
    for entry in COMMANDS:
        groups.setdefault(entry.words.partition(" ")[0], []).append(entry)
    children: dict[str, CommandParser] = {}
    for name, entries in groups.items():
        if entries[0].words == name:
            children[name] = _leaf(sub, name, entries[0])
        else:
            help = NOUNS[name]
            children[name] = sub.add_parser(name, help=help, description=help, verbs=entries)
    return parser, children
