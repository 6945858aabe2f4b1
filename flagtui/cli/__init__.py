"""The `flagtui` command: open the TUI, run the sandbox or the demo, manage profiles, and the
scriptable reads and writes (noun verb, JSON when piped). Every command is listed in
`commands/__init__.py`, one module each under `commands/`; see also `parser.py` and `exits.py`.

Nothing here imports Textual except to launch the TUI (an import-linter contract).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from flagtui import __version__
from flagtui.cli.completion import complete
from flagtui.cli.parser import build_parser, command_line
from flagtui.cli.runner import run
from flagtui.help_format import HelpFormatter


def tui_args(argv: Sequence[str]) -> argparse.Namespace | None:
    """`flagtui` and `flagtui -P NAME` open the TUI: read without building every command's
    parser and importing their modules (a few hundredths of a second of every start). None for
    anything else, which the full parser reads."""
    only = argparse.ArgumentParser(
        add_help=False, exit_on_error=False, formatter_class=HelpFormatter
    )
    only.add_argument("-P", "--profile")
    try:
        args, rest = only.parse_known_args(argv)
    except argparse.ArgumentError:
        return None
    return None if rest else args


def without_pydantic_plugins() -> None:
    """flagtui has no use for pydantic's plugins (observability hooks); looking for them scans
    every installed package's entry points when the first model is built: 10-30 ms of a start.
    `PYDANTIC_DISABLE_PLUGINS` is pydantic's own switch; one set by the user is kept."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def main(argv: Sequence[str] | None = None) -> int:
    without_pydantic_plugins()
    if "_ARGCOMPLETE" in os.environ:  # the shell asks for completions (cli/completion.py)
        # Every verb and option added first: argcomplete follows the parsers as they stand
        # when it starts, not the ones a parse adds on the way (a noun's verbs, a command's
        # options are added lazily for a quick start).
        parser, commands = command_line()
        for command in commands.values():
            command.load()
        complete(parser)
    if (sys.argv[1:] if argv is None else list(argv)) == ["--version"]:
        print(f"flagtui {__version__}")
        return 0
    tui = tui_args(sys.argv[1:] if argv is None else argv)
    if tui is not None:
        # Here, not at the top: it loads Textual
        from flagtui.tui.launch import run_tui

        return run_tui(tui)

    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if getattr(args, "own_options", False):  # the sandbox: what this parser does not know
        return args.start(args, unknown)
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if getattr(args, "start", None) is not None:  # demo, login, profiles
        return args.start(args, unknown)
    if getattr(args, "run", None) is not None:
        return run(args, args.run, columns=args.columns)
    # Here, not at the top: it loads Textual
    from flagtui.tui.launch import run_tui

    return run_tui(args)


if __name__ == "__main__":
    sys.exit(main())
