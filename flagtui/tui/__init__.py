"""The Textual app: one screen per area, shared widgets, one stylesheet."""
