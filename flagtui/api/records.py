"""The base of every typed record of the admin API, and the people a record can name.

Fields follow the contract (spec/admin-api.md): required fields are required, the rest optional,
unknown fields ignored. Attributes are snake_case; the wire names are camelCase aliases.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class Record(BaseModel):
    # defer_build: schemas are built on first use, not at import (faster start-up)
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="ignore", defer_build=True
    )


class CreatedBy(Record):
    id: int | None = None
    name: str | None = None
    username: str | None = None
    image_url: str | None = None


class User(Record):
    id: int
    is_api: bool | None = Field(default=None, alias="isAPI")
    name: str | None = None
    email: str | None = None
    username: str | None = None
    image_url: str | None = None
    invite_link: str | None = None
    login_attempts: int | None = None
    email_sent: bool | None = None
    root_role: int | None = None
    seen_at: datetime | None = None
    created_at: datetime | None = None
    account_type: str | None = None
    permissions: list[str] | None = None
    scim_id: str | None = None

    @property
    def label(self) -> str:
        return self.name or self.username or self.email or f"user {self.id}"
