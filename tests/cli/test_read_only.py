"""Read-only profiles: every write (found in the parsers themselves) is refused before any
request."""

from __future__ import annotations

from .writes import WRITES, assert_every_write_listed


def test_read_only_profile_is_refused_before_any_request(run, cli_env):
    # The profile's server is a closed port and it has no token: a request, or even looking
    # for the token, would fail differently.
    (cli_env / "config.toml").write_text(
        '[profiles.ro]\nurl = "http://127.0.0.1:9"\nread_only = true\n'
    )
    assert_every_write_listed(WRITES)
    for argv in WRITES:
        result = run(*argv, "-P", "ro")
        assert result.code == 2, argv
        assert result.error["kind"] == "read-only"
        assert result.error["message"].startswith("Profile 'ro' is read-only:")
