"""What the keys of each shipped kind mean, where its files usually live, and an example
(docs/layer-internals.md). Data only, over 400 lines on purpose: one table, one entry per kind."""

from __future__ import annotations

#: Meanings shared by every kind that admits the key, unless the kind says otherwise.
COMMON: dict[str, tuple[str, str]] = {
    "schema": ("string", "the kind's schema tag; the only accepted value is shown above"),
    "id": ("string", "the identifier: no `/`, `@` or whitespace"),
    "kind": ("string", "the kind's name, when the file states it; must match its class"),
    "title": ("string", "a short human title"),
    "description": ("string", "one sentence on what it is for"),
    "summary": ("string", "one sentence on what it is for"),
    "status": ("string", "its standing"),
    "date": ("date", "when it was decided or written"),
    "tags": ("list", "free words for search"),
    "version": ("integer", "the version of this object"),
    "slug": ("string", "a short file-name form of the title"),
    "priority": ("p0|p1|p2|p3", "priority, p0 the highest"),
    "cancelled": ("boolean", "true when the work was dropped"),
    "created_at": ("timestamp", "when it was written"),
    "updated_at": ("timestamp", "when it last changed"),
    "current_state": ("string", "how things are now"),
    "desired_state": ("string", "how things are when it is done"),
    "scope": ("list", "paths the work may change; devcontext reads the files under them"),
    "non_scope": ("list", "what is explicitly not part of it"),
    "acceptance_criteria": ("list", "checkable statements that make it done"),
    "validation": ("list", "commands or steps that check it"),
    "evidence_required": ("list", "kinds of evidence it needs before it is done"),
    "evidence": ("mappings", "evidence recorded for it, one mapping each"),
    "evidence[].covers": ("string", "which criterion the evidence covers"),
    "evidence[].type": ("string", "the kind of evidence (test, command, review, …)"),
    "evidence[].command": ("string", "the command that produced it"),
    "evidence[].result": ("string", "what it showed"),
    "evidence[].artifact": ("string", "a path to the produced artifact"),
    "evidence[].url": ("string", "where it can be seen"),
    "evidence[].commit": ("string", "the commit it was taken at"),
    "evidence[].recorded_at": ("timestamp", "when it was recorded"),
    "superseded_by": ("string", "what replaces it"),
    "supersedes": ("list", "what it replaces"),
    "provenance.origin": ("authored|extracted", "written by hand, or extracted from elsewhere"),
    "provenance.derived_from": ("list", "the sources it was derived from"),
    "related": ("list", "typed references `<kind>:<id>` (`rule:`, `adr:`, `knowledge:`, `file:`)"),
    "profile": ("string", "the execution profile (a profile `name`) to work under"),
    "order": ("integer", "its position among its siblings"),
}

