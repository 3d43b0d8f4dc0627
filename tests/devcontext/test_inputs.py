"""Request checks and path normalisation."""

from __future__ import annotations

import math

import pytest

from majordomus.devcontext import CompileInput, compile_context
from majordomus.devcontext.inputs import MAX_PATH_LENGTH, MAX_PATHS, normalise_path
from majordomus.errors import InvalidInput
from majordomus.layer.model import Index
from majordomus.paths import is_under


@pytest.mark.parametrize(
    ("raw", "path"),
    [("lib", "lib"), ("  ./lib/ ", "lib"), ("././a/b//", "a/b"), (".", "."), ("a..b", "a..b")],
)
def test_normalise_path(raw: str, path: str) -> None:
    assert normalise_path(raw) == path


@pytest.mark.parametrize("raw", ["/abs", "a/../b", "..", "../outside"])
def test_paths_outside_are_refused(raw: str) -> None:
    with pytest.raises(InvalidInput, match="outside"):
        normalise_path(raw)


@pytest.mark.parametrize("raw", ["", "   ", "./", "/", "///"])
def test_empty_paths_are_refused(raw: str) -> None:
    with pytest.raises(InvalidInput, match="an empty path is not a scope"):
        normalise_path(raw)


def test_is_under_is_segment_containment() -> None:
    assert is_under("lib", "lib") and is_under("lib", "lib/x.sh")
    assert not is_under("lib", "library/x.sh")
    assert is_under(".", ".") and not is_under(".", "lib")


def test_validation_order(planned: Index) -> None:
    with pytest.raises(InvalidInput, match="zero"):
        compile_context(planned, CompileInput(budget_tokens=0, floor=7, issue="I9999"))
    with pytest.raises(InvalidInput, match="floor"):
        compile_context(planned, CompileInput(floor=-0.1, issue="I9999"))
    with pytest.raises(InvalidInput, match="got NaN"):
        compile_context(planned, CompileInput(floor=math.nan))
    with pytest.raises(InvalidInput, match="milestone: name one"):
        compile_context(planned, CompileInput(issue="I0001", milestone=" "))


def test_uris_are_not_trimmed(planned: Index) -> None:
    with pytest.raises(Exception, match="holds nothing under"):
        compile_context(planned, CompileInput(uris=[" majordomus://milestone/m1"]))


def test_seeds_keep_request_order(planned: Index) -> None:
    compiled = compile_context(
        planned,
        CompileInput(
            intent=" explain ",
            paths=["lib", "lib"],
            uris=["majordomus://milestone/m1"],
            milestone="m1",
            issue="I0002",
        ),
    )
    assert [(s.from_, s.kind, s.uri) for s in compiled.seeds] == [
        ("issue", "issue", "majordomus://issue/I0002"),
        ("milestone", "milestone", "majordomus://milestone/m1"),
        ("uris", "milestone", "majordomus://milestone/m1"),
        ("paths", "path", "lib"),
        ("paths", "path", "lib"),
        ("intent", "intent", "explain"),
    ]
    assert compiled.seeds[0].wire() == {
        "uri": "majordomus://issue/I0002",
        "kind": "issue",
        "from": "issue",
    }


def test_the_requested_paths_are_capped(planned: Index) -> None:
    """A request's own scope is weighed against every object: a 50 KB list of paths, or one
    path of 50 KB, is refused before anything is weighed."""
    many = [f"src/file_{n:05}.py" for n in range(3000)]
    with pytest.raises(InvalidInput, match=f"3000 paths; at most {MAX_PATHS}"):
        compile_context(planned, CompileInput(paths=many))
    with pytest.raises(InvalidInput, match=f"at most {MAX_PATH_LENGTH}"):
        compile_context(planned, CompileInput(paths=["a" * 50_000]))
    compile_context(planned, CompileInput(paths=many[:MAX_PATHS]))
