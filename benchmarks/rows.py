"""The rows of issue 30, each measured on whole processes next to its floor.

Inputs come from the project's own generators (`majordomus.synthetic`) and `majordomus init`:
a layer of `--mcp-rules` rules for the MCP rows, one of `--rules` rules for indexing, the
layer `init` writes, ledgers of `--records` and `--rss-records` records. They are written into
the run's work directory (kept and reused when given) with the models the floors build
(`models-<command>.json`, the JSON Schemas of the command's input, output and stored models,
exported from the product once, so runs of other checkouts over the same inputs compare
against the same floor).

The floor of a command is `benchmarks/probes.py stack`: `import click, pydantic`, those
models built, and the work's own floor (`git ls-files` and every file read; every record
`json.load`ed and sorted). Every figure is a median of samples that alternate the measured
process with its floor, wall time and CPU (user + system) both, after one pair not counted.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

from benchmarks import imports, mcp_client
from benchmarks.processes import MAJORDOMUS, WARMUP, Pair, Sample, environment, paired, run
from benchmarks.stats import median
from benchmarks.table import Table, size

HERE = Path(__file__).resolve().parent
PROBES = str(HERE / "probes.py")
FRESHNESS = str(HERE / "freshness.py")
INTENT = "the context a session is given and the budget it costs"
STATUS = ["reasoning", "status", "--format", "json"]
CHECK = ["reasoning", "check"]
OBJECTS = ["objects", "list", "--format", "json"]

#: Per floor: the capability whose input and output it builds, and the stored models it reads.
FLOOR_MODELS = {
    "objects": ("objects.list", ()),
    "status": ("reasoning.status", ("majordomus.ledger.record:ReasoningRecord",)),
}

#: What a process is started as: the installed command, or (for the collector's rows) the
#: same entry point with the collector as chosen, the plugin switch set as the command sets it.
LAUNCH = (
    "import sys\n{collector}from majordomus.cli.entry import main\nsys.exit(main(sys.argv[1:]))\n"
)


def majordomus(*args: str) -> list[str]:
    return [MAJORDOMUS, *args]


def launched(collector: bool, *args: str) -> list[str]:
    """`majordomus args...` through its entry point, with the cyclic collector on or off."""
    switch = "" if collector else "import gc\ngc.disable()\n"
    return [sys.executable, "-c", LAUNCH.format(collector=switch), *args]


# -- inputs --------------------------------------------------------------------------------------


def prepare(work: Path, layers: list[int], ledgers: list[int]) -> dict[str, Path]:
    """Generate what is missing under `work`; a finished input carries a `.ready` marker."""
    from majordomus.synthetic import Shape, SyntheticRepository, synthetic_ledger

    made: dict[str, Path] = {}

    def ready(name: str, make: Callable[[Path], None]) -> None:
        root = work / name
        if not (root / ".ready").exists():
            shutil.rmtree(root, ignore_errors=True)
            sys.stderr.write(f"benchmarks: generating {name}\n")
            make(root)
            (root / ".ready").write_text("")
        made[name] = root

    for rules in sorted(set(layers)):

        def layer(root: Path, rules: int = rules) -> None:
            SyntheticRepository.new(Shape.scaling(rules), at=root).commit()

        ready(f"layer-{rules}", layer)
    for count in sorted(set(ledgers)):

        def ledger(root: Path, count: int = count) -> None:
            SyntheticRepository.new(at=root).commit()
            synthetic_ledger(root, count)

        ready(f"ledger-{count}", ledger)
    ready("init", _initialised)
    for name in FLOOR_MODELS:
        path = work / f"models-{name}.json"
        if not path.exists():
            path.write_text(json.dumps(exported(name)), encoding="utf-8")
        made[f"models-{name}"] = path
    return made


def _initialised(root: Path) -> None:
    """A git repository holding what `majordomus init` wrote, committed."""
    root.mkdir(parents=True)
    identity = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
    for argv in (
        ["git", "init", "-q"],
        majordomus("init"),
        ["git", "add", "-A"],
        ["git", *identity, "commit", "-qm", "init"],
    ):
        subprocess.run(argv, cwd=root, env=environment(), check=True, capture_output=True)


def exported(name: str) -> dict[str, object]:
    """The JSON Schemas of the models a floor builds, from the product's declarations."""
    from pydantic import TypeAdapter

    from majordomus.capabilities.builtin import declared

    capability, stored = FLOOR_MODELS[name]
    cap = declared(capability)
    schemas: dict[str, object] = {
        "Input": cap.input.model_json_schema(),
        "Output": cap.output.model_json_schema(),
    }
    for ref in stored:
        module, attribute = ref.split(":")
        schemas[attribute] = TypeAdapter(getattr(import_module(module), attribute)).json_schema()
    return schemas


def floor(models: Path, work: str, root: Path) -> list[str]:
    """The floor process of a command: the stack, its models, the work's floor on `root`."""
    return [sys.executable, PROBES, "stack", str(models), work, str(root)]


