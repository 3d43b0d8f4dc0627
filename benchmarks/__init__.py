"""Benchmarks of majordomus (issues 8 and 30): scripts, not tests.

`python benchmarks/run.py` (or `python -m benchmarks`) prints every row of issue 30 next to
its floor; `python benchmarks/run.py capabilities` measures every capability whose benchmark
policy is required, on each declared transport, cold and warm, against the accepted
baseline. Every file these scripts write lives under `benchmarks/`
(or a temporary directory): nothing is written next to a repository's layer.
"""
