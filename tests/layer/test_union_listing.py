"""One `ls-files` for every class, picked apart among them: for every pathspec `union_pick`
takes, the paths it finds are the ones git lists for that pathspec alone, against real git
over generated index paths and pathspecs; and discovery through it finds, and fails, as
git's listing of each class would."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from majordomus.layer import discovery as discovery_module
from majordomus.layer.discovery import picked, union_pick
from majordomus.layer.git import GitError, LsFiles
from majordomus.layer.model import SourceClass
from tests.conftest import GIT_ENV, git, make_git_repo
from tests.layer.support import discovered, manifest, write

PROPERTY = settings(
    derandomize=True,
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

MANIFEST = manifest(knowledge="repo/knowledge")

#: The blob every generated index entry names (git does not read it to list the index).
EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"

# Names with what git's matching and `Glob` read differently: wildcards, brackets, escapes,
# dots, spaces, non-ASCII (two bytes, one character).
_NAME_CHARS = "ab.*?[]\\ é-"
names = st.text(_NAME_CHARS, min_size=1, max_size=4).filter(
    lambda n: n not in (".", "..") and n.lower().rstrip(". ") not in ("", ".git", "git~1")
)
paths = st.lists(names, min_size=1, max_size=4).map("/".join)
#: Pattern segments: the ones git reads specially, and generated ones.
segments = st.one_of(
    st.sampled_from(["**", "*", "***", "a**", "**a", "", ".", "..", "[ab]", "\\*", "?", "*.a"]),
    st.text(_NAME_CHARS, min_size=1, max_size=3),
)
patterns = st.lists(segments, min_size=1, max_size=4).map("/".join)
#: Patterns `union_pick` takes: `**` segments, and names with at most one `*`.
_PLAIN = st.text("ab. é-", max_size=2)
starred = st.builds(lambda a, star, b: a + star + b, _PLAIN, st.sampled_from(["", "*"]), _PLAIN)
picked_patterns = (
    st.lists(st.one_of(st.just("**"), starred), min_size=1, max_size=4)
    .filter(lambda parts: parts[-1] != "**" and all(p and p not in (".", "..") for p in parts))
    .map("/".join)
)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_git_repo(tmp_path_factory.mktemp("union") / "r", commit=False)


def _index(repo: Path, listed: list[str], conflicted: frozenset[str] = frozenset()) -> list[str]:
    """Make the git index hold `listed` (a conflicted path with three stages); the paths git
    kept, in its order (a path that is also a directory above another may be replaced)."""
    (repo / ".git" / "index").unlink(missing_ok=True)
    records = []
    for path in dict.fromkeys(listed):
        stages = (1, 2, 3) if path in conflicted else (0,)
        records += [f"100644 {EMPTY_BLOB} {stage}\t{path}".encode() for stage in stages]
    env = {**os.environ, **GIT_ENV}
    subprocess.run(
        ["git", "-C", str(repo), "update-index", "-z", "--index-info"],
        input=b"".join(r + b"\0" for r in records),
        env=env,
        check=True,
        capture_output=True,
    )
    return list(dict.fromkeys(git(repo, "ls-files", "-z").split("\0")[:-1]))


def _alone(repo: Path, pathspec: str) -> dict[str, str] | str:
    """What `ls-files` answers for `pathspec` alone: its entries, or the failure's text."""
    try:
        return LsFiles(repo, pathspec).entries()
    except GitError as exc:
        return exc.message


@PROPERTY
@given(
    listed=st.lists(paths, min_size=1, max_size=12),
    pattern=picked_patterns,
    below=st.sampled_from(["", "/x", "/*/y.a"]),
)
def test_a_picked_pathspec_finds_what_git_lists_for_it(
    repo: Path, listed: list[str], pattern: str, below: str
) -> None:
    """`below` adds a path under a directory named as the pattern (git's literal rule)."""
    how = union_pick(":(glob)" + pattern)
    assert how is not None
    assume(".git" not in pattern.lower())
    keys = _index(repo, [*listed, pattern + below] if below else listed)
    alone = _alone(repo, ":(glob)" + pattern)
    assert isinstance(alone, dict)
    assert sorted(picked(how, keys)) == sorted(alone)


def _classes(specs: list[str]) -> list[SourceClass]:
    return [
        SourceClass(id=f"c{n}", kind="document", discovery="vcs", pathspec=s, required=n == 0)
        for n, s in enumerate(specs)
    ]


