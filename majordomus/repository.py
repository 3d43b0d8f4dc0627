"""The library's front door: one repository, answering exactly what the command line answers."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

    from majordomus.capabilities.core import (
        ObjectList,
        RepositoryReport,
        ResourceView,
        SearchResult,
    )
    from majordomus.capabilities.reasoning import AdvisorsReport, ReasoningCheck, ReasoningStatus
    from majordomus.capabilities.recall import RecallAnswer
    from majordomus.capabilities.record import ReasoningRecorded
    from majordomus.capabilities.workspace import Workspace
    from majordomus.devcontext import CompiledContext, CompileInput, Explanation
    from majordomus.layer.model import Discovery, Index
    from majordomus.ledger.record import ReasoningInput
    from majordomus.ledger.team import Pulled, Pushed, Synced
    from majordomus.projections.handover import Handover
    from majordomus.projections.state import ReasoningExplanation, ReasoningState

__all__ = ["Repository", "RepositoryLedger"]


def _answer(
    workspace: Workspace, capability_id: str, request: BaseModel | None = None, /, **fields: Any
) -> Any:
    """The answer of one built-in capability to `request` (else its input type made of `fields`),
    computed afresh as a command's; only the namespace that declares it is imported."""
    from majordomus.capabilities.builtin import declared

    cap = declared(capability_id)
    given = request if request is not None else cap.input(**fields)
    return workspace.executor.answer(cap, given, fresh=True)


class Repository:
    """One repository: its layer index (read once, when first needed), its objects, its context
    compiler and its ledger (read afresh by every call, as by every command)."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] = ".",
        *,
        discovery: Discovery = "vcs",
        strict: bool = False,
        environ: Mapping[str, str] | None = None,
    ) -> Repository:
        """The repository whose `.ai/manifest.yaml` is nearest above `path`, opened as the command
        line's `--discovery` and `--strict` would."""
        from majordomus.capabilities.workspace import Workspace

        workspace = Workspace(Path(path), discovery=discovery, strict=strict, environ=environ)
        _ = workspace.root
        return cls(workspace)

    @property
    def root(self) -> Path:
        """The repository root: the directory holding `.ai/`."""
        return self.workspace.root

    @property
    def index(self) -> Index:
        """The layer index every query reads."""
        return self.workspace.index

    def info(self) -> RepositoryReport:
        """The resource `majordomus://repository`: root, layer, git state, kinds, diagnostics."""
        return _answer(self.workspace, "repository.info")

    def objects(self, kind: str | None = None, tag: str | None = None) -> ObjectList:
        """`majordomus objects list [--kind K] [--tag T]`: the objects in URI order."""
        return _answer(self.workspace, "objects.list", kind=kind, tag=tag)

    def get(self, uri: str) -> ResourceView:
        """`majordomus objects get URI`: one object (or query resource) by URI or short id."""
        return _answer(self.workspace, "objects.get", uri=uri)

    def search(
        self, query: str, *, kind: str | None = None, limit: int | None = None
    ) -> SearchResult:
        """`majordomus objects search QUERY`: case-insensitive hits, at most `limit` (20)."""
        return _answer(self.workspace, "objects.search", query=query, kind=kind, limit=limit)

    def recall(
        self,
        query: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        kind: str | None = None,
        task: str | None = None,
    ) -> RecallAnswer:
        """`majordomus recall QUERY`: objects and records ranked together, best first, at
        most `limit` (10); `next_cursor` asks for the next page."""
        fields = {"query": query, "limit": limit, "cursor": cursor, "kind": kind, "task": task}
        return _answer(self.workspace, "recall.query", **fields)

    def compile_context(self, request: CompileInput | None = None) -> CompiledContext:
        """`majordomus devcontext compile`: the context a session needs under one budget."""
        return _answer(self.workspace, "devcontext.compile", request)

    def explain_standing(self, uri: str, request: CompileInput | None = None) -> Explanation:
        """`majordomus devcontext explain URI`: where `uri` stands in the context `request`
        compiles (selected, excluded, deduplicated, not reached or unknown) and why."""
        fields = {n: getattr(request, n) for n in request.model_fields_set} if request else {}
        return _answer(self.workspace, "devcontext.explain", **fields, uri=uri)

    @cached_property
    def ledger(self) -> RepositoryLedger:
        """The reasoning ledger of this checkout."""
        return RepositoryLedger(self.workspace)


class RepositoryLedger:
    """The `majordomus reasoning` commands; `task` is an id, `all` or None (the current task),
    `as_of` an RFC 3339 time that replays only what was recorded by then."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def record(self, given: ReasoningInput, *, task: str | None = None) -> ReasoningRecorded:
        """`majordomus reasoning record [--task T]`: admit and write one record; a refusal
        (`Refused`, `InvalidInput`) writes nothing."""
        return _answer(self.workspace, "reasoning.record", record=given, task=task)

    def status(self, task: str | None = None, *, as_of: str | None = None) -> ReasoningStatus:
        """`majordomus reasoning status`: mode, advisor counts, replayed state, Markdown report."""
        return _answer(self.workspace, "reasoning.status", task=task, as_of=as_of)

    def state(self, task: str | None = None, *, as_of: str | None = None) -> ReasoningState:
        """The state `status` reports: the timeline, open questions and totals of `task`."""
        return self.status(task, as_of=as_of).state

    def explain(self, record_id: str, *, as_of: str | None = None) -> ReasoningExplanation:
        """`majordomus reasoning explain ID`: one record and the chain it belongs to; raises
        `NotFound` for an id nothing recorded."""
        return _answer(self.workspace, "reasoning.explain", id=record_id, as_of=as_of)

    def check(self, *, as_of: str | None = None, shared: bool = False) -> ReasoningCheck:
        """`majordomus reasoning check [--shared]`: whether the reasoning rules hold (`ok`), and
        every finding when they do not (the command then exits 10)."""
        return _answer(self.workspace, "reasoning.check", as_of=as_of, shared=shared)

    def push(self, remote: str | None = None, *, dry_run: bool = False) -> Pushed:
        """`majordomus reasoning push [REMOTE] [--dry-run]`: publish this clone's new records
        (docs/team.md); git's failures raise `GitError`, a rejected push `Refused`."""
        return _answer(self.workspace, "reasoning.push", remote=remote, dry_run=dry_run)

    def pull(self, remote: str | None = None) -> Pulled:
        """`majordomus reasoning pull [REMOTE]`: fetch the team's records; a rewritten ref is
        kept aside and listed in `quarantined` (the command then exits 10)."""
        return _answer(self.workspace, "reasoning.pull", remote=remote)

    def sync(self, remote: str | None = None) -> Synced:
        """`majordomus reasoning sync [REMOTE]`: pull, then push."""
        return _answer(self.workspace, "reasoning.sync", remote=remote)

    def handover(self, task: str | None = None, *, as_of: str | None = None) -> Handover:
        """`majordomus reasoning handover`: what the next session needs, as data and Markdown."""
        return _answer(self.workspace, "reasoning.handover", task=task, as_of=as_of)

    def advisors(self, *, as_of: str | None = None) -> AdvisorsReport:
        """`majordomus reasoning advisors`: the mode and every advisor's state."""
        return _answer(self.workspace, "reasoning.advisors", as_of=as_of)
