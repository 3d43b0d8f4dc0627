"""Benchmarks of majordomus (issue 8 and issue 18): scripts, not tests.

`python benchmarks/run.py` (or `python -m benchmarks`) measures every capability whose
benchmark policy is required, on each declared transport, cold and warm, and compares the
run with the accepted baseline; `python benchmarks/run.py scale` prints the ratios of the
scale targets on synthetic inputs. Every file these scripts write lives under `benchmarks/`
(or a temporary directory): nothing is written next to a repository's layer.
"""
