"""`compile_context`: the order of the stages (resolve, select, spend, bundle).

Pure given what the sources inject: the same index and request give an equal answer.
"""

from __future__ import annotations

from typing import Any

from majordomus.devcontext.budget import spend
from majordomus.devcontext.bundle import frame_reserve, render
from majordomus.devcontext.inputs import resolve
from majordomus.devcontext.model import CompiledContext, CompileInput, GitContext
from majordomus.devcontext.select import select
from majordomus.devcontext.sources import sources_of


def compile_context(ctx: Any, request: CompileInput | None = None) -> CompiledContext:
    """The context a session should be given for `request`; `ctx` as `sources_of` takes it."""
    given = request if request is not None else CompileInput()
    source = sources_of(ctx)
    index = source.index
    wanted = resolve(index, given)
    selection = select(source, wanted)
    spent = spend(
        selection.candidates.by_uri,
        object_seeds=set(wanted.object_seeds),
        supersedes=source.graph.supersedes,
        limit=wanted.limit,
        floor=wanted.floor,
        unresolved=selection.unresolved,
        unreached=selection.unreached,
        diagnostics=selection.diagnostics,
        size_of=source.size_of,
        frame=frame_reserve(wanted.seeds, wanted.limit) if given.bundle else None,
    )
    git = index.git
    if git.available:
        git_context = GitContext(
            branch=git.branch, head=git.head, working_tree=git.working_tree, commits=spent.commits
        )
    else:
        git_context = GitContext(
            working_tree=f"unavailable: {git.reason or ''}", commits=spent.commits
        )
    compiled = CompiledContext(
        fingerprint=index.fingerprint,
        git=git_context,
        seeds=wanted.seeds,
        selected=spent.selected,
        excluded=spent.excluded,
        deduplicated=spent.deduplicated,
        conflicts=spent.conflicts,
        budget=spent.budget,
        diagnostics=spent.diagnostics,
    )
    if given.bundle:
        compiled.bundle = render(compiled, index)
    return compiled
