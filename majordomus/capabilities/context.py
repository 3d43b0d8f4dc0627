"""What a handler may ask for: the root, the index, the registry, the environment.

Everything is computed lazily and at most once per context, so a command that needs only the
ledger never builds the layer index, and a long-lived server builds both once at start-up.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from majordomus.errors import ContractUnmet

if TYPE_CHECKING:
    from majordomus.capabilities.executor import Executor
    from majordomus.capabilities.registry import Registry
    from majordomus.layer.model import Discovery, GitState, Index
    from majordomus.layer.sqlite_index import SqliteIndex


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
        from majordomus.capabilities.builtin import builtin_tools
        from majordomus.layer.index import build_index

        index = build_index(self.root, self.discovery, mcp_tools=builtin_tools())
        if self.strict and index.error_count:
            raise ContractUnmet(
                f"refusing to serve under --strict: the index has {index.error_count} error "
                "diagnostic(s); run `majordomus mcp --inspect` to see them"
            )
        return index

    @property
    def git(self) -> GitState:
        return self.index.git

    @cached_property
    def sqlite(self) -> SqliteIndex | None:
        """The in-memory SQLite copy of the index (decision 10), or None when switched off.

        It only narrows candidates; each table inside is built on first use."""
        from majordomus.layer.sqlite_index import SqliteIndex, enabled

        return SqliteIndex(self.index) if enabled(self.environ) else None

    @cached_property
    def registry(self) -> Registry:
        from majordomus.capabilities.builtin import builtin_modules
        from majordomus.capabilities.registry import build_registry

        return build_registry(
            builtin_modules(),
            self.index,
            object_output="majordomus.capabilities.core:ObjectView",
            empty="majordomus.capabilities.core:Empty",
        )

    @cached_property
    def executor(self) -> Executor:
        from majordomus.capabilities.executor import Executor

        return Executor(self)
