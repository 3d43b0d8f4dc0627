"""Presence fakes, an advisor declaration and an advisor-state builder shared by the advisors',
ledger, projections and seed tests."""

from __future__ import annotations

from majordomus.advisors.states import AdvisorState


class Only:
    """A machine where exactly the named executables and variables are present; what was
    probed is noted in `asked`."""

    def __init__(self, *names: str) -> None:
        self.names = set(names)
        self.asked: list[tuple[str, str]] = []

    def has(self, name: str) -> bool:
        return name in self.names

    def executable(self, name: str) -> bool:
        self.asked.append(("executable", name))
        return self.has(name)

    def variable(self, name: str) -> bool:
        self.asked.append(("variable", name))
        return self.has(name)


class Everything(Only):
    def has(self, name: str) -> bool:
        return True


def state(
    id: str,
    adapter: str,
    status: str = "available",
    capabilities: list[str] | None = None,
    reason: str = "present",
) -> AdvisorState:
    """An API advisor's state row, as availability would report it."""
    return AdvisorState.model_validate(
        {
            "id": id,
            "title": id,
            "transport": "api",
            "adapter": adapter,
            "capabilities": capabilities or ["independent_reasoning"],
            "status": status,
            "reason": reason,
            "probe": "",
        }
    )


def adv(id: str, transport: str = "cli", **fields: object) -> dict[str, object]:
    """A catalogue entry for advisor `id`; a CLI or local runtime finds its executable `id`."""
    base: dict[str, object] = {
        "id": id,
        "title": id.upper(),
        "transport": transport,
        "adapter": f"{id}-x",
        "capabilities": ["code_review"],
    }
    if transport in ("cli", "local_runtime"):
        base["executable"] = id
    base.update(fields)
    return base
