"""The team ledger over ssh to localhost: an sshd of the test's own on a loopback port, keys
made for the test, the clones' git reaching it through `GIT_SSH_COMMAND`, as a user's own
SSH set-up would. Skipped where no `sshd` and `ssh-keygen` are installed."""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from majordomus.ledger.record import AssessmentInput
from majordomus.ledger.service import Ledger
from majordomus.ledger.store import Store
from majordomus.ledger.team import pull, push
from tests.conftest import GIT_ENV, git, initialised_repo

SSHD = shutil.which("sshd") or next(
    (p for p in ("/usr/sbin/sshd", "/usr/local/sbin/sshd") if os.access(p, os.X_OK)), None
)
pytestmark = pytest.mark.skipif(
    SSHD is None or shutil.which("ssh-keygen") is None or shutil.which("ssh") is None,
    reason="no sshd, ssh or ssh-keygen on this machine",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """An sshd on 127.0.0.1 accepting one key for the current user; (port, client key)."""
    keys = tmp_path / "ssh"
    keys.mkdir(mode=0o700)
    for name in ("host", "client"):
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(keys / name)], check=True
        )
    (keys / "authorized").write_bytes((keys / "client.pub").read_bytes())
    port = _free_port()
    config = keys / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {keys / 'host'}\n"
        f"AuthorizedKeysFile {keys / 'authorized'}\nPidFile {keys / 'pid'}\n"
        "StrictModes no\nUsePAM no\nPasswordAuthentication no\nPermitRootLogin yes\n"
    )
    process = subprocess.Popen(
        [str(SSHD), "-D", "-e", "-f", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and process.poll() is None:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    if process.poll() is not None:
        said = process.stderr.read().decode() if process.stderr else ""
        pytest.skip(f"sshd did not start here: {said.strip()[-200:]}")
    try:
        yield port, keys / "client"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_push_and_pull_over_ssh(
    tmp_path: Path, sshd: tuple[int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    port, key = sshd
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(
        "GIT_SSH_COMMAND",
        f"ssh -i {key} -o BatchMode=yes -o StrictHostKeyChecking=no "
        "-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR",
    )
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "master", str(bare))
    url = f"ssh://{getpass.getuser()}@127.0.0.1:{port}{bare}"
    a = initialised_repo(tmp_path / "a")
    git(a, "remote", "add", "origin", url)
    b = initialised_repo(tmp_path / "b")
    git(b, "remote", "add", "origin", url)
    first = Ledger.open(a, {}).record(AssessmentInput(subject="over ssh"), task="t").record
    assert push(a, None).records == [f"t/{first.id}.json"]
    assert pull(b, None).records == 1
    assert [r.id for r in Store(b).load().records] == [first.id]