#: Per kind: key → (value, meaning), overriding `COMMON`.
KEYS: dict[str, dict[str, tuple[str, str]]] = {
    "rule": {
        "id": ("string", "dotted identifier, e.g. `project.no-secrets`"),
        "version": ("integer", "the rule's version; the identity is `id@version`"),
        "kind": ("rule", "always `rule`"),
        "statement": ("string", "the rule in one sentence: what must hold"),
        "status": ("active|deprecated", "whether the rule applies"),
        "class": ("blocking|advisory", "blocking rules stop work that breaks them"),
        "depends_on": ("list", "rules it builds on, as `id@version` or `id`"),
        "x-majordomus.validator": ("string", "the check that enforces it"),
        "x-majordomus.category": ("string", "its category"),
        "x-majordomus.policy_key": ("string", "the policy key it reads"),
        "x-majordomus.exit_code": ("integer", "the exit code its check fails with"),
        "x-majordomus.enforced_by": ("list", "what enforces it"),
        "x-majordomus.claims": ("list", "claims it stands for"),
        "x-majordomus.tests": ("list", "tests that prove it"),
        "applies_to": ("list", "paths it governs; devcontext brings it to work under them"),
        "scope": ("list", "paths it governs, as `applies_to` (a list here)"),
    },
    "prompt": {
        "name": ("string", "the prompt's name, the file stem"),
        "description": ("string", "what the prompt asks for"),
        "arguments": ("mappings", "the MCP prompt's arguments, one mapping each"),
        "arguments[].name": ("string", "the argument's name; `{{NAME}}` in the body is filled"),
        "arguments[].description": ("string", "what the argument is for"),
        "arguments[].required": ("boolean", "true when a client must give it"),
    },
    "profile": {
        "name": ("string", "the profile's name, the file stem"),
        "description": ("string", "when to use it"),
        "capability": ("string", "the model capability it needs (standard, strong, …)"),
        "effort": ("string", "the effort to spend (low, medium, high)"),
        "verbosity": ("string", "how much to say (concise, …)"),
        "presentation": ("string", "the register of the output"),
        "reasoning": ("string", "how much reasoning to show"),
        "checkpoint_interval": ("string", "time between checkpoints, e.g. `30m`"),
        "effort_escalation.after_blocked_attempts": (
            "integer",
            "blocked attempts before escalating",
        ),
        "effort_escalation.to": ("string", "the profile to escalate to"),
        "context.task": ("boolean", "load the task"),
        "context.current_state": ("boolean", "load the current state"),
        "context.decisions": ("boolean", "load recent decisions"),
        "context.relevant_files": ("boolean", "load the relevant files"),
        "context.failing_output": ("boolean", "load the failing output"),
        "context.recent_history_depth": ("integer", "how many recent records to load"),
        "context.architecture_notes": ("boolean", "load architecture notes"),
        "verification.verify_command_required": ("boolean", "a verify command must run"),
        "verification.regression_test_required": ("boolean", "a regression test is required"),
        "verification.decision_record_required": ("boolean", "a decision must be recorded"),
        "output_contract": ("list", "the sections every answer ends with"),
    },
    "policy": {
        "version": ("1", "the policy schema version; only 1 is read"),
        "context.always_loaded_budget_lines": ("integer", "lines always loaded into a session"),
        "context.builder_budget_lines": ("integer", "lines a context build may use"),
        "context.recent_decisions": ("integer", "recent decisions to load"),
        "context.max_list_items": ("integer", "items per list in a context"),
        "context.strategy": ("string", "how context is chosen (minimum-sufficient, …)"),
        "context.transcript_is_state": ("boolean", "whether a transcript counts as state"),
        "profiles.default": ("string", "the profile used when none is named"),
        "profiles.checkpoint_interval_default": ("string", "default time between checkpoints"),
        "verification.required_for_changes": ("boolean", "every change must be verified"),
        "verification.finish_requires": ("list", "what finishing a task requires"),
        "checkpoint.max_body_lines": ("integer", "lines per checkpoint"),
        "checkpoint.retention_max_files": ("integer", "checkpoints kept"),
        "handover.required_sections": ("list", "sections every handover has"),
        "handover.retention_max_files": ("integer", "handovers kept"),
        "ledger.retention_max_lines": ("integer", "ledger lines kept"),
        "enforcement": ("mappings", "checks wired into the repository"),
        "enforcement[].name": ("string", "the check's name"),
        "enforcement[].path": ("string", "the script that runs it"),
        "enforcement[].wired_by": ("string", "what runs it (a hook, CI)"),
        "enforcement[].args": ("list", "its arguments"),
        "projections": ("mappings", "instruction files generated for tools"),
        "projections[].provider": ("string", "the tool the file is for"),
        "projections[].target": ("string", "the file written"),
        "projections[].always_loaded": ("boolean", "whether the tool always loads it"),
        "projections[].mode": ("string", "how the file is written"),
        "benchmark.samples": ("integer", "samples per benchmark"),
        "benchmark.warmup": ("integer", "warm-up runs per benchmark"),
        "benchmark.regression.p50": ("string", "allowed median regression"),
        "benchmark.regression.p95": ("string", "allowed p95 regression"),
        "benchmark.regression.p99": ("string", "allowed p99 regression"),
        "benchmark.budget.doctor_ms": ("integer", "time budget of a health check"),
        "benchmark.budget.watch_ms": ("integer", "time budget of a watch cycle"),
        "session.briefing_on_start": ("boolean", "brief a session when it starts"),
        "session.briefing_budget_lines": ("integer", "lines of that briefing"),
        "session.checkpoint_on_compact": ("boolean", "checkpoint before a context compaction"),
        "session.handover_on_end": ("boolean", "write a handover when a session ends"),
        "session.ensure_server_on_start": ("boolean", "start the server with a session"),
        "use_cases.coverage.commands": ("boolean", "every command needs a use case"),
        "use_cases.coverage.claims": ("boolean", "every claim needs a use case"),
        "use_cases.coverage.mcp_tools": ("boolean", "every MCP tool needs a use case"),
    },
    "milestone": {
        "id": ("string", "the milestone id, e.g. `M010`; issues name it in `milestone`"),
        "version": ("string", "the release it belongs to"),
        "problem": ("string", "the problem it solves"),
        "outcome": ("string", "what is true when it is reached (its description)"),
        "risks": ("list", "what may go wrong"),
        "depends_on": ("list", "milestones that come first (their `id`)"),
        "claims": ("list", "claims it stands as evidence for (their `id`)"),
    },
    "issue": {
        "id": ("string", "the issue id, e.g. `I0102`; the file is `<id>.yaml`"),
        "milestone": ("string", "the milestone it belongs to (its `id`)"),
        "parallel_safe": ("boolean", "whether it can run beside other work"),
        "risk": ("string", "what may go wrong"),
        "owner": ("string", "who does it"),
        "objective": ("string", "what it achieves (its description)"),
        "why": ("string", "why it matters"),
        "completion": ("string", "how far it is"),
        "started_at": ("timestamp", "when work began"),
        "verified_at": ("timestamp", "when it was verified"),
        "completed_at": ("timestamp", "when it was done"),
        "depends_on": ("list", "issues that come first (their `id`)"),
        "serves": ("list", "what it serves (free text)"),
    },
    "document": {
        "status": ("string", "its standing"),
        "updated": ("date", "when it last changed"),
    },
    "scope": {
        "version": ("1", "the scope schema version; only 1 is read"),
        "in": ("list", "paths a worker reads"),
        "out.paths": ("list", "paths a worker never reads"),
        "out.binary": ("boolean", "leave out binary files"),
        "out.max_bytes": ("integer", "leave out files larger than this"),
        "out.<name>.paths": ("list", "paths a named exclusion covers"),
        "out.<name>.names": ("list", "file names a named exclusion covers"),
        "out.<name>.max_bytes": ("integer", "size limit of a named exclusion"),
    },
    "context": {
        "schema": ("context/v1", "the context contract schema"),
        "id": ("string", "dotted identifier, e.g. `ai.repo.rules`"),
        "status": ("active|deprecated", "whether the contract applies"),
        "scope": ("directory|subtree|explicit", "what the contract covers"),
        "composition": ("extend|replace|final", "how it combines with its parents"),
        "paths": ("list", "the paths an explicit contract covers"),
        "providers": ("list", "the tools it is for (`*` for all)"),
        "audience": ("list", "who it is for"),
        "supersedes": ("list", "contracts it replaces"),
        "tracks": ("list", "files or directories it describes (a `tracks` edge each)"),
        "children.require_contract": ("boolean", "whether subdirectories need their own"),
        "children.exempt": ("list", "subdirectories exempt from that"),
    },
    "claim": {
        "version": ("1", "the claims file schema version; only 1 is read"),
        "statuses": ("mappings", "the statuses the claims use"),
        "statuses[].id": ("string", "the status word"),
        "statuses[].meaning": ("string", "what it means"),
        "claims": ("mappings", "the claims, one object each"),
        "claims[].id": ("string", "the claim's identifier"),
        "claims[].claim": ("string", "the claim in one sentence (its title)"),
        "claims[].source": ("string", "the file that states it"),
        "claims[].implementation": ("string", "the file that implements it"),
        "claims[].test": ("string", "the test that proves it"),
        "claims[].status": ("guaranteed|advisory|planned|rejected", "its standing"),
        "claims[].responsibility": ("string", "who answers for it"),
        "claims[].note": ("string", "a remark (its description)"),
    },
    "skill": {
        "schema": ("skill/v1", "the skill schema"),
        "id": ("string", "the skill id, the directory name"),
        "status": ("draft|active|deprecated", "its standing"),
        "related": ("list", "related skills (their `id`)"),
        "inputs": ("list", "what it needs"),
        "outputs": ("list", "what it produces"),
    },
    "adr": {
        "schema": ("adr/v1", "the decision record schema"),
        "id": ("string", "`adr-NNNN`, matching the file's number"),
        "kind": ("adr", "always `adr`"),
        "title": ("string", "the decision in a few words (also its description)"),
        "status": ("proposed|accepted|superseded|rejected", "its standing"),
        "supersedes": ("list", "decisions it replaces (their `id`)"),
        "superseded_by": ("list", "decisions that replace it"),
        "related": (
            "list",
            "what it puts in force: `rule:<id>`, `claim:<id>`, `file:<path>`, `test:<path>`",
        ),
    },
    "knowledge": {
        "schema": ("knowledge/v1", "the knowledge note schema"),
        "kind": ("knowledge", "always `knowledge`"),
        "class": ("string", "what sort of note it is (fact, finding, glossary, …)"),
        "status": ("string", "its standing"),
        "epistemics": ("string", "how sure it is and why"),
        "relations": ("mappings", "typed links to other objects"),
        "relations[].type": ("string", "the kind of link"),
        "relations[].target": ("string", "what it links to"),
    },
    "use-case": {
        "category": ("string", "its category"),
        "target": ("string", "what it targets"),
        "weight": ("integer", "its importance"),
        "difficulty": ("string", "how hard it is"),
        "actors": ("list", "who acts in it"),
        "commands": ("list", "commands the scenario runs"),
        "mcp_tools": ("list", "MCP tools it exercises"),
        "doctrines": ("list", "rules (or named doctrines) it exercises"),
        "claims": ("list", "claims it is evidence for"),
        "responsibilities": ("list", "responsibilities it covers"),
        "applications": ("list", "applications it serves (their `id`)"),
        "related.boost": ("list", "objects to rank higher with it"),
        "related.suppress": ("list", "objects to rank lower with it"),
        "performance.budget_ms": ("integer", "its time budget"),
    },
    "application": {
        "weight": ("integer", "its importance"),
        "fits_when": ("list", "when the application fits"),
        "does_not_fit_when": ("list", "when it does not"),
        "use_cases": ("list", "use cases that serve it (their `id`)"),
        "doctrines": ("list", "rules (or named doctrines) that govern it"),
        "responsibilities": ("list", "what it is responsible for"),
    },
    "session": {
        "schema": ("session/v1", "the session record schema"),
        "kind": ("session", "always `session`"),
        "session_id": ("string", "the session's identifier"),
        "started_at": ("timestamp", "when it started"),
        "closed_at": ("timestamp", "when it closed"),
        "outcome": ("closed|interrupted", "how it ended"),
        "task_id": ("string", "the task it worked on"),
        "worker": ("string", "who or what worked"),
        "branch": ("string", "the branch it worked on"),
        "start_head": ("string", "HEAD when it started"),
        "head": ("string", "HEAD when it closed"),
        "start_working_tree": ("string", "the working tree state at the start"),
        "working_tree": ("string", "the working tree state at the close"),
        "repository_id": ("string", "the repository's identifier"),
        "schema_version": ("integer", "the record's schema version"),
        "worktree_id": ("string", "the worktree's identifier"),
        "commits": ("list", "commits it made"),
        "changed_files": (
            "list",
            "files it changed; devcontext reads sessions that touched a scope",
        ),
        "tasks": ("list", "tasks it worked on"),
        "issues": ("list", "issues it worked on"),
        "milestones": ("list", "milestones it worked on"),
        "checkpoints": ("list", "checkpoints it wrote"),
        "handovers": ("list", "handovers it wrote"),
        "decisions": ("list", "decisions it made"),
        "questions": ("list", "questions it left open"),
        "evidence": ("list", "evidence it recorded"),
    },
}

