"""How an advisor is reached: the transport words and whether they leave the machine. Pure."""

from __future__ import annotations

from enum import StrEnum


class AdvisorTransport(StrEnum):
    """Wire words in sort order; `offline` mode keeps only the transports that stay local."""

    API = "api"
    CLI = "cli"
    LOCAL_RUNTIME = "local_runtime"
    PEER = "peer"

    def is_remote(self) -> bool:
        """True when an answer through this transport leaves the machine."""
        return self is not AdvisorTransport.LOCAL_RUNTIME
