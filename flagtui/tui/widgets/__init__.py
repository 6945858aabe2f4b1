"""Shared widgets: header, resource table, confirm modals, help."""
