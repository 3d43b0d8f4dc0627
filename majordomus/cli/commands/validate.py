"""`majordomus capabilities validate`: build the registry and every projection, or list why not."""

from __future__ import annotations

import click

from majordomus.capabilities.registry import Registry, RegistryBuildFailed
from majordomus.capabilities.workspace import Workspace
from majordomus.cli.settings import settings, with_shared
from majordomus.egress import clean_line
from majordomus.errors import EXIT_CONTRACT, MissingArtifact


def _cli_closure(registry: Registry, click_ctx: click.Context, root: click.Group) -> list[str]:
    """Every CLI exposure resolves, through the lazy root, to a runnable command."""
    problems = []
    for cap in registry:
        if cap.cli is None:
            continue
        node: click.Command | None = root
        for word in cap.cli:
            node = node.get_command(click_ctx, word) if isinstance(node, click.Group) else None
        if node is None:
            problems.append(f"CLOSURE_CLI_ABSENT {cap.id}: `majordomus {' '.join(cap.cli)}`")
        elif isinstance(node, click.Group) or node.callback is None:
            problems.append(f"CLOSURE_CLI_NOT_RUNNABLE {cap.id}: `majordomus {' '.join(cap.cli)}`")
    return problems


def _outside_a_layer(ctx: Workspace) -> bool:
    """Whether no repository layer is found from here (the search raises)."""
    try:
        return not ctx.root.is_dir()
    except MissingArtifact:
        return True


def command() -> click.Command:
    @click.command(name="validate")
    @click.pass_context
    def validate(click_ctx: click.Context) -> None:
        """Build the registry and its projections; exit 10 listing every violation."""
        from majordomus.http.openapi import OpenApiError, build_openapi
        from majordomus.mcp.listing import resource_entries, tool_entries

        chosen = settings()
        ctx = chosen.context()
        if chosen.repo is None and _outside_a_layer(ctx):
            from majordomus.capabilities.reference import reference_workspace

            click.echo("layer       none here; validating the built-in registry alone")
            ctx = reference_workspace()
        try:
            registry = ctx.registry
        except RegistryBuildFailed as failed:
            problems = [f"{e.code} {e.message}" for e in failed.errors]
        else:
            tool_entries(registry)
            resource_entries(registry, ctx.index)
            root = click_ctx.find_root().command
            problems = _cli_closure(registry, click_ctx, root)  # type: ignore[arg-type]
            try:  # the OpenAPI document as `serve` builds it: a component clash is a violation
                build_openapi(registry, lambda cap: cap.benchmark_cases(ctx))
            except OpenApiError as clash:
                problems += [f"OPENAPI {problem}" for problem in clash.problems]
        for problem in problems:
            click.echo(f"FAIL {clean_line(problem)}")
        if problems:
            click.echo(f"capabilities validate: {len(problems)} violation(s)")
            click_ctx.exit(EXIT_CONTRACT)
        summary = registry.summary()
        click.echo(
            f"capabilities validate: {summary['total']} capabilities "
            f"({summary['builtin']} built-in, {summary['declarative']} declarative), "
            f"{summary['mcp_tools']} tools, {summary['http_routes']} routes, "
            f"{summary['cli_commands']} commands: ok"
        )

    return with_shared(validate)
