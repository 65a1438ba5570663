"""The `2048` command wires each subcommand to its part of py2048."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from py2048 import __version__
from py2048.cli import build_parser, main
from py2048.web import command as serve_command


def test_python_dash_m_is_the_2048_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "py2048", "--version"], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == f"py2048 {__version__}"


def test_every_subcommand_is_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("serve", "play", "bench", "train"):
        assert command in out


def test_no_command_means_serve_on_the_default_address() -> None:
    args = build_parser().parse_args([])
    assert (args.handler, args.host, args.port, args.no_browser) == (
        serve_command.run,
        "127.0.0.1",
        2048,
        False,
    )


def test_a_bad_value_is_reported_in_words_not_by_an_internal_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--games", "ten"])
    error = capsys.readouterr().err.splitlines()[-1]
    assert error == (
        "2048 bench: error: argument --games: expected a whole number of 1 or more, got 'ten'"
    )


def typed_options() -> list[tuple[str, str]]:
    """Every (command, option) of the command line whose value goes through a type."""
    found = []
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, subparser in [("", parser), *commands.choices.items()]:
        for action in subparser._actions:
            if action.type is not None and action.option_strings:
                found.append((name, action.option_strings[-1]))
    return found


@pytest.mark.parametrize(("command", "option"), typed_options())
def test_every_bad_value_is_reported_under_the_option_as_typed_in_words(
    capsys: pytest.CaptureFixture[str], command: str, option: str
) -> None:
    with pytest.raises(SystemExit):
        main([*([command] if command else []), option, "?"])
    error = capsys.readouterr().err.splitlines()[-1]
    assert f"error: argument {option}: " in error
    assert not re.search(r"\b_\w", error), f"an internal name in: {error}"


def test_a_port_out_of_range_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--port", "70000"])
    assert "expected a port number from 0 to 65535" in capsys.readouterr().err


LOADED = """
import sys
{imports}
print(sorted({{name.split(".")[0] for name in sys.modules}} & {{"fastapi", "uvicorn", "textual"}}))
print(sorted(name for name in sys.modules if name.startswith("py2048.solver.")))
"""


@pytest.mark.parametrize(
    ("imports", "frameworks"),
    [
        ("from py2048.cli import build_parser; build_parser()", []),
        ("import py2048.cli, py2048.tui.app", ["textual"]),
        ("import py2048.cli, py2048.web.server", ["fastapi", "uvicorn"]),
    ],
    ids=["the parser", "2048 play", "2048 serve"],
)
def test_each_command_loads_only_its_own_part(imports: str, frameworks: list[str]) -> None:
    """The parser loads neither web server, terminal UI nor the compiled search."""
    script = LOADED.format(imports=imports)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded, solver = done.stdout.splitlines()
    assert loaded == str(frameworks)
    assert "py2048.solver.search" not in solver


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--games", "0"],
        ["bench", "--depth", "-1"],
        ["bench", "--depth", "1", "--preset", "fast"],
        ["train", "--games", "0"],
        ["play", "--seed", "-5"],
        ["serve", "--port", "http"],
    ],
)
def test_bad_arguments_get_a_usage_error(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2


def test_train_runs_through_the_command(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.npz"
    argv = ["train", "--games", "5", "--tuples", "0,1,2,3/4,5,6,7", "--checkpoint"]
    assert main([*argv, str(checkpoint)]) == 0
    assert checkpoint.stat().st_size > 0
    # A second fresh run must not overwrite it: a clear error, exit status 2.
    assert main([*argv, str(checkpoint)]) == 2
