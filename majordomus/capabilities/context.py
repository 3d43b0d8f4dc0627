"""What a handler may ask for: the root, the index, the registry, the environment.

Everything is computed lazily and at most once per context, so a command that needs only the
ledger never builds the layer index. A long-lived server calls `refresh()` before each
answer: a cheap check (`majordomus.layer.freshness`) and, when the layer moved, a re-index.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from majordomus.errors import ContractUnmet

if TYPE_CHECKING:
    from majordomus.capabilities.executor import Executor
    from majordomus.capabilities.registry import Registry
    from majordomus.layer.freshness import Watch
    from majordomus.layer.model import Discovery, GitState, Index
    from majordomus.layer.sqlite_index import SqliteIndex

log = logging.getLogger("majordomus")


class Context:
    """One request's (or one server's) view of the repository."""

    def __init__(
        self,
        start: Path | None = None,
        *,
        discovery: Discovery = "vcs",
        strict: bool = False,
        read_only: bool = False,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.start = start
        self.discovery: Discovery = discovery
        self.strict = strict
        self.read_only = read_only
        self.environ: Mapping[str, str] = dict(os.environ if environ is None else environ)
        self.watch: Watch | None = None
        #: True while the layer changed and the re-index that followed failed: the last good
        #: index is still served.
        self.stale = False
        #: How many times the index was read again since the first; moves with each re-index.
        self.generation = 0

    @classmethod
    def from_index(cls, index: Index, *, environ: Mapping[str, str] | None = None) -> Context:
        """A context over an index built elsewhere (the synthetic repository, tests)."""
        ctx = cls(index.root, discovery=index.discovery, environ=environ)
        ctx.__dict__["root"] = index.root
        ctx.__dict__["index"] = index
        return ctx

    @cached_property
    def root(self) -> Path:
        from majordomus.layer.root import find_root

        return find_root(self.start)

    @cached_property
    def index(self) -> Index:
        return self._read_index()

    def _read_index(self) -> Index:
        from majordomus.capabilities.builtin import builtin_tools
        from majordomus.layer.freshness import Baseline, Watch
        from majordomus.layer.index import build_index

        baseline = Baseline(self.root, self.discovery)
        index = build_index(self.root, self.discovery, mcp_tools=builtin_tools())
        if self.strict and index.error_count:
            raise ContractUnmet(
                f"refusing to serve under --strict: the index has {index.error_count} error "
                "diagnostic(s); run `majordomus mcp --inspect` to see them"
            )
        self.watch = Watch(baseline, index)
        return index

    def refresh(self) -> bool:
        """Read the layer again if it changed since the index was read; True when it did.

        Cheap when nothing changed (a few `stat` calls). A re-index that fails (git gone, a
        strict refusal, a registry that does not build) keeps the last index, sets `stale`
        and is tried again after the next change.
        """
        if self.watch is None or "index" not in self.__dict__ or not self.watch.changed():
            return False
        watch = self.watch
        try:
            index = self._read_index()
            registry = self._registry_of(index)
        except Exception as exc:
            log.error("the layer changed and could not be read again: %s", exc)
            self.watch = watch
            watch.rebase()
            self.stale = True
            return False
        # Swapped in one step each: a request still running keeps a whole index, old or new.
        self.__dict__.pop("sqlite", None)
        self.__dict__["index"] = index
        self.__dict__["registry"] = registry
        if "executor" in self.__dict__:
            self.executor.cache.clear()
        self.stale = False
        self.generation += 1
        log.info("the layer changed; re-indexed (generation %d)", self.generation)
        return True

    @property
    def git(self) -> GitState:
        return self.index.git

    @cached_property
    def sqlite(self) -> SqliteIndex | None:
        """The in-memory SQLite copy of the index, or None when switched off.

        It only narrows candidates; each table inside is built on first use."""
        from majordomus.layer.sqlite_index import SqliteIndex, enabled

        return SqliteIndex(self.index) if enabled(self.environ) else None

    @cached_property
    def registry(self) -> Registry:
        return self._registry_of(self.index)

    def _registry_of(self, index: Index) -> Registry:
        from majordomus.capabilities.builtin import builtin_registry

        return builtin_registry(index)

    @cached_property
    def executor(self) -> Executor:
        from majordomus.capabilities.executor import Executor

        return Executor(self)
