"""The base of every typed record of the admin API, and the people a record can name.

Fields follow the contract (spec/admin-api.md): required fields are required, the rest optional,
unknown fields ignored. Attributes are snake_case; the wire names are camelCase aliases.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.alias_generators import to_camel


class Record(BaseModel):
    # defer_build: schemas are built on first use, not at import (faster start-up)
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="ignore", defer_build=True
    )


def _whole_as_int(value: object) -> object:
    # Beyond 2**53 a float no longer names one integer: such a value stays a float.
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


# What Unleash's published OpenAPI types `number` (change request ids, minApprovals, a
# creator's id): 7.0 is read as 7, so it is shown and sent as 7; 0.5 stays a float.
OpenApiNumber = Annotated[int | float, BeforeValidator(_whole_as_int)]


class CreatedBy(Record):
    id: OpenApiNumber | None = None
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
