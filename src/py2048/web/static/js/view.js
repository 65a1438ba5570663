// Everything the player sees and hears: tiles and their animations, the accessible grid,
// scores, banners, the hint; notices and the polite live region come from Announcer. Knows no
// rules: it draws what the server says happened.

import { Announcer } from "./announcer.js";
import { DEFAULT_SIZE, MAX_SIDE, MIN_SIDE } from "./storage.js";
import { boardShape, makeTile, placeTile, shapeGrid } from "./tiles.js";

export const DIRECTIONS = ["up", "right", "down", "left"];
export const ARROWS = { up: "↑", right: "→", down: "↓", left: "←" };

const SLIDE_MS = 100;
/** How long "+N" shows after a move (as the original game's). */
const ADDITION_MS = 600;

function byId(id) {
  return document.getElementById(id);
}


/** The size menu's options: the squares, then the rectangles (rows × columns). */
function fillSizes(select) {
  for (const group of select.querySelectorAll("optgroup")) {
    const squares = group.dataset.sizes === "square";
    for (let r = MIN_SIDE; r <= MAX_SIDE; r++) {
      for (let c = MIN_SIDE; c <= MAX_SIDE; c++) {
        if ((r === c) === squares) group.append(new Option(`${r}×${c}`, `${r}x${c}`));
      }
    }
  }
  select.value = DEFAULT_SIZE;
}

export class View extends Announcer {
  constructor() {
    super();
    this.tiles = byId("tiles");
    this.grid = byId("grid");
    this.cells = [...this.grid.querySelectorAll("[role=gridcell]")];
    this.score = byId("score");
    this.best = byId("best");
    this.winBanner = byId("win-banner");
    this.overBanner = byId("over-banner");
    this.finalScore = byId("final-score");
    this.hintPanel = byId("hint-panel");
    this.autoplayButton = byId("autoplay");
    this.practiceButton = byId("practice");
    this.undoButton = byId("undo");
    this.practiceBadge = byId("practice-badge");
    this.confirmDialog = byId("confirm-dialog");
    this.sizeSelect = byId("size");
    fillSizes(this.sizeSelect);
    this.sizeNote = byId("size-note");
    this.reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
    this.translator = null;
    this.board = null;
    this.quick = false; // autoplay at "max": no slide to wait for, no pop
  }

  get language() {
    return this.translator.language;
  }

  setTranslator(translator) {
    this.translator = translator;
    if (this.board) this.labelCells(this.board);
  }

  t(key, values) {
    return this.translator.t(key, values);
  }

  number(value) {
    return this.translator.number(value);
  }

  /** The board size being played, "5x5": the size menu shows it, and on 3x3 a note says
   *  that 2048 cannot be made there. */
  setSize(size) {
    this.sizeSelect.value = size;
    this.sizeNote.hidden = size !== "3x3";
  }

  /** Draw `board` at once (a loaded or new game): its tiles appear, nothing slides. The grid
   *  takes the board's shape. */
  drawBoard(board) {
    this.cells = shapeGrid(this.grid, boardShape(board));
    this.tiles.replaceChildren();
    board.forEach((row, r) =>
      row.forEach((value, c) => {
        if (value) this.tiles.append(makeTile(value, [r, c], "tile-new"));
      }),
    );
    this.labelCells(board);
  }