def first_uri(layer: Path, env: dict[str, str]) -> str:
    """The first object `objects list` names: what `majordomus_get` and the peer are asked."""
    done = subprocess.run(majordomus(*OBJECTS), cwd=layer, env=env, capture_output=True, check=True)
    return str(json.loads(done.stdout)["objects"][0]["uri"])


# -- the rows ------------------------------------------------------------------------------------


def mcp_rows(table: Table, layer: Path, rules: int, samples: int, calls: int) -> None:
    """First answer for three tools, the handshake and steady calls, vs the SDK peer."""
    env = environment()
    uri = first_uri(layer, env)
    peer = mcp_client.peer(uri)
    for tool, arguments in (
        ("majordomus_get", {"uri": uri}),
        ("majordomus_search", {"query": "rule"}),
        ("majordomus_devcontext", {"intent": INTENT}),
    ):
        server = mcp_client.ours(tool, arguments)
        # what the first call waits for after the handshake, per side
        after: tuple[list[int], list[int]] = ([], [])

        def first(
            server: mcp_client.Server, side: int, after: tuple[list[int], list[int]] = after
        ) -> Sample:
            handshake, answer, _ = mcp_client.session(server, layer)
            after[side].append(answer.wall_ns - handshake.wall_ns)
            return answer

        pair = paired(samples, lambda server=server: first(server, 0), lambda: first(peer, 1))
        table.ratio(
            f"MCP first answer, {tool}, vs the SDK peer, {size(rules)} rules",
            pair,
            0.30,
            f"spawn → initialize → tools/call {tool} {json.dumps(arguments)}; CPU: whole session",
        )
        table.extra(
            f"MCP first tools/call {tool} after the handshake vs the peer's",
            Pair(median(after[0][WARMUP[0] :]), median(after[1][WARMUP[0] :])),
        )
    get = mcp_client.ours("majordomus_get", {"uri": uri})
    handshakes: tuple[list[Sample], list[Sample]] = ([], [])
    latencies: tuple[list[float], list[float]] = ([], [])
    for i in range(WARMUP[0] + samples):
        for side, server in enumerate((get, peer)):
            handshake, _, steady = mcp_client.session(server, layer, calls)
            if i >= WARMUP[0]:
                handshakes[side].append(handshake)
                latencies[side].append(median(steady))
    table.ratio(
        "MCP handshake (spawn → initialize result) vs the SDK peer",
        Pair(
            median([s.wall_ns for s in handshakes[0]]),
            median([s.wall_ns for s in handshakes[1]]),
        ),
        0.25,
        "majordomus mcp, driven by mcp.client.stdio + ClientSession",
    )
    table.ratio(
        f"MCP steady tools/call majordomus_get vs the SDK peer (median of {calls})",
        Pair(median(latencies[0]), median(latencies[1])),
        0.45,
        f"tools/call majordomus_get {{'uri': '{uri}'}}",
    )


def _against_floor(
    table: Table,
    row: tuple[str, float, str],
    args: list[str],
    where: Path,
    floor_of: tuple[Path, str],
    samples: int,
) -> None:
    """A command beside its floor (`probes.py`: the stack, its models and the work's floor);
    `row` is the label, the target and the note."""
    env = environment()
    label, target, note = row
    pair = paired(
        samples,
        lambda: run(majordomus(*args), where, env),
        lambda: run(floor(*floor_of, where), where, env),
    )
    table.ratio(label, pair, target, note)


def objects_row(
    table: Table, inputs: dict[str, Path], name: str, label: str, target: float, samples: int
) -> None:
    row = (
        f"objects list --format json, {label}, vs its floor",
        target,
        "majordomus objects list --format json; floor: probes.py stack (its models, ls-files, "
        "read)",
    )
    _against_floor(table, row, OBJECTS, inputs[name], (inputs["models-objects"], "layer"), samples)


def status_row(table: Table, inputs: dict[str, Path], records: int, samples: int) -> None:
    row = (
        f"reasoning status --format json, {size(records)} records, vs its floor",
        1.6,
        "majordomus reasoning status --format json; floor: probes.py stack (its models, "
        "json.load + sort)",
    )
    ledger = inputs[f"ledger-{records}"]
    _against_floor(table, row, STATUS, ledger, (inputs["models-status"], "ledger"), samples)


def check_row(table: Table, inputs: dict[str, Path], records: int, samples: int) -> None:
    """The pre-commit hook runs `check` in text; it exits 10 on the synthetic findings."""
    env, ledger = environment(), inputs[f"ledger-{records}"]
    table.ratio(
        f"reasoning check vs reasoning status, same {size(records)}-record ledger",
        paired(
            samples,
            lambda: run(majordomus(*CHECK), ledger, env, ok=(0, 10)),
            lambda: run(majordomus(*STATUS), ledger, env),
        ),
        2,
        "majordomus reasoning check (the pre-commit hook's entry)",
    )


