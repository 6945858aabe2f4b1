"""`flagtui login`, `flagtui profiles [--check]` and the TUI launch, in-process through
`flagtui.cli.main`, against a real sandbox: what they write, what they refuse, what they say."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from flagtui import config
from flagtui.cli import main

from .helpers import reads_any_file, write_config

WRONG_TOKEN = "*:*.not-a-token-of-this-server"


def login(monkeypatch, token: str, *args: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
    return main(["login", *args])


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_login_adds_a_profile_and_keeps_the_comments(isolated, sandbox, monkeypatch, capsys):
    path = write_config(isolated, '# my notes\n[profiles.old]\nurl = "http://old.test"  # kept\n')
    # The status alone in the assertion: a failure must never print the token.
    status = login(monkeypatch, sandbox.admin_token, "--profile", "team-a", "--url", sandbox.url)
    assert status == 0
    text = path.read_text()
    assert text.startswith('# my notes\n[profiles.old]\nurl = "http://old.test"  # kept\n')
    profile = config.select_profile(config.load_config(), "team-a")
    assert profile.url == sandbox.url
    stored_is_typed = config.resolve_token(profile).token == sandbox.admin_token
    assert stored_is_typed
    assert "Token for profile 'team-a' stored" in capsys.readouterr().out


@pytest.mark.parametrize("name", ['team "a"', 'a"\ndefault_profile = "evil', "a b"])
def test_login_refuses_a_name_that_is_not_plain(isolated, sandbox, monkeypatch, capsys, name):
    path = write_config(isolated, '# my notes\n[profiles.old]\nurl = "http://old.test"\n')
    before = path.read_bytes()
    status = login(monkeypatch, sandbox.admin_token, "--profile", name, "--url", sandbox.url)
    assert status == 2
    line = one_line(capsys.readouterr().err)
    assert "is not allowed: use 1 to 64 letters, digits, '.', '-' or '_'" in line
    assert path.read_bytes() == before
    assert not config.credentials_path().exists()


def test_login_with_a_wrong_token_stores_nothing(isolated, sandbox, monkeypatch, capsys):
    status = login(monkeypatch, WRONG_TOKEN, "--profile", "a", "--url", sandbox.url)
    assert status == 1
    assert "the token was not stored" in capsys.readouterr().err
    assert not (isolated / "config.toml").exists()
    assert not config.credentials_path().exists()


def a_profile(isolated: Path, extra: str = "") -> None:
    write_config(isolated, f'[profiles.a]\nurl = "http://127.0.0.1:9"\n{extra}')
    config.store_token("a", "some-token")


def config_is_a_directory(isolated: Path) -> str:
    (isolated / "config.toml").mkdir()
    return f"{isolated / 'config.toml'} is a directory"


def credentials_malformed(isolated: Path) -> str:
    a_profile(isolated)
    config.credentials_path().write_text('tokens = "a"\n')
    return f"{config.credentials_path()}: [tokens] must be a table"


def credentials_are_a_directory(isolated: Path) -> str:
    write_config(isolated, '[profiles.a]\nurl = "http://127.0.0.1:9"\n')
    config.credentials_path().mkdir(parents=True, mode=0o700)
    config.credentials_path().parent.chmod(0o700)
    return f"{config.credentials_path()} is not a regular file"


def ca_bundle_missing(isolated: Path) -> str:
    a_profile(isolated, f'ca_bundle = "{isolated / "none.pem"}"\n')
    return f"ca_bundle {isolated / 'none.pem'} of profile 'a' does not exist"


def ca_bundle_not_pem(isolated: Path) -> str:
    (isolated / "ca.pem").write_text("not a certificate\n")
    a_profile(isolated, f'ca_bundle = "{isolated / "ca.pem"}"\n')
    return f"ca_bundle {isolated / 'ca.pem'} of profile 'a' holds no PEM certificate"


def config_unreadable(isolated: Path) -> str:
    write_config(isolated, '[profiles.a]\nurl = "http://127.0.0.1:9"\n').chmod(0)
    return f"{isolated / 'config.toml'} cannot be read (permission denied): fix it with: chmod"


def credentials_unreadable(isolated: Path) -> str:
    a_profile(isolated)
    config.credentials_path().chmod(0)
    return f"{config.credentials_path()} cannot be read (permission denied)"


FILE_PROBLEMS = [
    config_is_a_directory,
    credentials_malformed,
    credentials_are_a_directory,
    ca_bundle_missing,
    ca_bundle_not_pem,
    *([] if reads_any_file() else [config_unreadable, credentials_unreadable]),
]


@pytest.mark.parametrize("problem", FILE_PROBLEMS)
def test_a_file_problem_stops_the_tui_launch_with_one_line(isolated, capsys, problem):
    said = problem(isolated)
    whole_config = problem in (config_is_a_directory, config_unreadable)
    assert main([] if whole_config else ["-P", "a"]) == 2
    assert said in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("problem", FILE_PROBLEMS)
def test_a_file_problem_stops_login_with_one_line(isolated, monkeypatch, capsys, problem):
    said = problem(isolated)
    assert login(monkeypatch, "some-token", "--profile", "a", "--url", "http://127.0.0.1:9") == 2
    assert said in one_line(capsys.readouterr().err)


def test_a_config_directory_stops_profiles_with_one_line(isolated, capsys):
    said = config_is_a_directory(isolated)
    assert main(["profiles"]) == 2
    assert said in one_line(capsys.readouterr().err)


def test_profiles_shows_a_refused_credentials_file_as_a_problem(isolated, capsys):
    a_profile(isolated)
    config.credentials_path().chmod(0o644)
    assert main(["profiles"]) == 2
    row = capsys.readouterr().out.splitlines()[1]
    assert "problem:" in row and "is accessible by others (mode 644)" in row
    assert f"chmod 600 {config.credentials_path()}" in row


def checked_profiles(isolated: Path, sandbox, extra: str = "") -> None:
    write_config(
        isolated,
        f'[profiles.good]\nurl = "{sandbox.url}"\n[profiles.wrong]\nurl = "{sandbox.url}"\n{extra}',
    )
    config.store_token("good", sandbox.admin_token)
    config.store_token("wrong", WRONG_TOKEN)


def test_profiles_check_asks_the_server_about_each_token(isolated, sandbox, capsys):
    checked_profiles(isolated, sandbox)
    assert main(["profiles", "--check"]) == 1
    out = capsys.readouterr().out
    good = next(line for line in out.splitlines() if line.startswith("check good:"))
    wrong = next(line for line in out.splitlines() if line.startswith("check wrong:"))
    assert good.startswith("check good: OK,") and "accepted the token (credentials file)" in good
    assert wrong.startswith("check wrong: problem: the token (credentials file) was refused")
    assert "401" in wrong
    assert out.rstrip().endswith(": 1 problem(s)")


def test_profiles_check_says_ok_when_every_token_is_accepted(isolated, sandbox, capsys):
    write_config(isolated, f'[profiles.good]\nurl = "{sandbox.url}"\n')
    config.store_token("good", sandbox.admin_token)
    assert main(["profiles", "--check"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"{isolated / 'config.toml'}: OK")


def test_profiles_check_checks_the_ca_bundle(isolated, sandbox, capsys):
    write_config(
        isolated, f'[profiles.good]\nurl = "{sandbox.url}"\nca_bundle = "{isolated / "no.pem"}"\n'
    )
    config.store_token("good", sandbox.admin_token)
    assert main(["profiles", "--check"]) == 2
    out = capsys.readouterr().out
    assert f"check good: problem: ca_bundle {isolated / 'no.pem'} of profile 'good'" in out


def test_login_as_a_person_on_a_server_without_password_sign_in(
    isolated, sandbox, monkeypatch, capsys
):
    """The sandbox serves no /auth/simple/login: said, nothing stored, the password unsent."""
    status = login(monkeypatch, "a-password", "--profile", "me", "--url", sandbox.url,
                   "--user", "admin")  # fmt: skip
    assert status == 1
    line = one_line(capsys.readouterr().err)
    assert "no personal access token was made; nothing was stored" in line
    assert "Password sign-in needs the route /auth/simple/login" in line
    assert "a-password" not in line
    assert not config.credentials_path().exists()


def test_login_as_a_person_checks_the_days_first(isolated, sandbox, monkeypatch, capsys):
    status = login(monkeypatch, "a-password", "--profile", "me", "--url", sandbox.url,
                   "--user", "admin", "--pat-days", "0")  # fmt: skip
    assert status == 2
    assert "--pat-days: 0 is not between 1 and 3650" in one_line(capsys.readouterr().err)
