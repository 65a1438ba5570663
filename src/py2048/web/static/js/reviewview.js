// What the review page shows: the game's line, the progress of the solver's grading, the
// replay's board and controls, the move at the current position, the summary, the evaluation
// graph and the costliest moves; notices and the polite live region come from Announcer.
// Knows no rules: it draws the server's review.

import { Announcer } from "./announcer.js";
import { boardShape, drawTiles, miniBoard, shapeGrid } from "./tiles.js";
import { ARROWS, DIRECTIONS } from "./view.js";

/** SVG's namespace, as the HTML parser gives it to an <svg> (no address in our files). */
const SVG = (() => {
  const template = document.createElement("template");
  template.innerHTML = "<svg></svg>";
  return template.content.firstElementChild.namespaceURI;
})();
/** The graph's frame in CSS pixels; its width follows the page (so its labels keep their size). */
const GRAPH = { width: 640, height: 220, left: 64, right: 12, top: 12, bottom: 28 };

function byId(id) {
  return document.getElementById(id);
}

function svg(name, attributes = {}) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

/** The final score each position promised (the score plus the best move's value), and at the
 *  end the game's final score: the graph's line. A game still in progress (`over` false) has
 *  no final score yet: its last point is what its last move promised. A review graded by the
 *  heuristic (off 4x4) has no scores to promise: its line is the best move's value. */
export function expectedScores(review, over = true) {
  const byValue = review.graded_by === "heuristic";
  const promised = (move, name) => (byValue ? 0 : move.score) + move.values[name];
  const line = review.moves.map((move) => promised(move, move.best));
  const last = review.moves.at(-1);
  if (byValue) line.push(last ? promised(last, last.played) : 0);
  else line.push(over || !last ? review.final_score : promised(last, last.played));
  return line;
}

export class ReviewView extends Announcer {
  constructor() {
    super();
    this.grid = byId("grid");
    this.cells = [...this.grid.querySelectorAll("[role=gridcell]")];
    this.tiles = byId("tiles");
    this.slider = byId("replay-slider");
    this.settingSelect = byId("review-setting");
    this.translator = null;
    this.onSeek = () => {};
  }

  setTranslator(translator) {
    this.translator = translator;
  }

  t(key, values) {
    return this.translator.t(key, values);
  }

  number(value) {
    return this.translator.number(value);
  }

  percent(share) {
    return `${this.number(Math.round(share * 1000) / 10)}%`;
  }

  direction(name) {
    return `${ARROWS[name]} ${this.t(`dir.${name}`)}`;
  }

  /** Say `text` beside the Share, Export and Import buttons, where the player is looking, and
   *  move focus there (so a screen reader reads it too). */
  sayBesideButtons(text) {
    const message = byId("share-message");
    message.textContent = text;
    message.hidden = false;
    message.focus();
  }

  hideButtonsMessage() {
    byId("share-message").hidden = true;
  }

  // --- states of the page ------------------------------------------------------------------------

  /** Nothing to review: the page says how to open a review. */
  showEmpty() {
    byId("review-empty").hidden = false;
    for (const id of ["review-toolbar", "replay", "move-panel", "summary", "graph-section"]) {
      byId(id).hidden = true;
    }
    byId("costliest-section").hidden = true;
    byId("share-link-line").hidden = true;
    for (const id of ["copy-link", "export", "share-game"]) byId(id).disabled = true;
    byId("review-game").textContent = "";
    byId("practice-note").hidden = true;
  }

  /** `key`, or its words for a review graded by the heuristic (values, not points). */
  valued(key) {
    return this.byValue ? `${key}Value` : key;
  }

  /** `line` about the game under review, with its board size first when it is not 4x4. */
  sized(line) {
    const size = this.size ?? "4x4";
    return size === "4x4" ? line : this.t("review.sizeLine", { size: size.replace("x", "×"), line });
  }

  /** The game being reviewed, before and while it is graded: its seed, moves and the mark of
   *  a practice game; the link to share. */
  showGame(game, link) {
    byId("review-empty").hidden = true;
    byId("review-toolbar").hidden = false;
    byId("practice-note").hidden = !game.practice;
    this.size = game.size;
    byId("review-game").textContent = this.sized(
      this.t("review.gameLine", { seed: game.seed, moves: this.number(game.history.length) }),
    );
    byId("review-link").value = link;
    byId("share-link-line").hidden = false;
    byId("copy-link").disabled = false;
    byId("export").disabled = true; // until the server has replayed the game
    byId("share-game").disabled = true; // until its score is known
  }