def rss_row(table: Table, inputs: dict[str, Path], records: int, samples: int) -> None:
    """Peak memory held to its bound; the same runs' times go to the supplementary rows."""
    env, ledger = environment(), inputs[f"ledger-{records}"]
    pair = paired(
        samples,
        lambda: run(majordomus(*STATUS), ledger, env),
        lambda: run(floor(inputs["models-status"], "ledger", ledger), ledger, env),
    )
    table.absolute(
        f"peak RSS of reasoning status --format json, {size(records)} records (floor: its floor)",
        pair.peak_kib / 1024,
        "MiB",
        300.0,
        "ru_maxrss of the child; floor: probes.py stack (its models, json.load + sort)",
        floor=pair.floor_peak_kib / 1024,
    )
    table.extra(f"reasoning status, {size(records)} records, vs its floor", pair, peak=True)


def freshness_rows(table: Table, layer: Path, rules: int, checks: int, samples: int) -> None:
    """benchmarks/freshness.py on a copy of the layer (it changes and stages rules)."""
    with tempfile.TemporaryDirectory(prefix="bench-fresh-", dir=layer.parent) as scratch:
        copy = Path(scratch) / "layer"
        shutil.copytree(layer, copy, symlinks=True)
        argv = [sys.executable, FRESHNESS, "--root", str(copy), "--rules", str(rules)]
        argv += ["--checks", str(checks), "--samples", str(samples), "--format", "json"]
        done = subprocess.run(argv, env=environment(), capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"benchmarks: freshness.py exited {done.returncode}: {done.stderr}")
        figures = json.loads(done.stdout)
    objects = size(figures["objects"])
    table.absolute(
        f"freshness check before an answer, nothing changed, {objects} objects",
        figures["check_median_ns"] / 1e6,
        "ms",
        1.0,
        f"Workspace.refresh() (the fixed set and {figures['slice']} of {figures['files']} "
        f"layer files), median of {checks}; p99 {figures['check_p99_ns'] / 1e6:.3f} ms",
    )
    table.ratio(
        "re-index after one layer file changed vs a full index build",
        Pair(
            figures["reindex_median_ns"],
            figures["build_median_ns"],
            figures["reindex_cpu_median_ns"],
            figures["build_cpu_median_ns"],
        ),
        0.10,
        "Workspace.refresh() after a rule changed and was staged; floor: a new Workspace's index",
    )
    for n, spent in figures["by_size_median_ns"].items():
        table.extra(f"freshness check stating {n} layer files", Pair(spent, 0))


def imports_rows(table: Table) -> None:
    """How many of our modules one-shot commands import (benchmarks/imports.py)."""
    counts = imports.counts()
    json_, report = counts["reasoning status json"][0], counts["reasoning status report"][0]
    table.absolute(
        "modules imported: reasoning status --report beyond --format json",
        abs(report - json_),
        "modules",
        3,
        f"majordomus.* modules at exit: --report {report}, --format json {json_}",
    )
    heavy = sorted(
        name
        for name, (_, _, packages) in counts.items()
        if set(packages) & {"fastapi", "starlette", "uvicorn", "yaml"}
    )
    table.absolute(
        "one-shot commands importing the HTTP stack or PyYAML",
        len(heavy),
        "modules",
        0,
        f"of {len(counts)} commands: {', '.join(heavy) or 'none'}",
    )
    table.absolute(
        "modules imported: reasoning record",
        counts["reasoning record"][0],
        "modules",
        55,
        "majordomus.* modules at exit of `reasoning record` (a record on stdin)",
    )


def collector_rows(
    table: Table, inputs: dict[str, Path], records: int, rules: int, rss: int, samples: int
) -> None:
    """What the start-up switch buys: each command without the cyclic collector (as a one-shot
    command runs) next to the same with it on, peak memory beside."""
    env = environment() | {"PYDANTIC_DISABLE_PLUGINS": "__all__"}
    cases = [
        (f"reasoning status --format json, {size(records)} records", STATUS, f"ledger-{records}"),
        (f"reasoning check, {size(records)} records", CHECK, f"ledger-{records}"),
        (f"objects list --format json, {size(rules)} rules", OBJECTS, f"layer-{rules}"),
    ]
    if rss:
        cases.append(
            (f"reasoning status --format json, {size(rss)} records", STATUS, f"ledger-{rss}")
        )
    for label, args, name in cases:
        root = inputs[name]
        table.extra(
            f"collector off vs on: {label}",
            paired(
                max(3, samples // 3) if name == f"ledger-{rss}" else samples,
                lambda args=args, root=root: run(launched(False, *args), root, env, ok=(0, 10)),
                lambda args=args, root=root: run(launched(True, *args), root, env, ok=(0, 10)),
            ),
            peak=True,
        )
