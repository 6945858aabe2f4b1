"""Read-only profiles: every write (found in the parsers themselves) is refused before any
request."""

from __future__ import annotations

from flagtui.cli.parser import command_line


def test_read_only_profile_is_refused_before_any_request(run, cli_env):
    # The profile's server is a closed port and it has no token: a request, or even looking
    # for the token, would fail differently.
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    writes = (
        ["feature", "patch", "default", "x", "--set", "description=y"],
        ["feature", "uncomplete", "default", "x"],
        ["feature", "archive", "default", "x", "--yes"],
        ["feature", "revive", "default", "x"],
        ["feature", "enable", "default", "x", "production", "--yes"],
        ["feature", "disable", "default", "x", "production", "--yes"],
        ["feature", "mark-stale", "default", "x", "y"],
        ["feature", "unmark-stale", "default", "x"],
        ["env", "remove", "default", "qa", "--yes"],
        ["env", "link", "default", "qa"],
        ["access", "grant", "default", "--role", "4", "--user", "1"],
        ["type", "lifetime", "release", "3"],
        ["cr", "delete", "default", "1", "--yes"],
        ["integration", "enable", "2"],
        ["integration", "disable", "2", "--yes"],
        ["integration", "create", "webhook", "--param", "url=https://x.example"],
        ["integration", "edit", "2", "--description", "y"],
        ["integration", "delete", "2", "--yes"],
        ["feature", "create", "default", "x"],
        ["feature", "strategy", "add", "default", "x", "production", "--yes"],
        ["feature", "strategy", "set", "default", "x", "production", "s", "--rollout", "1"],
        ["feature", "strategy", "disable", "default", "x", "production", "s", "--yes"],
        ["feature", "strategy", "enable", "default", "x", "production", "s", "--yes"],
        ["feature", "strategy", "remove", "default", "x", "production", "s", "--yes"],
        ["feature", "strategy", "order", "default", "x", "production", "s", "--yes"],
        ["feature", "variants", "set", "default", "x", "production", "--variant", "a"],
    )
    commands = write_commands()
    assert {next(w for w in commands if argv[: len(w)] == list(w)) for argv in writes} == commands
    for argv in writes:
        result = run(*argv, "-P", "ro")
        assert result.code == 2, argv
        assert result.error["kind"] == "read-only"
        assert result.error["message"].startswith("Profile 'ro' is read-only:")


def write_commands() -> set[tuple[str, ...]]:
    """The words of every command that writes (`feature strategy add`), from the parser."""
    found = set()
    for words, leaf in command_line()[1].items():
        if leaf.load().get_default("write_action"):
            found.add(tuple(words.split()))
    return found
