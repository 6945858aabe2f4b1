"""One module per benchmark figure, each with a `bench_*` function returning its results."""
