"""Every built-in capability, declared once: identity, exposure on each surface, policies.

The types, handlers and benchmark cases are named by reference (`"module:attribute"`) and
imported on first use, so reading this table costs nothing: the registry, `initialize`, the
command tree and the generated reference read it without importing the domain behind it.
Each namespace's models and handlers live in `majordomus/capabilities/<namespace>.py`.
"""

from __future__ import annotations

from majordomus.capabilities.registry import Capability, Module, process_cache

CORE = "majordomus.capabilities.core:"
REASONING = "majordomus.capabilities.reasoning:"
DEVCONTEXT = "majordomus.capabilities.devcontext:"
VERIFIED = "behaviorally_verified"
EXPERIMENTAL = "experimental"

# -- repository, objects, capabilities, health -----------------------------

CORE_MODULES = (
    Module(
        id="repository",
        title="Repository",
        description="The repository root, its layer and git state.",
        stability=VERIFIED,
        capabilities=(
            Capability(
                id="repository.info",
                title="Repository and index state",
                description="Root, sections, git state, discovery mode, kinds present and every "
                "diagnostic of the layer index. Read-only.",
                input_ref=CORE + "Empty",
                output_ref=CORE + "RepositoryReport",
                handler_ref=CORE + "repository_info",
                tool="majordomus_repository",
                resource=("majordomus://repository", "repository"),
                http=("GET", "/api/v1/repository"),
                stability=VERIFIED,
                tags=("layer",),
            ),
        ),
    ),
    Module(
        id="objects",
        title="Objects",
        description="The declarative objects of the `.ai/` layer.",
        stability=VERIFIED,
        capabilities=(
            Capability(
                id="objects.list",
                title="List objects",
                description="The layer's declarative objects in URI order, optionally only one "
                "kind or one tag. Read-only.",
                input_ref=CORE + "ListInput",
                output_ref=CORE + "ObjectList",
                handler_ref=CORE + "objects_list",
                tool="majordomus_list",
                http=("GET", "/api/v1/objects"),
                cli=("objects", "list"),
                stability=VERIFIED,
                tags=("layer",),
                cases_ref=CORE + "_list_cases",
            ),
            Capability(
                id="objects.get",
                title="Get one object",
                description="One object by URI with metadata, provenance and content, or a query "
                "resource such as `majordomus://repository` answered. Read-only.",
                input_ref=CORE + "GetInput",
                output_ref=CORE + "ResourceView",
                handler_ref=CORE + "objects_get",
                tool="majordomus_get",
                http=("GET", "/api/v1/object"),
                cli=("objects", "get"),
                stability=VERIFIED,
                tags=("layer",),
                cases_ref=CORE + "_get_cases",
            ),
            Capability(
                id="objects.search",
                title="Search objects",
                description="Case-insensitive substring search over identities, titles, "
                "descriptions and content. Read-only.",
                input_ref=CORE + "SearchInput",
                output_ref=CORE + "SearchResult",
                handler_ref=CORE + "objects_search",
                tool="majordomus_search",
                http=("GET", "/api/v1/search"),
                cli=("objects", "search"),
                stability=VERIFIED,
                tags=("layer", "search"),
                cache=process_cache(64),
                cases_ref=CORE + "_search_cases",
            ),
        ),
    ),
    Module(
        id="capabilities",
        title="Capabilities",
        description="The capability registry itself: every declaration and its projections.",
        stability=VERIFIED,
        capabilities=(
            Capability(
                id="capabilities.list",
                title="List capabilities",
                description="Every capability with its exposure and policies, optionally one kind "
                "or one surface, and the registry summary. Read-only.",
                input_ref=CORE + "CapabilitiesInput",
                output_ref=CORE + "CapabilityList",
                handler_ref=CORE + "capabilities_list",
                tool="majordomus_capabilities",
                http=("GET", "/api/v1/capabilities"),
                cli=("capabilities", "list"),
                stability=VERIFIED,
                tags=("registry",),
                cache=process_cache(16),
                cases_ref=CORE + "_capabilities_cases",
            ),
            Capability(
                id="capabilities.describe",
                title="Describe one capability",
                description="One capability as declared, with its input and output JSON Schemas. "
                "Read-only.",
                input_ref=CORE + "DescribeInput",
                output_ref=CORE + "CapabilityDescriptor",
                handler_ref=CORE + "capabilities_describe",
                tool="majordomus_capability",
                http=("GET", "/api/v1/capability"),
                cli=("capabilities", "describe"),
                stability=VERIFIED,
                tags=("registry",),
                cases_ref=CORE + "_describe_cases",
            ),
        ),
    ),
    Module(
        id="health",
        title="Health",
        description="Liveness, readiness and a report of the checks that decide them.",
        stability=VERIFIED,
        capabilities=(
            Capability(
                id="health.report",
                title="Health report",
                description="The checks on this repository (its layer index, the registry "
                "served from it, the scope, the reasoning ledger and git), and the worst of "
                "them. Read-only.",
                input_ref=CORE + "Empty",
                output_ref=CORE + "Health",
                handler_ref=CORE + "health_report",
                tool="majordomus_health",
                resource=("majordomus://health", "health"),
                http=("GET", "/api/v1/health"),
                stability=VERIFIED,
                tags=("health",),
                cache=process_cache(4, ttl_seconds=5),
            ),
            Capability(
                id="health.live",
                title="Liveness",
                description="Always alive while the process answers. Read-only.",
                input_ref=CORE + "Empty",
                output_ref=CORE + "Liveness",
                handler_ref=CORE + "health_live",
                http=("GET", "/api/v1/live"),
                stability=VERIFIED,
                tags=("health",),
            ),
            Capability(
                id="health.ready",
                title="Readiness",
                description="Ready when the registry holds capabilities; the layer warns when the "
                "index is degraded. Never contacts another service. Read-only.",
                input_ref=CORE + "Empty",
                output_ref=CORE + "Readiness",
                handler_ref=CORE + "health_ready",
                http=("GET", "/api/v1/ready"),
                stability=VERIFIED,
                tags=("health",),
            ),
        ),
    ),
)


