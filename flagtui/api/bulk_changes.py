"""The changes `client.bulk` makes to many flags of one project, and what each means: the state
it leaves a flag in (to tell "nothing to do" before and "done" after, from a read), real
Unleash's project batch route for it, and the one-flag request used where that route is missing.

Batch routes (in the source of OSS 6.10.1, 7.5.1 and 8.2.0, and in 7.5's OpenAPI):
POST /api/admin/projects/:p/archive `{features}` (202), /revive `{features}` (200),
/stale `{features, stale}` (202), /bulk_features/environments/:env/on|off `{features}` (200).
Each records the same event per flag as its one-flag route (`feature-archived`, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from flagtui.api.models import Feature
from flagtui.api.wire import seg

Verb = Literal["archive", "revive", "enable", "disable", "stale", "unstale"]
VERBS: tuple[Verb, ...] = ("archive", "revive", "enable", "disable", "stale", "unstale")


@dataclass(frozen=True)
class Request:
    """A request a plan will send: as a dry run shows it."""

    method: str
    path: str
    body: Any = None


@dataclass(frozen=True)
class Change:
    verb: Verb
    environment: str | None = None  # enable and disable only

    def __post_init__(self) -> None:
        switch = self.verb in ("enable", "disable")
        if switch != (self.environment is not None):
            raise ValueError(f"{self.verb}: an environment for enable and disable only")

    @property
    def action(self) -> str:
        """As a read-only profile's refusal names it."""
        return {"stale": "mark stale", "unstale": "mark not stale"}.get(
            self.verb, f"{self.verb} feature"
        )

    @property
    def event(self) -> str:
        """The event real Unleash records for each flag changed."""
        return {
            "archive": "feature-archived",
            "revive": "feature-revived",
            "enable": "feature-environment-enabled",
            "disable": "feature-environment-disabled",
            "stale": "feature-stale-on",
            "unstale": "feature-stale-off",
        }[self.verb]

    @property
    def result(self) -> str:
        """What is true of a flag once changed, said in an outcome."""
        return {
            "archive": "archived",
            "revive": "live again, every environment off",
            "enable": f"on in {self.environment}",
            "disable": f"off in {self.environment}",
            "stale": "marked stale",
            "unstale": "not marked stale",
        }[self.verb]

    def already(self, flag: Feature) -> str | None:
        """Why a live flag (or, for revive, one that is live) needs nothing: None if it does."""
        if self.verb == "revive":
            return "not archived"
        if self.verb == "archive":
            return None
        if self.verb in ("stale", "unstale"):
            if bool(flag.stale) != (self.verb == "stale"):
                return None
            return "already stale" if flag.stale else "not stale"
        enabled = self.enabled_in(flag)
        if enabled is None or enabled != (self.verb == "enable"):
            return None  # to change (lacking the environment: the server says so, per flag)
        return f"already {'on' if enabled else 'off'} in {self.environment}"

    def enabled_in(self, flag: Feature) -> bool | None:
        env = next((e for e in flag.environments or [] if e.name == self.environment), None)
        return None if env is None else env.enabled

    def holds(self, flag: Feature | None) -> bool:
        """The change is true of the flag as read after sending (None: not among live flags;
        an archive is proven by the archived flags, elsewhere)."""
        if self.verb == "archive":
            return flag is None
        if flag is None:
            return False
        if self.verb == "revive":
            return not any(e.enabled for e in flag.environments or [])
        if self.verb in ("stale", "unstale"):
            return bool(flag.stale) == (self.verb == "stale")
        return self.enabled_in(flag) is (self.verb == "enable")

    def batch(self, project: str, names: list[str]) -> Request:
        """Real Unleash's project batch route for these flags."""
        base = f"/api/admin/projects/{seg(project)}"
        if self.verb in ("archive", "revive"):
            return Request("POST", f"{base}/{self.verb}", {"features": names})
        if self.verb in ("stale", "unstale"):
            return Request(
                "POST", f"{base}/stale", {"features": names, "stale": self.verb == "stale"}
            )
        assert self.environment is not None
        on = "on" if self.verb == "enable" else "off"
        path = f"{base}/bulk_features/environments/{seg(self.environment)}/{on}"
        return Request("POST", path, {"features": names})

    def one(self, project: str, name: str) -> Request:
        """The one-flag request, where the batch route is missing."""
        flag = f"/api/admin/projects/{seg(project)}/features/{seg(name)}"
        if self.verb == "archive":
            return Request("DELETE", flag)
        if self.verb == "revive":
            return self.batch(project, [name])  # the one revive route real Unleash has
        if self.verb in ("stale", "unstale"):
            op = {"op": "replace", "path": "/stale", "value": self.verb == "stale"}
            return Request("PATCH", flag, [op])
        assert self.environment is not None
        on = "on" if self.verb == "enable" else "off"
        return Request("POST", f"{flag}/environments/{seg(self.environment)}/{on}")
