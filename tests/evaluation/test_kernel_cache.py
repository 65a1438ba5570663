"""Networks' compiled kernels on numba's disk cache: two processes that compile kernels for
different networks at the same moment must not leave either one's code under the other's key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from py2048._compile_cache import constants_digest

NETWORKS = """
from py2048.evaluation.ntuple import int16_evaluator
from py2048.evaluation.storage import quantise
from py2048.learn.network import NTupleNetwork
from tests.networks import whole_weights

def network(tuples):
    return whole_weights(NTupleNetwork.zeros(tuples), seed=len(tuples))

NETWORKS = {
    "a": network(((0, 5, 10, 15), (3, 6, 9, 12, 1))),
    "b": network(((0, 1, 2), (7, 11, 15), (12, 13, 8, 9))),
}

def evaluator(name, downgrade_from=0):
    scale, entries = quantise(NETWORKS[name].weights)
    layout = NETWORKS[name].layout
    return int16_evaluator(layout, scale, entries, name, downgrade_from=downgrade_from)
"""

# Both processes read numba's cache index before either writes it, then write in the order
# that numba's index-then-data writes allow: a's index, b's index, b's data, a's data. Before
# each network's kernels had a cache name of their own, b's key was left naming a's code.
RACER = (
    NETWORKS
    + """
import sys, time
from pathlib import Path
from numba.core.caching import IndexDataCacheFile as Cache

me, sync = sys.argv[1], Path(sys.argv[2])
other = "b" if me == "a" else "a"
racing = False  # set for the one compile that races
saving = False  # inside Cache.save of the racing kernel's index

def wait(name):
    deadline = time.monotonic() + 120
    while not (sync / name).exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"{me}: {name} never came")
        time.sleep(0.01)

def mark(name):
    (sync / name).touch()

def step(method, before=None, after=None):
    def run(self, *args):
        if saving and before:
            before()
        result = method(self, *args)
        if saving and after:
            after()
        return result
    return run

def read_then_meet():
    mark(f"read-{me}")
    wait(f"read-{other}")
    if me == "b":
        wait("index-a")

save = Cache.save

def racing_save(self, key, data):
    global saving
    saving = racing and "ntuple_value" in self._index_name
    try:
        return save(self, key, data)
    finally:
        saving = False

Cache.save = racing_save
Cache._load_index = step(Cache._load_index, after=read_then_meet)
if me == "a":
    Cache._save_index = step(Cache._save_index, after=lambda: mark("index-a"))
    Cache._save_data = step(Cache._save_data, before=lambda: wait("data-b"))
else:
    Cache._save_data = step(Cache._save_data, after=lambda: mark("data-b"))

evaluator(me)  # the process's other kernels, outside the race
racing = True
evaluator(me, downgrade_from=4096)
print("compiled")
"""
)

CHECK = (
    NETWORKS
    + """
import numpy as np
from py2048.engine.board import pack_exponents

rng = np.random.default_rng(1)
for name, network in NETWORKS.items():
    value = evaluator(name, downgrade_from=4096)
    for _ in range(300):
        lo, hi = pack_exponents([int(e) for e in rng.integers(0, 12, 16)])
        assert value(lo, hi) == max(network.value_packed(lo, hi), 0.0), name
print("same")
"""
)


def python(code: str, *args: str, cache: Path) -> subprocess.Popen[str]:
    root = Path(__file__).resolve().parents[2]
    environment = {**os.environ, "PY2048_NUMBA_BASE": str(cache), "PYTHONPATH": str(root)}
    environment.pop("NUMBA_CACHE_DIR", None)
    return subprocess.Popen(
        [sys.executable, "-c", code, *args], env=environment, cwd=root,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def finish(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err[-3000:]
    return out.strip()


def test_networks_compiled_at_once_keep_their_own_code_in_the_cache(tmp_path: Path) -> None:
    cache, sync = tmp_path / "cache", tmp_path / "sync"
    sync.mkdir()
    finish(python("import py2048.evaluation.ntuple", cache=cache))  # the shared kernels
    racers = [python(RACER, me, str(sync), cache=cache) for me in ("a", "b")]
    assert [finish(racer) for racer in racers] == ["compiled", "compiled"]
    assert finish(python(CHECK, cache=cache)) == "same"  # both read back from the cache


def test_equal_constants_have_equal_digests_and_others_differ() -> None:
    import numpy as np

    plan = ((0, 1, 18, 0, 15, 0), (1, 0, 18, 4, 240, 4))
    assert constants_digest((plan, 2, False, 0.5)) == constants_digest((plan, 2, False, 0.5))
    others = [(plan, 2, True, 0.5), (plan, 2, False, 0.25), (plan[:1], 2, False, 0.5)]
    digests = {constants_digest(c) for c in [(plan, 2, False, 0.5), *others]}
    assert len(digests) == 4
    array = np.arange(4, dtype=np.int64)
    assert constants_digest(array) == constants_digest(array.copy())
    assert constants_digest(array) != constants_digest(array.astype(np.int32))
    with pytest.raises(TypeError, match="object"):
        constants_digest(object())
