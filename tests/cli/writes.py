"""Every command that writes, found in the parsers themselves, and arguments each parses with
(the records they name need not exist: what these arguments are for is refused before any
request)."""

from __future__ import annotations

from flagtui.cli.parser import command_line

WRITES = (
    ["feature", "patch", "default", "x", "--set", "description=y"],
    ["feature", "uncomplete", "default", "x"],
    ["feature", "archive", "default", "x"],
    ["feature", "revive", "default", "x"],
    ["feature", "enable", "default", "x", "production"],
    ["feature", "disable", "default", "x", "production"],
    ["feature", "mark-stale", "default", "x", "y"],
    ["feature", "unmark-stale", "default", "x"],
    ["env", "remove", "default", "qa"],
    ["env", "link", "default", "qa"],
    ["access", "grant", "default", "--role", "4", "--user", "1"],
    ["type", "lifetime", "release", "3"],
    ["cr", "delete", "default", "1"],
    ["integration", "enable", "2"],
    ["integration", "disable", "2"],
    ["integration", "create", "webhook", "--param", "url=https://x.example"],
    ["integration", "edit", "2", "--description", "y"],
    ["integration", "delete", "2"],
    ["context", "create", "region"],
    ["context", "edit", "userId", "--stickiness"],
    ["context", "delete", "userId"],
    ["segment", "create", "ro-segment"],
    ["segment", "edit", "beta-testers", "--description", "y"],
    ["segment", "delete", "beta-testers"],
    ["feature", "create", "default", "x"],
    ["feature", "strategy", "add", "default", "x", "production"],
    ["feature", "strategy", "set", "default", "x", "production", "s", "--rollout", "1"],
    ["feature", "strategy", "disable", "default", "x", "production", "s"],
    ["feature", "strategy", "enable", "default", "x", "production", "s"],
    ["feature", "strategy", "remove", "default", "x", "production", "s"],
    ["feature", "strategy", "order", "default", "x", "production", "s"],
    ["feature", "variants", "set", "default", "x", "production", "--variant", "a"],
    ["feature", "depend", "default", "x", "y"],
    ["feature", "undepend", "default", "x"],
    ["tag", "add", "default", "x", "--tag", "simple:ab"],
    ["tag", "remove", "default", "x", "y", "--tag", "ab"],
    ["tag", "type", "create", "team"],
    ["project", "default-strategy", "set", "default", "--env", "production", "--rollout", "5"],
    ["feature", "clone", "default", "x", "y"],
    ["feature", "delete", "default", "x"],
    ["feature", "complete", "default", "x"],
    ["feature", "strategy", "copy", "default", "x", "--from-env", "a", "--to-env", "b"],
    ["token", "create", "x", "--env", "development"],
    ["token", "revoke", "x"],
    ["user", "create", "--email", "x@example.com", "--role", "Viewer"],
    ["user", "role", "x", "Viewer"],
    ["apply", "flags.toml"],
)


def write_commands() -> set[str]:
    """The words of every command that writes (`feature strategy add`), from the parser."""
    return {w for w, leaf in command_line()[1].items() if leaf.load().get_default("write_action")}


def assert_every_write_listed(argvs: list[list[str]] | tuple[list[str], ...]) -> None:
    """Each write command has arguments in `argvs` (a new command fails here until it does)."""
    writes = write_commands()
    listed = {next(w for w in writes if argv[: len(w.split())] == w.split()) for argv in argvs}
    assert listed == write_commands(), "give each write command its arguments"