  /** The solver is grading: how far it has got, with Cancel. */
  showProgress(graded, total) {
    const status = byId("review-status");
    status.hidden = false;
    byId("review-cancel").hidden = false;
    byId("review-again").hidden = true;
    byId("status-text").textContent = this.t("review.progress", {
      graded: this.number(graded),
      total: this.number(total),
    });
    const progress = byId("review-progress");
    progress.hidden = false;
    progress.max = Math.max(total, 1);
    progress.value = graded;
    document.documentElement.dataset.reviewing = "true";
  }

  /** The grading stopped before its end (cancelled, refused or failed): say why. */
  showStopped(text) {
    byId("review-status").hidden = false;
    byId("status-text").textContent = text;
    byId("review-progress").hidden = true;
    byId("review-cancel").hidden = true;
    byId("review-again").hidden = false;
    document.documentElement.dataset.reviewing = "false";
  }

  hideProgress() {
    byId("review-status").hidden = true;
    byId("review-again").hidden = true;
    document.documentElement.dataset.reviewing = "false";
  }

  setting() {
    return this.settingSelect.value;
  }

  // --- the whole review --------------------------------------------------------------------------

  /** Show a finished review: the line of the game, the summary, the graph, the costliest moves;
   *  then `showPosition` draws a position. */
  showReview(review, practice, over = true) {
    this.review = review;
    // Graded by the heuristic (off 4x4): its values are no points, and are shown as they are.
    this.byValue = review.graded_by === "heuristic";
    for (const [id, key] of [["graph-title", "graph.title"], ["move-figure", "hint.columnFinal"]]) {
      byId(id).dataset.i18n = this.byValue ? `${key}Value` : key;
      byId(id).textContent = this.t(byId(id).dataset.i18n);
    }
    this.practice = practice;
    this.over = over;
    byId("review-game").textContent = this.sized(
      this.t("review.gameLineDone", {
        seed: review.seed,
        moves: this.number(review.moves.length),
        score: this.number(review.final_score),
        tile: review.max_tile,
      }),
    );
    for (const id of ["replay", "summary", "graph-section", "costliest-section"]) {
      byId(id).hidden = false;
    }
    byId("export").disabled = false;
    byId("share-game").disabled = false;
    this.slider.max = String(review.moves.length);
    this.showSummary(review);
    this.drawGraph(review);
    this.showCostliest(review);
  }

  showSummary(review) {
    byId("accuracy").textContent = `${this.number(review.accuracy)}%`;
    byId("grade-counts-body").replaceChildren(
      ...Object.entries(review.counts).map(([grade, count]) => {
        const row = document.createElement("tr");
        row.className = `grade-${grade}`;
        const name = document.createElement("th");
        name.scope = "row";
        name.textContent = this.t(`grade.${grade}`);
        const figure = document.createElement("td");
        figure.textContent = this.number(count);
        row.append(name, figure);
        return row;
      }),
    );
  }

  // --- one position ------------------------------------------------------------------------------

  /** Draw position `position` (0: the start; moves.length: after the last move) and the move
   *  played from it. */
  showPosition(position) {
    const review = this.review;
    const total = review.moves.length;
    const move = review.moves[position];
    const board = move ? move.board : review.final_board;
    this.cells = shapeGrid(this.grid, boardShape(board));
    drawTiles(this.tiles, this.cells, board, this.t("cell.empty"), "");
    this.slider.value = String(position);
    byId("replay-position").textContent = move
      ? this.t("replay.before", { move: move.number, total: this.number(total) })
      : this.t("replay.final", { total: this.number(total) });
    byId("replay-start").disabled = byId("replay-back").disabled = position === 0;
    byId("replay-forward").disabled = byId("replay-end").disabled = position === total;
    this.showMove(move, review);
    this.moveCursor(position);
  }

