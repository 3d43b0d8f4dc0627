"""The `majordomus` logger, with the standard `logging` imported only when a record could be
emitted: a one-shot command that has nothing to say at its level (`objects list` over a
healthy layer) no longer pays for `logging` and what it imports (traceback, string, weakref)
at its start.

Until `logging` is imported, by this module or by anyone, nothing but this module can have
configured the logger: what is asked of it (`setup`) is kept and done in order the first time
the real logger is needed, and a record below the level it would then have is dropped, as
the real logger would drop it. Once `logging` is imported, every call goes to the real logger
(`real()`), which is what a module that needs more than the calls below (its handlers, its
level) asks for.
"""

from __future__ import annotations

import sys
from _thread import RLock
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import logging

NAME = "majordomus"
#: `logging`'s own level numbers, readable without importing it.
DEBUG, INFO, WARNING, ERROR, CRITICAL = 10, 20, 30, 40, 50
#: The root logger's level while nobody has set it: the level of a logger that sets none.
_ROOT_LEVEL = WARNING

_steps: list[Callable[[logging.Logger], None]] = []
_lock = RLock()
#: The level the kept steps set (0: none set, the root's applies); the real logger once made.
_kept: dict[str, Any] = {"level": 0, "real": None}


def real() -> logging.Logger:
    """The `majordomus` logger of `logging`, the kept steps done on it first (once, under
    the lock: a server's threads may log first together)."""
    made: logging.Logger | None = _kept["real"]
    if made is None:
        with _lock:
            made = _kept["real"]
            if made is None:
                import logging

                made = logging.getLogger(NAME)
                for step in _steps:
                    step(made)
                _steps.clear()
                _kept["real"] = made
    return made


def _live() -> bool:
    """Whether calls go to the real logger: it is made, or `logging` is imported (someone
    may configure it from now on)."""
    return _kept["real"] is not None or "logging" in sys.modules


def setup(step: Callable[[logging.Logger], None], level: int | None = None) -> None:
    """Do `step` on the real logger, now if it is live, else when it is first needed;
    `level` is the level `step` sets on it, if it sets one."""
    with _lock:
        if not _live():
            _steps.append(step)
            if level is not None:
                _kept["level"] = level
            return
    step(real())


def _dropped(level: int) -> bool:
    """Whether a record at `level` would be dropped by a logger not yet made."""
    return not _live() and level < (_kept["level"] or _ROOT_LEVEL)


class _Log:
    """What the modules call to log; a record is made only when it could be emitted, by the
    real logger, which names the caller of these methods as the record's origin."""

    __slots__ = ()

    def log(self, level: int, msg: str, *args: Any, **kwargs: Any) -> None:
        if not _dropped(level):
            _emit(level, msg, args, kwargs)

    def debug(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if not _dropped(DEBUG):
            _emit(DEBUG, msg, args, kwargs)

    def info(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if not _dropped(INFO):
            _emit(INFO, msg, args, kwargs)

    def warning(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if not _dropped(WARNING):
            _emit(WARNING, msg, args, kwargs)

    def error(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if not _dropped(ERROR):
            _emit(ERROR, msg, args, kwargs)


def _emit(level: int, msg: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """The record made by the real logger, its origin the caller of `_Log`'s method (two
    frames up from here)."""
    kwargs["stacklevel"] = kwargs.get("stacklevel", 1) + 2
    real().log(level, msg, *args, **kwargs)


#: The logger the modules log through: `from majordomus.logger import log`.
log = _Log()
