"""Task names (each becomes a directory name, so checked before anything is written) and
the current-task file."""

from __future__ import annotations

import json
import re
from pathlib import Path

from majordomus import safefs
from majordomus.errors import Refused
from majordomus.redaction.redactor import redact_secrets, redact_text, shapes_in
from majordomus.safefs import CONFIG_LIMIT, Unsafe, read_file

UNTASKED = "untasked"
CURRENT_FILE = ".ai/local/state/current.yaml"

#: `status --task all` reports every task, so no task may be called that.
RESERVED_TASK = "all"

#: A directory name must fit the file system's limit on one path component.
MAX_TASK_LENGTH = 255

_TASK = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")

#: The secret shape that matches inside ordinary words (`task-` + 20 letters): in a task name
#: it counts only where the key starts a word.
_OPENAI_WORD = re.compile(r"(?<![A-Za-z0-9])sk-(?:proj-)?[A-Za-z0-9_-]{20,}")


def _shown(name: str) -> str:
    """The name quoted on one line, redacted, cut when it is too long to read."""
    name = redact_text(name)
    if len(name) > 64:
        name = name[:60] + "…"
    return json.dumps(name, ensure_ascii=False)


def task_problem(name: str) -> str | None:
    """Why `name` cannot be a task directory, or None when it can."""
    shapes = shapes_in(redact_secrets(name)) - shapes_in(name)
    if "openai-key" in shapes and not _OPENAI_WORD.search(name):
        shapes.discard("openai-key")
    if shapes:
        return (
            f"the task name has the shape of a secret ({', '.join(sorted(shapes))}) and is not "
            "written anywhere; name the task in words"
        )
    if not _TASK.fullmatch(name):
        return (
            f"task name {_shown(name)} is not allowed: a task name starts with a letter or "
            "digit and holds only letters, digits, '.', '_' and '-' (no path separators, "
            "no '..')"
        )
    if name == RESERVED_TASK:
        return (
            f'task name "{RESERVED_TASK}" is reserved: `reasoning status --task '
            f"{RESERVED_TASK}` means every task; choose another name"
        )
    if len(name) > MAX_TASK_LENGTH:
        return (
            f"task name {_shown(name)} is {len(name)} characters long; a task name is at most "
            f"{MAX_TASK_LENGTH} characters (it becomes a directory name)"
        )
    return None


def check_task(name: str, *, origin: str | None = None) -> str:
    """Return `name` when it is a usable task name, else refuse naming where it came from."""
    problem = task_problem(name)
    if problem is None:
        return name
    if origin:
        problem = f"{problem}; it comes from {origin}"
    raise Refused(problem)


def current_task(root: Path) -> str:
    """The first `id:` of `current.yaml` (unquoted, unchecked), or `untasked` when there is
    none or the file cannot be read safely."""
    try:
        text = read_file(root, CURRENT_FILE, CONFIG_LIMIT).decode("utf-8", errors="replace")
    except Unsafe:
        return UNTASKED
    for line in text.split("\n"):
        if line.startswith("id:"):
            value = line[3:].strip().strip('"')
            return value or UNTASKED
    return UNTASKED


def set_current_task(root: Path, name: str) -> str:
    """Make `name` the current task (the `id:` line first, other lines kept); returns the
    file's root-relative path."""
    check_task(name)
    try:
        text = read_file(root, CURRENT_FILE, CONFIG_LIMIT).decode("utf-8", errors="replace")
    except Unsafe as exc:
        if exc.code != "missing":
            raise Refused(f"the current task could not be set: {exc.message}") from None
        text = ""
    from majordomus.layer.init import warn_if_tracked

    warn_if_tracked(root)
    kept = [line for line in text.split("\n") if line and not line.startswith("id:")]
    data = "".join(f"{line}\n" for line in [f"id: {name}", *kept]).encode("utf-8")
    try:
        safefs.write_file(root, CURRENT_FILE, data, replacing=True)
    except Unsafe as exc:
        raise Refused(f"the current task could not be set: {exc.message}") from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise Refused(f"the current task could not be set: {CURRENT_FILE}: {reason}") from None
    return CURRENT_FILE
