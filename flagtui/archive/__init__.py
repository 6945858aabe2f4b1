"""The delivery archive: every integration delivery a server reported, kept after the server
forgets it (`flagtui collect`), read by `flagtui failures` and the failures view.

- `source.failure_source(profile, client)`: the archive when there is one, else the server.
- `source.ArchiveSource`: a `triage.FailureSource` over an archive, plus `histogram`.
- `collector.Collector`: one poll, or polling until stopped.
- `store.Archive`: the writes; `reads`: the queries; `schema` and `migrations`: the tables.
- `location`: where an archive lives (no SQLAlchemy import, for the CLI's and TUI's start).
"""
