"""Every Python example of the README and docs/ runs and prints what the document shows.

An example's output is the ```text block that follows it with nothing but blank lines between
(compared as doctest compares, with runs of whitespace equal and ``...`` matching anything); an
example without such a block must print nothing. Examples run in a fresh namespace whose
``__name__`` is not ``"__main__"`` (a script's main part stays off), in a scratch folder, with
the endgame table docs/tables.md's example opens built in a scratch tables folder.
"""

from __future__ import annotations

import doctest
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from py2048 import Game

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = (README, *sorted((ROOT / "docs").glob("*.md")))
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
COMPARE = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass(frozen=True)
class Example:
    path: Path
    line: int
    code: str
    shown: str | None
    """The output the document shows under the example; None when it shows none."""

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def examples(path: Path) -> list[Example]:
    text = path.read_text(encoding="utf-8")
    blocks = list(FENCE.finditer(text))
    found: list[Example] = []
    if not blocks:
        return found
    for block, following in zip(blocks, [*blocks[1:], None], strict=True):
        if block.group(1).strip() != "python":
            continue
        shown = None
        if (
            following is not None
            and following.group(1).strip() == "text"
            and not text[block.end() : following.start()].strip()
        ):
            shown = following.group(2)
        line = text.count("\n", 0, block.start()) + 2
        found.append(Example(path, line, block.group(2), shown))
    return found


EXAMPLES = [example for path in DOCUMENTS for example in examples(path)]


def test_the_documents_have_their_python_examples() -> None:
    counted = {path.name: sum(e.path == path for e in EXAMPLES) for path in DOCUMENTS}
    assert counted["README.md"] >= 1 and counted["rl.md"] == 5, counted
    assert counted["engine.md"] >= 1 and counted["review.md"] >= 1, counted
    assert counted["ntuple.md"] >= 1 and counted["tables.md"] >= 1, counted
    assert sum(e.shown is not None for e in EXAMPLES) >= 7


@pytest.fixture(scope="module")
def tables_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tables folder with the one table an example opens (snake8-128: 1.5 s to build)."""
    from py2048.tables import get_formation
    from py2048.tables.builder import build_table

    folder = tmp_path_factory.mktemp("tables")
    build_table(get_formation("snake8-128"), folder)
    return folder


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_an_example_runs_and_prints_what_the_document_shows(
    example: Example,
    tables_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PY2048_TABLES_DIR", str(tables_folder))
    monkeypatch.chdir(tmp_path)
    code = compile("\n" * (example.line - 1) + example.code, str(example.path), "exec")
    exec(code, {"__name__": "docs_example"})
    printed = capsys.readouterr().out
    if example.shown is None:
        assert printed == "", f"{example.name} prints output the document does not show"
    else:
        checker = doctest.OutputChecker()
        assert checker.check_output(example.shown, printed, COMPARE), (
            f"{example.name} shows\n{example.shown}but prints\n{printed}"
        )


def test_the_save_format_example_is_the_save_of_its_seed() -> None:
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text[text.index("## The save format") :]
    shown = json.loads(re.search(r"```json\n(.*?)```", section, re.DOTALL).group(1))
    assert shown == json.loads(Game(seed=shown["seed"]).to_json())
