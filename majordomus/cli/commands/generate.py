"""`majordomus generate [all|docs|openapi] [--check]`: the committed reference."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from majordomus.cli.settings import with_shared
from majordomus.errors import EXIT_CONTRACT, ContractUnmet

if TYPE_CHECKING:
    from majordomus.capabilities.registry import Capability

TARGETS = ("all", "docs", "openapi")


def expected_files(target: str) -> dict[str, str]:
    """Relative path under the output directory → the bytes it must hold."""
    from majordomus.capabilities.reference import banner, reference_files, reference_workspace
    from majordomus.capabilities.registry import RegistryBuildFailed
    from majordomus.http.openapi import OpenApiError, build_openapi
    from majordomus.wire import dumps_pretty

    ctx = reference_workspace()
    try:
        registry = ctx.registry
    except RegistryBuildFailed as failed:
        raise ContractUnmet(f"the registry did not build: {failed}") from None

    def cases(cap: Capability) -> list[tuple[str, dict[str, Any]]]:
        return cap.benchmark_cases(ctx)

    files: dict[str, str] = {}
    if target in ("all", "openapi"):
        try:
            document = build_openapi(registry, cases)
        except OpenApiError as exc:
            raise ContractUnmet(f"the OpenAPI document did not build: {exc}") from None
        files["openapi.json"] = dumps_pretty({"x-generated": banner("openapi"), **document}) + "\n"
    if target in ("all", "docs"):
        from majordomus.devcontext.graph import edge_kinds
        from majordomus.layer.reference import layer_reference_files

        follows = {k: rule.forward_reason for k, rule in edge_kinds().items() if rule.followed}
        files.update(reference_files(registry, cases))
        files.update(layer_reference_files(follows))
    return dict(sorted(files.items()))


def package_files(target: str) -> dict[Path, str]:
    """Files generated into the package itself: with `all`, the MCP tools page."""
    if target != "all":
        return {}
    from majordomus.capabilities.reference import reference_workspace
    from majordomus.mcp.listing import TOOLS_PAGE, render_tools
    from majordomus.shipped import shipped

    return {shipped(*TOOLS_PAGE): render_tools(reference_workspace().registry)}


def _held(out: Path, rel: str) -> bytes | None:
    """What `out/rel` holds now, read safely (never through a link); None when absent."""
    from majordomus import safefs

    try:
        return safefs.read_file(out, rel, 16 * 1024 * 1024)
    except safefs.Unsafe:
        return None


def _orphans(out: Path, files: dict[str, str], target: str) -> list[str]:
    """Module pages this generator wrote once whose module no longer exists."""
    if target == "openapi" or not (out / "modules").is_dir():
        return []
    orphans = []
    for path in sorted((out / "modules").glob("*.md")):
        rel = f"modules/{path.name}"
        if rel not in files and (_held(out, rel) or b"").startswith(b"<!-- GENERATED FILE"):
            orphans.append(rel)
    return orphans


def command() -> click.Command:
    @click.command(name="generate")
    @click.argument("target", type=click.Choice(TARGETS), default="all", required=False)
    @click.option("--check", is_flag=True, help="Write nothing; exit 10 naming each stale file.")
    @click.option(
        "--out",
        type=click.Path(path_type=Path, file_okay=False),
        default=Path("docs/generated"),
        show_default=True,
        help="The directory the reference lives in.",
    )
    def generate(target: str, check: bool, out: Path) -> None:
        """Generate the OpenAPI document, the capability reference and the layer reference."""
        files = expected_files(target)
        orphans = _orphans(out, files, target)
        stale: list[str] = []
        targets = [(out / rel, _held(out, rel), text) for rel, text in files.items()]
        targets += [
            (path, _held(path.parent, path.name), text)
            for path, text in package_files(target).items()
        ]
        for path, held, text in targets:
            if held == text.encode("utf-8"):
                continue
            if check:
                stale.append(f"{path} ({'missing' if held is None else 'differs'})")
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
            click.echo(f"wrote {path}")
        for rel in orphans:
            if check:
                stale.append(f"{out / rel} (not generated)")
            else:
                (out / rel).unlink()
                click.echo(f"removed {out / rel}")
        if check:
            for line in stale:
                click.echo(line)
            if stale:
                click.echo(
                    f"generate --check: {len(stale)} stale file(s); run `majordomus generate "
                    f"{target}`"
                )
                click.get_current_context().exit(EXIT_CONTRACT)
            click.echo(f"generate --check: {len(targets)} file(s) up to date")

    return with_shared(generate)
