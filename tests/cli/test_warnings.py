"""The command line run in-process, where a deprecation our code triggers is an error (the
black-box tests run `majordomus` in a subprocess, which would only print it)."""

from __future__ import annotations

import json
import warnings

from majordomus.cli.entry import main
from tests.conftest import initialised_repo


def test_json_output_triggers_no_deprecation(tmp_path, capsysbinary):
    root = initialised_repo(tmp_path / "repo")
    with warnings.catch_warnings():
        warnings.filterwarnings("error", category=DeprecationWarning, module="majordomus")
        code = main(["--repo", str(root), "capabilities", "list", "--format", "json"])
    assert code == 0
    assert json.loads(capsysbinary.readouterr().out)
