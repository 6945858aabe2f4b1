"""Maintenance scripts: the Python ones run from the repository root as modules
(`python -m scripts.screenshots`)."""