#: Where a kind's files live in the layer `init` writes (or conventionally, for kinds the
#: skeleton does not declare a class for).
PLACES: dict[str, str] = {
    "rule": ".ai/repo/rules/**/*.md",
    "prompt": ".ai/repo/prompts/<name>.md",
    "profile": ".ai/repo/profiles/<name>.yaml",
    "policy": ".ai/repo/policy.yaml",
    "milestone": ".ai/repo/project/milestones/<id>.yaml",
    "issue": ".ai/repo/project/issues/<id>.yaml",
    "document": "docs/*.md, *.md, .ai/repo/workflows/*.md",
    "scope": ".ai/repo/scope.yaml",
    "context": ".ai/**/README.md",
    "claim": "docs/CLAIMS.yaml",
    "implementation": "source files, e.g. lib/*.sh",
    "test": "test files, e.g. test/cases/*.sh",
    "skill": ".ai/repo/skills/<id>/SKILL.md",
    "adr": ".ai/repo/adrs/NNNN-<slug>.md",
    "knowledge": ".ai/repo/knowledge/curated/*.md",
    "use-case": ".ai/repo/use-cases/*.md",
    "application": ".ai/repo/applications/*.md",
    "session": ".ai/repo/sessions/*.md",
}

#: One valid file per kind that has metadata (markdown kinds: front matter and a heading).
EXAMPLES: dict[str, str] = {
    "rule": """---
id: project.no-secrets
version: 1
kind: rule
title: No secrets in the tree
description: Credentials never enter tracked files.
statement: A tracked file never carries a credential.
status: active
class: blocking
depends_on: []
tags: [security]
---

# Rationale
""",
    "prompt": """---
name: triage
description: sort a failing build into cause and symptom
profile: debugging
---

# Triage
""",
    "profile": """name: review
description: read a change and report risks
capability: strong
effort: high
verbosity: concise
output_contract: [outcome, risks, next_action]
""",
    "policy": """version: 1
profiles:
  default: implementation
""",
    "milestone": """id: M010
title: Reader parity
order: 10
priority: p1
outcome: Both readers accept and refuse the same files.
acceptance_criteria:
  - the cross-check case passes
""",
    "issue": """id: I0102
milestone: M010
title: Port the YAML subset
objective: A reader that refuses what the shell refuses.
depends_on: [I0101]
related: [rule:project.no-secrets, adr:adr-0042]
scope:
  - src/yaml
""",
    "document": """# Release checklist

Tag, build, publish.
""",
    "scope": """version: 1
in: [src, docs]
out:
  paths: [vendor]
""",
    "context": """---
schema: context/v1
id: ai.repo.rules
kind: context
title: The rules
description: What the rules directory holds.
---

# The rules
""",
    "claim": """version: 1
claims:
  - id: strict-refuses
    claim: A degraded layer is not served under the strict flag
    test: tests/test_strict.py
    status: guaranteed
""",
    "skill": """---
schema: skill/v1
id: review
title: Review a change
description: Read a diff and report risks.
status: active
---

# Review a change
""",
    "adr": """---
schema: adr/v1
id: adr-0042
kind: adr
title: Readers share one YAML subset
status: accepted
date: 2026-01-15
related:
  - rule:project.no-secrets
---

# Context
""",
    "knowledge": """---
schema: knowledge/v1
id: yaml-subset
kind: knowledge
title: The YAML subset
description: What the reader accepts and why.
---

# The YAML subset
""",
    "use-case": """---
id: read-the-layer
kind: use-case
title: Read the layer
summary: A client lists and reads the layer's objects.
commands: [mcp]
---

# Scenario
""",
    "application": """---
id: solo-work
kind: application
title: Solo work
summary: One person, one repository.
---

# Solo work
""",
    "session": """---
schema: session/v1
kind: session
session_id: s1
title: Port the reader
branch: main
changed_files: [src/yaml.py]
---

# Port the reader
""",
}
