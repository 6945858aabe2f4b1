"""A profile's `archive_url`: PostgreSQL (or a SQLite file), checked when the config is read,
the message naming the table and the key and never showing a password."""

from __future__ import annotations

import pytest

from flagtui import config
from flagtui.config import ConfigError

from .helpers import write_config


def test_a_postgresql_archive_url_is_read(isolated):
    write_config(
        isolated,
        '[profiles.a]\nurl = "http://a.test"\narchive_url = "postgresql://ops@db.test/archive"\n',
    )
    profile = config.load_config().profiles["a"]
    assert profile.archive_url == "postgresql://ops@db.test/archive"


@pytest.mark.parametrize(
    "value", ["mysql://u:secret@db.test/x", "http://db.test", "postgresql://u:secret@db test/x"]
)
def test_an_archive_url_of_another_kind_is_refused(isolated, value):
    write_config(isolated, f'[profiles.a]\nurl = "http://a.test"\narchive_url = "{value}"\n')
    with pytest.raises(ConfigError) as caught:
        config.load_config()
    message = str(caught.value)
    assert "[profiles.a]: archive_url must start with postgresql://" in message
    assert "secret" not in message


def test_an_archive_url_that_is_not_a_string_is_refused(isolated):
    write_config(isolated, '[profiles.a]\nurl = "http://a.test"\narchive_url = 5\n')
    with pytest.raises(ConfigError, match="archive_url has the wrong type"):
        config.load_config()
