"""The failure source the failures view and the integrations' sparklines share: the profile's
delivery archive when it has one, else the live server; one per client (an archive is opened
once), closed when the client changes or the app ends."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from flagtui.archive.source import ArchiveSource, failure_source
from flagtui.config import Profile
from flagtui.triage.source import FailureSource
from flagtui.tui.state import UiState

if TYPE_CHECKING:
    from flagtui.api import AdminClient


class SharedFailureSource:
    def __init__(self) -> None:
        self._held: tuple[AdminClient, FailureSource] | None = None

    def get(self, client: AdminClient, profile: Profile, ui_state: UiState) -> FailureSource:
        if self._held is None or self._held[0] is not client:
            self.close()
            # The integrations of the profile's last read (this run's or an earlier one's) are
            # read with the list, not after it: one round trip (see LiveSource).
            known = ui_state.get_ids("integrations")
            listed = partial(ui_state.set_ids, "integrations")
            self._held = (client, failure_source(profile, client, known, listed))
        return self._held[1]

    @property
    def is_archive(self) -> bool:
        return self._held is not None and isinstance(self._held[1], ArchiveSource)

    def close(self) -> None:
        if self._held is not None and isinstance(self._held[1], ArchiveSource):
            self._held[1].close()  # it holds its database open
        self._held = None
