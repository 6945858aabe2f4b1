"""The command line: `flagtui` opens the TUI; nouns then verbs for everything else (a group of
verbs may sit between them: `feature strategy add`).

Built from the list of commands (commands/__init__.py); each command's options are added by
its module, imported when that command is parsed (`CommandParser.load`), and a noun's (or a
group's) verbs when it is (`CommandParser.verbs`). Scriptable commands share `-P/--profile`
and `-o/--output`; each sets `run` (its coroutine), `columns` (the table's), and for writes
`write_action` (refused on read-only profiles before any request): see `session.scriptable`.
argparse is enough here: it ships with Python (no new dependency for a tool people install on
servers), nested subcommands and `--help` come free, and the exit code 2 of a usage error is
already the contract's.
"""

from __future__ import annotations

import argparse
import functools
import importlib
from collections.abc import Sequence
from typing import Any

from flagtui import __version__
from flagtui.cli.commands import COMMANDS, NOUNS, Entry
from flagtui.cli.completion import attach_cached_names, completing, profile_names
from flagtui.cli.exits import EXIT_CODES_HELP
from flagtui.cli.formats import FORMATS
from flagtui.help_format import HelpFormatter, RawDescriptionHelpFormatter


class CommandParser(argparse.ArgumentParser):
    """A noun's (or group's) or a command's parser, filled the first time it parses (or is
    loaded): a command's options come from its module, a noun's verbs are added then. So
    building the command line builds one parser per noun and per lone command, and imports no
    command's module: `--version` and `--help` pay for no verb's parser (issue 26)."""

    def __init__(
        self,
        *args: Any,
        entry: Entry | None = None,
        verbs: Sequence[Entry] = (),
        words: str = "",
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)  # no shutil: see help_format.py
        super().__init__(*args, **kwargs)
        self.entry = entry  # None once its options are added (and for a noun)
        self.words = words  # a noun's or group's words ("feature", "feature strategy")
        self._pending = list(verbs)  # the commands under it, until their parsers are added
        self._verbs: dict[str, CommandParser] = {}  # by the next word

    def load(self) -> CommandParser:
        if self.entry is not None:
            entry, self.entry = self.entry, None
            module = importlib.import_module(f"flagtui.cli.commands.{entry.module}")
            getattr(module, entry.options)(self)
            if completing():
                attach_cached_names(self)
        return self

    def verbs(self) -> dict[str, CommandParser]:
        """The parsers one word below a noun or group, by that word (options not loaded)."""
        if self._pending:
            pending, self._pending = self._pending, []
            depth = self.words.count(" ")
            dest = "verb" if depth == 0 else "subverb"
            under = self.add_subparsers(dest=dest, metavar="VERB", required=True)
            below: dict[str, list[Entry]] = {}
            for entry in pending:
                word = entry.words[len(self.words) + 1 :].split(" ")[0]
                below.setdefault(word, []).append(entry)
            for word, entries in below.items():
                self._verbs[word] = _child(under, f"{self.words} {word}", word, entries)
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
    ).completer = profile_names  # type: ignore[attr-defined]  # argcomplete reads it
    common.add_argument(
        "-o",
        "--output",
        choices=FORMATS,
        default=None,
        help="table on a terminal, json when piped (default); jsonl: one record per line",
    )
    return common


def _child(under: Any, words: str, name: str, entries: list[Entry]) -> CommandParser:
    """A lone command's parser, or a noun's or group's (its verbs added when it parses)."""
    if len(entries) == 1 and entries[0].words == words:
        return _leaf(under, name, entries[0])
    help = NOUNS[words]
    parser: CommandParser = under.add_parser(
        name, help=help, description=help, verbs=entries, words=words
    )
    return parser


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
            formatter_class=RawDescriptionHelpFormatter,
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

    def collect(words: str, child: CommandParser) -> None:
        below = child.verbs()
        if not below:  # a command
            commands[words] = child
        for word, grandchild in below.items():
            collect(f"{words} {word}", grandchild)

    for name, child in children.items():
        collect(name, child)
    return parser, commands


def _top_level() -> tuple[argparse.ArgumentParser, dict[str, CommandParser]]:
    """The top-level parser, and its nouns' and lone commands' parsers by name."""
    parser = argparse.ArgumentParser(
        prog="flagtui",
        description="Administer Unleash feature flags: the TUI, or scriptable commands.",
        epilog=EXIT_CODES_HELP,
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"flagtui {__version__}")
    parser.add_argument(
        "-P", "--profile", help="profile to open (default: default_profile)"
    ).completer = profile_names  # type: ignore[attr-defined]
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    groups: dict[str, list[Entry]] = {}  # by noun (a lone command by its word), in COMMANDS' order
    for entry in COMMANDS:
        groups.setdefault(entry.words.partition(" ")[0], []).append(entry)
    children: dict[str, CommandParser] = {}
    for name, entries in groups.items():
        children[name] = _child(sub, name, name, entries)
    return parser, children
