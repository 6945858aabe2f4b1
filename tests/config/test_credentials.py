"""The credentials file: opened without following links, checked on the open descriptor (mode,
owner, kind), then read from it; every problem one message naming the file and the fix."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flagtui import config
from flagtui.config import ConfigError, Profile

from .helpers import SECRET, reads_any_file, running_as_root

PROFILE = Profile(name="a", url="http://a.test")
OTHER_USER = 54321
needs_root = pytest.mark.skipif(
    not (running_as_root() and reads_any_file()), reason="gives a file to another user"
)
needs_modes_enforced = pytest.mark.skipif(reads_any_file(), reason="file modes do not stop root")


def stored(isolated: Path) -> Path:
    """A valid credentials file holding SECRET for profile a."""
    return config.store_token("a", SECRET)


def refused(match: str) -> str:
    with pytest.raises(ConfigError, match=match) as caught:
        config.resolve_token(PROFILE)
    message = str(caught.value)
    assert SECRET not in message
    return message


def test_a_symlinked_credentials_file_is_refused(isolated):
    path = stored(isolated)
    real = path.parent / "real.toml"
    path.rename(real)
    path.symlink_to(real)
    message = refused("is a symbolic link")
    assert str(path) in message


def test_a_symlinked_credentials_folder_is_refused(isolated):
    path = stored(isolated)
    real = isolated / "real-creds"
    path.parent.rename(real)
    path.parent.symlink_to(real)
    refused("creds is a symbolic link")


@needs_root
@pytest.mark.parametrize("target", ["file", "folder"])
def test_credentials_of_another_user_are_refused(isolated, target):
    path = stored(isolated)
    os.chown(path if target == "file" else path.parent, OTHER_USER, -1)
    message = refused(f"belongs to user id {OTHER_USER}, not to you")
    assert "Remove it and run `flagtui login` again" in message


@needs_modes_enforced
def test_an_unreadable_credentials_file_is_explained(isolated):
    path = stored(isolated)
    path.chmod(0o000)
    refused("cannot be read")


def test_a_credentials_path_that_is_a_directory_is_explained(isolated):
    path = config.credentials_path()
    path.mkdir(parents=True)
    path.parent.chmod(0o700)
    path.chmod(0o700)
    refused("is not a regular file")


@pytest.mark.timeout(20)
def test_a_fifo_at_the_credentials_path_does_not_hang(isolated):
    path = config.credentials_path()
    path.parent.mkdir(mode=0o700)
    os.mkfifo(path, 0o600)
    refused("is not a regular file")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tokens = [", "not valid TOML"),
        ('tokens = "a"\n', r"\[tokens\] must be a table"),
        ("[tokens]\na = 1\n", "the token of profile 'a' must be a string"),
        ('[tokns]\na = "x"\n', "unknown key 'tokns'"),
    ],
)
def test_a_malformed_credentials_file_is_explained(isolated, text, message):
    path = stored(isolated)
    path.write_text(text)
    assert str(path) in refused(message)


SWAPPER = """
import os, sys
folder, name = sys.argv[1], sys.argv[2]
os.chdir(folder)
while True:
    for source in ("loose.toml", "good.toml"):
        os.link(source, "swap.tmp")
        os.replace("swap.tmp", name)
"""


def test_what_is_read_is_what_was_checked(isolated):
    """A file swapped between a private and a loose one while flagtui reads it: never is the
    loose one's token used (a check on the path before reading it would let it through)."""
    path = config.credentials_path()
    path.parent.mkdir(mode=0o700)
    (path.parent / "good.toml").write_text('[tokens]\na = "good-token"\n')
    (path.parent / "good.toml").chmod(0o600)
    (path.parent / "loose.toml").write_text('[tokens]\na = "loose-token"\n')
    (path.parent / "loose.toml").chmod(0o644)
    os.link(path.parent / "good.toml", path)
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(path.parent), path.name])
    seen: set[str] = set()
    try:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and "loose-token" not in seen:
            try:
                seen.add(config.resolve_token(PROFILE).token)
            except ConfigError as exc:
                seen.add("refused" if "mode 644" in str(exc) else str(exc))
    finally:
        swapper.kill()
        swapper.wait()
    assert "loose-token" not in seen
    assert seen <= {"good-token", "refused"}


def test_store_token_refuses_a_loose_folder_with_the_fix(isolated):
    folder = config.credentials_path().parent
    folder.mkdir()
    folder.chmod(0o755)
    with pytest.raises(ConfigError, match=f"Fix it with: chmod 700 {folder}"):
        config.store_token("a", SECRET)
    assert not config.credentials_path().exists()
    assert oct(folder.stat().st_mode & 0o777) == oct(0o755)


def test_store_token_refuses_a_symlinked_file_and_leaves_its_target_alone(isolated):
    path = stored(isolated)
    target = isolated / "elsewhere.toml"
    target.write_text("# not yours to overwrite\n")
    path.unlink()
    path.symlink_to(target)
    with pytest.raises(ConfigError, match="is a symbolic link"):
        config.store_token("b", "other")
    assert target.read_text() == "# not yours to overwrite\n"
