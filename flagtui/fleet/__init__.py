"""Many flags, many servers, read alike by the TUI and the commands: what differs between two
sides (drift) and the stale flags of a project. UI-free: each caller shows the result its way."""
