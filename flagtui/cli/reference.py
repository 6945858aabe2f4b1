"""The command reference, docs/commands.md, written from the parsers themselves (every command,
its synopsis and options) and from the exit codes of exits.py, so it cannot drift from
`--help`. `python -m flagtui.cli.reference docs/commands.md` rewrites it (stdout without a
path); tests/cli/test_reference.py fails when it is out of date.

argparse has no public way to list a parser's arguments: `_actions` and the formatter's
`_format_action_invocation` and `_expand_help` are read here (as `--help` itself reads them),
never changed.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Iterable

from flagtui.cli.commands import COMMANDS, Entry
from flagtui.cli.exits import EXIT_CODES_HELP
from flagtui.cli.parser import command_line

COMMON = ("-P", "-o")  # every scriptable command's, listed once
ONE_LINE = 10**6  # a formatter this wide never wraps a synopsis


def render() -> str:
    _, parsers = command_line()
    lines = [
        "# flagtui commands",
        "",
        "Written by `python -m flagtui.cli.reference docs/commands.md` from the command-line",
        "parsers (flagtui/cli/commands/) and the exit codes (flagtui/cli/exits.py): do not edit",
        "it by hand. `flagtui COMMAND --help` prints the same, and the exit codes.",
        "",
        "| command | what it does |",
        "|---|---|",
    ]
    lines += [f"| [`flagtui {e.words}`](#{_anchor(e)}) | {_cell(e.summary)} |" for e in COMMANDS]
    common = parsers[next(e.words for e in COMMANDS if e.scriptable)].load()
    lines += ["", "## Options of every scriptable command", ""]
    lines += _options(a for a in common._actions if _is_common(a))
    for entry in COMMANDS:
        lines += ["", f"## flagtui {entry.words}", "", entry.summary, ""]
        parser = _own_parser(entry) or parsers[entry.words].load()
        if parser.get_default("write_action"):
            lines += ["A write: refused on a read-only profile; `--dry-run` sends nothing.", ""]
        lines += ["```", _synopsis(parser), "```"]
        own = [a for a in parser._actions if not _is_help(a) and not _is_common(a)]
        if own:
            lines += ["", *_options(own)]
    lines += ["", "## Exit codes", "", "| code | meaning |", "|---|---|"]
    lines += [f"| {code} | {_cell(meaning)} |" for code, meaning in exit_codes()]
    return "\n".join(lines) + "\n"


def exit_codes() -> list[tuple[str, str]]:
    """(code, meaning) from EXIT_CODES_HELP: a line `  N  meaning` starts one, deeper-indented
    lines continue it."""
    codes: list[tuple[str, str]] = []
    for line in EXIT_CODES_HELP.splitlines()[1:]:
        start = re.match(r"^  (\S+)  (.*)$", line)
        if start:
            codes.append((start[1], start[2]))
        else:
            code, meaning = codes[-1]
            codes[-1] = (code, f"{meaning} {line.strip()}")
    return codes


def _own_parser(entry: Entry) -> argparse.ArgumentParser | None:
    """The sandbox's options are its own module's (the command line passes them through)."""
    if not entry.own_options:
        return None
    module = importlib.import_module(f"flagtui.cli.commands.{entry.module}")
    parser: argparse.ArgumentParser = module.own_parser()
    return parser


def _synopsis(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(prog=parser.prog, width=ONE_LINE)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, "")
    return formatter.format_help().strip()


def _options(actions: Iterable[argparse.Action]) -> list[str]:
    formatter = argparse.HelpFormatter(prog="flagtui", width=ONE_LINE)
    rows = ["| option | what it does | default |", "|---|---|---|"]
    for action in actions:
        said = formatter._expand_help(action) if action.help else ""  # `%%` as --help says it
        if action.required and action.option_strings:
            said = f"{said} (required)".strip()
        default = action.default
        shown = "" if default in (None, False, argparse.SUPPRESS) else f"`{default}`"
        invocation = formatter._format_action_invocation(action)
        rows.append(f"| `{_cell(invocation)}` | {_cell(said)} | {shown} |")
    return rows


def _is_help(action: argparse.Action) -> bool:
    return isinstance(action, argparse._HelpAction)


def _is_common(action: argparse.Action) -> bool:
    return bool(action.option_strings) and action.option_strings[0] in COMMON


def _anchor(entry: Entry) -> str:
    """The heading's anchor as GitHub makes it: lower case, spaces as hyphens."""
    return "flagtui-" + entry.words.replace(" ", "-")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def main(argv: list[str]) -> int:
    text = render()
    if not argv:
        sys.stdout.write(text)
        return 0
    with open(argv[0], "w", encoding="utf-8") as out:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
