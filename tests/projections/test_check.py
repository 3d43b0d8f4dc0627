"""The six checks of `reasoning check`, each with its exact message, in order."""

from __future__ import annotations

from pathlib import Path

from majordomus.advisors.catalogue import AdvisorCatalogue, References
from majordomus.advisors.references import ModelCatalogue
from majordomus.projections.check import CHECKS, files_under, run
from tests.advisors.fakes import adv
from tests.layer.support import write

from .builders import conclusion, consultation, loaded, plan, rec

CATALOGUE = AdvisorCatalogue.model_validate(
    {
        "version": 1,
        "capabilities": [{"id": "code_review", "description": "x"}],
        "advisors": [
            adv("alpha", title="Alpha Review", adapter="alpha-cli"),
            adv("beta", title="Beta", adapter="beta-cli", capabilities=["unknown_word"]),
        ],
        "peers": {"feature": "reviews", "adapter": "mesh-review", "capabilities": ["code_review"]},
        "forbidden_claims": ["Consensus Proves"],
    }
)

REFS = References(
    models=ModelCatalogue.model_validate(
        {
            "version": 1,
            "vendors": [
                {"id": "v1", "title": "V1", "credential_env": "V1_API_KEY"},
                {"id": "v2", "title": "V2", "inference": "local"},
                {"id": "v3", "title": "V3", "credential_env": "V3_TOKEN"},
            ],
        }
    )
)


def findings(root: Path, records=(), unreadable=()) -> list[tuple[str, str, str]]:
    found = run(
        root,
        CATALOGUE,
        REFS,
        loaded(*records, unreadable=tuple(unreadable)),
        source=".ai/repo/advisors.yaml",
    )
    return [(f.check, f.subject, f.message) for f in found]


def test_checks_are_six_in_order() -> None:
    assert CHECKS == ("catalogue", "adapters", "coupling", "ci", "claims", "records")


def test_a_clean_repository_has_only_the_catalogue_findings(tmp_path: Path) -> None:
    assert findings(tmp_path) == [
        (
            "catalogue",
            ".ai/repo/advisors.yaml",
            "advisor 'beta' offers 'unknown_word', which the vocabulary does not declare",
        )
    ]


def test_the_default_catalogue_file_is_the_packaged_one(tmp_path: Path) -> None:
    bad = AdvisorCatalogue.model_validate(
        {"version": 1, "advisors": [{"id": "x", "title": "X", "transport": "cli", "adapter": "a"}]}
    )
    found = run(tmp_path, bad, References(), loaded())
    assert {f.subject for f in found} == {"majordomus/advisors/data/advisors.yaml"}


def test_adapters_only_when_the_module_directory_exists(tmp_path: Path) -> None:
    assert [f for f in findings(tmp_path) if f[0] == "adapters"] == []
    write(tmp_path, "scripts/lib/advisors/alpha-cli.mjs", "export {}")
    assert [f for f in findings(tmp_path) if f[0] == "adapters"] == [
        (
            "adapters",
            "scripts/lib/advisors/beta-cli.mjs",
            "the catalogue names adapter 'beta-cli' and no transport module "
            "scripts/lib/advisors/beta-cli.mjs implements it",
        ),
        (
            "adapters",
            "scripts/lib/advisors/mesh-review.mjs",
            "the catalogue names adapter 'mesh-review' and no transport module "
            "scripts/lib/advisors/mesh-review.mjs implements it",
        ),
    ]


def test_coupling_finds_quoted_catalogue_names_in_python_sources(tmp_path: Path) -> None:
    write(tmp_path, "majordomus/ledger/b.py", "X = 'beta-cli'\nY = \"alpha\"\nZ = 'alpha'\n")
    write(tmp_path, "majordomus/advisors/a.py", "NAME = 'mesh-review'  # alpha unquoted\n")
    write(tmp_path, "majordomus/ledger/notes.txt", "'alpha'")
    write(tmp_path, "majordomus/projections/sub/c.py", "alphabet = 'alphabet'\n")
    write(tmp_path, "majordomus/cli/d.py", "'alpha'")
    message = "provider-independent code names '{}'; it must reach advisors through the catalogue"
    assert [f for f in findings(tmp_path) if f[0] == "coupling"] == [
        ("coupling", "majordomus/advisors/a.py", message.format("mesh-review")),
        ("coupling", "majordomus/ledger/b.py", message.format("alpha")),
        ("coupling", "majordomus/ledger/b.py", message.format("beta-cli")),
    ]


