"""The server's bearer token and who must show it (docs/http.md, "The token")."""

from __future__ import annotations

import hmac
import os
import secrets
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from majordomus.errors import ProtocolFailure
from majordomus.http.errors import HttpError
from majordomus.http.guards import is_loopback
from majordomus.layer.git import GitError, ls_files
from majordomus.safefs import Tree, Unsafe, ensure_dir, write_new

TOKEN_FILE = ".ai/local/serve-token"
_TOKEN_BYTES = 32


class TokenUnusable(ProtocolFailure):
    """The token file cannot be made or may not be trusted (exit 13)."""


@dataclass(frozen=True, slots=True)
class Door:
    """The token (None when there is none); whether loopback callers may write without it."""

    token: str | None = None
    open_loopback: bool = False

    def shown(self, headers: Mapping[str, str]) -> bool:
        """Whether the request carries this server's token (`headers`: lower-case names)."""
        scheme, _, given = headers.get("authorization", "").partition(" ")
        return (
            self.token is not None
            and scheme.lower() == "bearer"
            and hmac.compare_digest(given.strip().encode(), self.token.encode())
        )

    def admit(self, client: str | None, headers: Mapping[str, str]) -> None:
        """A caller off loopback must show the token on every request: else 401."""
        if not is_loopback(client) and not self.shown(headers):
            raise HttpError(
                401, "unauthorized", f"a caller off loopback sends {_HOW}; this one did not"
            )

    def may_write(self, client: str | None, headers: Mapping[str, str]) -> bool:
        return self.shown(headers) or (self.open_loopback and is_loopback(client))

    def check_write(self, client: str | None, headers: Mapping[str, str], what: str) -> None:
        """A write without the token (or `--open-loopback` on loopback) is 401."""
        if not self.may_write(client, headers):
            raise HttpError(401, "unauthorized", refusal(what))


#: No token: loopback callers read, nobody writes, nobody else is answered.
CLOSED = Door()

_HOW = f"the server's token as 'Authorization: Bearer <token>' (the token is in {TOKEN_FILE})"


def refusal(what: str) -> str:
    return (
        f"{what} writes: send {_HOW}, or start serve with --open-loopback to let loopback "
        "callers write"
    )


def server_token(root: Path) -> str:
    """The token of `TOKEN_FILE`, made now when there is none; raises `TokenUnusable`."""
    try:
        with Tree(root) as tree:
            data, info = tree.read_stat(TOKEN_FILE, 1024)
    except Unsafe as exc:
        if exc.code != "missing" or exc.path != TOKEN_FILE:
            raise TokenUnusable(f"cannot use the token file: {exc.message}") from None
        return _make(root)
    if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise TokenUnusable(
            f"{TOKEN_FILE} is readable by others or not yours; remove it and start again "
            "to make a new one"
        )
    token = data.decode("ascii", "replace").strip()
    if len(token) < 32 or not token.replace("-", "").replace("_", "").isalnum():
        raise TokenUnusable(f"{TOKEN_FILE} holds no token; remove it and start again")
    try:
        tracked = bool(ls_files(root, TOKEN_FILE))
    except GitError:
        tracked = False  # no git repository: nothing is tracked
    if tracked:
        raise TokenUnusable(f"{TOKEN_FILE} is tracked by git, so it is no secret; remove it")
    return token


def _make(root: Path) -> str:
    token = secrets.token_urlsafe(_TOKEN_BYTES)
    folder, _, name = TOKEN_FILE.rpartition("/")
    try:
        fd = ensure_dir(root, folder)
    except Unsafe as exc:
        raise TokenUnusable(f"cannot make the token file: {exc.message}") from None
    try:
        write_new(fd, name, token.encode() + b"\n", mode=0o600)
    except FileExistsError:
        return server_token(root)  # another server made it first
    except OSError as exc:
        raise TokenUnusable(f"cannot make {TOKEN_FILE}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return token
