"""``2048 train install`` and ``2048 train list``, and ``2048 train``'s own flags beside them."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from py2048.cli import build_parser, main
from py2048.evaluation.networks import (
    NETWORKS_VARIABLE,
    GreedyStrength,
    figures_file,
    file_digest,
    read_figures,
)
from py2048.evaluation.ntuple import WEIGHTS_VARIABLE, forget_network
from py2048.learn.checkpoint import save_checkpoint
from py2048.learn.install import GameSeen, InstallOptions, install, list_networks
from py2048.learn.network import NTupleNetwork, save_weights
from py2048.learn.training import Trainer, TrainingConfig
from tests.networks import SMALL_TUPLES, random_network


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The networks folder (not yet made), no ``PY2048_NTUPLE_WEIGHTS``, and the network
    chosen afresh before and after the test."""
    chosen = tmp_path / "networks"
    monkeypatch.setenv(NETWORKS_VARIABLE, str(chosen))
    monkeypatch.delenv(WEIGHTS_VARIABLE, raising=False)
    forget_network()
    yield chosen
    forget_network()


@pytest.fixture
def weights(tmp_path: Path) -> Path:
    path = tmp_path / "mine.npz"
    save_weights(random_network(), path)
    return path


class FakeMeasure:
    """Stands in for the greedy games: says ``mean`` and remembers what it was asked."""

    def __init__(self, mean: float) -> None:
        self.mean = mean
        self.asked: list[tuple[Path, int, int | None]] = []

    def __call__(
        self, path: Path, games: int, workers: int | None, on_game: GameSeen | None
    ) -> GreedyStrength:
        self.asked.append((path, games, workers))
        return GreedyStrength(games, 2001, "c-rand", self.mean, {16384: 0.25, 32768: 0.125})


def quiet() -> Console:
    return Console(file=io.StringIO(), width=200)


def printed(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return " ".join(file.getvalue().split())


def test_install_measures_the_file_and_puts_it_with_its_figures_in_the_folder(
    folder: Path, weights: Path
) -> None:
    measure = FakeMeasure(500_000)
    console = quiet()
    options = InstallOptions(str(weights), games=7, workers=3)
    assert install(options, console, measure) == 0
    assert measure.asked == [(weights, 7, 3)]
    installed = folder / "mine.npz"
    assert installed.read_bytes() == weights.read_bytes()
    figures = read_figures(figures_file("mine", folder))
    assert figures.sha256 == file_digest(weights) and figures.bytes == weights.stat().st_size
    assert figures.tuples == SMALL_TUPLES and figures.stage_tiles == ()
    assert figures.greedy == GreedyStrength(7, 2001, "c-rand", 500_000, {16384: 0.25, 32768: 0.125})
    out = printed(console)
    assert "Installed mine: greedy mean 500,000, 16384 in 25.0%, 32768 in 12.5%" in out
    assert "It is the strongest measured: the solver plays with mine" in out
    assert sorted(p.name for p in folder.iterdir()) == ["mine.json", "mine.npz"]


def test_a_weaker_network_is_installed_and_the_shipped_one_kept(
    folder: Path, weights: Path
) -> None:
    console = quiet()
    assert install(InstallOptions(str(weights), name="weak"), console, FakeMeasure(1_000)) == 0
    assert (folder / "weak.npz").exists()
    assert "The shipped network measured at least as strong: the solver keeps it" in printed(
        console
    )


def _cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:3000])


def _not_weights(path: Path) -> None:
    path.write_text("these are not weights")


def _missing(path: Path) -> None:
    path.unlink()


def _checkpoint(path: Path) -> None:
    trainer = Trainer(TrainingConfig(tuples=SMALL_TUPLES))
    try:
        save_checkpoint(trainer, path)
    finally:
        trainer.close()


def _wrong_shape(path: Path) -> None:
    """A weights file whose entries are not as many as its tuples need."""
    with np.load(path, allow_pickle=False) as archive:
        entries = {name: archive[name] for name in archive.files}
    entries["tuples"] = np.array("0,1,2,3,4/4,5,6,7/0,1,4,5/1,2,5,6")
    np.savez_compressed(path, **entries)


BAD_FILES = {
    "cut short": (_cut_short, "is truncated or damaged"),
    "not weights": (_not_weights, "not an .npz archive"),
    "missing": (_missing, "no such file"),
    "a checkpoint": (_checkpoint, "not a py2048-ntuple-weights file"),
    "wrong shape": (_wrong_shape, "but its tuples and stages need"),
}