  /**
   * Animate one move from the server's answer: every tile slides from its old cell to its new
   * one, merged pairs pop into their sum, the spawned tile appears. Resolves when the slide
   * is over, so queued moves follow one another visibly.
   */
  animateMove({ motions, spawned, state }) {
    this.tiles.replaceChildren();
    const sliding = [];
    const mergedCells = new Map();
    for (const motion of motions) {
      const tile = makeTile(motion.value, motion.from);
      this.tiles.append(tile);
      sliding.push([tile, motion.to]);
      if (motion.merged) mergedCells.set(motion.to.join(","), motion.to);
    }
    // Styles must settle at the old cells before the tiles move, or nothing would slide.
    void this.tiles.getBoundingClientRect();
    for (const [tile, to] of sliding) placeTile(tile, to);
    for (const [row, col] of mergedCells.values()) {
      this.tiles.append(makeTile(state.board[row][col], [row, col], "tile-merged"));
    }
    if (spawned) {
      this.tiles.append(makeTile(spawned.value, [spawned.row, spawned.col], "tile-new"));
    }
    this.labelCells(state.board);
    const wait = this.reducedMotion.matches || this.quick ? 0 : SLIDE_MS;
    return new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Each grid cell's accessible name: its tile's value, or "empty". */
  labelCells(board) {
    this.board = board;
    board.flat().forEach((value, index) => {
      this.cells[index].setAttribute("aria-label", value ? String(value) : this.t("cell.empty"));
    });
  }

  /**
   * Show the score; a positive `gain` also shows as "+N" beside the score's label, fading out
   * (one at a time: the next move's replaces it).
   */
  setScore(score, gain = 0) {
    this.score.textContent = String(score);
    const box = this.score.parentElement;
    box.querySelector(".score-addition")?.remove();
    if (gain > 0 && !this.reducedMotion.matches) {
      const addition = document.createElement("div");
      addition.className = "score-addition";
      addition.setAttribute("aria-hidden", "true");
      addition.textContent = `+${gain}`;
      const remove = () => addition.remove();
      addition.addEventListener("animationend", remove);
      setTimeout(remove, ADDITION_MS + 100); // also where animations never run
      box.append(addition);
    }
  }

  setBest(best) {
    this.best.textContent = String(best);
  }

  showWin() {
    this.overBanner.hidden = true;
    this.winBanner.hidden = false;
    byId("keep-going").focus();
  }

  showOver(score) {
    this.winBanner.hidden = true;
    this.setFinalScore(score);
    this.overBanner.hidden = false;
    byId("try-again").focus();
  }

  setFinalScore(score) {
    this.finalScore.textContent = this.t("over.score", { score });
  }

  hideBanners() {
    const hadFocus = this.winBanner.contains(document.activeElement) ||
      this.overBanner.contains(document.activeElement);
    this.winBanner.hidden = true;
    this.overBanner.hidden = true;
    if (hadFocus) this.grid.focus();
  }

  /** Show a hint as the advisor words it: {move, chance, grades, columns, rows, how} (see
   *  describeAdvice): each move's grade on top, the numbers under the details. */
  showHint({ move, chance, grades, columns, rows, how }) {
    byId("hint-move").textContent = move;
    const chanceHeading = byId("hint-chance-heading");
    chanceHeading.textContent = chance;
    chanceHeading.hidden = !chance;
    byId("hint-grades").replaceChildren(
      ...grades.map((row) => this.hintRow(row, chance ? [row.grade, row.chance] : [row.grade])),
    );
    byId("hint-figure-heading").textContent = columns[0] ?? "";
    byId("hint-compare-heading").textContent = columns[1] ?? "";
    byId("hint-values").replaceChildren(
      ...rows.map((row) => this.hintRow(row, [row.figure, row.compare])),
    );
    byId("hint-how").textContent = how;
    this.hintPanel.querySelector(".hint-grades").hidden = grades.length === 0;
    this.hintPanel.querySelector("details").hidden = !how;
    this.hintPanel.hidden = false;
    // Where the hint sits below the board (a phone), bring it into sight.
    this.hintPanel.scrollIntoView({ block: "nearest" });
  }

  /** A row of a hint's table: the move, then `cells`. */
  hintRow(row, cells) {
    const line = document.createElement("tr");
    line.dataset.direction = row.direction;
    if (row.best) line.className = "best";
    const label = document.createElement("th");
    label.scope = "row";
    label.textContent = row.label;
    line.append(label);
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = text;
      line.append(cell);
    }
    return line;
  }

  hideHint() {
    this.hintPanel.hidden = true;
  }

  /** Mark the page busy while moves are in flight (`html[data-busy]`), e.g. for tests. */
  setBusy(busy) {
    document.documentElement.dataset.busy = String(busy);
  }

  /** Practice mode on or off: the toggle's state, and the Undo button shown only while on. */
  setPracticeMode(on) {
    this.practiceButton.setAttribute("aria-pressed", String(on));
    this.undoButton.hidden = !on;
  }

  /** Mark the game on screen as practice (Undo was used in it), or not. */
  setPracticeGame(practice) {
    this.practiceBadge.hidden = !practice;
  }

  /** Autoplay at "max": slides are not waited for and tiles do not pop (`html[data-quick]`). */
  setQuickMotion(quick) {
    this.quick = quick;
    document.documentElement.toggleAttribute("data-quick", quick);
  }

  setAutoplay(running) {
    this.autoplayButton.setAttribute("aria-pressed", String(running));
    this.autoplayButton.textContent = this.t(running ? "button.stop" : "button.autoplay");
  }

  /**
   * Ask before throwing a game away; resolves true when the player confirms.
   *
   * The browser fires "close" in a later task, and may run a key press first: the close event
   * of the last showing can then arrive while this one is open. Such an event is ignored.
   */
  confirmNewGame() {
    const dialog = this.confirmDialog;
    if (dialog.open) return Promise.resolve(false);
    dialog.returnValue = "";
    return new Promise((resolve) => {
      const onClose = () => {
        if (dialog.open) return;
        dialog.removeEventListener("close", onClose);
        resolve(dialog.returnValue === "confirm");
      };
      dialog.addEventListener("close", onClose);
      dialog.showModal();
    });
  }
}
