"""Profiles (TOML under platformdirs' user config dir) and where each profile's token comes from.

- profiles: the config file, read and validated (ConfigError names the file and the fix);
- schema: the file's tables as pydantic models, their errors phrased as ConfigError messages;
- writing: adding a profile without ever leaving the file broken;
- credentials: token sources and the private credentials file;
- token_command: running a profile's token command, bounded and cleaned up.
"""

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
