"""The examples in docs/rl.md run as printed."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_document_has_its_five_examples() -> None:
    assert len(BLOCKS) == 5


@pytest.mark.parametrize("code", BLOCKS[:4], ids=["env", "vector env", "sizes", "batch"])
def test_usage_examples_run(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, str(DOC), "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out.strip()


def test_training_example_learns(capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict[str, object] = {"__name__": "td_2048"}
    exec(compile(BLOCKS[4], str(DOC), "exec"), namespace)
    weights = namespace["train"](games=400, boards=64, report_every=200)
    assert isinstance(weights, np.ndarray) and np.count_nonzero(weights) > 100
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split()[:3] == ["games", "mean", "score"]
    assert len(rows) == 3
