"""One admitted record of every kind with a chosen text in every free-text field, through any
caller of `reasoning.record`; `string_paths` derives the fields from the models, so a new
field left unfilled fails `test_the_chain_fills_every_free_text_field`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from majordomus.ledger.record import (
    AssessmentInput,
    AttemptInput,
    ConclusionInput,
    ConsultationInput,
    DisagreementInput,
    PlanInput,
    ResolutionInput,
    ValidationInput,
)

MODELS: dict[str, type[BaseModel]] = {
    "assessment": AssessmentInput,
    "plan": PlanInput,
    "consultation": ConsultationInput,
    "disagreement": DisagreementInput,
    "resolution": ResolutionInput,
    "conclusion": ConclusionInput,
    "validation": ValidationInput,
    "attempt": AttemptInput,
}

#: String fields whose value admission resolves (record ids, the selected advisor, a source of
#: the disagreement, the capability vocabulary): an arbitrary text there is refused, never
#: stored, so they cannot carry a secret to disk.
REFERENCES = frozenset(
    {
        "assessment.capabilities[]",
        "plan.assessment",
        "consultation.plan",
        "consultation.advisor",
        "disagreement.assessment",
        "disagreement.positions[].source",
        "resolution.disagreement",
        "resolution.favours",
        "conclusion.assessment",
        "conclusion.consultations[]",
        "conclusion.disagreements[]",
        "conclusion.supersedes",
        "validation.conclusion",
        "attempt.assessment",
    }
)

ADVISOR = "reviewer"


def _strings(schema: dict[str, Any], defs: dict[str, Any], prefix: str) -> set[str]:
    if "$ref" in schema:
        return _strings(defs[schema["$ref"].rsplit("/", 1)[1]], defs, prefix)
    if "enum" in schema or "const" in schema:
        return set()
    found: set[str] = set()
    for option in schema.get("anyOf", []):
        found |= _strings(option, defs, prefix)
    kind = schema.get("type")
    if kind == "string":
        found.add(prefix)
    elif kind == "array":
        found |= _strings(schema.get("items", {}), defs, prefix + "[]")
    elif kind == "object":
        for name, sub in schema.get("properties", {}).items():
            if name != "kind":
                found |= _strings(sub, defs, f"{prefix}.{name}")
    return found


def string_paths(kind: str) -> set[str]:
    """Every authored string field of a kind: `kind.field`, `kind.list[]`, `kind.list[].sub`."""
    schema = MODELS[kind].model_json_schema()
    return _strings(schema, schema.get("$defs", {}), kind)


def free_text_paths(kind: str) -> set[str]:
    return string_paths(kind) - REFERENCES


Text = Callable[[str], str]


def _texts(kind: str, text: Text, *fields: str) -> dict[str, str]:
    return {f: text(f"{kind}.{f}") for f in fields}


def _lists(kind: str, text: Text, *fields: str) -> dict[str, list[str]]:
    return {f: [text(f"{kind}.{f}[]")] for f in fields}


def _evidence(kind: str, text: Text) -> list[dict[str, str]]:
    path = f"{kind}.evidence[]"
    return [{"kind": "file", "reference": text(f"{path}.reference"), "note": text(f"{path}.note")}]


def inputs(kind: str, text: Text, ids: dict[str, str]) -> dict[str, Any]:
    """The input of `kind` with `text` in every free-text field and `ids` as references."""
    if kind == "assessment":
        return {
            "kind": kind,
            "materiality": "material",
            "confidence": "medium",
            **_texts(kind, text, "subject", "hypothesis"),
            **_lists(kind, text, "affects", "facts", "assumptions", "questions"),
            "evidence": _evidence(kind, text),
        }
    if kind == "plan":
        return {"kind": kind, "assessment": ids["assessment"]}
    if kind == "consultation":
        return {
            "kind": kind,
            "plan": ids["plan"],
            "advisor": ADVISOR,
            "status": "completed",
            "stance": "opposes",
            **_texts(kind, text, "question", "conclusion", "diagnostic"),
            "evidence": _evidence(kind, text),
            **_lists(kind, text, "assumptions", "risks", "actions", "falsifiers"),
            "duration_ms": 1200,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }
    if kind == "disagreement":
        return {
            "kind": kind,
            "assessment": ids["assessment"],
            "positions": [
                {"source": "primary", "position": text(f"{kind}.positions[].position")},
                {"source": ids["consultation"], "position": text(f"{kind}.positions[].position")},
            ],
            **_lists(kind, text, "divergent_assumptions"),
            **_texts(kind, text, "discriminating_question", "experiment"),
        }
    if kind == "resolution":
        return {
            "kind": kind,
            "disagreement": ids["disagreement"],
            **_texts(kind, text, "experiment", "outcome"),
            "favours": "primary",
            "evidence": _evidence(kind, text),
        }
    if kind == "conclusion":
        return {
            "kind": kind,
            "assessment": ids["assessment"],
            **_texts(kind, text, "decision", "rationale"),
            "evidence": _evidence(kind, text),
            "consultations": [ids["consultation"]],
            "disagreements": [ids["disagreement"]],
            **_lists(kind, text, "rejected", "assumptions", "risks", "validation_plan"),
        }
    if kind == "validation":
        return {
            "kind": kind,
            "conclusion": ids["conclusion"],
            **_texts(kind, text, "check", "command"),
            "outcome": "pass",
            "evidence": _evidence(kind, text),
        }
    assert kind == "attempt"
    return {
        "kind": kind,
        "assessment": ids["assessment"],
        **_texts(kind, text, "attempt", "observed_failure"),
        **_texts(kind, text, "assumption_invalidated", "updated_hypothesis"),
        "evidence": _evidence(kind, text),
    }


def filled_paths(kind: str, ids: dict[str, str]) -> set[str]:
    """The paths `inputs` asks `text` for: what the chain fills."""
    asked: set[str] = set()

    def text(path: str) -> str:
        asked.add(path)
        return "x"

    inputs(kind, text, ids)
    return asked


def record_chain(call: Callable[[dict[str, Any]], dict[str, Any]], text: Text) -> list[Any]:
    """Record one record of every kind (in `MODELS` order) through `call`; the answers."""
    ids: dict[str, str] = {}
    answers = []
    for kind in MODELS:
        answer = call(inputs(kind, text, ids))
        ids[kind] = answer["record"]["id"]
        answers.append(answer)
    return answers
