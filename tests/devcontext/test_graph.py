"""The composed graph is arranged once per index object and forgotten with it."""

from __future__ import annotations

import gc

from majordomus.devcontext import CompileInput, CompileSources, compile_context
from majordomus.devcontext.graph import _ARRANGED, Graph
from majordomus.layer.model import Index
from tests.devcontext.conftest import planned_index


def test_one_index_is_arranged_once(planned: Index) -> None:
    graph = Graph.of(planned)
    assert CompileSources(planned).graph is graph
    assert CompileSources.for_checkout(planned).graph is graph
    compile_context(planned, CompileInput())
    assert Graph.of(planned) is graph


def test_an_equal_index_is_arranged_anew_and_forgotten_when_it_goes() -> None:
    index = planned_index()
    graph = Graph.of(index)
    other = planned_index()
    assert other == index and Graph.of(other) is not graph
    key = id(index)
    del index, graph
    gc.collect()
    assert key not in _ARRANGED
