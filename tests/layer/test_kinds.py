"""The shipped kind schema and allow-lists (docs/generated/layer.md)."""

from __future__ import annotations

from importlib import resources

import pytest

from majordomus.errors import EXIT_REFUSED
from majordomus.layer.allow import AllowListError, _read_list, available, load_allow_list
from majordomus.layer.kinds import KindSchemaError, load_kinds, parse_kinds
from majordomus.layer.yaml import key_paths, parse

SHIPPED = {
    "rule", "prompt", "profile", "policy", "milestone", "issue", "document", "scope",
    "context", "claim", "implementation", "test", "skill", "adr", "knowledge", "use-case",
    "application", "session",
}  # fmt: skip


def test_the_shipped_set() -> None:
    schema = load_kinds()
    assert set(schema.kinds) == SHIPPED
    assert schema.declared == frozenset({"context"})


@pytest.mark.parametrize(
    ("kind", "fmt", "front", "fallback", "allow", "identity", "title", "description", "version"),
    [
        ("rule", "markdown", "required", "document", "rule", ("id", "version"), "title",
         "description", None),
        ("prompt", "markdown", "required", None, "prompt", ("name",), "name", "description",
         None),
        ("profile", "yaml", "none", None, "profile", ("name",), "name", "description", None),
        ("policy", "yaml", "none", None, "policy", (), None, None, ("version", (1,))),
        ("milestone", "yaml", "none", None, "milestone", ("id",), "title", "outcome", None),
        ("issue", "yaml", "none", None, "issue", ("id",), "title", "objective", None),
        ("document", "markdown", "optional", None, "document", (), "@heading", "description",
         None),
        ("scope", "yaml", "none", None, "scope", (), None, None, ("version", (1,))),
        ("context", "markdown", "required", None, "context", ("id",), "title", "description",
         ("schema", ("context/v1",))),
        ("claim", "yaml", "none", None, "claim", ("id",), "claim", "note", ("version", (1,))),
        ("implementation", "text", "none", None, None, (), None, None, None),
        ("test", "text", "none", None, None, (), None, None, None),
        ("skill", "markdown", "required", None, "skill", ("id",), "title", "description",
         ("schema", ("skill/v1",))),
        ("adr", "markdown", "required", "document", "adr", ("id",), "title", "title",
         ("schema", ("adr/v1",))),
        ("knowledge", "markdown", "required", "document", "knowledge", ("id",), "title",
         "description", ("schema", ("knowledge/v1",))),
        ("use-case", "markdown", "required", None, "use-case", ("id",), "title", "summary",
         None),
        ("application", "markdown", "required", None, "application", ("id",), "title",
         "summary", None),
        ("session", "markdown", "required", None, "session-record", ("session_id",), "title",
         None, ("schema", ("session/v1",))),
    ],
)  # fmt: skip
def test_each_kind_reads_as_the_spec_says(
    kind, fmt, front, fallback, allow, identity, title, description, version
) -> None:
    spec = load_kinds().kinds[kind]
    assert spec.format == fmt
    assert spec.front_matter == front
    assert spec.without_front_matter == fallback
    assert (spec.allow.name if spec.allow else None) == allow
    assert spec.identity == identity
    assert spec.title == title
    assert spec.description == description
    got = (spec.version_field, spec.supported) if spec.version_field else None
    assert got == version
    assert spec.members == ("claims" if kind == "claim" else None)


def test_media_types() -> None:
    kinds = load_kinds().kinds
    assert kinds["rule"].media_type == "text/markdown"
    assert kinds["policy"].media_type == "application/yaml"
    assert kinds["test"].media_type == "text/plain"


BASE = "schema: majordomus-kinds/v1\nkinds:\n"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("schema: other\nkinds:\n  a:\n    format: text\n", "schema is 'other'"),
        (BASE + "  a:\n    format: text\n    colour: red\n", "colour"),
        (BASE + "  a:\n    format: pdf\n", "format"),
        (BASE + "  a:\n    format: yaml\n    front_matter: required\n", "cannot set front_matter"),
        (BASE + "  a:\n    format: markdown\n    members: items\n", "only meaningful for a yaml"),
        (
            BASE + "  a:\n    format: markdown\n    without_front_matter: b\n"
            "  b:\n    format: markdown\n    front_matter: required\n",
            "without_front_matter 'b'",
        ),
        (BASE + "  a:\n    format: markdown\n    without_front_matter: zzz\n", "'zzz'"),
        (BASE + "  a:\n    format: yaml\n    allow: nothing-here\n", "'nothing-here' is not"),
        (
            BASE + "  a:\n    format: yaml\n    schema_version:\n      field: v\n"
            "      supported: [-1]\n",
            "negative",
        ),
        (
            "schema: majordomus-kinds/v1\ndeclared: [a]\nkinds:\n  a:\n    format: yaml\n",
            "declared kind 'a'",
        ),
        (BASE + "  a:\n\tformat: yaml\n", "tab character"),
    ],
)
def test_an_invalid_kind_schema_is_fatal_with_exit_13(text: str, fragment: str) -> None:
    with pytest.raises(KindSchemaError) as caught:
        parse_kinds(text)
    assert fragment in caught.value.message
    assert caught.value.exit_code == EXIT_REFUSED


