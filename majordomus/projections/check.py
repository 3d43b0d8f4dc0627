"""`reasoning check`: the six executable reasoning rules, in the order of `CHECKS` (docs/ledger.md).

Findings are reported, never fixed. Reads only regular files below `root`, never through a
symlink (`majordomus.safefs`); writes nothing, never reads the clock. Long on purpose: the
checks share the finding model and the file helpers."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path, PurePosixPath

from majordomus.advisors.catalogue import AdvisorCatalogue
from majordomus.advisors.loading import PACKAGED_CATALOGUE
from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.references import References
from majordomus.ledger.loaded import Loaded, RecordIndex, cites
from majordomus.ledger.record import (
    ConsultationInput,
    ReasoningRecord,
    StoredConclusion,
    StoredPlan,
)
from majordomus.order import canonical_strings
from majordomus.projections.moment import recorded_moment
from majordomus.safefs import Tree, Unsafe
from majordomus.wire import Wire

#: Every check, in the order they run and their findings are listed.
CHECKS: tuple[str, ...] = ("catalogue", "adapters", "coupling", "ci", "claims", "records")

#: Where transport modules live; the `adapters` check runs only when this directory exists.
ADAPTER_DIR = "scripts/lib/advisors"

#: Code that must reach advisors through the catalogue only; absent ones skipped.
INDEPENDENT_SOURCES: tuple[str, ...] = (
    "majordomus/advisors",
    "majordomus/ledger",
    "majordomus/projections",
)
SOURCE_EXTENSIONS = frozenset({"py"})

WORKFLOWS = ".github/workflows"
GATES = ".ai/repo/ci/gates.yaml"
YAML_EXTENSIONS = frozenset({"yml", "yaml"})
DOCUMENTS: tuple[str, ...] = ("docs", "site/content", ".ai/repo", "README.md")
MARKDOWN = frozenset({"md"})

#: The largest file a check reads; a bigger one is skipped like an unreadable one.
SCAN_LIMIT = 4 * 1024 * 1024


class ReasoningFinding(Wire):
    """Which check, where (a repository-relative path, a record id or an advisor), and one
    sentence saying what the rule refuses."""

    check: str
    subject: str
    message: str


def files_under(root: Path, relative: str, extensions: frozenset[str]) -> list[str]:
    """`relative` when a file, else the regular files below it with one of the extensions,
    sorted component-wise; symlinks are never followed (a link to `/` would walk the disk)."""
    with Tree(root) as tree:
        kind = tree.kind(relative)
        if kind == "file":
            return [relative]
        if kind != "directory":
            return []
        found: list[str] = []
        stack = [relative]
        while stack:
            folder = stack.pop()
            try:
                entries = list(tree.entries(folder))
            except Unsafe:
                continue
            for name, mode in entries:
                path = f"{folder}/{name}"
                if stat.S_ISDIR(mode):
                    stack.append(path)
                elif stat.S_ISREG(mode) and PurePosixPath(name).suffix[1:] in extensions:
                    found.append(path)
    return sorted(found, key=lambda rel: tuple(os.fsencode(p) for p in rel.split("/")))


def _adapters(root: Path, catalogue: AdvisorCatalogue) -> list[ReasoningFinding]:
    """Each adapter the catalogue names (its advisors', then its peers') with no module."""
    adapters = [a.adapter for a in catalogue.advisors]
    if catalogue.peers is not None:
        adapters.append(catalogue.peers.adapter)
    with Tree(root) as tree:
        if tree.kind(ADAPTER_DIR) != "directory":
            return []
        modules = [(adapter, f"{ADAPTER_DIR}/{adapter}.mjs") for adapter in adapters]
        missing = [(adapter, module) for adapter, module in modules if tree.kind(module) != "file"]
    return [
        ReasoningFinding(
            check="adapters",
            subject=module,
            message=f"the catalogue names adapter '{adapter}' and no transport "
            f"module {module} implements it",
        )
        for adapter, module in missing
    ]


def _scan(
    root: Path, check: str, paths: Iterable[str], hits: Callable[[str], Iterable[str]]
) -> list[ReasoningFinding]:
    """One finding per message `hits` gives for the UTF-8 text of each readable file of `paths`
    (the others are skipped silently)."""
    findings: list[ReasoningFinding] = []
    with Tree(root) as tree:
        for path in paths:
            try:
                text = tree.read(path, SCAN_LIMIT).decode("utf-8")
            except (Unsafe, UnicodeDecodeError):
                continue
            findings.extend(
                ReasoningFinding(check=check, subject=path, message=m) for m in hits(text)
            )
    return findings


def _coupling(root: Path, catalogue: AdvisorCatalogue) -> list[ReasoningFinding]:
    names = catalogue.names()
    paths = [p for s in INDEPENDENT_SOURCES for p in files_under(root, s, SOURCE_EXTENSIONS)]
    return _scan(
        root,
        "coupling",
        paths,
        lambda text: [
            f"provider-independent code names '{name}'; it must reach advisors through the "
            "catalogue"
            for name in names
            if f'"{name}"' in text or f"'{name}'" in text
        ],
    )


def _ci(root: Path, refs: References) -> list[ReasoningFinding]:
    variables = [v.credential_env for v in refs.models.vendors if v.credential_env is not None]
    paths = [
        *files_under(root, WORKFLOWS, YAML_EXTENSIONS),
        *files_under(root, GATES, YAML_EXTENSIONS),
    ]
    return _scan(
        root,
        "ci",
        paths,
        lambda text: [
            f"CI names the model credential {variable}; no gate may depend on a live model"
            for variable in variables
            if variable in text
        ],
    )


def _claims(root: Path, catalogue: AdvisorCatalogue) -> list[ReasoningFinding]:
    phrases = [claim.lower() for claim in catalogue.forbidden_claims]
    for advisor in catalogue.advisors:
        title = advisor.title.lower()
        phrases.extend((f"requires {title}", f"{title} is required"))
    paths = [path for place in DOCUMENTS for path in files_under(root, place, MARKDOWN)]
    return _scan(
        root,
        "claims",
        paths,
        lambda text: [
            f"asserts '{phrase}', a claim the reasoning design refuses"
            for phrase in phrases
            if phrase in text.lower()
        ],
    )


def _record_finding(subject: str, message: str) -> ReasoningFinding:
    return ReasoningFinding(check="records", subject=subject, message=message)


def _files(loaded: Loaded) -> list[ReasoningFinding]:
    """What hand-placed files can do that the writer never does, and a fetched ledger ref
    kept aside (docs/team.md)."""
    findings = [
        _record_finding(
            ref,
            "a fetched ledger ref that rewrote what was seen is kept aside and not replayed; "
            "docs/team.md says how to accept or drop it",
        )
        for ref in loaded.quarantined
    ]
    for collision in loaded.collisions():
        paths = [entry.shown for entry in collision.holders]
        findings.append(
            _record_finding(
                paths[0],
                f"id {collision.id} is held by {len(paths)} files ({', '.join(paths)}); "
                f"an id names one record, and only {paths[0]} is replayed",
            )
        )
    for entry in loaded.placed:
        record = entry.record
        if entry.name != f"{record.id}.json":
            message = f"holds record {record.id}, whose file is named {record.id}.json"
            findings.append(_record_finding(entry.shown, message))
        if entry.folder != record.task:
            message = (
                f"holds a record of task {record.task} in the directory of task {entry.folder}"
            )
            findings.append(_record_finding(entry.shown, message))
    return findings


def _named(paths: dict[str, str], records: list[ReasoningRecord]) -> str:
    return ", ".join(f"{r.id} ({paths.get(r.id, 'not in the store')})" for r in records)


def _conflicts(loaded: Loaded, index: RecordIndex) -> Iterator[ReasoningFinding]:
    """What admission refuses and a hand-placed or racing record could still have added."""
    # where each record is stored (its first file), for the subjects and messages of findings
    paths: dict[str, str] = {}
    for entry in loaded.placed:
        paths.setdefault(entry.record.id, entry.shown)
    yield from _foreign_supersessions(loaded, index, paths)
    yield from _in_force_twice(index, paths)
    for (plan, advisor), given in index.answers.items():
        if len(given) > 1:
            yield _record_finding(
                paths.get(given[-1].id, given[-1].id),
                f"advisor '{advisor}' answered plan {plan} {len(given)} times: "
                f"{_named(paths, given)}; one plan, one answer per advisor",
            )
    for disagreement, settled in index.resolutions.items():
        if len(settled) > 1:
            yield _record_finding(
                paths.get(settled[-1].id, settled[-1].id),
                f"disagreement {disagreement} is resolved {len(settled)} times: "
                f"{_named(paths, settled)}; the first settles it",
            )


def _foreign_supersessions(
    loaded: Loaded, index: RecordIndex, paths: dict[str, str]
) -> Iterator[ReasoningFinding]:
    """Conclusions superseding a conclusion of another assessment, in record order."""
    for record in loaded.records:
        body = record.body
        if not isinstance(body, StoredConclusion) or body.supersedes is None:
            continue
        earlier = index.get(body.supersedes)
        if (
            earlier is not None
            and isinstance(earlier.body, StoredConclusion)
            and earlier.body.assessment != body.assessment
        ):
            yield _record_finding(
                paths.get(record.id, record.id),
                f"{record.id} concludes assessment {body.assessment} and supersedes "
                f"{_named(paths, [earlier])}, a conclusion of assessment {earlier.body.assessment}",
            )


def _in_force_twice(index: RecordIndex, paths: dict[str, str]) -> Iterator[ReasoningFinding]:
    """Assessments on which more than one conclusion stands."""
    for assessment, conclusions in index.conclusions.items():
        in_force = [c for c in conclusions if c.id not in index.superseded_by]
        if len(in_force) > 1:
            yield _record_finding(
                paths.get(in_force[-1].id, in_force[-1].id),
                f"{len(in_force)} conclusions stand on assessment {assessment}: "
                f"{_named(paths, in_force)}; a later conclusion names the earlier in `supersedes`",
            )


def _consultation_claims(
    catalogue: AdvisorCatalogue, index: RecordIndex, body: ConsultationInput
) -> Iterator[str]:
    """What a consultation claims that the catalogue or its plan does not show."""
    if catalogue.get(body.advisor) is None and not body.advisor.startswith("peer:"):
        yield f"names advisor '{body.advisor}', which the catalogue does not declare"
    plan = index.get(body.plan)
    if plan is None or not isinstance(plan.body, StoredPlan):
        yield f"cites plan {body.plan}, which is not recorded"
    elif body.advisor not in (s.advisor for s in plan.body.plan.selected):
        yield f"claims advisor '{body.advisor}', which plan {body.plan} did not select"


def _conclusion_claims(index: RecordIndex, body: StoredConclusion) -> Iterator[str]:
    """Citations that are no completed consultation, then a review its citations do not show."""
    reviewers: list[str] = []
    for cited in body.consultations:
        answer = index.get(cited)
        if (
            answer is not None
            and isinstance(answer.body, ConsultationInput)
            and answer.body.status is ConsultationStatus.COMPLETED
        ):
            if answer.body.advisor not in reviewers:
                reviewers.append(answer.body.advisor)
        else:
            yield f"cites {cited}, which is not a completed consultation"
    computed = canonical_strings(reviewers)
    if computed != body.reviewed_by or body.independent_review_count != len(body.reviewed_by):
        yield (
            f"claims review by [{', '.join(body.reviewed_by)}] "
            f"({body.independent_review_count}), and the consultations it cites show "
            f"[{', '.join(computed)}]"
        )


def _backwards(index: RecordIndex, record: ReasoningRecord) -> Iterator[str]:
    """Records it cites that say they were recorded after it: the clock ran backwards."""
    at = recorded_moment(record.recorded_at)
    if at is None:
        return
    for cited in dict.fromkeys(cites(record)):
        earlier = index.get(cited)
        then = None if earlier is None else recorded_moment(earlier.recorded_at)
        if earlier is not None and then is not None and then > at:
            yield (
                f"was recorded at {record.recorded_at}, before {cited} ({earlier.recorded_at}), "
                "which it cites: the clock ran backwards; replay puts it after what it cites"
            )


def _claims_of(
    catalogue: AdvisorCatalogue, index: RecordIndex, record: ReasoningRecord
) -> Iterator[str]:
    yield from _backwards(index, record)
    body = record.body
    if isinstance(body, ConsultationInput):
        yield from _consultation_claims(catalogue, index, body)
    elif isinstance(body, StoredConclusion):
        yield from _conclusion_claims(index, body)


def _records(catalogue: AdvisorCatalogue, loaded: Loaded) -> list[ReasoningFinding]:
    findings = [
        _record_finding(path, "a reasoning record that does not parse")
        for path in loaded.unreadable
    ]
    findings.extend(_files(loaded))
    index = RecordIndex(loaded.records)
    for record in loaded.records:
        findings.extend(
            _record_finding(record.id, message) for message in _claims_of(catalogue, index, record)
        )
    findings.extend(_conflicts(loaded, index))
    return findings


def run(
    root: Path,
    catalogue: AdvisorCatalogue,
    refs: References,
    loaded: Loaded,
    *,
    source: str = PACKAGED_CATALOGUE,
) -> list[ReasoningFinding]:
    """Every finding of the six checks, in check order; `source` names the catalogue file."""
    return [
        *(
            ReasoningFinding(check="catalogue", subject=source, message=text)
            for text in catalogue.diagnostics(refs)
        ),
        *_adapters(root, catalogue),
        *_coupling(root, catalogue),
        *_ci(root, refs),
        *_claims(root, catalogue),
        *_records(catalogue, loaded),
    ]
