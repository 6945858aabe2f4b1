"""Profiles and token sources: precedence, refused permissions, and no token in any message."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from flagtui import config
from flagtui.config import ConfigError, Profile

SECRET = "*:*.config-secret-93a7"


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    monkeypatch.delenv("UNLEASH_URL", raising=False)
    monkeypatch.delenv("UNLEASH_API_TOKEN", raising=False)
    return tmp_path


def write_config(tmp_path: Path, text: str) -> None:
    (tmp_path / "config.toml").write_text(text)


def command_profile(tmp_path: Path, code: str) -> str:
    """A profile whose token_command runs a Python script with `code`."""
    script = tmp_path / "token_command.py"
    script.write_text(code)
    return f'[profiles.a]\nurl = "http://a.test"\ntoken_command = "{sys.executable} {script}"\n'


PROFILES = """
default_profile = "staging"
[profiles.staging]
url = "https://unleash.staging.test"
[profiles.prod]
url = "https://unleash.prod.test"
read_only = true
production = true
timeout = 5
"""


def test_profiles_load_with_their_settings(isolated):
    write_config(isolated, PROFILES)
    loaded = config.load_config()
    assert config.select_profile(loaded, None).name == "staging"
    prod = config.select_profile(loaded, "prod")
    assert (prod.read_only, prod.production, prod.timeout) == (True, True, 5)


def test_env_alone_works_without_a_config_file(monkeypatch):
    monkeypatch.setenv("UNLEASH_URL", "http://127.0.0.1:4242")
    monkeypatch.setenv("UNLEASH_API_TOKEN", SECRET)
    profile = config.select_profile(config.load_config(), None)
    assert profile.url == "http://127.0.0.1:4242"
    credential = config.resolve_token(profile)
    assert (credential.token, credential.source) == (SECRET, "environment")


def test_env_token_wins_over_command_and_file(isolated, monkeypatch):
    write_config(isolated, command_profile(isolated, "print(1)"))
    config.store_token("a", "from-file")
    profile = config.select_profile(config.load_config(), "a")
    assert config.resolve_token(profile).token == "1"
    monkeypatch.setenv("UNLEASH_API_TOKEN", SECRET)
    assert config.resolve_token(profile).token == SECRET


def test_env_token_is_not_sent_to_another_server(isolated, monkeypatch):
    write_config(isolated, '[profiles.a]\nurl = "http://a.test"\n')
    config.store_token("a", "from-file")
    monkeypatch.setenv("UNLEASH_URL", "http://other.test")
    monkeypatch.setenv("UNLEASH_API_TOKEN", SECRET)
    profile = config.select_profile(config.load_config(), "a")
    assert config.resolve_token(profile).token == "from-file"


def test_token_command_beats_the_credentials_file(isolated):
    write_config(isolated, command_profile(isolated, "print('from-command')"))
    config.store_token("a", "from-file")
    credential = config.resolve_token(config.select_profile(config.load_config(), "a"))
    assert (credential.token, credential.source) == ("from-command", "token_command")


def test_failing_token_command_never_shows_its_stdout(isolated):
    write_config(isolated, command_profile(isolated, f"import sys; print('{SECRET}'); sys.exit(3)"))
    with pytest.raises(ConfigError, match="exit 3") as caught:
        config.resolve_token(config.select_profile(config.load_config(), "a"))
    assert SECRET not in str(caught.value)


def test_credentials_file_is_private(isolated):
    path = config.store_token("a", SECRET)
    assert oct(path.stat().st_mode & 0o777) == oct(0o600)
    assert oct(path.parent.stat().st_mode & 0o777) == oct(0o700)


@pytest.mark.parametrize(
    ("target", "mode", "fix"), [("file", 0o644, "chmod 600"), ("dir", 0o755, "chmod 700")]
)
def test_loose_permissions_are_refused_with_the_fix(isolated, target, mode, fix):
    write_config(isolated, '[profiles.a]\nurl = "http://a.test"\n')
    path = config.store_token("a", SECRET)
    (path if target == "file" else path.parent).chmod(mode)
    with pytest.raises(ConfigError, match=fix) as caught:
        config.resolve_token(config.select_profile(config.load_config(), "a"))
    assert SECRET not in str(caught.value)


def test_store_token_keeps_other_profiles(isolated):
    config.store_token("a", "token-a")
    config.store_token("b", "token-b")
    for name, token in (("a", "token-a"), ("b", "token-b")):
        assert config.resolve_token(Profile(name=name, url="http://x.test")).token == token


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml [", "not valid TOML"),
        ('[profiles.a]\nurl = "http://a.test"\ntoken = "abc"\n', "tokens do not belong"),
        ('[profiles.a]\nurl = "http://a.test"\ncolour = "red"\n', "unknown key 'colour'"),
        ('[profiles.a]\nurl = "a.test"\n', "must start with http"),
        (
            '[profiles.a]\nurl = "http://a.test"\nread_only = "yes"\n',
            "read_only has the wrong type",
        ),
        ('default_profile = "b"\n[profiles.a]\nurl = "http://a.test"\n', "is not a profile"),
    ],
)
def test_bad_config_is_explained(isolated, text, message):
    write_config(isolated, text)
    with pytest.raises(ConfigError, match=message):
        config.load_config()


def test_token_in_config_error_does_not_echo_the_token(isolated):
    write_config(isolated, f'[profiles.a]\nurl = "http://a.test"\ntoken = "{SECRET}"\n')
    with pytest.raises(ConfigError) as caught:
        config.load_config()
    assert SECRET not in str(caught.value)


def test_no_profile_says_what_to_do():
    with pytest.raises(ConfigError, match="flagtui login"):
        config.select_profile(config.load_config(), None)


def test_credential_repr_and_logs_hide_the_token(caplog):
    credential = config.Credential(SECRET, "environment")
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("flagtui").info("using %r", credential)
    assert SECRET not in repr(credential)
    assert SECRET not in caplog.text


def test_add_profile_appends_and_keeps_comments(isolated):
    write_config(isolated, '# my notes\n[profiles.a]\nurl = "http://a.test"\n')
    loaded = config.load_config()
    config.add_profile(loaded, Profile(name="b", url="http://b.test"))
    text = (isolated / "config.toml").read_text()
    assert text.startswith("# my notes")
    assert config.select_profile(config.load_config(), "b").url == "http://b.test"