# --- allow-lists ---------------------------------------------------------------------------


def test_every_list_compiles_and_is_well_formed() -> None:
    folder = resources.files("majordomus.layer") / "data" / "allow"
    for name in sorted(available()):
        text = (folder / f"{name}.txt").read_text(encoding="utf-8")
        assert text.startswith(("# GENERATED FILE", "# AUTHORED FILE")), name
        lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
        assert all(ln.startswith(("#", "^")) for ln in lines), name
        assert load_allow_list(name).patterns
        assert load_allow_list(name).matcher.pattern  # compiled on first use: it compiles


def test_every_kind_that_validates_has_a_list_and_the_session_list_is_session_record() -> None:
    kinds = load_kinds().kinds
    assert kinds["session"].allow is not None
    assert "(see docs/generated/layer.md#session-record)" in kinds["session"].allow.message([])
    assert "manifest" in available()


def test_a_pattern_that_does_not_compile_is_fatal() -> None:
    with pytest.raises(AllowListError, match="line 2"):
        _read_list("x", "# banner\n^(unclosed$\n").unknown(["a"])


def test_search_semantics_with_the_anchors_the_lines_carry() -> None:
    allow = _read_list("x", "^a$\ntags\n")
    assert allow.unknown(["a", "ab", "xtagsx", "b"]) == ["ab", "b"]
    assert _read_list("empty", "# nothing\n").unknown(["a"]) == ["a"]


def test_a_remembered_refusal_is_still_reported() -> None:
    rule = _read_list("rule", "^id$\n^tags(\\.[0-9]+)?$")
    for _ in range(2):
        assert rule.unknown(key_paths({"id": 1, "nope": 2, "tags": ["a", "b"]})) == ["nope"]
        assert rule.unknown(["nope", "id", "tags.1"]) == ["nope"]


