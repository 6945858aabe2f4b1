"""`flagtui login --user` against real Unleash OSS: signed in with a password (from stdin, never
the command line), a personal access token made and stored for the profile, the event log
naming the person for what that profile does; the PAT deleted afterwards (only the one made
here). Real Unleash's default admin (admin / unleash4all) signs in."""

from __future__ import annotations

import asyncio
import io
import uuid

import httpx
import pytest

from flagtui import config
from flagtui.api import AdminClient
from flagtui.api.personal_tokens import create_pat
from flagtui.cli import main

pytestmark = pytest.mark.unleash
USER, PASSWORD = "admin", "unleash4all"


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    monkeypatch.delenv("UNLEASH_URL", raising=False)
    monkeypatch.delenv("UNLEASH_API_TOKEN", raising=False)
    return tmp_path


def delete_pats(url: str, description_start: str) -> None:
    with httpx.Client(base_url=url, timeout=30) as session:
        signed = session.post("/auth/simple/login", json={"username": USER, "password": PASSWORD})
        assert signed.status_code == 200
        pats = session.get("/api/admin/user/tokens").json()["pats"]
        for pat in pats:
            if pat["description"].startswith(description_start):
                assert session.delete(f"/api/admin/user/tokens/{pat['id']}").status_code == 200
        session.post("/logout")


async def pat_created_event(url: str, token: str, profile: str):
    async with AdminClient(url, token, profile=profile) as client:
        await client.connect()
        page = await client.events.search(type="pat-created", limit=10)
        return next(e for e in page.events if profile in str(e.data))


def test_login_stores_a_pat_that_names_the_person(isolated, real_unleash, monkeypatch):
    profile = f"pat-{uuid.uuid4().hex[:6]}"
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    try:
        status = main(["login", "--profile", profile, "--url", real_unleash.url, "--user", USER])
        assert status == 0
        token = config.resolve_token(config.select_profile(config.load_config(), profile)).token
        assert token.startswith("user:")
        made = asyncio.run(pat_created_event(real_unleash.url, token, profile))
        assert made.created_by == USER
        leaked = token in str(made)
        assert not leaked, "the PAT is in its event"
    finally:
        delete_pats(real_unleash.url, f"flagtui {profile} ")


async def test_a_wrong_password_is_said_and_nothing_made(real_unleash):
    from datetime import UTC, datetime, timedelta

    from flagtui.api import errors

    with pytest.raises(errors.ApiError) as refused:
        await create_pat(
            real_unleash.url, USER, "not-the-password", description="never",
            expires_at=datetime.now(UTC) + timedelta(days=1),
        )  # fmt: skip
    assert (refused.value.status, refused.value.name) == (401, "PasswordMismatch")
    assert "not-the-password" not in str(refused.value)
