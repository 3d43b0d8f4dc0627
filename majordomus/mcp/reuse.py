"""Tool answers of one index given again: a client polling an object (the steady
`tools/call majordomus_get` of benchmarks/RESULTS.md) is answered from the line text made
for the first such call, without looking the object up, copying, redacting or serialising it
again.

Only answers that are a function of the index alone are kept (`majordomus.mcp.plain`'s
`SNAPSHOT_ANSWERS`), under the tool's name and its proved arguments' repr. An index is
never changed once built; a change of the layer, seen before each line, builds a new one
(`Workspace.refresh`, docs/architecture.md), so a kept answer is the one the call would
compute again. The store is emptied whenever the index it was filled from is not the current
one, and it is bounded in entries and in the text of each.
"""

from __future__ import annotations

from majordomus.mcp.framing import Encoded

#: Answers kept per index; the oldest goes first.
MAX_ANSWERS = 128
#: An answer's text longer than this is not kept (a few large objects would hold megabytes).
MAX_ANSWER_CHARS = 65536


class SnapshotAnswers:
    """The kept answers of the current index, by (tool, arguments' repr)."""

    def __init__(self) -> None:
        self._index: object = None
        self._answers: dict[tuple[str, str], Encoded] = {}

    def get(self, index: object, key: tuple[str, str]) -> Encoded | None:
        """The answer kept for `key` over `index`, or None (and the store emptied when it
        holds another index's answers)."""
        if index is not self._index:
            self.clear()
            return None
        return self._answers.get(key)

    def keep(self, index: object, key: tuple[str, str], result: Encoded) -> None:
        if len(result.text) > MAX_ANSWER_CHARS:
            return
        if index is not self._index:
            self.clear()
            self._index = index
        answers = self._answers
        if len(answers) >= MAX_ANSWERS:
            del answers[next(iter(answers))]
        answers[key] = result

    def clear(self) -> None:
        """Forget every answer and the index they came from."""
        self._index = None
        self._answers = {}
