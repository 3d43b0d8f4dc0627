"""How good the context `devcontext compile --issue` is, against gold sets written by hand.

    python benchmarks/context_quality.py [--budgets 8000,24000] [--corpus DIR --issue ID]

Each case names an issue of a layer and two gold sets, written down from objective criteria
(docs/devcontext.md says why an entry is in):

* **must** — the issue, its milestone and the issues it declares it depends on;
* **should** — what lies over its scope: the objects under the issue's declared scope, the
  decisions and knowledge (ADRs, curated knowledge, session records) whose references fall
  under the issue's or its milestone's declared scope, the rules and directory contracts
  that govern those paths, and every object the issue or its milestone names.

The layers are the planned fixture, the hand-written `ledgerly` fixture (a small invoicing
service: two milestones, eighteen issues, nine decisions with file references, scoped
rules, curated knowledge, session records) and the synthetic repository given a plan.

Figures per case and budget: must-have recall (target 100%), should-have recall (at least
80%) and noise, the share of the tokens spent on entries that are neither gold nor required
governance (the policy, the scope, blocking rules the work is held to; at most 30%).
`--corpus` runs one issue of any layer (a checkout) and prints what was selected and the
noise, with no gold: a way to look at a real layer by hand.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from majordomus.devcontext import CompiledContext, CompileInput, Tier, compile_context  # noqa: E402
from majordomus.layer.git import GitState  # noqa: E402
from majordomus.layer.index import build  # noqa: E402
from majordomus.layer.model import Index  # noqa: E402
from majordomus.synthetic import Shape, SyntheticRepository  # noqa: E402

FIXTURES = HERE.parent / "fixtures" / "layers"
BUDGETS = (8_000, 24_000)
TARGET_MUST, TARGET_SHOULD, TARGET_NOISE = 1.0, 0.8, 0.3
GIT = GitState(
    state="available",
    toplevel=None,
    head="0123456789abcdef0123456789abcdef01234567",
    branch="master",
    working_tree="clean",
)


def _u(kind: str, *identities: str) -> set[str]:
    return {f"majordomus://{kind}/{identity}" for identity in identities}


@dataclass(frozen=True)
class Case:
    layer: str
    issue: str
    must: frozenset[str]
    should: frozenset[str]


def case(layer: str, issue: str, must: set[str], should: set[str]) -> Case:
    return Case(layer, issue, frozenset(must | _u("issue", issue)), frozenset(should))


# --- gold sets --------------------------------------------------------------------------------
#
# planned: I0001 (milestone m1, scope [lib], no dependency, names nothing). Under `lib`: the
# implementation lib/thing.sh; the contract ai.layer tracks `lib`; the session s1 changed
# lib/thing.sh. No decision refers to a path under `lib`; m1 declares no scope. I0002
# (milestone m1, scope [lib], depends on I0001): the same, plus I0001.
PLANNED = [
    case(
        "planned",
        "I0001",
        _u("milestone", "m1"),
        _u("implementation", "lib/thing.sh")
        | _u("context", "ai.layer")
        | _u("session", "s-20260909000000-aaaa"),
    ),
    case(
        "planned",
        "I0002",
        _u("milestone", "m1") | _u("issue", "I0001"),
        _u("implementation", "lib/thing.sh")
        | _u("context", "ai.layer")
        | _u("session", "s-20260909000000-aaaa"),
    ),
]

# ledgerly: milestone billing declares [src/billing, tests/billing] and names ADR 0006 and
# ADR 0009; milestone api declares [src/api, tests/api]. Decisions over src/billing: 0001
# (money.py, test_money.py), 0002 (invoice.py), 0006 (tax.py), 0009 (money.py, discount.py);
# over src/api: 0005 (routes.py), 0007 (errors.py). Knowledge over src/billing:
# rounding-lessons (money.py, discount.py), credit-note-pitfalls (invoice.py, credit.py), the
# session s-20260910090000-bill (money.py, test_money.py); over src/api: api-error-catalogue
# (errors.py), the session s-20260911140000-api1 (routes.py). Rules by `applies_to`:
# money-is-decimal (src/billing), issued-invoices-are-immutable (src/billing/invoice.py,
# src/store), tax-tables-are-data (src/billing/tax.py), one-clock (src), api-is-versioned and
# errors-have-one-shape (src/api), no-network-in-tests (tests), migrations-are-reversible
# (src/store).
BILLING_DECISIONS = (
    _u("adr", "adr-0001", "adr-0002", "adr-0006", "adr-0009")
    | _u("knowledge", "rounding-lessons", "credit-note-pitfalls")
    | _u("session", "s-20260910090000-bill")
)
BILLING_RULES = _u(
    "rule",
    "project.money-is-decimal@1",
    "project.issued-invoices-are-immutable@1",
    "project.tax-tables-are-data@1",
    "project.one-clock@1",
    "project.no-network-in-tests@1",
)
API_DECISIONS = (
    _u("adr", "adr-0005", "adr-0007")
    | _u("knowledge", "api-error-catalogue")
    | _u("session", "s-20260911140000-api1")
)
API_RULES = _u(
    "rule",
    "project.api-is-versioned@1",
    "project.errors-have-one-shape@1",
    "project.one-clock@1",
    "project.no-network-in-tests@1",
)
LEDGERLY = [
    # I0105 [src/billing/tax.py, tests/billing/test_tax.py], depends on I0103, names ADR 0006.
    case(
        "ledgerly",
        "I0105",
        _u("milestone", "billing") | _u("issue", "I0103"),
        BILLING_DECISIONS
        | BILLING_RULES
        | _u("implementation", "src/billing/tax.py")
        | _u("test", "tests/billing/test_tax.py"),
    ),
    # I0107 [src/billing/credit.py] (no such file yet), depends on I0106, names the rule
    # project.issued-invoices-are-immutable.
    case(
        "ledgerly",
        "I0107",
        _u("milestone", "billing") | _u("issue", "I0106"),
        BILLING_DECISIONS | BILLING_RULES | _u("implementation", "src/billing/credit.py"),
    ),
    # I0112 [src/billing/invoice.py, src/core/clock.py], depends on I0106, names ADR 0008;
    # ADR 0008 refers to src/core/clock.py.
    case(
        "ledgerly",
        "I0112",
        _u("milestone", "billing") | _u("issue", "I0106"),
        BILLING_DECISIONS
        | BILLING_RULES
        | _u("adr", "adr-0008")
        | _u("implementation", "src/billing/invoice.py", "src/core/clock.py"),
    ),
    # I0203 [src/api/routes.py], depends on I0201 and I0106 (another milestone).
    case(
        "ledgerly",
        "I0203",
        _u("milestone", "api") | _u("issue", "I0201", "I0106"),
        API_DECISIONS | API_RULES | _u("implementation", "src/api/routes.py"),
    ),
]

# synthetic: `SyntheticRepository.new(Shape(rules=40, documents=8))` given a plan by
# `_plan` below: milestone docs (scope [docs]) with twelve issues S01..S12, issue S0k scoped
# to docs/DOC_{k mod 8}.md, depending on S0(k-1), naming project.rule-{3k mod 40}; one
# decision (adr-0001) refers to docs/DOC_2.md, one (adr-0002) to docs/DOC_5.md.
SYNTHETIC_ISSUES = {f"S{k:02d}": k for k in range(1, 13)}


def _synthetic_case(issue: str) -> Case:
    k = SYNTHETIC_ISSUES[issue]
    must = _u("milestone", "docs") | (_u("issue", f"S{k - 1:02d}") if k > 1 else set())
    should = (
        _u("document", f"docs/DOC_{k % 8}.md")
        | _u("rule", f"project.rule-{3 * k % 40}@1")
        | _u("adr", "adr-0001", "adr-0002")
    )
    return case("synthetic", issue, must, should)


SYNTHETIC = [_synthetic_case(i) for i in ("S03", "S07", "S12")]


def _plan(root: Path) -> None:
    """A milestone of twelve issues and two decisions on top of the synthetic layer."""
    sources = root / ".ai/repo/knowledge/sources.yaml"
    extra = "".join(
        f"  - id: {kind}\n    kind: {kind}\n    discovery: vcs\n"
        f"    pathspec: ':(glob){spec}'\n    required: false\n"
        for kind, spec in (
            ("milestone", ".ai/repo/project/milestones/*.yaml"),
            ("issue", ".ai/repo/project/issues/*.yaml"),
            ("adr", ".ai/repo/adrs/????-*.md"),
        )
    )
    sources.write_text(sources.read_text(encoding="utf-8") + extra, encoding="utf-8")
    project = root / ".ai/repo/project"
    (project / "milestones").mkdir(parents=True)
    (project / "issues").mkdir()
    (project / "milestones/docs.yaml").write_text(
        "id: docs\ntitle: Documents that agree with the rules\n"
        'outcome: "Every document states what the rules require."\nscope:\n  - docs\n',
        encoding="utf-8",
    )
    for issue, k in SYNTHETIC_ISSUES.items():
        depends = f"depends_on:\n  - S{k - 1:02d}\n" if k > 1 else ""
        (project / f"issues/{issue}.yaml").write_text(
            f"id: {issue}\nmilestone: docs\ntitle: Document {k % 8} follows its rule\n"
            f'objective: "Bring docs/DOC_{k % 8}.md in line with project.rule-{3 * k % 40}."\n'
            f"scope:\n  - docs/DOC_{k % 8}.md\n{depends}",
            encoding="utf-8",
        )
    adrs = root / ".ai/repo/adrs"
    adrs.mkdir(parents=True)
    for n, doc in ((1, 2), (2, 5)):
        (adrs / f"{n:04d}-doc-{doc}.md").write_text(
            f"---\nschema: adr/v1\nid: adr-{n:04d}\nkind: adr\ntitle: Document {doc} is "
            f"normative\nstatus: accepted\ndate: 2026-09-10\nrelated:\n  - file:docs/DOC_"
            f"{doc}.md\n---\n# Document {doc} is normative\n\nWhere it and a rule disagree, "
            "the rule is corrected.\n",
            encoding="utf-8",
        )


# The shared corpus (a real upstream layer, not in this repository), issue I0905: milestone
# fly-deployment, scope [apps/majordomus-cli/src/capability/builtin/health.rs], depends on
# I0902. The milestone declares sixteen paths (.ai/repo/adrs, .ai/repo/rules/project, docs,
# test/cases, apps/majordomus-cli/src/capability/builtin, apps/majordomus-cli/src/http,
# share/allow, share/schemas, …) and names ADR 0013. Decisions whose `file:`/`test:`
# references fall under those paths, read off their front matter: 0010 0011 0012 0013 0014
# 0017 0018 0020 0021 0022 0023 0033; knowledge evidence-figures and start-here; the indexed
# contracts over them: ai.repo.rules.project (its own directory), ai.repo.rules (its
# subtree, and it tracks share/allow/rule.txt), ai.repo.prompts (tracks
# share/allow/prompt.txt). No rule of the corpus declares the paths it governs.
CORPUS = {
    "I0905": case(
        "corpus",
        "I0905",
        _u("milestone", "fly-deployment") | _u("issue", "I0902"),
        _u(
            "adr",
            *(f"adr-{n:04d}" for n in (10, 11, 12, 13, 14, 17, 18, 20, 21, 22, 23, 33)),
        )
        | _u("knowledge", "evidence-figures", "start-here")
        | _u("context", "ai.repo.rules.project", "ai.repo.rules", "ai.repo.prompts"),
    )
}


@contextmanager
def layers() -> Iterator[Callable[[str], Index]]:
    """The index of each layer by name, the synthetic one written for the run."""
    with SyntheticRepository.new(Shape(rules=40, documents=8)) as synthetic:
        _plan(synthetic.root)
        built = {
            "planned": build(FIXTURES / "planned", "filesystem").index,
            "ledgerly": build(FIXTURES / "ledgerly", "filesystem").index,
            "synthetic": build(synthetic.root, "filesystem").index,
        }
        yield lambda name: dataclasses.replace(built[name], git=GIT)


@dataclass(frozen=True)
class Figures:
    must: float
    should: float
    noise: float
    used: int
    limit: int
    missing: tuple[str, ...]
    noisy: tuple[str, ...]

    @property
    def met(self) -> bool:
        return (
            self.must >= TARGET_MUST and self.should >= TARGET_SHOULD and self.noise <= TARGET_NOISE
        )


def required_governance(compiled: CompiledContext) -> set[str]:
    return {e.uri for e in compiled.selected if e.required and e.tier is Tier.GOVERNANCE}


def figures(compiled: CompiledContext, gold: Case) -> Figures:
    selected = {e.uri for e in compiled.selected}
    cost = {e.uri: e.cost_tokens for e in compiled.selected}
    allowed = gold.must | gold.should | required_governance(compiled)
    noisy = sorted(uri for uri in selected if uri not in allowed)
    used = compiled.budget.used_tokens
    return Figures(
        must=len(gold.must & selected) / len(gold.must),
        should=len(gold.should & selected) / len(gold.should) if gold.should else 1.0,
        noise=sum(cost[u] for u in noisy) / used if used else 0.0,
        used=used,
        limit=compiled.budget.limit_tokens,
        missing=tuple(sorted((gold.must | gold.should) - selected)),
        noisy=tuple(noisy),
    )


def run(budgets: tuple[int, ...], verbose: bool) -> bool:
    ok = True
    print("layer      issue  budget   used  must should  noise")
    with layers() as index_of:
        for gold in (*PLANNED, *LEDGERLY, *SYNTHETIC):
            for budget in budgets:
                compiled = compile_context(
                    index_of(gold.layer), CompileInput(issue=gold.issue, budget_tokens=budget)
                )
                f = figures(compiled, gold)
                ok = ok and f.met
                mark = "" if f.met else "  MISSED"
                print(
                    f"{gold.layer:<10} {gold.issue:<6} {budget:>6} {f.used:>6} {f.must:>5.0%} "
                    f"{f.should:>6.0%} {f.noise:>6.0%}{mark}"
                )
                if verbose or not f.met:
                    for uri in f.missing:
                        print(f"    missing {uri}")
                    for uri in f.noisy:
                        print(f"    noise   {uri}")
    return ok


def corpus(root: Path, issue: str, budgets: tuple[int, ...]) -> None:
    """One issue of a real layer: what is selected, by tier, and what it costs; with the
    figures when `CORPUS` holds a gold set for the issue."""
    index = build(root).index
    for budget in budgets:
        compiled = compile_context(index, CompileInput(issue=issue, budget_tokens=budget))
        b = compiled.budget
        print(f"{issue} at {budget}: {b.used_tokens} used, {b.required_tokens} required")
        if issue in CORPUS:
            f = figures(compiled, CORPUS[issue])
            print(f"  must {f.must:.0%}  should {f.should:.0%}  noise {f.noise:.0%}")
        for e in compiled.selected:
            required = " (required)" if e.required else ""
            print(f"  {e.tier.value:<10} {e.cost_tokens:>6}  {e.uri}{required}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default=",".join(str(b) for b in BUDGETS))
    parser.add_argument("--verbose", action="store_true", help="list every miss and noise")
    parser.add_argument("--corpus", type=Path, help="a checkout of a real layer")
    parser.add_argument("--issue", help="the issue to compile in --corpus")
    args = parser.parse_args(argv)
    budgets = tuple(int(b) for b in args.budgets.split(","))
    if args.corpus is not None:
        corpus(args.corpus, args.issue, budgets)
        return 0
    return 0 if run(budgets, args.verbose) else 1


if __name__ == "__main__":
    sys.exit(main())