# -- reasoning -----------------------------------------

REASONING_ADVISORS = Capability(
    id="reasoning.advisors",
    title="Advisors and their availability",
    description="The reasoning mode and where it came from, every advisor of the catalogue "
    "with its status, the one reason word and what was probed, the capacity per advisory "
    "capability, and the catalogue's findings. Contacts no advisor. Read-only.",
    input_ref=REASONING + "AdvisorsInput",
    output_ref=REASONING + "AdvisorsReport",
    handler_ref=REASONING + "reasoning_advisors",
    tool="majordomus_reasoning_advisors",
    resource=("majordomus://reasoning/advisors", "reasoning-advisors"),
    http=("GET", "/api/v1/reasoning/advisors"),
    cli=("reasoning", "advisors"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "advisors"),
)
REASONING_PLAN = Capability(
    id="reasoning.plan",
    title="Preview a review plan",
    description="How much independent review an uncertainty of the given materiality and "
    "confidence deserves under the current mode, which available advisors would be asked "
    "and why, or the structured local review when none would. Records nothing. Read-only.",
    input_ref=REASONING + "PlanPreviewInput",
    output_ref=REASONING + "ReviewPlan",
    handler_ref=REASONING + "reasoning_plan",
    tool="majordomus_reasoning_plan",
    http=("GET", "/api/v1/reasoning/plan"),
    cli=("reasoning", "plan"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "policy"),
    cases_ref=REASONING + "_plan_cases",
)
REASONING_RECORD = Capability(
    id="reasoning.record",
    title="Record reasoning",
    description="Admit one typed record (assessment, plan, consultation, disagreement, "
    "resolution, conclusion, validation, attempt) into the append-only store of the current "
    "task or a named one, with secrets redacted; a plan is decided by the review policy "
    "against the advisors available now. A refused record writes nothing. Writes only "
    "`.ai/local/state/reasoning/`.",
    input_ref=REASONING + "ReasoningRecordInput",
    output_ref=REASONING + "ReasoningRecorded",
    handler_ref=REASONING + "reasoning_record",
    kind="command",
    writes_repository=True,
    tool="majordomus_reasoning_record",
    http=("POST", "/api/v1/reasoning/records"),
    cli=("reasoning", "record"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "records"),
)
REASONING_STATUS = Capability(
    id="reasoning.status",
    title="Reasoning state of a task",
    description="The assessments, consultations, disagreements and conclusions of the current "
    "task (or one task, or `all`), each with where it stands, the timeline of every record, "
    "totals, unreadable store files, and the Markdown report a handover carries; optionally "
    "as of an earlier moment. Derived from the records, never stored. Read-only.",
    input_ref=REASONING + "ReasoningStatusInput",
    output_ref=REASONING + "ReasoningStatus",
    handler_ref=REASONING + "reasoning_status",
    tool="majordomus_reasoning",
    resource=("majordomus://reasoning", "reasoning"),
    http=("GET", "/api/v1/reasoning"),
    cli=("reasoning", "status"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "session"),
    cases_ref=REASONING + "_status_cases",
)
REASONING_EXPLAIN = Capability(
    id="reasoning.explain",
    title="Explain a reasoning record",
    description="One record with the assessment it belongs to and that assessment's whole "
    "chain (plans, consultations, disagreements, resolutions, conclusions, validations, "
    "attempts) as timeline steps in order. An unknown id is not found. Read-only.",
    input_ref=REASONING + "ReasoningExplainInput",
    output_ref=REASONING + "ReasoningExplanation",
    handler_ref=REASONING + "reasoning_explain",
    tool="majordomus_reasoning_explain",
    http=("GET", "/api/v1/reasoning/explain"),
    cli=("reasoning", "explain"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "provenance"),
    waived="transient_state",
    cases_ref=REASONING + "_explain_cases",
)
REASONING_CHECK = Capability(
    id="reasoning.check",
    title="Check the reasoning rules",
    description="The six checks in order: the catalogue's findings, a transport module per "
    "adapter, provider-independent code that names an advisor, CI that depends on a model "
    "credential, documents asserting a refused claim, and records that do not parse or claim "
    "review the ledger does not show. Findings are reported, never fixed. Read-only.",
    input_ref=REASONING + "ReasoningCheckInput",
    output_ref=REASONING + "ReasoningCheck",
    handler_ref=REASONING + "reasoning_check",
    tool="majordomus_reasoning_check",
    http=("GET", "/api/v1/reasoning/check"),
    cli=("reasoning", "check"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "governance"),
)

