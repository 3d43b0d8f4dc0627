"""The collector switches: what a one-shot process keeps to its exit, and what others free."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import gc, sys, weakref
from majordomus import collector
class Held: pass
if sys.argv[1] == "one-shot":
    collector.off_for_process()
value = Held()
ref = weakref.ref(value)
collector.keep_until_exit(value)
del value
print(ref() is not None, gc.isenabled())
"""


def _run(mode: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, mode], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_a_one_shot_process_keeps_what_it_is_done_with_until_its_exit() -> None:
    assert _run("one-shot") == "True False"


def test_any_other_process_lets_it_go_at_once() -> None:
    assert _run("server") == "False True"
