"""numba's cache folder follows the sources: a kernel never runs code older than its callees."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba

from py2048._compile_cache import KEPT_FOLDERS, cache_folder, sources_fingerprint

CALLER = """
from numba import njit
from probe.callee import number

@njit(cache=True)
def caller():
    return number()
"""
RUN = """
import sys
from pathlib import Path
import numba
from py2048._compile_cache import cache_folder
folder = cache_folder(Path(sys.argv[1]) / "probe", Path(sys.argv[2]), numba.__version__)
numba.config.CACHE_DIR = str(folder)
sys.path.insert(0, sys.argv[1])
from probe.caller import caller
print(caller())
"""


def write_callee(root: Path, value: int, mtime: int) -> None:
    callee = root / "probe" / "callee.py"
    callee.write_text(
        f"from numba import njit\n\n@njit(inline='always')\ndef number():\n    return {value}\n"
    )
    os.utime(callee, ns=(mtime, mtime))


def run_probe(root: Path, base: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", RUN, str(root), str(base)],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return result.stdout.strip()


def test_a_kernel_sees_a_change_in_the_module_it_calls(tmp_path: Path) -> None:
    # numba alone would load caller's cached code, compiled with the old callee inlined.
    root, base = tmp_path / "src", tmp_path / "cache"
    (root / "probe").mkdir(parents=True)
    (root / "probe" / "__init__.py").write_text("")
    (root / "probe" / "caller.py").write_text(textwrap.dedent(CALLER))
    write_callee(root, 1, 1_000_000_000)
    assert run_probe(root, base) == "1"
    assert run_probe(root, base) == "1"  # from the cache
    write_callee(root, 2, 2_000_000_000)
    assert run_probe(root, base) == "2"


def test_the_folder_is_the_same_for_the_same_sources_and_new_for_changed_ones(
    tmp_path: Path,
) -> None:
    package, base = tmp_path / "package", tmp_path / "cache"
    package.mkdir()
    source = package / "a.py"
    source.write_text("x = 1\n")
    first = cache_folder(package, base, numba.__version__)
    assert first is not None and first.is_dir()
    assert cache_folder(package, base, numba.__version__) == first
    assert cache_folder(package, base, "0.0.0") != first  # another numba compiles afresh
    source.write_text("x = 22\n")
    assert cache_folder(package, base, numba.__version__) != first


def test_only_the_newest_folders_are_kept(tmp_path: Path) -> None:
    package, base = tmp_path / "package", tmp_path / "cache"
    package.mkdir()
    made = []
    for version in range(KEPT_FOLDERS + 3):
        folder = cache_folder(package, base, f"{version}.0")
        assert folder is not None
        os.utime(folder, (version, version))
        made.append(folder)
    kept = sorted(p for p in base.iterdir())
    assert made[-1] in kept
    assert len(kept) == KEPT_FOLDERS


def test_a_cache_that_cannot_be_made_leaves_numba_as_it_is(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert cache_folder(package, blocker / "cache", numba.__version__) is None
    assert sources_fingerprint(package, "1") != sources_fingerprint(package, "2")


def test_importing_py2048_points_numba_at_the_folder_of_its_sources(tmp_path: Path) -> None:
    probe = "import numba, py2048; print(numba.config.CACHE_DIR)"
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    environment.pop("PY2048_NUMBA_BASE", None)
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=environment,
        timeout=120, check=True,
    )  # fmt: skip
    folder = Path(result.stdout.strip())
    assert folder.parent == tmp_path
    assert folder.name.startswith("kernels-")
