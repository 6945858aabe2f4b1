"""Profiles (TOML under platformdirs' user config dir) and where each profile's token comes from.

Token sources, first match wins:
1. the environment: UNLEASH_API_TOKEN (with UNLEASH_URL, which works with no config file at all);
   it applies to the profile whose url is UNLEASH_URL, or to any profile when UNLEASH_URL is unset;
2. the profile's `token_command`: a command (run without a shell) whose stdout is the token;
3. the credentials file, kept apart from the config: 0600 in a 0700 folder, or refused.
A token is never taken from the command line and never appears in a message or repr.
"""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir

from flagtui.api import AdminClient

ENV_PROFILE = "env"
PROFILE_KEYS: dict[str, type | tuple[type, ...]] = {
    "url": str,
    "read_only": bool,
    "production": bool,
    "timeout": (int, float),
    "verify_tls": bool,
    "ca_bundle": str,
    "token_command": str,
}


class ConfigError(Exception):
    """A problem with the config or credentials, phrased with how to fix it."""


@dataclass(frozen=True)
class Profile:
    name: str
    url: str
    read_only: bool = False
    production: bool = False
    timeout: float = 10.0
    verify_tls: bool = True
    ca_bundle: str | None = None
    token_command: str | None = None

    @property
    def tls_verification_off(self) -> bool:
        return not self.verify_tls and not self.ca_bundle


@dataclass
class Config:
    path: Path
    default_profile: str | None = None
    profiles: dict[str, Profile] = field(default_factory=dict)


@dataclass(frozen=True)
class Credential:
    token: str = field(repr=False)
    source: str

    def __repr__(self) -> str:
        return f"Credential(source={self.source!r})"


def config_dir() -> Path:
    return Path(user_config_dir("flagtui", appauthor=False))


def config_path() -> Path:
    override = os.environ.get("FLAGTUI_CONFIG")
    return Path(override) if override else config_dir() / "config.toml"


def credentials_path() -> Path:
    override = os.environ.get("FLAGTUI_CREDENTIALS")
    return Path(override) if override else config_dir() / "credentials" / "tokens.toml"


def load_config(path: Path | None = None) -> Config:
    path = path or config_path()
    config = Config(path=path)
    if path.exists():
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
        _parse_config(raw, config)
    env_url = os.environ.get("UNLEASH_URL")
    if env_url and ENV_PROFILE not in config.profiles:
        config.profiles[ENV_PROFILE] = Profile(name=ENV_PROFILE, url=env_url)
    return config


def _parse_config(raw: dict[str, Any], config: Config) -> None:
    unknown = set(raw) - {"default_profile", "profiles"}
    if unknown:
        raise ConfigError(f"{config.path}: unknown key {sorted(unknown)[0]!r} at the top level")
    default = raw.get("default_profile")
    if default is not None and not isinstance(default, str):
        raise ConfigError(f"{config.path}: default_profile must be a profile name")
    config.default_profile = default
    profiles = raw.get("profiles", {})
    if not isinstance(profiles, dict):
        raise ConfigError(f"{config.path}: [profiles] must be a table of profiles")
    for name, values in profiles.items():
        config.profiles[name] = _parse_profile(config.path, name, values)
    if default and default not in config.profiles:
        raise ConfigError(f"{config.path}: default_profile {default!r} is not a profile")


def _parse_profile(path: Path, name: str, values: object) -> Profile:
    where = f"{path}: [profiles.{name}]"
    if not isinstance(values, dict):
        raise ConfigError(f"{where} must be a table")
    for key, value in values.items():
        if key == "token":
            raise ConfigError(
                f"{where}: tokens do not belong in the config file; "
                f"run `flagtui login --profile {name}` to store it in the credentials file"
            )
        expected = PROFILE_KEYS.get(key)
        if expected is None:
            raise ConfigError(f"{where}: unknown key {key!r}")
        if not isinstance(value, expected) or (expected is not bool and isinstance(value, bool)):
            raise ConfigError(f"{where}: {key} has the wrong type ({type(value).__name__})")
    if "url" not in values:
        raise ConfigError(f"{where}: url is required")
    if not str(values["url"]).startswith(("http://", "https://")):
        raise ConfigError(f"{where}: url must start with http:// or https://")
    if values.get("timeout", 1) <= 0:
        raise ConfigError(f"{where}: timeout must be a positive number of seconds")
    return Profile(name=name, **values)


