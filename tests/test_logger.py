"""`majordomus.logger` keeps what is asked of the logger until a line could be emitted: each
scenario runs in two fresh interpreters, one where `logging` is imported first (every call
goes straight to the real logger, as before) and one where it is not (calls kept, records
below the level dropped unmade), and both must write the same stderr."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCENARIOS = {
    "a one-shot command with nothing to say": (
        "logs.configure(server=False)\nlog.info('built %d', 3)\nlog.debug('each')\n"
    ),
    "a warning after the configuration": (
        "logs.configure(server=False)\nlog.info('hidden')\nlog.log(30, 'index built %s', 'x')\n"
        "log.error('failed: %s', '\\x1b[31mred')\n"
    ),
    "a level asked for": (
        "logs.configure(server=False)\nlogs.set_level('trace')\nlog.log(5, 'traced')\n"
        "log.debug('debugged %s', 1)\nlogs.set_level(' OFF ')\nlog.error('dropped')\n"
    ),
    "the variable, then quiet by default": (
        "os.environ['MAJORDOMUS_LOG'] = 'debug'\nlogs.configure(server=False)\n"
        "logs.quiet_by_default()\nlog.debug('still shown')\n"
    ),
    "quiet by default": (
        "logs.configure(server=True)\nlog.info('shown')\nlogs.quiet_by_default()\n"
        "log.warning('dropped')\nlog.error('shown too')\n"
    ),
    "the library's handler before the command line's": (
        "import majordomus.layer.index\nlogs.configure(server=True)\nlog.warning('w')\n"
    ),
    "the library alone": ("import majordomus.layer.index\nlog.warning('w')\nlog.error('e')\n"),
    "nothing configured": ("log.warning('w')\nlog.info('i')\n"),
    "an exception": (
        "logs.configure(server=False)\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n"
        "    log.error('failed', exc_info=True)\n"
    ),
}


def _stderr(scenario: str, logging_first: bool) -> str:
    head = "import logging\n" if logging_first else ""
    script = (
        f"{head}import os, sys\n"
        "from majordomus.cli import logs\n"
        "from majordomus.logger import log\n"
        f"{scenario}"
        "sys.stderr.write('LOGGING %s\\n' % ('logging' in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stderr


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_same_lines_whether_logging_was_imported_or_not(name: str) -> None:
    lazy = _stderr(SCENARIOS[name], logging_first=False)
    eager = _stderr(SCENARIOS[name], logging_first=True)
    assert lazy.rsplit("LOGGING ", 1)[0] == eager.rsplit("LOGGING ", 1)[0]
    assert eager.endswith("LOGGING True\n")


def test_nothing_to_say_imports_no_logging() -> None:
    assert _stderr(SCENARIOS["a one-shot command with nothing to say"], False) == (
        "LOGGING False\n"
    )


def test_threads_logging_first_together_make_one_handler() -> None:
    scenario = (
        "import threading\nfrom majordomus.logger import real\nlogs.configure(server=False)\n"
        "start = threading.Barrier(8)\n"
        "def first(n):\n    start.wait()\n    log.warning('thread %d', n)\n"
        "threads = [threading.Thread(target=first, args=(n,)) for n in range(8)]\n"
        "for t in threads: t.start()\nfor t in threads: t.join()\n"
        "sys.stderr.write('HANDLERS %d\\n' % len(real().handlers))\n"
    )
    lines = _stderr(scenario, logging_first=False).splitlines()
    assert sorted(lines[:-2]) == [f"majordomus[WARN] thread {n}" for n in range(8)]
    assert lines[-2:] == ["HANDLERS 1", "LOGGING True"]
