"""Installed networks: their figures, their folder, and which network the solver plays with.

The choice rules: ``PY2048_NTUPLE_WEIGHTS`` wins; else the installed network of the highest
greedy mean if it beats the shipped one's figure; else the shipped one (ties too). An installed
network that cannot be used is skipped with a warning naming its file, and the next plays.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from py2048.evaluation import networks
from py2048.evaluation.networks import (
    NETWORKS_VARIABLE,
    GreedyStrength,
    NetworkFigures,
    describe_shape,
    figures_file,
    file_digest,
    installed_networks,
    networks_dir,
    read_figures,
    shipped_figures,
    stronger_networks,
    weights_file,
    write_figures,
)
from py2048.evaluation.ntuple import (
    BY_VARIABLE,
    SHIPPED,
    STRONGEST,
    WEIGHTS_VARIABLE,
    NetworkChoice,
    chosen_network,
    forget_network,
    network_in_use,
    playing_with,
    shipped_weights_path,
)
from py2048.evaluation.registry import get_evaluator
from py2048.evaluation.storage import WeightsError
from py2048.learn.network import NTupleNetwork, save_weights
from py2048.user_folders import cache_folder
from tests.networks import SMALL_TUPLES, random_network

SHIPPED_MEAN = 309850.876


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty networks folder of the test's own, no ``PY2048_NTUPLE_WEIGHTS``, and the
    network chosen afresh before and after the test (the choice is cached per process)."""
    chosen = tmp_path / "networks"
    chosen.mkdir()
    monkeypatch.setenv(NETWORKS_VARIABLE, str(chosen))
    monkeypatch.delenv(WEIGHTS_VARIABLE, raising=False)
    forget_network()
    yield chosen
    forget_network()


def strength(mean: float, games: int = 1000) -> GreedyStrength:
    return GreedyStrength(games, 2001, "c-rand", mean, {16384: 0.5, 32768: 0.01})


def installed(folder: Path, name: str, mean: float, network: NTupleNetwork | None = None) -> Path:
    """Put a network in the folder with figures saying greedy play averaged ``mean``."""
    network = network or random_network()
    path = weights_file(name, folder)
    save_weights(network, path)
    figures = NetworkFigures(
        file_digest(path),
        path.stat().st_size,
        network.tuples,
        network.stage_tiles,
        strength(mean),
    )
    write_figures(figures_file(name, folder), figures)
    return path


def other_network(seed: int) -> NTupleNetwork:
    network = NTupleNetwork.zeros(SMALL_TUPLES)
    network.weights[:] = np.random.default_rng(seed).normal(0, 100, network.weights.size)
    return network


def quietly_chosen() -> NetworkChoice:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would fail the test
        return chosen_network()


# --- the choice ---------------------------------------------------------------------------


def test_with_nothing_installed_the_shipped_network_plays(folder: Path) -> None:
    choice = chosen_network()
    assert choice.path == shipped_weights_path()
    assert choice.chosen_by == SHIPPED and choice.name == "shipped"
    in_use = network_in_use()
    assert in_use["shipped"] is True and in_use["chosen_by"] == SHIPPED
    assert "no installed network measured stronger" in str(in_use["why"])
    assert in_use["downgrade_from"] == 16384  # kept runs say how the network read their boards


def test_the_strongest_installed_network_plays(folder: Path) -> None:
    installed(folder, "good", 490_000, other_network(1))
    best = installed(folder, "best", 500_000)
    installed(folder, "weak", 100_000, other_network(2))
    choice = quietly_chosen()
    assert choice == chosen_network()
    assert choice.path == best and choice.name == "best" and choice.chosen_by == STRONGEST
    assert choice.weights.tuples == SMALL_TUPLES
    in_use = network_in_use()
    assert in_use["file"] == str(best) and in_use["shipped"] is False
    assert in_use["sha256"] == file_digest(best)[:16]
    assert "greedy mean 500,000 over 1,000 games" in str(in_use["why"])
    assert get_evaluator("ntuple").weights.nbytes < 2**20  # the small network's entries


@pytest.mark.parametrize("mean", [SHIPPED_MEAN, 150_000.0])
def test_the_shipped_network_keeps_its_place_on_a_tie_and_when_stronger(
    folder: Path, mean: float
) -> None:
    installed(folder, "mine", mean)
    choice = quietly_chosen()
    assert choice.chosen_by == SHIPPED and choice.path == shipped_weights_path()