  /** The move played from the position on screen: its grade, what it cost, each move's worth
   *  and the rule book's mistake it matches. */
  showMove(move, review) {
    byId("move-panel").hidden = false;
    const title = byId("move-title");
    const values = byId("move-values");
    const mistake = byId("move-mistake");
    if (!move) {
      title.replaceChildren(this.t("move.finalTitle"));
      byId("move-detail").textContent = this.t("move.final", {
        score: this.number(review.final_score),
      });
      values.hidden = true;
      mistake.hidden = true;
      return;
    }
    const grade = document.createElement("span");
    grade.className = `grade grade-${move.grade}`;
    grade.textContent = this.t(`grade.${move.grade}`);
    title.replaceChildren(
      `${this.t("move.title", { move: move.number, direction: this.direction(move.played) })} `,
      grade,
    );
    const base = this.byValue ? 0 : move.score;
    const expected = base + move.values[move.best];
    let detail;
    if (move.forced) detail = this.t("move.forced");
    else if (move.loss === 0 && move.played === move.best) detail = this.t("move.best");
    else if (move.loss === 0) detail = this.t("move.tie", { better: this.direction(move.best) });
    else {
      detail = this.t(this.valued("move.cost"), {
        better: this.direction(move.best),
        points: this.number(Math.round(move.loss)),
        percent: this.percent(move.relative),
        expected: this.number(Math.round(expected)),
      });
    }
    byId("move-detail").textContent = detail;
    values.hidden = false;
    byId("move-values-body").replaceChildren(
      ...DIRECTIONS.filter((name) => name in move.values).map((name) => {
        const row = document.createElement("tr");
        row.dataset.direction = name;
        if (name === move.best) row.classList.add("best");
        if (name === move.played) row.classList.add("played");
        const label = document.createElement("th");
        label.scope = "row";
        label.textContent = this.direction(name);
        if (name === move.played) label.textContent += ` ${this.t("move.played")}`;
        const figure = document.createElement("td");
        figure.textContent = this.number(Math.round(base + move.values[name]));
        const behind = Math.round(move.values[move.best] - move.values[name]);
        const compare = document.createElement("td");
        compare.textContent =
          behind > 0
            ? this.t(this.byValue ? "hint.behindValue" : "hint.behind", { points: this.number(behind) })
            : this.t("hint.best");
        row.append(label, figure, compare);
        return row;
      }),
    );
    this.showMistake(mistake, move.mistake);
  }

  showMistake(element, mistake) {
    element.hidden = !mistake;
    if (!mistake) return;
    const link = document.createElement("a");
    link.href = mistake.link;
    link.textContent = this.t("mistake.link");
    element.replaceChildren(
      `${this.t("mistake.label", {
        rule: this.t(`mistake.${mistake.name}.rule`),
        says: this.t(`mistake.${mistake.name}.says`),
      })} `,
      link,
    );
  }

  // --- the evaluation graph ----------------------------------------------------------------------

  x(position) {
    const total = Math.max(this.review.moves.length, 1);
    return GRAPH.left + ((GRAPH.width - GRAPH.left - GRAPH.right) * position) / total;
  }

  y(value) {
    const span = GRAPH.height - GRAPH.top - GRAPH.bottom;
    return GRAPH.top + span * (1 - Math.max(0, value) / this.graphTop);
  }