# Field sketches of each kind (docs/generated/layer.md): every list admits at least these
# documents.
SKETCHES = {
    "rule": "id: a\nversion: 1\nkind: rule\ntitle: t\ndescription: d\nstatement: s\n"
    "status: active\nclass: blocking\ndepends_on: [x@1, y@2]\ntags: []\n"
    "x-majordomus:\n  validator: v\n  category: c\n  policy_key: k\n  exit_code: 10\n"
    "  enforced_by: [check]\n  claims: [c]\n  tests: [t]\n",
    "prompt": "name: n\ndescription: d\nprofile: p\n",
    "profile": "name: n\ndescription: d\ncapability: strong\neffort: high\nverbosity: v\n"
    "presentation: p\nreasoning: r\ncheckpoint_interval: 30m\neffort_escalation:\n"
    "  after_blocked_attempts: 2\n  to: high\ncontext:\n  task: true\n  current_state: true\n"
    "  decisions: true\n  relevant_files: true\n  failing_output: true\n"
    "  recent_history_depth: 3\n  architecture_notes: true\nverification:\n"
    "  verify_command_required: true\n  regression_test_required: true\n"
    "  decision_record_required: true\noutput_contract: [a, b]\n",
    "policy": "version: 1\ncontext:\n  always_loaded_budget_lines: 1\n  builder_budget_lines: 1\n"
    "  recent_decisions: 1\n  max_list_items: 1\n  strategy: s\n  transcript_is_state: false\n"
    "profiles:\n  default: d\n  checkpoint_interval_default: 1\nverification:\n"
    "  required_for_changes: true\n  finish_requires: [a]\ncheckpoint:\n  max_body_lines: 1\n"
    "  retention_max_files: 1\nhandover:\n  required_sections: [a]\n  retention_max_files: 1\n"
    "ledger:\n  retention_max_lines: 1\nenforcement:\n  - name: n\n    path: p\n"
    "    wired_by: w\n    args: [a]\nprojections:\n  - provider: generic\n    target: t\n"
    "    always_loaded: true\n    mode: m\nbenchmark:\n  samples: 1\n  warmup: 1\n"
    "  regression:\n    p50: 1\n    p95: 1\n    p99: 1\n  budget:\n    doctor_ms: 1\n"
    "    watch_ms: 1\n",
    "milestone": "id: M1\ntitle: t\nslug: s\nversion: 1\norder: 1\npriority: p1\n"
    "cancelled: false\nsuperseded_by: M2\ncreated_at: x\nupdated_at: x\nproblem: p\n"
    "outcome: o\ncurrent_state: c\ndesired_state: d\nscope: [a]\nnon_scope: [a]\n"
    "acceptance_criteria: [a]\nvalidation: [a]\nevidence_required: [a]\nrisks: [a]\n"
    "depends_on: [a]\nclaims: [a]\nevidence:\n  - covers: c\n    type: t\n    command: c\n"
    "    result: r\n    artifact: a\n    url: u\n    commit: c\n    recorded_at: r\n",
    "issue": "id: I1\nmilestone: M1\ntitle: t\nslug: s\npriority: p1\nprofile: p\n"
    "parallel_safe: true\nrisk: r\nowner: o\ncancelled: false\ncreated_at: c\nupdated_at: u\n"
    "objective: o\nwhy: w\ncurrent_state: c\ndesired_state: d\ncompletion: c\n"
    "started_at: s\nverified_at: v\ncompleted_at: c\nscope: [a]\nnon_scope: [a]\n"
    "depends_on: [a]\nserves: [a]\nacceptance_criteria: [a]\nvalidation: [a]\n"
    "evidence_required: [a]\nevidence:\n  - covers: c\n    commit: c\n",
    "document": "title: t\ndescription: d\nkind: document\nstatus: s\nsuperseded_by: x\n"
    "updated: u\ntags: [a]\n",
    "scope": "version: 1\nin: [a/**]\nout:\n  paths: [.git/]\n  binary: true\n"
    "  max_bytes: 1\n  image:\n    names: ['*.png']\n",
    "context": "schema: context/v1\nid: a.b\nkind: context\ntitle: t\ndescription: d\n"
    "status: active\nscope: subtree\npaths: [a]\nproviders: ['*']\naudience: [human]\n"
    "composition: extend\norder: 1\nsupersedes: [x]\ntracks: [lib]\nchildren:\n"
    "  require_contract: true\n  exempt: [x]\n",
    "claim": "version: 1\nstatuses:\n  - id: g\n    meaning: m\nclaims:\n  - id: c\n"
    "    claim: c\n    source: s\n    implementation: i\n    test: t\n    status: guaranteed\n"
    "    responsibility: r\n    note: n\n",
    "skill": "schema: skill/v1\nid: s\nversion: 1\ntitle: t\ndescription: d\nstatus: draft\n"
    "tags: [a]\nrelated: [b]\ninputs: [i]\noutputs: [o]\n",
    "adr": "schema: adr/v1\nid: adr-0001\nkind: adr\ntitle: t\nstatus: accepted\ndate: d\n"
    "tags: [a]\nsupersedes: [adr-0000]\nsuperseded_by: adr-0002\nrelated: [rule:x]\n"
    "provenance:\n  origin: authored\n  derived_from: [file:x]\n",
    "knowledge": "schema: knowledge/v1\nid: k\nkind: knowledge\nclass: c\ntitle: t\n"
    "description: d\nstatus: s\nepistemics: e\ndate: d\ntags: [a]\nsuperseded_by: x\n"
    "provenance:\n  origin: authored\n  derived_from: [file:x]\nrelations:\n"
    "  - type: documents\n    target: file:x\n",
    "use-case": "id: u\nkind: use-case\ntitle: t\nsummary: s\ncategory: c\nstatus: s\n"
    "target: guaranteed\nweight: 1\ntags: [a]\nactors: [a]\ndifficulty: basic\n"
    "commands: [a]\nmcp_tools: [a]\ndoctrines: [a]\nclaims: [a]\nresponsibilities: [a]\n"
    "applications: [a]\nrelated:\n  boost: [a]\n  suppress: [b]\nperformance:\n"
    "  budget_ms: 10\n",
    "application": "id: a\nkind: application\ntitle: t\nsummary: s\nweight: 1\nstatus: s\n"
    "fits_when: [a]\ndoes_not_fit_when: [b]\nuse_cases: [u]\ndoctrines: [d]\n"
    "responsibilities: [r]\n",
    "session": "schema: session/v1\nkind: session\nsession_id: s-1\nstarted_at: a\nclosed_at: b\n"
    "created_at: c\noutcome: closed\ntitle: t\ntask_id: x\nprofile: p\nworker: w\n"
    "branch: main\nstart_head: h\nhead: h\nstart_working_tree: clean\nworking_tree: clean\n"
    "repository_id: r\nschema_version: 1\nworktree_id: w\ncommits: [a]\nchanged_files: [a]\n"
    "tasks: [a]\nissues: [a]\nmilestones: [a]\ncheckpoints: [a]\nhandovers: [a]\n"
    "decisions: [a]\nquestions: [a]\nevidence: [a]\n",
}


@pytest.mark.parametrize("kind", sorted(SKETCHES))
def test_each_list_admits_the_field_sketch(kind: str) -> None:
    allow = load_kinds().kinds[kind].allow
    assert allow is not None
    assert allow.unknown(key_paths(parse(SKETCHES[kind]))) == []
    assert allow.unknown(["not_a_key"]) == ["not_a_key"]


def test_the_manifest_list_admits_the_later_form() -> None:
    allow = load_allow_list("manifest")
    sections = "policy scope profiles rules prompts skills workflows knowledge adrs project "
    sections += "applications deployments sessions releases use-cases why"
    paths = ["schema", "repo.path", "local.path", "local.tracked", "local.implicit_context"]
    paths += [f"sections.{name}" for name in sections.split()]
    paths += ["context.documents", "context.documents.0"]
    assert allow.unknown(paths) == []
    assert allow.unknown(["sections.other", "repo.kind"]) == ["sections.other", "repo.kind"]