def test_ci_finds_model_credentials_in_workflows_then_gates(tmp_path: Path) -> None:
    write(tmp_path, ".github/workflows/b.yml", "env: {K: ${{ secrets.V3_TOKEN }}}\n")
    write(tmp_path, ".github/workflows/a.yaml", "V1_API_KEY V3_TOKEN\n")
    write(tmp_path, ".github/workflows/c.txt", "V1_API_KEY\n")
    write(tmp_path, ".ai/repo/ci/gates.yaml", "needs: V1_API_KEY\n")
    message = "CI names the model credential {}; no gate may depend on a live model"
    assert [f for f in findings(tmp_path) if f[0] == "ci"] == [
        ("ci", ".github/workflows/a.yaml", message.format("V1_API_KEY")),
        ("ci", ".github/workflows/a.yaml", message.format("V3_TOKEN")),
        ("ci", ".github/workflows/b.yml", message.format("V3_TOKEN")),
        ("ci", ".ai/repo/ci/gates.yaml", message.format("V1_API_KEY")),
    ]


def test_claims_in_documents_case_insensitively(tmp_path: Path) -> None:
    write(tmp_path, "README.md", "This Requires Alpha Review.\n")
    write(tmp_path, "docs/deep/a.md", "Consensus proves it. Beta is required.\n")
    write(tmp_path, "docs/b.txt", "consensus proves\n")
    write(tmp_path, "site/content/x.md", "nothing\n")
    write(tmp_path, ".ai/repo/rules/r.md", "CONSENSUS PROVES\n")
    message = "asserts '{}', a claim the reasoning design refuses"
    assert [f for f in findings(tmp_path) if f[0] == "claims"] == [
        ("claims", "docs/deep/a.md", message.format("consensus proves")),
        ("claims", "docs/deep/a.md", message.format("beta is required")),
        ("claims", ".ai/repo/rules/r.md", message.format("consensus proves")),
        ("claims", "README.md", message.format("requires alpha review")),
    ]


def test_records(tmp_path: Path) -> None:
    records = [
        rec("plan-1", 1, plan("assessment-0", selected=("alpha",))),
        rec("consultation-2", 2, consultation("plan-1", "alpha")),
        rec("consultation-3", 3, consultation("plan-1", "beta", "timeout")),
        rec("consultation-4", 4, consultation("plan-9", "gamma")),
        rec("consultation-5", 5, consultation("consultation-2", "peer:n-r")),
        rec(
            "conclusion-6",
            6,
            conclusion(
                "assessment-0",
                consultations=["consultation-2", "consultation-3", "consultation-2"],
                reviewed_by=["alpha"],
                independent_review_count=1,
            ),
        ),
        rec(
            "conclusion-7",
            7,
            conclusion(
                "assessment-1",
                consultations=["consultation-2"],
                reviewed_by=["alpha", "beta"],
                independent_review_count=2,
            ),
        ),
        rec(
            "conclusion-8",
            8,
            conclusion("assessment-2", reviewed_by=[], independent_review_count=1),
        ),
    ]
    assert [f for f in findings(tmp_path, records, ["t/broken.json"]) if f[0] == "records"] == [
        ("records", "t/broken.json", "a reasoning record that does not parse"),
        (
            "records",
            "consultation-3",
            "claims advisor 'beta', which plan plan-1 did not select",
        ),
        (
            "records",
            "consultation-4",
            "names advisor 'gamma', which the catalogue does not declare",
        ),
        ("records", "consultation-4", "cites plan plan-9, which is not recorded"),
        ("records", "consultation-5", "cites plan consultation-2, which is not recorded"),
        (
            "records",
            "conclusion-6",
            "cites consultation-3, which is not a completed consultation",
        ),
        (
            "records",
            "conclusion-7",
            "claims review by [alpha, beta] (2), and the consultations it cites show [alpha]",
        ),
        (
            "records",
            "conclusion-8",
            "claims review by [] (1), and the consultations it cites show []",
        ),
    ]


def test_files_under(tmp_path: Path) -> None:
    write(tmp_path, "d/B.md", "")
    write(tmp_path, "d/a.md", "")
    write(tmp_path, "d/a/z.md", "")
    write(tmp_path, "d/.md", "")
    write(tmp_path, "d/x.MD", "")
    write(tmp_path, "single.txt", "")
    assert files_under(tmp_path, "d", frozenset({"md"})) == ["d/B.md", "d/a/z.md", "d/a.md"]
    assert files_under(tmp_path, "single.txt", frozenset({"md"})) == ["single.txt"]
    assert files_under(tmp_path, "absent", frozenset({"md"})) == []


def test_unreadable_documents_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "bin.md").write_bytes(b"consensus proves \xff")
    assert [f for f in findings(tmp_path) if f[0] == "claims"] == []
