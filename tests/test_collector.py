"""The collector switches: what a one-shot process keeps to its exit, and what others free."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


BOUNDED = """
import weakref
from majordomus import collector
class Held: pass
collector.off_for_process()
values = [Held() for _ in range(3)]
refs = [weakref.ref(v) for v in values]
for value in values:
    collector.keep_until_exit(value, weight=4, at_most=10)
del values, value
print([ref() is not None for ref in refs])
"""


def test_what_is_kept_is_bounded_by_its_weight() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BOUNDED], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[True, True, False]"


WORKSPACE = """
import sys, weakref
from pathlib import Path
from majordomus import collector
from majordomus.capabilities.workspace import Workspace
if sys.argv[2] == "one-shot":
    collector.off_for_process()
ctx = Workspace(Path(sys.argv[1]), discovery="filesystem", watch=False)
assert ctx.index.objects
ref = weakref.ref(ctx)
del ctx
print(ref() is not None)
"""


def test_a_one_shot_process_keeps_its_workspace_once_the_index_is_built() -> None:
    layer = Path(__file__).resolve().parent.parent / "fixtures" / "layers" / "healthy"
    found = [
        subprocess.run(
            [sys.executable, "-c", WORKSPACE, str(layer), mode],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for mode in ("one-shot", "server")
    ]
    assert found == ["True", "False"]


PAUSED = """
import gc
from majordomus import collector
class Held: pass
frozen = [Held()]
if __import__("sys").argv[1] == "frozen":
    gc.freeze()
before = gc.get_freeze_count()
with collector.paused():
    made = [Held() for _ in range(5000)]
oldest = any(obj is made for obj in gc.get_objects(generation=2))
print(gc.isenabled(), gc.get_freeze_count() == before, oldest == (before == 0), before == 0)
"""


def test_what_a_paused_block_made_goes_to_the_oldest_generation() -> None:
    """Unless CPython froze objects of its own at start (3.12 does)."""
    done = subprocess.run(
        [sys.executable, "-c", PAUSED, "plain"], capture_output=True, text=True, check=True
    )
    assert done.stdout.split()[:3] == ["True", "True", "True"]


def test_objects_frozen_by_other_code_stay_frozen() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PAUSED, "frozen"], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["True", "True", "True", "False"]
