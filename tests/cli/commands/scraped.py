"""A Prometheus scrape read as tests compare it: each sample by name and labels."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def named(found, name: str, **labels: str) -> dict[frozenset[tuple[str, str]], float]:
    return {
        key: value
        for (metric, key), value in found.items()
        if metric == name and set(labels.items()) <= key
    }


def one(found, name: str, **labels: str) -> float:
    (value,) = named(found, name, **labels).values()
    return value
