"""How a log line reads on stderr: `majordomus[LEVEL] message`, one line, redacted, its
control characters escaped (`majordomus.egress`). Imported with `logging`, when the first
record is emitted (`majordomus.logger`)."""

from __future__ import annotations

import logging

from majordomus.cli.logs import TRACE


class LineFormat(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        level = {TRACE: "TRACE", logging.WARNING: "WARN"}.get(record.levelno, record.levelname)
        from majordomus.egress import clean_line

        return f"majordomus[{level}] {clean_line(record.getMessage())}"
