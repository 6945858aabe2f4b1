"""A flags file read back (TOML, as `flagtui export` writes it; docs/flags-file.schema.json):
its header checked and its parts kept as plain data. A file that is not one says where
(`InvalidArgument` naming the field), never a traceback."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flagtui.api.errors import InvalidArgument
from flagtui.fleet.flag_shape import FILE_VERSION


@dataclass(frozen=True)
class FlagsFile:
    projects: list[str]
    environments: list[str]
    selected: list[str]  # the flags the file was made of, when named
    flags: list[dict[str, Any]]
    segments: list[dict[str, Any]]
    context_fields: list[dict[str, Any]]


def _names(data: dict[str, Any], key: str, *, required: bool = True) -> list[str]:
    value = data.get(key, None if required else [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InvalidArgument(key, "a list of names")
    return list(value)


def _tables(data: dict[str, Any], key: str, required: tuple[str, ...]) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise InvalidArgument(key, "an array of tables")
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise InvalidArgument(f"{key}[{i}]", "a table")
        for field in required:
            if field not in item:
                raise InvalidArgument(f"{key}[{i}].{field}", "required")
    return value


def parse(text: str, where: str = "the file") -> FlagsFile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidArgument(where, f"not TOML ({exc})") from None
    if data.get("version") != FILE_VERSION:
        raise InvalidArgument("version", f"{FILE_VERSION} (this flagtui reads flags files of it)")
    environments = _names(data, "environments")
    if not environments:
        raise InvalidArgument("environments", "at least one")
    flags = _tables(data, "flags", ("project", "name", "environments"))
    for i, flag in enumerate(flags):
        envs = flag["environments"]
        if not isinstance(envs, dict):
            raise InvalidArgument(f"flags[{i}].environments", "a table of environments")
        for name, env in envs.items():
            if name not in environments:
                raise InvalidArgument(f"flags[{i}].environments.{name}", "not in environments")
            if not isinstance(env, dict) or not isinstance(env.get("enabled"), bool):
                raise InvalidArgument(f"flags[{i}].environments.{name}.enabled", "true or false")
    return FlagsFile(
        projects=_names(data, "projects"),
        environments=environments,
        selected=_names(data, "selected", required=False),
        flags=flags,
        segments=_tables(data, "segments", ("name",)),
        context_fields=_tables(data, "contextFields", ("name",)),
    )


def load(path: str) -> FlagsFile:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidArgument("FILE", f"a readable UTF-8 file ({exc.__class__.__name__}: "
                              f"{getattr(exc, 'strerror', None) or exc})") from None  # fmt: skip
    return parse(text, path)
