"""AdminClient: one per profile, the one object the TUI, the CLI and the collector talk to.

A small core (`core`: transport, errors, retries, write outcomes, the read-only check, health,
what the server is) and, on it, one resource object per area, each declaring its methods once:

    client.features         list, names, get, get_or_archived, search, held, prefetch, create,
                            patch, uncomplete, set_environment_enabled, archive, revive
    client.archived         a project's archived flags: list, find, revive_many
    client.flag_ops         clone, delete (archived flags, for good), complete, copy strategies
                            to another environment (plan_* first, then send)
    client.bulk             one change to many flags: plan (reads only), send (each flag's
                            outcome proven by a read afterwards)
    client.events           search
    client.integrations     list, set_enabled, events (deliveries)
    client.environments     list, link, remove
    client.projects         list
    client.users            list, search, create, set_root_role
    client.api_tokens       list, body, create, find, revoke (secrets shown once, masked after)
    client.access           list_roles, list_groups, get, grant (Enterprise)
    client.change_requests  list, get, delete (Enterprise)
    client.feature_types    list, update_lifetime
    client.rollouts         a flag's strategies and variants in one environment: catalog, list,
                            get, variants, add, update, set_disabled, remove, set_order,
                            set_variants (checked first: rollout_rules)
    client.strategy_types   list
    client.context_fields   list, get, usage, no_longer_legal, create, edit (plan_edit,
                            send_edit), delete
    client.segments         list, get, find, used_by, create, send_edit, delete (planned
                            first: plan_create, plan_edit, plan_delete)
    client.flag_batch       export: named flags of one environment in one request (a page of
                            an export, a plan, a diff)
    client.playground       evaluate (the server's own answer for one context), users (for
                            many userIds, through its advanced playground)
    client.raw              send, pages: any route as `flagtui api` asks it (Unleash's paging
                            followed)
    client.tags             a flag's tags (list, plan, send; plan_bulk, send_bulk for several
                            flags) and the tag types (types, create_type)
    client.links            a flag's links: list (with ids), add, remove (Unleash 7 on)
    client.dependencies     a flag's parent: plan_add, plan_remove (checked as Unleash
                            checks them), send
    client.default_strategies  a project environment's default strategy: get, plan_set, send

Read-only profiles are enforced in the core's `write`, once, before any request is built.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import httpx

from flagtui.api.access import Access
from flagtui.api.api_tokens import ApiTokens
from flagtui.api.archived_flags import ArchivedFlags
from flagtui.api.bulk import Bulk
from flagtui.api.change_requests import ChangeRequests
from flagtui.api.context_fields import ContextFields
from flagtui.api.core import Core
from flagtui.api.default_strategies import DefaultStrategies
from flagtui.api.dependencies import Dependencies
from flagtui.api.environments import Environments
from flagtui.api.events import Events
from flagtui.api.feature_links import Links
from flagtui.api.feature_types import FeatureTypes
from flagtui.api.features import Features
from flagtui.api.flag_batch import FlagBatch
from flagtui.api.flag_ops import FlagOps
from flagtui.api.flag_tags import Tags
from flagtui.api.health import Health
from flagtui.api.integrations import Integrations
from flagtui.api.models import ServerInfo
from flagtui.api.playground import Playground
from flagtui.api.projects import Projects
from flagtui.api.raw import Raw
from flagtui.api.rollout_catalogs import Segments, StrategyTypes
from flagtui.api.rollouts import Rollouts
from flagtui.api.transport import DEFAULT_RETRY_DELAYS, RequestHook
from flagtui.api.users import Users


class AdminClient:
    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        profile: str = "default",
        read_only: bool = False,
        timeout: float = 10.0,
        verify: bool | str = True,
        retry_delays: Sequence[float] = DEFAULT_RETRY_DELAYS,
        transport: httpx.AsyncBaseTransport | None = None,
        request_hook: RequestHook | None = None,
        before_write: Callable[[str], None] | None = None,
    ) -> None:
        self._core = Core(
            base_url,
            token,
            profile=profile,
            read_only=read_only,
            timeout=timeout,
            verify=verify,
            retry_delays=retry_delays,
            transport=transport,
            request_hook=request_hook,
            before_write=before_write,
        )

    # Each area is made when first used.
    @functools.cached_property
    def feature_types(self) -> FeatureTypes:
        return FeatureTypes(self._core, self.events)

    @functools.cached_property
    def features(self) -> Features:
        return Features(self._core, self.feature_types, self.events)

    @property
    def archived(self) -> ArchivedFlags:
        return self.features.archived

    @functools.cached_property
    def events(self) -> Events:
        return Events(self._core)

    @functools.cached_property
    def integrations(self) -> Integrations:
        return Integrations(self._core, self.events)

    @functools.cached_property
    def environments(self) -> Environments:
        return Environments(self._core)

    @functools.cached_property
    def bulk(self) -> Bulk:
        return Bulk(self._core, self.features, self.environments, self.events)

    @functools.cached_property
    def projects(self) -> Projects:
        return Projects(self._core)

    @functools.cached_property
    def users(self) -> Users:
        return Users(self._core)

    @functools.cached_property
    def api_tokens(self) -> ApiTokens:
        return ApiTokens(self._core)

    @functools.cached_property
    def access(self) -> Access:
        return Access(self._core, self.events)

    @functools.cached_property
    def change_requests(self) -> ChangeRequests:
        return ChangeRequests(self._core)

    @functools.cached_property
    def strategy_types(self) -> StrategyTypes:
        return StrategyTypes(self._core)

    @functools.cached_property
    def context_fields(self) -> ContextFields:
        return ContextFields(self._core, self.events)

    @functools.cached_property
    def segments(self) -> Segments:
        return Segments(self._core)

    @functools.cached_property
    def playground(self) -> Playground:
        return Playground(self._core)

    @functools.cached_property
    def flag_batch(self) -> FlagBatch:
        return FlagBatch(self._core)

    @functools.cached_property
    def raw(self) -> Raw:
        return Raw(self._core)

    @functools.cached_property
    def rollouts(self) -> Rollouts:
        return Rollouts(
            self._core, self.strategy_types, self.context_fields, self.segments, self.events
        )

    @functools.cached_property
    def tags(self) -> Tags:
        return Tags(self._core)

    @functools.cached_property
    def links(self) -> Links:
        return Links(self._core)

    @functools.cached_property
    def dependencies(self) -> Dependencies:
        return Dependencies(self._core, self.features)

    @functools.cached_property
    def default_strategies(self) -> DefaultStrategies:
        return DefaultStrategies(self._core, self.environments)

    @functools.cached_property
    def flag_ops(self) -> FlagOps:
        """Clone, delete for good, mark completed, copy strategies (`flag_ops`)."""
        return FlagOps(self._core, self.features, self.rollouts)

    async def __aenter__(self) -> AdminClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._core.aclose()

    def __repr__(self) -> str:
        lock = ", read-only" if self.read_only else ""
        return f"AdminClient({self.base_url!r}, profile={self.profile!r}{lock})"

    async def connect(self) -> ServerInfo:
        """Read ui-config: version and edition decide which operations and routes are used."""
        return await self._core.connect()

    async def probe(self) -> None:
        """Ask the server whether it answers, in one light request (Unleash's `/health`, which
        needs no permission), recording the outcome in `health` and raising nothing: how an idle
        UI notices a server that is back."""
        await self._core.probe()

    def use_token(self, token: str) -> None:
        """Send `token` from the next request on: a long-running command (`collect`) whose
        token was refused reads the profile's token source again, which may have rotated."""
        self._core.use_token(token)

    @property
    def server(self) -> ServerInfo | None:
        """What `connect()` learnt: version, edition; None before."""
        return self._core.server

    @server.setter
    def server(self, server: ServerInfo | None) -> None:
        self._core.server = server

    @property
    def health(self) -> Health:
        return self._core.health

    @property
    def profile(self) -> str:
        return self._core.profile

    @property
    def read_only(self) -> bool:
        return self._core.read_only

    @property
    def base_url(self) -> str:
        return self._core.base_url

    @property
    def requests_sent(self) -> int:
        return self._core.requests_sent
