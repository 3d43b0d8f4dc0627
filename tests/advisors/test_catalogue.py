"""The catalogue models and every catalogue diagnostic, with exact messages."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from majordomus.advisors.catalogue import (
    AdvisorCatalogue,
    AdvisorDeclaration,
    AdvisorTransport,
    References,
    credential_of,
)
from majordomus.advisors.loading import load_catalogue
from majordomus.advisors.references import MODELS_FILE, PROVIDERS_FILE, ModelCatalogue
from majordomus.layer.yaml import parse_into
from tests.advisors.fakes import adv

MODELS = ModelCatalogue.model_validate(
    {
        "version": 1,
        "vendors": [
            {"id": "v1", "title": "V1", "credential_env": "V1_KEY"},
            {"id": "v2", "title": "V2"},
            {"id": "loc", "title": "Local", "inference": "local"},
        ],
        "models": [
            {"id": "m1", "vendor": "v1", "native_id": "m1-2026", "aliases": ["m-one"]},
        ],
    }
)
REFS = References(providers=["p1"], models=MODELS)
VOCAB = [
    {"id": "code_review", "description": "x"},
    {"id": "independent_reasoning", "description": "y"},
]


def catalogue(*advisors: dict[str, object], **extra: object) -> AdvisorCatalogue:
    return AdvisorCatalogue.model_validate(
        {"version": 1, "capabilities": VOCAB, "advisors": list(advisors), **extra}
    )


def test_a_clean_catalogue_has_no_diagnostic() -> None:
    c = catalogue(
        adv("a"),
        adv("b", "local_runtime"),
        adv("c", "api", vendor="v1", model="m-one", provider="p1"),
        peers={"feature": "reviews", "adapter": "mesh", "capabilities": ["code_review"]},
    )
    assert c.diagnostics(REFS) == []


def test_every_diagnostic_in_order_with_its_exact_message() -> None:
    c = catalogue(
        adv("a"),
        adv("a", capabilities=[]),
        adv("b", capabilities=["code_review", "poetry", "haiku"], provider="p9"),
        adv("c", "api", vendor="nobody", model="ghost"),
        adv("d", "api", vendor="v2", model="m1"),
        adv("e", executable=None),
        adv("f", "local_runtime", executable=None),
        adv("g", "peer"),
        peers={"feature": "reviews", "adapter": "mesh", "capabilities": ["sonnets", "code_review"]},
    )
    assert c.diagnostics(REFS) == [
        "advisor 'a' is declared twice",
        "advisor 'a' offers no capability",
        "advisor 'b' offers 'poetry', which the vocabulary does not declare",
        "advisor 'b' offers 'haiku', which the vocabulary does not declare",
        f"advisor 'b' names provider 'p9', which {PROVIDERS_FILE} does not declare",
        f"advisor 'c' names vendor 'nobody', which {MODELS_FILE} does not declare",
        f"advisor 'c' names model 'ghost', which {MODELS_FILE} does not declare",
        "advisor 'c' is an API advisor whose vendor declares no credential variable, "
        "so its presence cannot be probed",
        "advisor 'd' names model 'm1' of vendor 'v1', not of its own vendor",
        "advisor 'd' is an API advisor whose vendor declares no credential variable, "
        "so its presence cannot be probed",
        "advisor 'e' declares no executable, so its presence cannot be probed",
        "advisor 'f' declares no executable, so its presence cannot be probed",
        "advisor 'g' is declared with transport peer; peers are discovered from the mesh, "
        "never listed",
        "peer advisors offer 'sonnets', which the vocabulary does not declare",
    ]


def test_a_repeated_id_is_reported_on_each_repeat() -> None:
    c = catalogue(adv("a"), adv("a"), adv("a"))
    assert c.diagnostics(REFS) == ["advisor 'a' is declared twice"] * 2


def test_an_api_advisor_without_a_vendor_cannot_be_probed() -> None:
    c = catalogue(adv("a", "api"))
    assert c.diagnostics(REFS) == [
        "advisor 'a' is an API advisor whose vendor declares no credential variable, "
        "so its presence cannot be probed"
    ]


def test_default_references_name_the_packaged_files() -> None:
    c = catalogue(adv("a", provider="p", vendor="v", model="m"))
    assert c.diagnostics(References()) == [
        "advisor 'a' names provider 'p', which majordomus/advisors/data/providers.yaml "
        "does not declare",
        "advisor 'a' names vendor 'v', which majordomus/advisors/data/models.yaml does not declare",
        "advisor 'a' names model 'm', which majordomus/advisors/data/models.yaml does not declare",
    ]


def test_lookup_and_vocabulary() -> None:
    c = catalogue(adv("a"), adv("a", title="second"))
    found = c.get("a")
    assert found is not None and found.title == "A"
    assert c.get("peer:a") is None and c.get("zz") is None
    assert c.knows_capability("code_review") and not c.knows_capability("poetry")


def test_names_are_canonical_and_unique() -> None:
    c = catalogue(
        {
            "id": "alpha",
            "title": "Alpha",
            "transport": "cli",
            "adapter": "alpha-cli",
            "executable": "alpha",
            "capabilities": ["code_review"],
        }
    )
    assert c.names() == ["alpha", "alpha-cli"]
    c = catalogue(
        adv("b10", "api", vendor="V", model="m2", provider="p"),
        adv("b9"),
        peers={"feature": "f", "adapter": "mesh"},
    )
    assert c.names() == ["b9", "b9-x", "b10", "b10-x", "m2", "mesh", "p", "V"]


def test_credential_of_follows_the_vendor() -> None:
    assert credential_of(AdvisorDeclaration.model_validate(adv("a", "api", vendor="v1")), REFS) == (
        "V1_KEY"
    )
    assert (
        credential_of(AdvisorDeclaration.model_validate(adv("a", "api", vendor="v2")), REFS) is None
    )
    assert (
        credential_of(AdvisorDeclaration.model_validate(adv("a", "api", vendor="zz")), REFS) is None
    )
    assert credential_of(AdvisorDeclaration.model_validate(adv("a", "api")), REFS) is None


def test_model_resolution_by_id_or_alias() -> None:
    assert MODELS.resolve("m1") is MODELS.models[0]
    assert MODELS.resolve("m-one") is MODELS.models[0]
    assert MODELS.resolve("m1-2026") is None


def test_the_empty_default() -> None:
    empty = AdvisorCatalogue.default()
    assert (empty.version, empty.capabilities, empty.advisors, empty.peers) == (0, [], [], None)
    assert empty.diagnostics(References()) == []
    assert References().providers == [] and References().models.vendors == []


def test_the_shipped_catalogue() -> None:
    loaded = load_catalogue(None)
    c = loaded.catalogue
    assert c.version == 1
    assert [v.id for v in c.capabilities] == [
        "independent_reasoning",
        "architecture_review",
        "code_review",
        "security_review",
        "test_review",
        "repository_analysis",
    ]
    assert [(a.transport.value, len(a.capabilities)) for a in c.advisors] == [
        ("api", 5),
        ("cli", 4),
        ("cli", 5),
        ("local_runtime", 1),
        ("local_runtime", 1),
    ]
    assert c.peers is not None and c.peers.capabilities == ["code_review", "independent_reasoning"]
    assert len(c.forbidden_claims) == 5
    assert loaded.diagnostics() == []
    credentials = [v.credential_env for v in loaded.references.models.vendors]
    assert credentials.count(None) == 2 and len(credentials) == 4


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("version: 1\nquorum: 2\n", "quorum"),
        ("version: 1\ncapabilities:\n  - id: a\n    description: x\n    weight: 3\n", "weight"),
        (
            "version: 1\nadvisors:\n  - id: a\n    title: A\n    transport: cli\n"
            "    adapter: x\n    colour: red\n",
            "colour",
        ),
        ("version: 1\npeers:\n  feature: f\n  adapter: m\n  quorum: 2\n", "quorum"),
    ],
)
def test_unknown_keys_are_refused_at_every_level(text: str, where: str) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_into(text, AdvisorCatalogue)
    assert where in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "version: 1\nvendors:\n  - id: v\n    title: V\n    region: eu\n",
        "version: 1\nmodels:\n  - id: m\n    vendor: v\n    native_id: n\n    price: 3\n",
        "version: 1\nmodels:\n  - id: m\n    vendor: v\n    native_id: n\n    status: gone\n",
        "version: 1\nextra: 1\n",
    ],
)
def test_the_model_catalogue_is_strict_too(text: str) -> None:
    with pytest.raises(ValidationError):
        parse_into(text, ModelCatalogue)


@pytest.mark.parametrize(
    "text",
    [
        "version: one\n",
        'version: "1"\n',
        "version: -1\n",
        "capabilities: []\n",
        "version: 1\nadvisors:\n  - id: a\n    title: A\n    transport: pigeon\n    adapter: x\n",
        "version: 1\nadvisors:\n  - id: a\n    transport: cli\n    adapter: x\n",
        "version: 1\nadvisors:\n  - id: a\n    title: 7\n    transport: cli\n    adapter: x\n",
        "version: 1\nadvisors:\n  - id: a\n    title: A\n    transport: cli\n    adapter: x\n"
        "    capabilities: code_review\n",
    ],
)
def test_invalid_values_are_refused(text: str) -> None:
    with pytest.raises(ValidationError):
        parse_into(text, AdvisorCatalogue)


def test_transport_words_and_remoteness() -> None:
    assert [t.value for t in AdvisorTransport] == ["api", "cli", "local_runtime", "peer"]
    assert [t.is_remote() for t in AdvisorTransport] == [True, True, False, True]


def test_omitted_fields_stay_out_of_json() -> None:
    c = catalogue(adv("a"))
    assert "peers" not in c.wire()
    assert set(c.wire()["advisors"][0]) == {
        "id",
        "title",
        "transport",
        "adapter",
        "executable",
        "capabilities",
    }
