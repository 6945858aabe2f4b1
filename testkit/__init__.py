"""What the tests, the benchmarks (bench/) and the scripts (scripts/) share: a program in a
real pseudo-terminal (`pty_term`) and the wait for a Pilot-driven app to be idle (`pilot`).

Not part of flagtui: the wheel ships only `flagtui` (pyproject's packages.find). Imported from
the repository root: pytest puts it on the path (pyproject's `pythonpath`), the bench and the
scripts run as modules from the root (`python -m bench.run`, `python -m scripts.screenshots`)."""
