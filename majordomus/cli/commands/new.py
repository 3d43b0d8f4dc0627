"""`majordomus new KIND …`: start one layer file from flags (the one command that writes the
layer, and only ever a new file). Parsing only; `majordomus.layer.scaffold` does the work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from majordomus.cli.completion import ids_of
from majordomus.cli.settings import settings, shared_params, with_shared
from majordomus.layer.scaffold import Draft, check_indexed, identifier, related, write

#: A flag that may be repeated, one id each time.
_MANY: dict[str, Any] = {"multiple": True, "metavar": "ID"}


def _finish(draft: Draft) -> None:
    """Check a class reads the file as its kind, write it, say what to do next."""
    from majordomus.layer.coverage import proposed_for
    from majordomus.layer.index import open_layer

    layer = open_layer(settings().repo)
    fix = [
        f"`majordomus init --sources` declares class `{c.id}` ({c.pathspec}),"
        for c in proposed_for(layer.manifest, layer.sources, draft.kind)
        if all(s.pathspec != c.pathspec for s in layer.sources)
    ]
    check_indexed(draft, [(c.kind, c.pathspec) for c in layer.sources], fix[0] if fix else None)
    write(layer.root, draft)
    click.echo(f"created     {draft.path}")
    click.echo(f"uri         majordomus://{draft.kind}/{draft.uri_identity}")
    click.echo("next        edit it, then `majordomus lint` and commit it")


def _given(*pairs: tuple[str, Any]) -> list[tuple[str, Any]]:
    """The keys a flag was given for, in order (an empty value is no key)."""
    return [(key, value) for key, value in pairs if value]


def _section(name: str) -> str:
    from majordomus.layer.index import open_layer

    sections = open_layer(settings().repo).manifest.sections
    return ".ai/" + sections.get(name, f"repo/{name}")


def _linking(func: Callable[..., Any]) -> Callable[..., Any]:
    """The flags of the `related` references, each named as its keyword of `related`."""
    for flag, name, kind, text in (
        ("--knowledge", "knowledge", "knowledge", "A knowledge note it is governed by."),
        ("--adr", "adrs", "adr", "A decision (`adr-NNNN`) it is governed by."),
        ("--rule", "rules", "rule", "A rule (`id` or `id@version`) it follows."),
    ):
        func = click.option(flag, name, help=text, shell_complete=ids_of(kind), **_MANY)(func)
    return func


_PATH = click.option("--path", help="Where to write it (default: where `init` reads the kind).")


@click.group(name="new", params=shared_params(), no_args_is_help=True)
def new() -> None:
    """Start a layer file from flags: it never overwrites, and it indexes clean.

    The keys and links are those of docs/generated/layer.md; check with `majordomus lint`.
    """


@new.command(name="issue")
@click.argument("issue_id", metavar="ID")
@click.option("--title", required=True, help="A short human title.")
@click.option(
    "--milestone",
    help="The milestone it belongs to (its id).",
    shell_complete=ids_of("milestone"),
)
@click.option("--objective", help="What it achieves, in one sentence.")
@click.option("--depends-on", help="An issue that comes first.", **_MANY)
@click.option("--scope", help="A path the work may change.", multiple=True, metavar="PATH")
@_linking
@_PATH
def new_issue(
    issue_id: str,
    title: str,
    milestone: str | None,
    objective: str | None,
    depends_on: tuple[str, ...],
    scope: tuple[str, ...],
    path: str | None,
    **links: tuple[str, ...],
) -> None:
    """A plan issue: `.ai/repo/project/issues/ID.yaml`."""
    identifier(issue_id, "issue")
    keys: list[tuple[str, Any]] = [("id", issue_id), ("title", title)]
    keys += _given(
        ("milestone", milestone and identifier(milestone, "milestone")),
        ("objective", objective),
        ("depends_on", [identifier(d, "issue") for d in depends_on]),
        ("related", related(**links)),
        ("scope", list(scope)),
    )
    where = path or f"{_section('project')}/issues/{issue_id}.yaml"
    _finish(Draft("issue", where, keys))


@new.command(name="milestone")
@click.argument("milestone_id", metavar="ID")
@click.option("--title", required=True, help="A short human title.")
@click.option("--outcome", help="What is true when it is reached.")
@click.option("--depends-on", help="A milestone that comes first.", **_MANY)
@_linking
@_PATH
def new_milestone(
    milestone_id: str,
    title: str,
    outcome: str | None,
    depends_on: tuple[str, ...],
    path: str | None,
    **links: tuple[str, ...],
) -> None:
    """A plan milestone: `.ai/repo/project/milestones/ID.yaml`."""
    identifier(milestone_id, "milestone")
    keys: list[tuple[str, Any]] = [("id", milestone_id), ("title", title)]
    keys += _given(
        ("outcome", outcome),
        ("depends_on", [identifier(d, "milestone") for d in depends_on]),
        ("related", related(**links)),
    )
    where = path or f"{_section('project')}/milestones/{milestone_id}.yaml"
    _finish(Draft("milestone", where, keys))


@new.command(name="rule")
@click.argument("rule_id", metavar="ID")
@click.option("--title", required=True, help="A short human title.")
@click.option("--statement", required=True, help="What must hold, in one sentence.")
@click.option("--description", help="One sentence on what it is for.")
@click.option(
    "--class",
    "rule_class",
    type=click.Choice(["blocking", "advisory"]),
    default="advisory",
    show_default=True,
    help="Blocking rules stop work.",
)
@click.option(
    "--version",
    "rule_version",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="The rule's version.",
)
@click.option("--depends-on", help="A rule it builds on (`id` or `id@version`).", **_MANY)
@_PATH
def new_rule(
    rule_id: str,
    title: str,
    statement: str,
    description: str | None,
    rule_class: str,
    rule_version: int,
    depends_on: tuple[str, ...],
    path: str | None,
) -> None:
    """A project rule: `.ai/repo/rules/project/ID.vN.md`."""
    identifier(rule_id, "rule")
    keys: list[tuple[str, Any]] = [
        ("id", rule_id),
        ("version", rule_version),
        ("kind", "rule"),
        ("title", title),
    ]
    keys += _given(("description", description))
    keys += [
        ("statement", statement),
        ("status", "active"),
        ("class", rule_class),
        ("depends_on", list(depends_on)),
    ]
    where = path or f"{_section('rules')}/project/{rule_id}.v{rule_version}.md"
    body = f"# {title}\n\n# Rationale\n\n# Required behaviour\n"
    _finish(Draft("rule", where, keys, body))


@new.command(name="adr")
@click.argument("title")
@click.option(
    "--status",
    type=click.Choice(["proposed", "accepted", "superseded", "rejected"]),
    default="proposed",
    show_default=True,
    help="Its standing.",
)
@click.option("--date", "when", help="When it was decided, YYYY-MM-DD (default: today, UTC).")
@click.option("--supersedes", help="A decision it replaces (`adr-NNNN`).", **_MANY)
@click.option("--rule", help="A rule it puts in force.", **_MANY)
@_PATH
def new_adr(
    title: str,
    status: str,
    when: str | None,
    supersedes: tuple[str, ...],
    rule: tuple[str, ...],
    path: str | None,
) -> None:
    """An architecture decision: `.ai/repo/adrs/NNNN-slug.md`, numbered after the last."""
    from majordomus.clock import now
    from majordomus.layer.index import open_layer
    from majordomus.layer.scaffold import next_adr_number, slug

    folder = _section("adrs")
    number = next_adr_number(open_layer(settings().repo).root, folder)
    adr_id = f"adr-{number:04d}"
    keys: list[tuple[str, Any]] = [
        ("schema", "adr/v1"),
        ("id", adr_id),
        ("kind", "adr"),
        ("title", title),
        ("status", status),
        ("date", when or now().date().isoformat()),
    ]
    keys += _given(
        ("supersedes", [identifier(s, "decision") for s in supersedes]),
        ("related", [f"rule:{identifier(r, 'rule')}" for r in rule]),
    )
    where = path or f"{folder}/{number:04d}-{slug(title)}.md"
    body = f"# {title}\n\n# Context\n\n# Decision\n\n# Consequences\n"
    _finish(Draft("adr", where, keys, body))


@new.command(name="prompt")
@click.argument("name")
@click.option("--description", required=True, help="What the prompt asks for.")
@click.option("--profile", help="The execution profile to work under.")
@_PATH
def new_prompt(name: str, description: str, profile: str | None, path: str | None) -> None:
    """A reusable prompt: `.ai/repo/prompts/NAME.md`."""
    identifier(name, "prompt")
    keys: list[tuple[str, Any]] = [("name", name), ("description", description)]
    keys += _given(("profile", profile and identifier(profile, "profile")))
    where = path or f"{_section('prompts')}/{name}.md"
    _finish(Draft("prompt", where, keys, f"# {name}\n"))


@new.command(name="knowledge")
@click.argument("note_id", metavar="ID")
@click.option("--title", required=True, help="A short human title.")
@click.option("--description", help="One sentence on what it says.")
@_PATH
def new_knowledge(note_id: str, title: str, description: str | None, path: str | None) -> None:
    """A curated knowledge note: `.ai/repo/knowledge/curated/ID.md`."""
    identifier(note_id, "knowledge note")
    keys: list[tuple[str, Any]] = [
        ("schema", "knowledge/v1"),
        ("id", note_id),
        ("kind", "knowledge"),
        ("title", title),
    ]
    keys += _given(("description", description))
    where = path or f"{_section('knowledge')}/curated/{note_id}.md"
    _finish(Draft("knowledge", where, keys, f"# {title}\n"))


def command() -> click.Command:
    for sub in new.commands.values():
        if not any(param.name == "repo" for param in sub.params):
            with_shared(sub)
    return new