  /** The expected final score over the game as an SVG line, the costliest moves marked (each
   *  a button that shows its move), a cursor at the position on screen. */
  drawGraph(review) {
    GRAPH.width = Math.max(300, Math.round(byId("graph").clientWidth) || 640);
    GRAPH.height = GRAPH.width < 500 ? 180 : 220;
    const line = expectedScores(review, this.over ?? true);
    this.graphTop = Math.max(1, ...line);
    const chart = svg("svg", {
      viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`,
      class: "graph-svg",
      role: "group",
      "aria-label": this.t(this.valued("graph.label")),
    });
    const bottom = GRAPH.height - GRAPH.bottom;
    chart.append(
      svg("line", {
        class: "graph-axis",
        x1: GRAPH.left,
        x2: GRAPH.width - GRAPH.right,
        y1: bottom,
        y2: bottom,
      }),
      svg("line", {
        class: "graph-axis",
        x1: GRAPH.left,
        x2: GRAPH.left,
        y1: GRAPH.top,
        y2: bottom,
      }),
    );
    const labels = [
      [GRAPH.left - 6, this.y(this.graphTop) + 5, "end", this.number(Math.round(this.graphTop))],
      [GRAPH.left - 6, bottom + 5, "end", "0"],
      [GRAPH.left, GRAPH.height - 6, "start", this.t("graph.start")],
      [
        GRAPH.width - GRAPH.right,
        GRAPH.height - 6,
        "end",
        this.t("graph.end", { moves: this.number(review.moves.length) }),
      ],
    ];
    for (const [x, y, anchor, text] of labels) {
      const label = svg("text", { x, y, "text-anchor": anchor, class: "graph-label" });
      label.textContent = text;
      chart.append(label);
    }
    const points = line.map(
      (value, position) => `${this.x(position).toFixed(1)},${this.y(value).toFixed(1)}`,
    );
    chart.append(svg("polyline", { class: "graph-line", points: points.join(" ") }));
    const catcher = svg("rect", {
      class: "graph-catcher",
      x: GRAPH.left,
      y: GRAPH.top,
      width: GRAPH.width - GRAPH.left - GRAPH.right,
      height: bottom - GRAPH.top,
    });
    catcher.addEventListener("click", (event) => {
      const box = catcher.getBoundingClientRect();
      const share = (event.clientX - box.left) / box.width;
      this.onSeek(Math.round(share * review.moves.length));
    });
    chart.append(catcher);
    this.cursor = svg("line", { class: "graph-cursor", y1: GRAPH.top, y2: bottom });
    chart.append(this.cursor);
    const byNumber = new Map(review.moves.map((move) => [move.number, move]));
    for (const number of review.costliest) {
      const move = byNumber.get(number);
      const position = number - 1;
      const mark = svg("g", {
        class: `graph-mark grade-${move.grade}`,
        tabindex: "0",
        role: "button",
        "data-move": String(number),
        "aria-label": this.t(this.valued("graph.mark"), {
          move: number,
          points: this.number(Math.round(move.loss)),
          grade: this.t(`grade.${move.grade}`),
        }),
      });
      mark.append(svg("circle", { cx: this.x(position), cy: this.y(line[position]), r: 7 }));
      const choose = () => this.onSeek(position);
      mark.addEventListener("click", choose);
      mark.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          choose();
        }
      });
      chart.append(mark);
    }
    byId("graph").replaceChildren(chart);
  }

  moveCursor(position) {
    if (!this.cursor) return;
    const x = this.x(position).toFixed(1);
    this.cursor.setAttribute("x1", x);
    this.cursor.setAttribute("x2", x);
  }

  // --- the costliest moves -----------------------------------------------------------------------

  showCostliest(review) {
    const byNumber = new Map(review.moves.map((move) => [move.number, move]));
    const items = review.costliest.map((number) => {
      const move = byNumber.get(number);
      const item = document.createElement("li");
      item.dataset.move = String(number);
      item.append(
        miniBoard(move.board, this.t("costliest.board", { move: number })),
      );
      const text = document.createElement("div");
      text.className = "costliest-text";
      const heading = document.createElement("p");
      heading.className = "costliest-move";
      heading.textContent = this.t("costliest.item", {
        move: number,
        played: this.direction(move.played),
        better: this.direction(move.best),
      });
      const cost = document.createElement("p");
      const grade = document.createElement("span");
      grade.className = `grade grade-${move.grade}`;
      grade.textContent = this.t(`grade.${move.grade}`);
      cost.append(
        `${this.t(this.valued("costliest.cost"), {
          points: this.number(Math.round(move.loss)),
          percent: this.percent(move.relative),
        })} `,
        grade,
      );
      text.append(heading, cost);
      if (move.mistake) {
        const mistake = document.createElement("p");
        mistake.className = "move-mistake";
        this.showMistake(mistake, move.mistake);
        text.append(mistake);
      }
      const show = document.createElement("button");
      show.type = "button";
      show.className = "button";
      show.textContent = this.t("costliest.show", { move: number });
      show.addEventListener("click", () => this.onSeek(number - 1));
      text.append(show);
      item.append(text);
      return item;
    });
    byId("costliest").replaceChildren(...items);
    byId("costliest-none").hidden = items.length > 0;
  }

  // --- the play button ---------------------------------------------------------------------------

  setPlaying(playing) {
    const button = byId("replay-play");
    button.setAttribute("aria-pressed", String(playing));
    button.textContent = this.t(playing ? "replay.pause" : "replay.play");
  }
}