@pytest.mark.parametrize("bad", sorted(BAD_FILES))
def test_install_refuses_a_bad_file_naming_it_and_installs_nothing(
    folder: Path, weights: Path, bad: str
) -> None:
    harm, problem = BAD_FILES[bad]
    harm(weights)
    measure = FakeMeasure(500_000)
    with pytest.raises(ValueError) as refused:
        install(InstallOptions(str(weights)), quiet(), measure)
    message = str(refused.value)
    assert message.startswith(f"{weights}: ") and problem in message
    assert message.endswith("nothing was installed")
    assert measure.asked == []
    assert not folder.exists()


def test_the_command_line_reports_a_refused_file(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 cut")
    assert main(["train", "install", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"2048: error: {bad}: ") and "nothing was installed" in err


def test_a_name_in_use_needs_force(folder: Path, weights: Path, tmp_path: Path) -> None:
    assert install(InstallOptions(str(weights)), quiet(), FakeMeasure(490_000)) == 0
    other = tmp_path / "other.npz"
    network = NTupleNetwork.zeros(SMALL_TUPLES)
    network.weights[:] = 5.0
    save_weights(network, other)
    with pytest.raises(ValueError, match="a network named mine is installed already"):
        install(InstallOptions(str(other), name="mine"), quiet(), FakeMeasure(1))
    assert (
        install(InstallOptions(str(other), name="mine", force=True), quiet(), FakeMeasure(1)) == 0
    )
    assert (folder / "mine.npz").read_bytes() == other.read_bytes()
    assert read_figures(folder / "mine.json").greedy.mean_score == 1


@pytest.mark.parametrize("name", ["shipped", "no/slashes", "my network"])
def test_install_refuses_a_name_that_cannot_name_a_network(
    folder: Path, weights: Path, name: str
) -> None:
    with pytest.raises(ValueError, match="name"):
        install(InstallOptions(str(weights), name=name), quiet(), FakeMeasure(1))
    assert not folder.exists()


def test_a_file_changed_while_measured_is_not_installed(folder: Path, weights: Path) -> None:
    def measure_and_change(
        path: Path, games: int, workers: int | None, on_game: GameSeen | None
    ) -> GreedyStrength:
        save_weights(NTupleNetwork.zeros(SMALL_TUPLES), path)
        return FakeMeasure(500_000)(path, games, workers, on_game)

    with pytest.raises(ValueError, match="changed while it was measured"):
        install(InstallOptions(str(weights)), quiet(), measure_and_change)
    assert not (folder / "mine.npz").exists() and not (folder / "mine.json").exists()


def test_ctrl_c_while_measuring_installs_nothing(folder: Path, weights: Path) -> None:
    def interrupted(
        path: Path, games: int, workers: int | None, on_game: GameSeen | None
    ) -> GreedyStrength:
        raise KeyboardInterrupt

    console = quiet()
    assert install(InstallOptions(str(weights)), console, interrupted) == 130
    assert "nothing was installed" in printed(console)
    assert not (folder / "mine.npz").exists()


def test_install_refuses_a_folder_that_is_a_file(folder: Path, weights: Path) -> None:
    folder.write_text("not a folder")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        install(InstallOptions(str(weights)), quiet(), FakeMeasure(1))


def test_the_list_says_when_the_folder_is_a_file(folder: Path) -> None:
    folder.write_text("not a folder")
    out = _list()
    assert f"The networks folder {folder} is a file, not a folder." in out
    assert "In use: shipped" in out


def test_install_plays_real_greedy_games_with_the_file(
    folder: Path, weights: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two greedy games through the bench: the small random network scores far below what the
    shipped network scores on the same seeds (over 100,000), so it was the file that played."""
    argv = ["train", "install", str(weights), "--games", "2", "--workers", "1", "--name", "real"]
    assert main(argv) == 0
    greedy = read_figures(folder / "real.json").greedy
    assert greedy.games == 2 and greedy.first_seed == 2001 and greedy.rng == "c-rand"
    assert 0 < greedy.mean_score < 20_000
    assert WEIGHTS_VARIABLE not in os.environ
    assert "Installed real: greedy mean" in capsys.readouterr().out


def _list() -> str:
    console = quiet()
    assert list_networks(console) == 0
    return printed(console)


def test_the_list_prints_a_long_folder_path_whole(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A path longer than the terminal is a line of its own for the terminal to wrap: Rich does
    not break it in two (a copied path must still name the folder), nor read brackets in it."""
    long_folder = folder.parent / ("[deep]" + "x" * 240) / "networks"
    monkeypatch.setenv(NETWORKS_VARIABLE, str(long_folder))
    console = quiet()
    assert list_networks(console) == 0
    file = console.file
    assert isinstance(file, io.StringIO)
    heading = "Networks (greedy play's figures): the shipped one, and those installed in"
    assert f"{heading} {long_folder}" in file.getvalue().splitlines()


def test_the_list_shows_the_shipped_network_in_use_when_nothing_is_installed(
    folder: Path,
) -> None:
    out = _list()
    assert f"those installed in {folder}" in out
    assert "│ shipped │ 8x6 │ 83.2 MB │ 1,000 │ 309,851 │ 75.9% │ 4.8% │ in use │" in out
    assert "In use: shipped," in out and "no installed network measured stronger" in out


def test_the_list_shows_every_network_and_which_plays(folder: Path, tmp_path: Path) -> None:
    for name, mean in (("best", 500_000), ("second", 490_000), ("weak", 100_000)):
        source = tmp_path / f"{name}.npz"
        save_weights(random_network(), source)
        install(InstallOptions(str(source)), quiet(), FakeMeasure(mean))
    save_weights(random_network(), folder / "unmeasured.npz")
    out = _list()
    assert "│ shipped │ 8x6 │ 83.2 MB │ 1,000 │ 309,851 │ 75.9% │ 4.8% │ not in use │" in out
    assert "│ best │ 4x4 │ 460.9 kB │ 1,000 │ 500,000 │ 25.0% │ 12.5% │ in use │" in out
    assert (
        "│ second │ 4x4 │ 460.9 kB │ 1,000 │ 490,000 │ 25.0% │ 12.5% │ not in use (best stronger)"
        in out
    )
    assert "│ weak │" in out and "no stronger than shipped" in out
    assert "│ unmeasured │ │ 460.9 kB │ │ │ │ │ not measured │" in out
    assert f"In use: best, {folder / 'best.npz'}: the strongest measured" in out

    (folder / "best.npz").write_bytes((folder / "best.npz").read_bytes()[:4000])
    out = _list()
    assert "│ best │" in out and "│ skipped │" in out
    assert f"best skipped: {folder / 'best.npz'}: is cut short: 4,000 bytes" in out
    assert f"In use: second, {folder / 'second.npz'}" in out


def test_the_list_names_the_file_of_the_environment_variable(
    folder: Path, weights: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(InstallOptions(str(weights), name="best"), quiet(), FakeMeasure(500_000))
    monkeypatch.setenv(WEIGHTS_VARIABLE, str(weights))
    out = _list()
    assert f"In use: PY2048_NTUPLE_WEIGHTS's file, {weights}: PY2048_NTUPLE_WEIGHTS names it" in out
    assert "not in use (PY2048_NTUPLE_WEIGHTS)" in out


def test_list_runs_from_the_command_line(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "list"]) == 0
    assert "In use: shipped" in " ".join(capsys.readouterr().out.split())


# --- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], {"games": 100_000, "checkpoint": "ntuple-checkpoint.npz", "workers": None}),
        (["--games", "5", "--workers", "2", "--seed", "3"], {"games": 5, "workers": 2, "seed": 3}),
        (["--resume", "--checkpoint", "run.npz"], {"resume": True, "checkpoint": "run.npz"}),
        (["--checkpoint", "list"], {"checkpoint": "list"}),  # an option's value, not a command
        (["--export", "install", "--init", "shipped"], {"export": "install", "init": "shipped"}),
        (["--tuples", "0,1,2,3/4,5,6,7", "--stage-tiles", "16384"], {"stage_tiles": "16384"}),
        (["--restart-tiles", "8192", "--restart-share", "0.8"], {"restart_share": 0.8}),
        (["--lock-free", "--optimistic", "320000"], {"lock_free": True, "optimistic": 320000.0}),
    ],
)
def test_the_training_flags_parse_as_before(argv: list[str], expected: dict[str, object]) -> None:
    args = build_parser().parse_args(["train", *argv])
    assert args.train_command is None
    for name, value in expected.items():
        assert getattr(args, name) == value


def test_install_and_list_are_first_words() -> None:
    parser = build_parser()
    install_args = parser.parse_args(["train", "install", "x.npz", "--games", "9", "--force"])
    assert install_args.train_command == "install"
    assert (install_args.path, install_args.games, install_args.force) == ("x.npz", 9, True)
    assert parser.parse_args(["train", "install", "x.npz"]).games == 1000
    assert parser.parse_args(["train", "list"]).train_command == "list"


@pytest.mark.parametrize("argv", [["install"], ["install", "a", "b"], ["lists"], ["--games", "0"]])
def test_bad_train_arguments_get_a_usage_error(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["train", *argv])
    assert exit_.value.code == 2
