"""Profiles and token sources: precedence, validation, and no token in any message."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import certifi
import pytest

from flagtui import config
from flagtui.config import ConfigError, Profile

from .helpers import SECRET, python_command, reads_any_file, write_config


def command_profile(tmp_path: Path, code: str) -> str:
    """A profile whose token_command runs a Python script with `code`."""
    command = python_command(tmp_path, code)
    return f'[profiles.a]\nurl = "http://a.test"\ntoken_command = "{command}"\n'


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


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e9"])
def test_timeout_must_be_finite_positive_and_bounded(isolated, value):
    write_config(isolated, f'[profiles.a]\nurl = "http://a.test"\ntimeout = {value}\n')
    with pytest.raises(ConfigError) as caught:
        config.load_config()
    message = str(caught.value)
    assert "[profiles.a]: timeout must be a number of seconds greater than 0" in message
    assert f"at most {config.MAX_TIMEOUT:g}" in message


def test_a_config_path_that_is_a_directory_is_explained(isolated):
    (isolated / "config.toml").mkdir()
    with pytest.raises(ConfigError, match="is a directory, not a config file"):
        config.load_config()


@pytest.mark.skipif(reads_any_file(), reason="file modes do not stop root")
def test_an_unreadable_config_file_is_explained(isolated):
    path = write_config(isolated, '[profiles.a]\nurl = "http://a.test"\n')
    path.chmod(0)
    with pytest.raises(ConfigError, match=r"cannot be read \(permission denied\): fix it with"):
        config.load_config()


def test_a_config_file_that_is_not_utf8_is_explained(isolated):
    (isolated / "config.toml").write_bytes(b'[profiles.a]\nurl = "http://\xff"\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        config.load_config()


def test_profile_names_in_the_file_are_plain(isolated):
    write_config(isolated, '[profiles."team a"]\nurl = "http://a.test"\n')
    with pytest.raises(ConfigError, match=r"'team a' is not allowed: use 1 to 64 letters"):
        config.load_config()


def ca_profile(path: Path) -> Profile:
    return Profile(name="a", url="https://a.test", ca_bundle=str(path))


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda p: None, "does not exist"),
        (lambda p: p.mkdir(), "is a directory"),
        (lambda p: p.write_text("not a certificate\n"), "holds no PEM certificate"),
    ],
)
def test_a_bad_ca_bundle_is_explained(isolated, setup, message):
    bundle = isolated / "ca.pem"
    setup(bundle)
    with pytest.raises(ConfigError, match=message) as caught:
        config.make_client(ca_profile(bundle), config.Credential(SECRET, "test"))
    assert f"ca_bundle {bundle} of profile 'a'" in str(caught.value)


async def test_a_pem_ca_bundle_is_used(isolated):
    bundle = isolated / "ca.pem"
    bundle.write_text(Path(certifi.where()).read_text())
    async with config.make_client(ca_profile(bundle), config.Credential(SECRET, "test")):
        pass


NOT_PLAIN = ['team "a"', "a\n[profiles.evil]", "a b", "", "-a", "x" * 65, "env"]


@pytest.mark.parametrize("name", NOT_PLAIN)
def test_add_profile_refuses_names_that_are_not_plain(isolated, name):
    path = write_config(isolated, '# my notes\n[profiles.a]\nurl = "http://a.test"\n')
    before = path.read_bytes()
    with pytest.raises(ConfigError, match="profile name"):
        config.add_profile(config.load_config(), Profile(name=name, url="http://b.test"))
    assert path.read_bytes() == before


def test_add_profile_refuses_a_url_with_a_newline(isolated):
    path = write_config(isolated, '[profiles.a]\nurl = "http://a.test"\n')
    before = path.read_bytes()
    bad = Profile(name="b", url='http://b.test"\n[profiles.evil]\nurl = "http://evil.test')
    with pytest.raises(ConfigError, match="must start with http"):
        config.add_profile(config.load_config(), bad)
    assert path.read_bytes() == before


def test_add_profile_never_breaks_a_file_it_cannot_extend(isolated):
    path = write_config(isolated, 'profiles = { a = { url = "http://a.test" } }\n')
    before = path.read_bytes()
    with pytest.raises(ConfigError, match="the file was left as it was"):
        config.add_profile(config.load_config(), Profile(name="b", url="http://b.test"))
    assert path.read_bytes() == before


def test_add_profile_to_a_new_file_makes_it_the_default(isolated):
    loaded = config.load_config()
    config.add_profile(loaded, Profile(name="first", url="http://first.test"))
    assert loaded.default_profile == "first"
    assert config.select_profile(config.load_config(), None).url == "http://first.test"


def test_add_profile_writes_through_a_symlink_and_keeps_the_mode(isolated):
    real = isolated / "dotfiles" / "flagtui.toml"
    real.parent.mkdir()
    real.write_text('[profiles.a]\nurl = "http://a.test"\n')
    real.chmod(0o640)
    (isolated / "config.toml").symlink_to(real)
    config.add_profile(config.load_config(), Profile(name="b", url="http://b.test"))
    assert (isolated / "config.toml").is_symlink()
    assert oct(real.stat().st_mode & 0o777) == oct(0o640)
    assert set(config.load_config().profiles) == {"a", "b"}


@pytest.mark.timeout(20)
def test_a_fifo_at_the_config_path_does_not_hang(isolated):
    os.mkfifo(isolated / "config.toml")
    with pytest.raises(ConfigError, match="is not a regular file"):
        config.load_config()


def test_a_multi_line_environment_token_is_refused(monkeypatch):
    monkeypatch.setenv("UNLEASH_URL", "http://127.0.0.1:4242")
    monkeypatch.setenv("UNLEASH_API_TOKEN", f"{SECRET}\nX-Injected: 1")
    with pytest.raises(ConfigError, match="UNLEASH_API_TOKEN holds several lines") as caught:
        config.resolve_token(config.select_profile(config.load_config(), None))
    assert SECRET not in str(caught.value)


def test_a_profile_named_env_in_the_file_wins_over_unleash_url(isolated, monkeypatch):
    write_config(isolated, '[profiles.env]\nurl = "http://mine.test"\nread_only = true\n')
    monkeypatch.setenv("UNLEASH_URL", "http://mine.test")
    assert config.select_profile(config.load_config(), "env").read_only
