"""The situation every `reasoning` capability reads, resolved once per request: the record
store and its records (as of a moment, when asked), the consultation history replayed from
them, the advisor catalogue in force, the mode and every advisor's state now.

Its own module, apart from the capabilities (`majordomus.capabilities.reasoning`), so that a
caller of one capability (`reasoning status` on the command line's plain path) imports the
situation without the other capabilities' shapes (handover, checks, plans).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from majordomus import collector
from majordomus.advisors.loading import CatalogueError
from majordomus.advisors.situation import AdvisorSituation, resolve_advisors
from majordomus.errors import InvalidInput, Refused
from majordomus.ledger.loaded import RecordIndex
from majordomus.projections.moment import epoch_of, moment_problem, parse_moment, recorded_by

if TYPE_CHECKING:
    from majordomus.advisors.modes import ModeResolution
    from majordomus.capabilities.workspace import Workspace
    from majordomus.ledger.loaded import Loaded
    from majordomus.ledger.store import Store

#: The most record files whose situations a one-shot command keeps to its exit rather than
#: free (about 20 ms at 10k records), all its replays together.
KEPT_RECORDS = 20_000


class ReasoningSituation:
    """What every reasoning capability knows about one request; `relations` are the lookups
    over `loaded.records` when asked for (`indexed`): the history and the state then share
    one pass over the records. A plain slotted class: a dataclass costs every process's
    start about half a millisecond."""

    __slots__ = ("advisors", "loaded", "relations", "store")

    def __init__(
        self,
        *,
        store: Store,
        loaded: Loaded,
        advisors: AdvisorSituation,
        relations: RecordIndex | None = None,
    ) -> None:
        self.store = store
        self.loaded = loaded
        self.advisors = advisors
        self.relations = relations

    @property
    def mode(self) -> ModeResolution:
        return self.advisors.mode


def reasoning_situation(
    ctx: Workspace, as_of: str | None = None, *, indexed: bool = False
) -> ReasoningSituation:
    """Resolve the situation; an invalid catalogue is refused naming the file it came from.

    With `as_of` (an RFC 3339 time) only the records recorded at or before that moment are
    replayed and circuits are evaluated at it: the state a handover saw, by the same path.
    `indexed` keeps the records' `RecordIndex` for a caller that derives the state.

    A one-shot command keeps its situations, up to `KEPT_RECORDS` record files in all, to
    its exit (`collector.keep_until_exit`), where nothing is freed, instead of freeing every
    record one object at a time when its handler returns; a larger store's records are let
    go as soon as the caller is done with them (their memory counts more).
    """
    from majordomus.ledger.history import LazyHistory
    from majordomus.ledger.store import Store

    store = Store(ctx.root)
    loaded = store.load()
    now = None
    if as_of is not None:
        moment = parse_moment(as_of)
        if moment is None:
            raise InvalidInput(f"as_of: {moment_problem(as_of)}")
        loaded, now = recorded_by(loaded, moment), epoch_of(moment)
    relations = RecordIndex(loaded.records) if indexed else None
    try:
        advisors = resolve_advisors(ctx.root, ctx.environ, LazyHistory(loaded, relations), now=now)
    except CatalogueError as exc:
        raise Refused(exc.message) from None
    situation = ReasoningSituation(
        store=store, loaded=loaded, advisors=advisors, relations=relations
    )
    collector.keep_until_exit(situation, weight=len(loaded.placed), at_most=KEPT_RECORDS)
    return situation