REASONING_HANDOVER = Capability(
    id="reasoning.handover",
    title="Hand a task over",
    description="The Markdown a next session takes a task over from, with the same sections "
    "as data: per task its state (records, branch, HEAD, first and last record times), "
    "decisions with question, rationale and review, failed attempts, open items, next "
    "actions, local-review steps and a Mermaid graph of the chain; then the plain report "
    "under `# Reasoning`. The current task, one task or `all`; optionally as of an earlier "
    "moment. Read-only.",
    input_ref=REASONING + "ReasoningHandoverInput",
    output_ref=REASONING + "Handover",
    handler_ref=REASONING + "reasoning_handover",
    tool="majordomus_reasoning_handover",
    http=("GET", "/api/v1/reasoning/handover"),
    cli=("reasoning", "handover"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "session"),
    cases_ref=REASONING + "_handover_cases",
)

REASONING_MODULES = (
    Module(
        id="reasoning",
        title="Reasoning",
        description="The reasoning ledger: advisors and their availability, review plans, "
        "typed records, derived state, provenance and governance checks. Offline: no "
        "capability contacts an advisor.",
        stability=EXPERIMENTAL,
        capabilities=(
            REASONING_ADVISORS,
            REASONING_PLAN,
            REASONING_RECORD,
            REASONING_STATUS,
            REASONING_EXPLAIN,
            REASONING_CHECK,
            REASONING_HANDOVER,
        ),
    ),
)


# -- devcontext ------------------------------------------

DEVCONTEXT_COMPILE = Capability(
    id="devcontext.compile",
    title="Compile a development context",
    description="The context a session needs for a task under one token budget: from an issue, "
    "a milestone, paths, identifiers or an intent, the typed graph of the layer is walked; "
    "what may not be dropped is funded first, then the work's own promise (its milestone, "
    "dependencies, scope, the decisions and rules over it, what it names), other work last; "
    "the answer is laid out in tier order (task, governance, source, decision, knowledge, "
    "history), every exclusion and collapse is reported with its cost, and `bundle` adds the "
    "content itself as one Markdown text. Read-only.",
    input_ref=DEVCONTEXT + "CompileInput",
    output_ref=DEVCONTEXT + "CompiledContext",
    handler_ref=DEVCONTEXT + "compile_context",
    tool="majordomus_devcontext",
    http=("GET", "/api/v1/devcontext"),
    cli=("devcontext", "compile"),
    stability=VERIFIED,
    tags=("context", "session", "planning", "introspection"),
    cache=process_cache(16),
    cases_ref=DEVCONTEXT + "_compile_cases",
)

DEVCONTEXT_EXPLAIN = Capability(
    id="devcontext.explain",
    title="Explain an identifier's standing",
    description="Where one canonical identifier stands in the context a request compiles: "
    "selected, excluded, deduplicated, held and not reached, or unknown, with the row that "
    "proves it and the budget the judgement was made under. Read-only.",
    input_ref=DEVCONTEXT + "ExplainInput",
    output_ref=DEVCONTEXT + "Explanation",
    handler_ref=DEVCONTEXT + "explain_identifier",
    tool="majordomus_devcontext_explain",
    http=("GET", "/api/v1/devcontext/explain"),
    cli=("devcontext", "explain"),
    stability=VERIFIED,
    tags=("context", "provenance", "introspection"),
    cache=process_cache(8),
    cases_ref=DEVCONTEXT + "_explain_cases",
)

DEVCONTEXT_POLICY = Capability(
    id="devcontext.policy",
    title="The context compiler's policy",
    description="The rules the compiler applies, as data: the tiers in spend order with the "
    "kinds spent from each, every edge kind with its weights or why it is not followed, the "
    "selectors, and the defaults. Read-only.",
    input_ref=DEVCONTEXT + "Empty",
    output_ref=DEVCONTEXT + "CompilerPolicy",
    handler_ref=DEVCONTEXT + "compiler_policy",
    tool="majordomus_devcontext_policy",
    resource=("majordomus://devcontext/policy", "devcontext-policy"),
    http=("GET", "/api/v1/devcontext/policy"),
    cli=("devcontext", "policy"),
    stability=VERIFIED,
    tags=("context", "introspection"),
)

DEVCONTEXT_MODULES = (
    Module(
        id="devcontext",
        title="Development context",
        description="The context compiler: what an assistant should be given for a task, under "
        "one token budget, and why any identifier is or is not in it.",
        stability=VERIFIED,
        capabilities=(DEVCONTEXT_COMPILE, DEVCONTEXT_EXPLAIN, DEVCONTEXT_POLICY),
    ),
)


MODULES = (*CORE_MODULES, *REASONING_MODULES, *DEVCONTEXT_MODULES)
