"""The start hint (flagtui/tui/start_hint.py): a start whose inputs are those of an earlier one
expects the profile that one opened, rebuilt from the same inputs without validating them, and
it must be exactly the profile validation gives; any change to the inputs is no hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from flagtui.config import load_config, select_profile
from flagtui.tui.start_hint import HINTS_FILE, provisional, recall, remember, start_inputs

from .helpers import write_config

TWO_PROFILES = """
default_profile = "prod"

[profiles.prod]
url = "https://unleash.example.com/"
read_only = true
production = true
timeout = 5
ca_bundle = "/etc/ssl/certs/ca.pem"

[profiles.staging]
url = "http://10.0.0.7:4242"
verify_tls = false
archive_url = "postgresql://archive@db/deliveries"
"""


def started(hints: Path, profile_arg: str | None):
    """What a start remembers after validating, and what the next identical start recalls."""
    validated = select_profile(load_config(), profile_arg)
    inputs = start_inputs(profile_arg)
    assert inputs is not None
    remember(hints, inputs, validated.name)
    return validated, recall(hints, start_inputs(profile_arg))  # type: ignore[arg-type]


@pytest.mark.parametrize("profile_arg", [None, "prod", "staging"])
def test_the_recalled_profile_is_the_validated_one(tmp_path, profile_arg):
    write_config(tmp_path, TWO_PROFILES)
    validated, recalled = started(tmp_path / "hints", profile_arg)
    assert recalled == validated


@pytest.mark.parametrize("with_config", [False, True])
def test_the_environments_profile_is_recalled_as_validated(tmp_path, monkeypatch, with_config):
    if with_config:  # a config with one profile: UNLEASH_URL's is added, and chosen by default
        write_config(tmp_path, '[profiles.one]\nurl = "https://one.example"\n')
    monkeypatch.setenv("UNLEASH_URL", "http://127.0.0.1:4242/")
    monkeypatch.setenv("UNLEASH_API_TOKEN", "*:*.abc")
    validated, recalled = started(tmp_path / "hints", "env" if with_config else None)
    assert recalled == validated and validated.name == "env"


def test_any_change_to_the_inputs_is_no_hint(tmp_path, monkeypatch):
    write_config(tmp_path, TWO_PROFILES)
    hints = tmp_path / "hints"
    started(tmp_path / "hints", None)
    assert recall(hints, start_inputs(None)) is not None  # type: ignore[arg-type]
    changes = [
        lambda: write_config(tmp_path, TWO_PROFILES.replace("read_only = true", "")),
        lambda: monkeypatch.setenv("UNLEASH_URL", "http://127.0.0.1:4242"),
        lambda: monkeypatch.setenv("UNLEASH_API_TOKEN", "*:*.abc"),
    ]
    for change in changes:
        change()
        assert recall(hints, start_inputs(None)) is None  # type: ignore[arg-type]
    assert recall(hints, start_inputs("prod")) is None  # type: ignore[arg-type]


def test_a_profile_with_a_token_command_is_never_started_early(tmp_path, monkeypatch):
    write_config(tmp_path, '[profiles.vault]\nurl = "https://v.example"\ntoken_command = "x"\n')
    hints = tmp_path / "hints"
    assert started(hints, None)[1] is None  # the command may need the terminal
    monkeypatch.setenv("UNLEASH_API_TOKEN", "*:*.abc")  # no command runs: the token is set
    validated, recalled = started(hints, None)
    assert recalled == validated


def test_unreadable_inputs_or_hints_are_no_hint_and_no_error(tmp_path):
    hints = tmp_path / "hints"
    config = write_config(tmp_path, TWO_PROFILES)
    started(hints, None)
    (hints / HINTS_FILE).write_text('{"not json')
    assert recall(hints, start_inputs(None)) is None  # type: ignore[arg-type]
    (hints / HINTS_FILE).write_text("[1, 2]")
    assert recall(hints, start_inputs(None)) is None  # type: ignore[arg-type]
    config.write_text("default_profile = ")  # not TOML: validation says why, not the hint
    assert start_inputs(None) is None
    config.unlink()
    config.mkdir()
    assert start_inputs(None) is None


def test_hints_hold_profile_names_and_digests_only(tmp_path, monkeypatch):
    write_config(tmp_path, TWO_PROFILES)
    monkeypatch.setenv("UNLEASH_API_TOKEN", "*:*.secret-token-9f2")
    hints = tmp_path / "hints"
    started(hints, "prod")
    started(hints, "staging")
    written = (hints / HINTS_FILE).read_text()
    assert "prod" in written and "staging" in written
    for secret in ("secret-token-9f2", "example.com", "10.0.0.7", "postgresql", "archive@"):
        assert secret not in written


@pytest.mark.parametrize(
    ("profile_arg", "env_url", "name", "url"),
    [
        (None, None, "prod", "https://unleash.example.com/"),  # default_profile
        ("staging", None, "staging", "http://10.0.0.7:4242"),
        ("gone", "http://env.test", "gone", "http://env.test"),  # validation will refuse it
    ],
)
def test_a_first_frame_names_the_profile_validation_will_pick(
    isolated, monkeypatch, profile_arg, env_url, name, url
):
    """A first start's header before validation: the profile as the config names it."""
    write_config(isolated, TWO_PROFILES)
    if env_url:
        monkeypatch.setenv("UNLEASH_URL", env_url)
    shown = provisional(start_inputs(profile_arg), profile_arg)
    assert (shown.name, shown.url) == (name, url)
    assert shown.production is (name == "prod") and shown.read_only is (name == "prod")
    if name in ("prod", "staging"):
        validated = select_profile(load_config(), profile_arg)
        assert (validated.name, validated.url) == (shown.name, shown.url)


def test_a_first_frame_without_config_names_the_environment_profile(isolated, monkeypatch):
    monkeypatch.setenv("UNLEASH_URL", "http://env.test")
    shown = provisional(start_inputs(None), None)
    assert (shown.name, shown.url) == ("env", "http://env.test")
    monkeypatch.delenv("UNLEASH_URL")
    assert provisional(start_inputs(None), None).name == "…"
