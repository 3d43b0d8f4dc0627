"""The click command of a capability: one option per input field."""

from __future__ import annotations

import enum
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

import click
from pydantic import AfterValidator, BaseModel
from pydantic.fields import FieldInfo

from majordomus.capabilities.registry import Capability
from majordomus.cli.completion import BY_FIELD
from majordomus.cli.settings import settings, with_shared
from majordomus.cli.views import CliView
from majordomus.egress import answer_json, clean


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """The field's core type and whether it is a list."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _unwrap(args[0])
        if any(isinstance(a, type) and issubclass(a, BaseModel) for a in args):
            return BaseModel, False  # a tagged union of models is structured, never a flag
        return str, False
    if origin in (list, tuple, set, frozenset):
        inner, _ = _unwrap(typing.get_args(annotation)[0])
        return inner, True
    return annotation, False


def _click_type(core: Any) -> click.ParamType | None:
    """The click type of a scalar (a list of booleans reads text); None for a structured one."""
    if isinstance(core, type) and issubclass(core, enum.Enum):
        return click.Choice([str(m.value) for m in core])
    if typing.get_origin(core) is typing.Literal:
        return click.Choice([str(v) for v in typing.get_args(core)])
    return {str: click.STRING, int: click.INT, float: click.FLOAT, bool: click.STRING}.get(core)


class _Checked(click.ParamType):
    """A scalar type whose field carries its own checks (`AfterValidator`s, e.g. `as_of`): they
    run as the value is parsed, so a bad value is a usage error naming the flag (exit 2)."""

    def __init__(self, base: click.ParamType, checks: list[Callable[..., Any]]) -> None:
        self.base = base
        self.checks = checks
        self.name = base.name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        value = self.base.convert(value, param, ctx)
        for check in self.checks:
            try:
                value = check(value)
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        return value


def field_param(
    name: str, info: FieldInfo, positional: bool, flag_word: str | None = None
) -> click.Parameter | None:
    """The click parameter for one input field, or None for a structured field."""
    core, many = _unwrap(info.annotation)
    base = _click_type(core)
    if base is None:
        return None
    checks = [m.func for m in info.metadata if isinstance(m, AfterValidator)]
    kind = _Checked(base, checks) if checks else base
    key = info.alias or name
    complete = BY_FIELD.get(key)
    if positional:
        return click.Argument(
            [key], required=info.is_required(), type=kind, shell_complete=complete
        )
    flag = "--" + (flag_word or key).replace("_", "-")
    help_text = info.description
    if core is bool and not many:
        return click.Option([flag, key], is_flag=True, default=None, help=help_text)
    return click.Option(
        [flag, key],
        type=kind,
        multiple=many,
        required=info.is_required(),
        help=help_text,
        shell_complete=complete,
    )


def capability_command(cap: Capability, view: CliView | None) -> click.Command:
    """A click command that builds the input, calls the executor and renders the answer."""
    view = view or CliView()  # a capability that declares no view prints its answer as JSON
    params: list[click.Parameter] = []
    field_names: list[str] = []
    for name, info in cap.input.model_fields.items():
        key = info.alias or name
        param = field_param(name, info, key in view.arguments, view.flags.get(key))
        if param is not None:
            params.append(param)
            field_names.append(param.name or name)
    params.sort(key=lambda p: isinstance(p, click.Option))
    params.extend(view.options)

    def callback(**values: Any) -> None:
        chosen = settings()
        raw = (
            view.prepare(values)
            if view.prepare
            else {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in values.items()
                if k in field_names and v is not None and v != () and v is not False
            }
        )
        answer = chosen.context().executor.answer(cap, raw, fresh=True)
        as_json = chosen.format == "json" or view.text is None
        # the views read the answer's JSON value; JSON itself is written from the model
        output = (
            None
            if as_json and not view.exit_code
            else answer.model_dump(mode="json", by_alias=True)
        )
        if as_json:
            stdout = sys.stdout.buffer
            stdout.write(answer_json(answer))
            stdout.flush()
        elif view.text is not None:
            click.echo(clean(view.text(output, values)), nl=False)
        if view.exit_code and (code := view.exit_code(output)):
            click.get_current_context().exit(code)

    command = click.Command(
        name=cap.cli[-1] if cap.cli else cap.id,
        params=params,
        callback=callback,
        help=cap.description,
        short_help=cap.title,
    )
    return with_shared(command)
