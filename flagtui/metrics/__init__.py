"""The collector's Prometheus metrics (`flagtui collect --metrics`, `--textfile`).

- `families.CollectorMetrics`: a prometheus-client collector; what it reports is read at each
  scrape, from the archive (deliveries by state, the newest success and failure, gaps: counts
  that survive the collector's restart) and from the running collector (its polls, their
  errors, whether the server answers).
- `exposition`: where they are served (a loopback HTTP address by default) or written (a
  node_exporter textfile, replaced atomically after each poll).

Names follow Prometheus's naming guide: the `flagtui_` prefix, base units (seconds), `_total`
for counters; labels name a server and an integration, never a flag or an event.
"""