def _listings(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The pathspecs of each `ls-files` discovery starts from now on, in order."""
    calls: list[tuple[str, ...]] = []
    real = discovery_module.LsFiles

    def counting(root: Path, *pathspecs: str) -> LsFiles:
        calls.append(pathspecs)
        return real(root, *pathspecs)

    monkeypatch.setattr(discovery_module, "LsFiles", counting)
    return calls


def _found(root: Path, classes: list[SourceClass]) -> list[tuple[str, str]]:
    files, _ = discovered(root, MANIFEST, classes, "vcs")
    return [(path, claimed.source.id) for claimed in files for path in claimed.paths]


@pytest.mark.parametrize(
    ("pattern", "picked_out"),
    [
        *((p, True) for p in (".ai/repo/policy.yaml", ".ai/repo/profiles/*.yaml")),
        *((p, True) for p in (".ai/repo/rules/**/*.md", "docs/*.md", "*.md", "bin/*")),
        ("a/**/b/**/*.md", True),
        # git reads these otherwise than `Glob`: each such class is listed alone
        *((p, False) for p in ("docs/?.md", "docs/[ab].md", "docs/\\*.md", "a//b", "/a", "a/")),
        *((p, False) for p in ("./a", "a/../b", "a/**", "**", "a**/b", "***/b", "a/*b*.md", "")),
    ],
)
def test_the_pathspecs_glob_matches_as_git_does_are_picked(pattern: str, picked_out: bool) -> None:
    assert (union_pick(":(glob)" + pattern) is not None) is picked_out


def _tree(root: Path, rels: list[str]) -> None:
    for rel in rels:
        write(root, rel, rel + "\n")
    git(root, "add", "-A")


CLASSES = _classes([":(glob)docs/*.md", ":(glob)docs/**/*.md", ":(glob)none/*.md"])
#: What git lists for the classes above, class by class, in the tree of the test below.
FOUND = [
    ("docs/*.md/odd.md", "c0"),  # git's literal rule: the pathspec names a directory
    ("docs/a.md", "c0"),
    ("docs/sub/b.md", "c1"),
]


def test_one_listing_serves_every_picked_class(tmp_path: Path, monkeypatch) -> None:
    root = make_git_repo(tmp_path / "r", commit=False)
    _tree(root, ["docs/a.md", "docs/sub/b.md", "docs/*.md/odd.md", "other.md"])
    calls = _listings(monkeypatch)
    found = _found(root, CLASSES)
    assert calls == [tuple(c.pathspec for c in CLASSES)]
    assert found == FOUND


@pytest.mark.parametrize("variable", ["GIT_ICASE_PATHSPECS", "GIT_LITERAL_PATHSPECS"])
def test_pathspec_variables_list_every_class_alone(
    tmp_path: Path, monkeypatch, variable: str
) -> None:
    root = make_git_repo(tmp_path / "r", commit=False)
    _tree(root, ["docs/a.md", "DOCS/B.md"])
    monkeypatch.setenv(variable, "1")
    calls = _listings(monkeypatch)
    found = _found(root, CLASSES)
    assert calls == [(c.pathspec,) for c in CLASSES]
    icase = [("DOCS/B.md", "c0"), ("docs/a.md", "c0")]
    assert found == (icase if variable == "GIT_ICASE_PATHSPECS" else [])


def test_a_path_that_is_not_utf8_is_left_out_with_a_finding(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "r", commit=False)
    _tree(root, ["docs/a.md"])
    with open(bytes(root) + b"/docs/sub-caf\xe9.md", "wb") as handle:
        handle.write(b"x\n")
    os.makedirs(bytes(root) + b"/docs/deep")
    with open(bytes(root) + b"/docs/deep/caf\xe9.md", "wb") as handle:
        handle.write(b"x\n")
    git(root, "add", "-A")
    files, findings = discovered(root, MANIFEST, CLASSES, "vcs")
    assert [path for c in files for path in c.paths] == ["docs/a.md"]
    assert [(f.code, f.path) for f in findings if f.code != "claimed_twice"] == [
        ("undecodable_path", "docs/sub-caf\\xe9.md"),
        ("undecodable_path", "docs/deep/caf\\xe9.md"),
    ]


def test_a_failing_listing_fails_as_the_first_class_alone(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    classes = _classes([":(glob)docs/?.md", ":(glob)docs/*.md"])
    with pytest.raises(GitError) as failed:
        discovered(tmp_path / "plain", MANIFEST, classes, "vcs")
    assert failed.value.message.endswith("(pathspec :(glob)docs/?.md)")


def test_a_root_below_the_work_tree_picks_as_git_lists(tmp_path: Path) -> None:
    """From a subdirectory git lists paths relative to it, and a `..` pathspec lists paths
    above it (`../x`, out of order), which are never read."""
    top = make_git_repo(tmp_path / "top", commit=False)
    _tree(top, ["x.md", "a/x.md", "sub/b/x.md", "sub/x.md", "z/x.md"])
    classes = _classes([":(glob)*/x.md", ":(glob)../*/x.md", ":(glob)**/x.md"])
    assert [path for path, _ in _found(top / "sub", classes)] == ["b/x.md", "x.md"]
    shutil.rmtree(top)
