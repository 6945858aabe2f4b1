"""The benchmarks: run from the repository root as `python -m bench.run` (or `./dev bench`)."""
