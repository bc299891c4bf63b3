"""forgegym benchmarks: run each as `python -m bench.NAME` from the repository root (see docs/benchmarks.md)."""
