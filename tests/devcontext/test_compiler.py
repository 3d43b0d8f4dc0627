"""The compiler's own rules: what a compile reads (a bare index alone, or an index with the
readers of its checkout), the default request, and the git part of the answer without git
(determinism, the fingerprint and git state are B5, B13 and B1 of test_planned.py)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from majordomus.devcontext import CompileInput, CompileSources, compile_context
from majordomus.devcontext.sources import sources_of
from majordomus.layer.git import GitState
from majordomus.layer.model import Index
from tests.devcontext.conftest import PLANNED

# --- what a compile reads ---------------------------------------------------------------------


def test_a_bare_index_is_read_alone(planned: Index) -> None:
    sources = sources_of(planned)
    assert sources.index is planned
    assert sources.continuity is None and sources.ranking is None
    assert sources.size_of("lib/thing.sh") is None


def test_sources_are_taken_as_given(planned: Index) -> None:
    given = CompileSources(planned)
    assert sources_of(given) is given


def test_anything_holding_an_index_is_read_with_its_checkouts_readers(planned: Index) -> None:
    sources = sources_of(SimpleNamespace(index=planned, sqlite=None))
    assert sources.index is planned and sources.continuity is not None
    assert sources.continuity() == {"handover": None, "checkpoint": None}
    assert sources.size_of("lib/thing.sh") == (PLANNED / "lib/thing.sh").stat().st_size
    assert sources.size_of("../outside") is None


def test_anything_else_is_refused_by_type(planned: Index) -> None:
    with pytest.raises(TypeError, match="compile needs an Index"):
        sources_of(SimpleNamespace(root=planned.root))


# --- the answer -------------------------------------------------------------------------------


def test_no_request_is_the_default_request(planned: Index) -> None:
    assert compile_context(planned) == compile_context(planned, CompileInput())


def test_without_git_the_answer_says_why(planned: Index) -> None:
    no_git = replace(planned, git=GitState.unavailable("no repository here"))
    git = compile_context(no_git, CompileInput(issue="I0001")).git
    assert git.working_tree == "unavailable: no repository here"
    assert git.branch is None and git.head is None
