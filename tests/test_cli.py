"""The `2048` command wires each subcommand to its part of py2048."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from py2048 import __version__
from py2048.cli import build_parser, main


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
    assert (args.handler.__name__, args.host, args.port, args.no_browser) == (
        "_serve",
        "127.0.0.1",
        2048,
        False,
    )


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
