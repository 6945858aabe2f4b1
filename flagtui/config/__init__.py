"""Profiles (TOML under platformdirs' user config dir) and where each profile's token comes from.

- profiles: the config file, read and validated (ConfigError names the file and the fix);
- schema: the file's tables checked key by key, their problems phrased as ConfigError messages;
- writing: adding a profile without ever leaving the file broken;
- credentials: token sources and the private credentials file;
- token_command: running a profile's token command, bounded and cleaned up.

Its names are imported when first asked for (`from flagtui.config import load_config` works as
ever): a command that reads its profile and needs no token (`failures` from a fresh archive)
loads neither the token command's process handling nor the credentials file's reader (issue 26).
"""

from __future__ import annotations

from flagtui.config.credentials import (
    credentials_path,
    read_credentials,
    resolve_token,
    store_token,
    token_source,
)
from flagtui.config.profiles import (
    ENV_PROFILE,
    PROFILE_NAME_RULE,
    Config,
    ConfigError,
    Credential,
    Profile,
    check_ca_bundle,
    check_profile_name,
    config_dir,
    config_path,
    load_config,
    make_client,
    select_profile,
)
from flagtui.config.rules import MAX_TIMEOUT
from flagtui.config.token_command import Interrupted, stop_token_commands
from flagtui.config.writing import add_profile
from flagtui.lazy_names import lazy_names

__all__ = [
    "ENV_PROFILE",
    "MAX_TIMEOUT",
    "PROFILE_NAME_RULE",
    "Config",
    "ConfigError",
    "Credential",
    "Interrupted",
    "Profile",
    "add_profile",
    "check_ca_bundle",
    "check_profile_name",
    "config_dir",
    "config_path",
    "credentials_path",
    "load_config",
    "make_client",
    "read_credentials",
    "resolve_token",
    "select_profile",
    "stop_token_commands",
    "store_token",
    "token_source",
]
_MODULE_OF = {
    "credentials_path": "credentials",
    "read_credentials": "credentials",
    "resolve_token": "credentials",
    "store_token": "credentials",
    "token_source": "credentials",
    "MAX_TIMEOUT": "rules",
    "Interrupted": "token_command",
    "stop_token_commands": "token_command",
    "add_profile": "writing",
}  # the others: profiles


__getattr__ = lazy_names(__name__, __all__, _MODULE_OF, "profiles")
