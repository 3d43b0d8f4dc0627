"""The workspace: what a handler may ask for (the root, the index, the registry, the
environment), each computed lazily and at most once."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from majordomus.errors import ContractUnmet

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from majordomus.capabilities.executor import Executor
    from majordomus.capabilities.registry import Registry
    from majordomus.layer.freshness import Watch
    from majordomus.layer.index import Built
    from majordomus.layer.model import Discovery, Index
    from majordomus.layer.ranking import Ranking


class Workspace:
    """One request's (or one server's) view of the repository."""

    def __init__(
        self,
        start: Path | None = None,
        *,
        discovery: Discovery = "vcs",
        strict: bool = False,
        environ: Mapping[str, str] | None = None,
        watch: bool = True,
    ) -> None:
        self.start = start
        self.discovery: Discovery = discovery
        self.strict = strict
        self.environ: Mapping[str, str] = dict(os.environ if environ is None else environ)
        #: Whether the index is watched for `refresh()`: a one-shot command answers once and
        #: need not state the layer's folders and files after reading them.
        self.watching = watch
        self.watch: Watch | None = None
        #: The last build and what the next one may reuse of it (None before the first).
        self._built: Built | None = None
        #: True while the layer changed and the re-index that followed failed: the last good
        #: index is still served.
        self.stale = False
        #: How many times the index was read again since the first; moves with each re-index.
        self.generation = 0

    @classmethod
    def from_index(cls, index: Index, *, environ: Mapping[str, str] | None = None) -> Workspace:
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
        return self._build(status_now=True)

    def index_without_status(self) -> Index:
        """`index`, for an answer that shows no working-tree state: a build this starts
        asks `git status` (which stats every tracked file) only when the state is read."""
        if "index" not in self.__dict__:
            self.__dict__["index"] = self._build(status_now=False)
        return self.index

    def _build(self, *, status_now: bool) -> Index:
        """Build the index, reusing what the last build read of every file that did not move,
        and watch it when watching; a failed build changes nothing."""
        from majordomus.capabilities.builtin import TOOLS
        from majordomus.layer.freshness import Baseline, Watch
        from majordomus.layer.index import build

        baseline = Baseline(self.root, self.discovery) if self.watching else None
        last = self._built
        moved = self.watch.moved() if last is not None and self.watch is not None else ()
        built = build(
            self.root,
            self.discovery,
            mcp_tools=TOOLS,
            previous=None if last is None else last.snapshot,
            moved=moved,
            status_now=status_now,
        )
        index = built.index
        if self.strict and index.error_count:
            raise ContractUnmet(
                f"refusing to serve under --strict: the index has {index.error_count} error "
                "diagnostic(s); run `majordomus mcp --inspect` to see them"
            )
        self._built = built
        self.watch = None if baseline is None else Watch(baseline, built)
        return index

    def refresh(self) -> bool:
        """Read the layer again if it changed since the index was read; True when it did. A failed
        re-index keeps the last index and sets `stale`."""
        watch = self.watch
        if watch is None or "index" not in self.__dict__ or not watch.changed():
            return False
        try:
            index = self._build(status_now=True)
        except Exception as exc:
            log.error("the layer changed and could not be read again: %s", exc)
            watch.rebase()
            self._built = None  # what moved before the rebase is not re-read: start afresh
            self.stale = True
            return False
        # Swapped in one step each: a request still running keeps a whole index, old or new.
        self.__dict__.pop("ranking", None)
        self.__dict__["index"] = index
        if "executor" in self.__dict__:
            self.executor.cache.clear()
        self.stale = False
        self.generation += 1
        log.info("the layer changed; re-indexed (generation %d)", self.generation)
        return True

    @cached_property
    def ranking(self) -> Ranking:
        """The layer's objects ranked for recall and devcontext's intent, built on first use."""
        from majordomus.layer.ranking import layer_ranking

        return layer_ranking(self.index_without_status())

    @cached_property
    def registry(self) -> Registry:
        """The capabilities this workspace serves: the built-in registry."""
        from majordomus.capabilities.builtin import builtin_registry

        return builtin_registry()

    @cached_property
    def executor(self) -> Executor:
        from majordomus.capabilities.executor import Executor

        return Executor(self)
