"""A capability as a click command (options per input field, the view's arguments and flags,
text or `--format json`), in-process on a stand-in capability.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import click
import pytest
from click.testing import CliRunner, Result
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from majordomus.cli.capability_commands import capability_command, field_param
from majordomus.cli.views import CliView

PLANNED = Path(__file__).resolve().parents[2] / "fixtures" / "layers" / "planned"


class Colour(enum.Enum):
    RED = "red"
    GREEN = "green"


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("name something")
    return value


class Inner(BaseModel):
    x: int


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")

    subject: Annotated[str, AfterValidator(_not_blank), Field(description="What to look at.")]
    max_items: int | None = None
    ratio: float | None = None
    tags: list[str] = []
    verbose: bool = False
    colour: Colour | None = None
    mode: Literal["fast", "slow"] | None = None
    nested: Inner | None = None
    source_path: Annotated[str | None, Field(alias="from")] = None


class Echo(BaseModel):
    request: dict[str, Any]


@dataclass
class NoCache:
    enabled: bool = False


@dataclass
class StandIn:
    """What `capability_command` and the executor read of a capability."""

    id: str = "test.echo"
    title: str = "Echo the request."
    description: str = "Answers with the input it was given."
    cli: tuple[str, ...] = ("test", "echo")
    input: type[BaseModel] = Request
    cache: NoCache = field(default_factory=NoCache)
    executable: bool = True

    def handler(self, _ctx: Any, request: Request) -> Echo:
        return Echo(request=request.model_dump(mode="json", by_alias=True, exclude_defaults=True))


def command(view: CliView | None = None) -> click.Command:
    return capability_command(StandIn(), view)  # type: ignore[arg-type]


def invoke(cmd: click.Command, *args: str) -> Result:
    shared = ["--repo", str(PLANNED), "--discovery", "filesystem"]
    return CliRunner().invoke(cmd, [*shared, *args], catch_exceptions=False)


def answer(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    request: dict[str, Any] = json.loads(result.output)["request"]
    return request


def options(cmd: click.Command) -> dict[str, click.Parameter]:
    return {p.name or "": p for p in cmd.params}


# --- one parameter per field ------------------------------------------------------------------


def test_the_command_is_named_by_its_last_cli_word_and_helped_by_the_declaration() -> None:
    cmd = command()
    assert cmd.name == "echo"
    assert cmd.help == "Answers with the input it was given."
    assert cmd.short_help == "Echo the request."


def test_each_scalar_field_is_an_option_of_its_type_and_structured_ones_none() -> None:
    params = options(command())
    assert params["max_items"].opts[0] == "--max-items"
    assert params["subject"].required and not params["max_items"].required
    assert params["subject"].help == "What to look at."  # type: ignore[attr-defined]
    assert "nested" not in params
    # an alias names the option and the input key
    assert "source_path" not in params
    assert params["from"].opts[0] == "--from"
    # a list is repeatable, a boolean a flag, enums and literals are choices
    assert params["tags"].multiple  # type: ignore[attr-defined]
    assert params["verbose"].is_flag  # type: ignore[attr-defined]
    assert list(params["colour"].type.choices) == ["red", "green"]  # type: ignore[attr-defined]
    assert list(params["mode"].type.choices) == ["fast", "slow"]  # type: ignore[attr-defined]


def test_a_positional_field_is_an_argument() -> None:
    info = Request.model_fields["subject"]
    param = field_param("subject", info, positional=True)
    assert isinstance(param, click.Argument) and param.required


def test_the_view_renames_a_flag() -> None:
    cmd = command(CliView(flags={"max_items": "limit"}))
    assert options(cmd)["max_items"].opts[0] == "--limit"


def test_options_follow_arguments_and_the_views_extra_options_come_last() -> None:
    extra = click.Option(["--extra"], is_flag=True)
    cmd = command(CliView(arguments=("subject",), options=(extra,)))
    own = [p for p in cmd.params if p.name in {"subject", "max_items", "extra"}]
    assert [p.name for p in own] == ["subject", "max_items", "extra"]


# --- running ----------------------------------------------------------------------------------


def test_given_values_become_the_input_and_absent_ones_are_left_out() -> None:
    given = "--subject s --tags a --tags b --max-items 3 --colour red --verbose --from x"
    got = answer(invoke(command(), *given.split(), "--format", "json"))
    assert got == {
        "subject": "s",
        "tags": ["a", "b"],
        "max_items": 3,
        "colour": "red",
        "verbose": True,
        "from": "x",
    }
    assert answer(invoke(command(), "--subject", "s", "--format", "json")) == {"subject": "s"}


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--max-items", "many"], "--max-items"),  # a value of the wrong type
        (["--colour", "blue"], "--colour"),  # a choice outside the enum
        (["--subject", "  "], "name something"),  # a field's own check runs as it is parsed
    ],
)
def test_a_value_the_field_refuses_is_a_usage_error(args: list[str], said: str) -> None:
    result = invoke(command(), "--subject", "s", *args)
    assert result.exit_code == 2 and said in result.output


def test_text_goes_through_the_view_with_the_given_values() -> None:
    def text(output: Any, values: dict[str, Any]) -> str:
        return f"{output['request']['subject']} ({values['max_items']})\n"

    result = invoke(command(CliView(text=text)), "--subject", "s", "--max-items", "2")
    assert result.exit_code == 0 and result.output == "s (2)\n"


def test_json_is_exactly_the_output_model_even_when_a_view_renders_text() -> None:
    def text(_output: Any, _values: dict[str, Any]) -> str:
        return "ignored\n"

    result = invoke(command(CliView(text=text)), "--subject", "s", "--format", "json")
    assert result.output == json.dumps({"request": {"subject": "s"}}, indent=2) + "\n"


def test_the_views_prepare_builds_the_input() -> None:
    view = CliView(prepare=lambda values: {"subject": values["subject"].upper()})
    assert answer(invoke(command(view), "--subject", "s", "--format", "json")) == {"subject": "S"}


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_views_exit_code_is_the_commands(fmt: str) -> None:
    view = CliView(exit_code=lambda output: 10 if output["request"]["subject"] == "bad" else 0)
    assert invoke(command(view), "--subject", "bad", "--format", fmt).exit_code == 10
    assert invoke(command(view), "--subject", "good", "--format", fmt).exit_code == 0
