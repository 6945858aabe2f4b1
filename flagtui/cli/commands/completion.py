"""`flagtui completion SHELL`: the completion script for bash, zsh or fish (cli/completion.py).

bash:  echo 'eval "$(flagtui completion bash)"' >> ~/.bashrc
zsh:   echo 'eval "$(flagtui completion zsh)"' >> ~/.zshrc   (after compinit)
fish:  flagtui completion fish > ~/.config/fish/completions/flagtui.fish
"""

from __future__ import annotations

import argparse

from flagtui.cli.completion import SHELLS, script


def options(p: argparse.ArgumentParser) -> None:
    p.set_defaults(start=start)
    p.add_argument("shell", choices=SHELLS)


def start(args: argparse.Namespace, rest: list[str]) -> int:
    print(script(args.shell))
    return 0
