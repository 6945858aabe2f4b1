"""On-call triage, UI-free: unsuccessful integration deliveries from the live server or from the
delivery archive, grouped by integration and error text. The TUI and the commands read through
a `FailureSource`, so both show the same answer."""
