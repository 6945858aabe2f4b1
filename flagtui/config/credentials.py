"""Where each profile's token comes from, and the credentials file that keeps them.

Token sources, first match wins:
1. the environment: UNLEASH_API_TOKEN (with UNLEASH_URL, which works with no config file at all);
   it applies to the profile whose url is UNLEASH_URL, or to any profile when UNLEASH_URL is unset;
2. the profile's `token_command`: a command (run without a shell) whose stdout is the token;
3. the credentials file, kept apart from the config: 0600 in a 0700 folder, both owned by the
   user, neither a symbolic link, or refused (as ssh does).
The folder and the file are opened without following symbolic links and checked on the open
descriptors, which are then read: what was checked is what is read.
A token is never taken from the command line and never appears in a message or repr.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path

import tomli_w

from flagtui.config.profiles import ConfigError, Credential, Profile, config_dir
from flagtui.config.token_command import announce_on_stderr, run_token_command
from flagtui.profile import env_token_applies

_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: a FIFO planted at the path must not block the open (it is refused after fstat).
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


def credentials_path() -> Path:
    override = os.environ.get("FLAGTUI_CREDENTIALS")
    return Path(override) if override else config_dir() / "credentials" / "tokens.toml"


def token_source(profile: Profile) -> str:
    """Where the token would come from, without running anything (for `flagtui profiles`).

    A credentials file that would be refused raises ConfigError, so it shows as a problem."""
    if env_token_applies(profile):
        return "environment (UNLEASH_API_TOKEN)"
    if profile.token_command:
        return "token_command"
    if profile.name in read_credentials():
        return "credentials file"
    return "missing"


def resolve_token(profile: Profile, announce: Callable[[str], None] | None = None) -> Credential:
    """The profile's token from its first source; `announce` is told when a token_command
    runs (stderr by default)."""
    if env_token_applies(profile):
        token = os.environ["UNLEASH_API_TOKEN"].strip()
        if not token.isprintable():
            raise ConfigError(
                "UNLEASH_API_TOKEN holds several lines or control characters: set it to the "
                "token alone"
            )
        return Credential(token, "environment")
    if profile.token_command:
        return Credential(
            run_token_command(profile, announce or announce_on_stderr), "token_command"
        )
    stored = read_credentials().get(profile.name)
    if stored:
        return Credential(stored, "credentials file")
    raise ConfigError(
        f"No token for profile {profile.name!r}: run `flagtui login --profile {profile.name}`, "
        "set token_command in the profile, or set UNLEASH_API_TOKEN."
    )


def read_credentials() -> dict[str, str]:
    """The stored tokens by profile name; {} when there is no credentials file."""
    path = credentials_path()
    folder = _open_folder(path.parent)
    if folder is None:
        return {}
    try:
        return _read_tokens(folder, path)
    finally:
        os.close(folder)


def store_token(profile_name: str, token: str) -> Path:
    """Write the token into the credentials file (0600 in a 0700 folder), keeping the others."""
    path = credentials_path()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"{path.parent} cannot be created ({exc.strerror}): create it with mode 700, "
            "or point FLAGTUI_CREDENTIALS elsewhere"
        ) from None
    folder = _open_folder(path.parent)
    assert folder is not None  # just created
    try:
        tokens = _read_tokens(folder, path)
        tokens[profile_name] = token

        _replace(folder, path, tomli_w.dumps({"tokens": tokens}).encode("utf-8"))
    finally:
        os.close(folder)
    return path


def _open_folder(folder: Path) -> int | None:
    """The folder, opened without following a link and checked; None when it does not exist."""
    try:
        fd = os.open(folder, _FOLDER_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _open_error(folder, exc, "folder") from None
    try:
        _check_private(folder, os.fstat(fd), 0o700)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_tokens(folder: int, path: Path) -> dict[str, str]:
    try:
        fd = os.open(path.name, _FILE_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise _open_error(path, exc, "file") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(
                f"{path} is not a regular file; flagtui refuses to use it: remove it and run "
                "`flagtui login` again"
            )
        _check_private(path, info, 0o600)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as opened:
            data = opened.read()
    finally:
        os.close(fd)
    return _parse_tokens(path, data)


def _parse_tokens(path: Path, data: bytes) -> dict[str, str]:
    fix = "fix it, or remove it and run `flagtui login` again"
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        # The parser's message may quote the file: never shown, it may hold a token.
        raise ConfigError(f"{path}: not valid TOML; {fix}") from None
    unknown = set(raw) - {"tokens"}
    if unknown:
        raise ConfigError(f"{path}: unknown key {sorted(unknown)[0]!r} at the top level; {fix}")
    tokens = raw.get("tokens", {})
    if not isinstance(tokens, dict):
        raise ConfigError(f'{path}: [tokens] must be a table of profile = "token"; {fix}')
    for name, token in tokens.items():
        if not isinstance(token, str):
            raise ConfigError(f"{path}: the token of profile {name!r} must be a string; {fix}")
    return tokens


def _check_private(target: Path, info: os.stat_result, wanted: int) -> None:
    """Refuse what group or others can read, or what another user owns, as ssh does."""
    me = os.geteuid()
    if info.st_uid != me:
        raise ConfigError(
            f"{target} belongs to user id {info.st_uid}, not to you ({me}); flagtui refuses to "
            f"use it. Remove it and run `flagtui login` again"
        )
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        raise ConfigError(
            f"{target} is accessible by others (mode {mode:o}); flagtui refuses to use it. "
            f"Fix it with: chmod {wanted:o} {target}"
        )


def _open_error(target: Path, exc: OSError, kind: str) -> ConfigError:
    if exc.errno == errno.ELOOP or (exc.errno == errno.ENOTDIR and target.is_symlink()):
        return ConfigError(
            f"{target} is a symbolic link; flagtui reads credentials only from a real {kind}: "
            f"replace the link with the {kind} itself"
        )
    if exc.errno == errno.ENOTDIR:
        return ConfigError(f"{target} is not a folder: remove it, then run `flagtui login`")
    if exc.errno == errno.EACCES:
        return ConfigError(
            f"{target} cannot be read (permission denied): it must be yours, "
            f"mode {'700' if kind == 'folder' else '600'}"
        )
    return ConfigError(
        f"{target} cannot be opened ({exc.strerror}): remove it and run `flagtui login` again"
    )


def _replace(folder: int, path: Path, data: bytes) -> None:
    """Write a new file next to the old one (never through a link) and rename it over."""
    tmp = f".{path.name}.{os.getpid()}.tmp"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp, dir_fd=folder)  # left by a crash
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(tmp, flags, 0o600, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(fd)
            os.replace(tmp, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            raise
    except OSError as exc:
        raise ConfigError(f"{path} cannot be written ({exc.strerror}): check its folder") from None
