"""The delivery archive: every integration delivery a server reported, kept after the server
forgets it (`flagtui collect`), read by `flagtui failures` and the failures view.

- `source.failure_source(profile, client)`: the archive when there is one, else the server.
- `source.ArchiveSource`: a `triage.FailureSource` over an archive, plus `histogram`; each
  answer says up to when it was collected, and an old archive is completed from the server.
- `reader.ArchiveReader`: the archive's reads, synchronous (`ArchiveSource` runs them in worker
  threads; `flagtui failures` alone on a fresh archive); `stored`: a row back into a delivery.
- `collector.Collector`: one poll, or polling until stopped; each complete poll is recorded.
- `lease`: one collector at a time per server and archive (a PostgreSQL advisory lock a
  second stands by on; a SQLite file's `flock`), and who is active (`activity`).
- `store.Archive`: the writes; `queries`: the reads; `schema` and `migrations`: the tables.
- `location`: where an archive lives, and a profile's (no SQLAlchemy import, for the start).
"""