def select_profile(config: Config, name: str | None) -> Profile:
    chosen = name or config.default_profile
    if chosen is None:
        if len(config.profiles) == 1:
            return next(iter(config.profiles.values()))
        if ENV_PROFILE in config.profiles:
            return config.profiles[ENV_PROFILE]
        if not config.profiles:
            raise ConfigError(
                "No profile is configured. Run `flagtui login --profile NAME --url URL`, "
                "set UNLEASH_URL and UNLEASH_API_TOKEN, or try `flagtui demo`."
            )
        raise ConfigError(
            f"Several profiles and no default_profile in {config.path}: "
            f"choose one with -P ({', '.join(sorted(config.profiles))})."
        )
    if chosen not in config.profiles:
        known = ", ".join(sorted(config.profiles)) or "none"
        raise ConfigError(f"No profile named {chosen!r} (known: {known}).")
    return config.profiles[chosen]


def token_source(profile: Profile) -> str:
    """Where the token would come from, without reading it (for `flagtui profiles`)."""
    if _env_token_applies(profile):
        return "environment (UNLEASH_API_TOKEN)"
    if profile.token_command:
        return "token_command"
    if profile.name in _read_credentials(check=False):
        return "credentials file"
    return "missing"


def resolve_token(profile: Profile) -> Credential:
    if _env_token_applies(profile):
        return Credential(os.environ["UNLEASH_API_TOKEN"].strip(), "environment")
    if profile.token_command:
        return Credential(_run_token_command(profile), "token_command")
    stored = _read_credentials(check=True).get(profile.name)
    if stored:
        return Credential(stored, "credentials file")
    raise ConfigError(
        f"No token for profile {profile.name!r}: run `flagtui login --profile {profile.name}`, "
        "set token_command in the profile, or set UNLEASH_API_TOKEN."
    )


def _env_token_applies(profile: Profile) -> bool:
    if not os.environ.get("UNLEASH_API_TOKEN"):
        return False
    env_url = os.environ.get("UNLEASH_URL")
    return env_url is None or env_url.rstrip("/") == profile.url.rstrip("/")


def _run_token_command(profile: Profile) -> str:
    assert profile.token_command is not None
    what = f"token_command of profile {profile.name!r}"
    try:
        done = subprocess.run(
            shlex.split(profile.token_command),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        raise ConfigError(f"{what} could not run: {type(exc).__name__}: {exc}") from None
    token = done.stdout.strip()
    if done.returncode != 0:
        # stderr may help; stdout may hold a secret and is never shown.
        hint = done.stderr.strip().splitlines()[:1]
        raise ConfigError(
            f"{what} failed with exit {done.returncode}" + (f": {hint[0]}" if hint else "")
        )
    if not token:
        raise ConfigError(f"{what} printed nothing")
    return token


def _read_credentials(*, check: bool) -> dict[str, str]:
    path = credentials_path()
    if not path.exists():
        return {}
    if check:
        check_private(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        raise ConfigError(f"{path}: not valid TOML; fix or remove it") from None
    tokens = raw.get("tokens", {})
    return {k: v for k, v in tokens.items() if isinstance(v, str)}


def check_private(path: Path) -> None:
    """Refuse a credentials file or folder that group or others can read, as ssh does."""
    for target, wanted in ((path.parent, 0o700), (path, 0o600)):
        mode = stat.S_IMODE(target.stat().st_mode)
        if mode & 0o077:
            raise ConfigError(
                f"{target} is accessible by others (mode {mode:o}); flagtui refuses to use it. "
                f"Fix it with: chmod {wanted:o} {target}"
            )


def store_token(profile_name: str, token: str) -> Path:
    """Write the token into the credentials file (0600 in a 0700 folder), keeping the others."""
    import tomli_w

    path = credentials_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.parent.chmod(0o700)
    tokens = _read_credentials(check=True) if path.exists() else {}
    tokens[profile_name] = token
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        tomli_w.dump({"tokens": tokens}, out)
    os.replace(tmp, path)
    return path


def make_client(profile: Profile, credential: Credential) -> AdminClient:
    verify: bool | str = profile.ca_bundle or profile.verify_tls
    return AdminClient(
        profile.url,
        credential.token,
        profile=profile.name,
        read_only=profile.read_only,
        timeout=profile.timeout,
        verify=verify,
    )


def add_profile(config: Config, profile: Profile) -> None:
    """Append a new profile to the config file as text, so the user's comments stay as written."""
    lines = []
    if not config.path.exists():
        config.path.parent.mkdir(parents=True, exist_ok=True)
        lines.append(f'default_profile = "{profile.name}"\n')
    lines.append(f'\n[profiles."{profile.name}"]\nurl = "{profile.url}"\n')
    with config.path.open("a", encoding="utf-8") as out:
        out.writelines(lines)
    config.profiles[profile.name] = profile