def test_the_environment_variable_wins_over_the_strongest_installed(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed(folder, "best", 600_000)
    named = tmp_path / "named.npz"
    save_weights(other_network(5), named)
    monkeypatch.setenv(WEIGHTS_VARIABLE, str(named))
    choice = quietly_chosen()
    assert choice.path == named and choice.chosen_by == BY_VARIABLE and choice.name is None
    assert network_in_use()["chosen_by"] == BY_VARIABLE


def _cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:5000])


def _garbled(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 2000] = bytes(2000)
    path.write_bytes(bytes(data))


def _replaced(path: Path) -> None:
    save_weights(other_network(9), path)  # same shape, other weights: not what was measured


def _other_shape(path: Path) -> None:
    network = NTupleNetwork.zeros(((0, 1, 2, 3, 4), (4, 5, 6, 7, 8)))
    network.weights[:] = np.random.default_rng(4).normal(0, 100, network.weights.size)
    save_weights(network, path)


def _bad_figures(path: Path) -> None:
    path.with_suffix(".json").write_text('{"format": "py2048-network-figures", "version": 1')


DAMAGE = {
    "cut short": (_cut_short, "is cut short"),
    "damaged": (_garbled, "damaged"),
    "changed since measured": (_replaced, "has changed since it was measured"),
    "made for another shape": (_other_shape, "is made for another shape: its tuples are 2x5"),
    "unreadable figures": (_bad_figures, "not a network's figures or is damaged"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_network_that_cannot_be_used_is_skipped_with_a_warning_naming_it(
    folder: Path, damage: str
) -> None:
    harm, problem = DAMAGE[damage]
    best = installed(folder, "best", 500_000)
    second = installed(folder, "second", 490_000, other_network(3))
    harm(best)
    with pytest.warns(UserWarning) as caught:
        choice = chosen_network()
    assert choice.path == second and choice.chosen_by == STRONGEST
    (warning,) = caught
    text = str(warning.message)
    assert "installed network skipped" in text and problem in text
    assert str(best if damage != "unreadable figures" else figures_file("best", folder)) in text
    assert text.endswith("playing with second instead")
    assert [str(p.path) for p in choice.skipped] == [str(p.path) for p in chosen_network().skipped]


def test_when_every_stronger_network_is_damaged_the_shipped_one_plays(folder: Path) -> None:
    _cut_short(installed(folder, "best", 500_000))
    with pytest.warns(UserWarning, match="playing with the network py2048 ships instead"):
        choice = chosen_network()
    assert choice.chosen_by == SHIPPED
    shipped_mean = f"{SHIPPED_MEAN:,.0f}"
    assert f"measured stronger than its greedy mean {shipped_mean} cannot be used" in choice.why
    assert len(choice.skipped) == 1


def test_a_weaker_damaged_network_is_never_read(folder: Path) -> None:
    _cut_short(installed(folder, "weak", 1_000))
    assert quietly_chosen().chosen_by == SHIPPED


def test_a_weights_file_without_figures_is_listed_but_never_chosen(folder: Path) -> None:
    save_weights(random_network(), folder / "unmeasured.npz")
    (folder / ".unmeasured.npz.123.abc.tmp").write_bytes(b"left over")
    (folder / ".hidden.npz").write_bytes(b"")
    (found,) = installed_networks()
    assert found.name == "unmeasured" and found.figures is None and found.problem is None
    assert quietly_chosen().chosen_by == SHIPPED


def test_the_choice_is_kept_until_forgotten(folder: Path) -> None:
    assert chosen_network().chosen_by == SHIPPED
    best = installed(folder, "best", 500_000)
    assert chosen_network().chosen_by == SHIPPED  # chosen once per process
    forget_network()
    assert chosen_network().path == best


def test_playing_with_a_file_chooses_it_within_the_block_only(folder: Path, tmp_path: Path) -> None:
    named = tmp_path / "named.npz"
    save_weights(random_network(), named)
    before = get_evaluator("ntuple")
    with playing_with(named):
        assert chosen_network().path == named.resolve()
        assert get_evaluator("ntuple") is not before
    assert chosen_network().chosen_by == SHIPPED
    with pytest.raises(WeightsError, match="no such file"), playing_with(tmp_path / "none.npz"):
        pass  # pragma: no cover


# --- figures and folder -------------------------------------------------------------------


def test_the_shipped_figures_are_those_of_the_shipped_file() -> None:
    figures = shipped_figures()
    path = shipped_weights_path()
    assert figures.sha256 == file_digest(path) and figures.bytes == path.stat().st_size
    assert describe_shape(figures.tuples, figures.stage_tiles) == "8x6"
    greedy = figures.greedy
    assert (greedy.games, greedy.first_seed, greedy.last_seed, greedy.rng) == (
        1000,
        2001,
        3000,
        "c-rand",
    )
    assert greedy.mean_score == SHIPPED_MEAN  # docs/ntuple.md, docs/results/runs/
    assert greedy.reached == {16384: 0.759, 32768: 0.048}


@given(
    mean=st.floats(0, 1e7, allow_nan=False),
    games=st.integers(1, 10**6),
    first=st.integers(0, 10**6),
    shares=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    stages=st.sets(st.sampled_from([256, 8192, 16384, 32768]), max_size=2),
)
def test_figures_read_back_as_written(
    mean: float,
    games: int,
    first: int,
    shares: tuple[float, float],
    stages: set[int],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    figures = NetworkFigures(
        "ab" * 32,
        123,
        SMALL_TUPLES,
        tuple(sorted(stages)),
        GreedyStrength(games, first, "c-rand", mean, {16384: shares[0], 32768: shares[1]}),
    )
    path = tmp_path_factory.mktemp("figures") / "x.json"
    write_figures(path, figures)
    assert read_figures(path) == figures


@pytest.mark.parametrize(
    "change",
    [
        {"format": "other"},
        {"version": 2},
        {"sha256": "abc"},
        {"bytes": -1},
        {"tuples": "0,1,2,16"},
        {"stage_tiles": [3]},
        {"greedy": {"games": 0}},
        {"greedy": {"mean_score": "high"}},
        {"greedy": {"reached": {"16384": 1.5, "32768": 0}}},
        {"greedy": {"reached": {"8192": 0.5}}},
    ],
)
def test_bad_figures_are_refused_naming_the_file(tmp_path: Path, change: dict[str, object]) -> None:
    data = shipped_figures().to_json()
    for key, value in change.items():
        if isinstance(value, dict):
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(WeightsError, match="not a network's figures or is damaged") as raised:
        read_figures(path)
    assert raised.value.path == str(path)


def test_stronger_networks_rank_by_mean_then_name(folder: Path) -> None:
    for name, mean in (("b", 500_000), ("a", 500_000), ("c", 600_000), ("d", 1)):
        installed(folder, name, mean)
    ranked = stronger_networks(installed_networks(), shipped_figures())
    assert [network.name for network in ranked] == ["c", "a", "b"]


def test_the_folder_is_the_environment_variable_or_the_user_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(NETWORKS_VARIABLE, str(tmp_path))
    assert networks_dir() == tmp_path
    assert networks_dir(tmp_path / "given") == tmp_path / "given"
    monkeypatch.delenv(NETWORKS_VARIABLE)
    assert networks_dir().parts[-2:] == ("py2048", "networks")
    assert cache_folder("tables", NETWORKS_VARIABLE).parent == networks_dir().parent
    assert installed_networks(tmp_path / "missing") == []
    (tmp_path / "a-file").write_text("")
    assert installed_networks(tmp_path / "a-file") == []


@pytest.mark.parametrize("name", ["shipped", "a/b", "", ".hidden", "x.npz", "two words"])
def test_a_name_that_cannot_name_a_network_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="name"):
        networks.check_name(name)


def test_shapes_are_described_in_a_few_characters() -> None:
    assert describe_shape(SMALL_TUPLES, ()) == "4x4"
    assert describe_shape(((0, 1, 2, 3, 4, 5), (0, 1, 2, 3)), (16384,)) == "1x6+1x4 staged at 16384"


def test_the_bench_header_names_the_installed_network_that_plays(folder: Path) -> None:
    from py2048.solver.bench_report import network_line
    from py2048.solver.bench_settings import BenchSettings

    best = installed(folder, "best", 500_000)
    line = network_line(BenchSettings(evaluator="ntuple"))
    assert line == (
        f"network: best, the strongest measured of those installed ({best}, sha256 "
        f"{file_digest(best)[:16]})"
    )
