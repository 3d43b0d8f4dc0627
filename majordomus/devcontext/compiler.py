"""`compile_context`: the order of the stages (resolve, select, spend, bundle).

Pure given what the sources inject: the same index and request give an equal answer."""

from __future__ import annotations

from typing import Any

from majordomus.devcontext.budget import spend
from majordomus.devcontext.bundle import frame_reserve, render
from majordomus.devcontext.inputs import resolve
from majordomus.devcontext.model import CompiledContext, CompileInput
from majordomus.devcontext.select import select
from majordomus.devcontext.sources import sources_of


def compile_context(ctx: Any, request: CompileInput | None = None) -> CompiledContext:
    """The context a session should be given for `request`; `ctx` as `sources_of` takes it."""
    given = request if request is not None else CompileInput()
    source = sources_of(ctx)
    wanted = resolve(source.index, given)
    frame = frame_reserve(wanted.seeds, wanted.limit) if given.bundle else None
    compiled = spend(source, wanted, select(source, wanted), frame)
    if given.bundle:
        compiled.bundle = render(compiled, source.index)
    return compiled
