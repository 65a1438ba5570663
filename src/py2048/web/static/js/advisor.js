// Hint and autoplay: the server's solver advises, the controller plays. The player can take
// over at any moment: a key or swipe stops autoplay and is played as the player's own move,
// after any autoplay move already on its way.

import { ApiError } from "./api.js";
import { KEYS } from "./storage.js";
import { ARROWS, DIRECTIONS } from "./view.js";

/**
 * Pause between autoplay moves at each speed; at "max" the solver plays as fast as it answers,
 * and the slides are cut short (`quick`).
 */
export const SPEEDS = {
  slow: { pauseMs: 800, quick: false },
  normal: { pauseMs: 250, quick: false },
  fast: { pauseMs: 0, quick: false },
  max: { pauseMs: 0, quick: true },
};

/** A busy server (429) is asked again after a pause, this many times at most. */
const BUSY_RETRIES = 10;
const BUSY_PAUSE_MS = 300;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The solver's advice in a player's words: every text of the hint is made here, and the view
 * only places it. With `t` (labels) and `number` (the language's number format).
 *
 * Each legal direction gets the review's grade (best, good, inaccuracy, mistake, blunder: the
 * server grades by the review's thresholds), and where an endgame table answered, the chance
 * of making its tile. The numbers behind the grades wait under "How the solver decided".
 *
 * Who answered decides what a direction's value means. The search (`source` "search") values it
 * by the points the game is still expected to score after it, so the game's `score` plus that
 * value is the final score the move leads to, and the difference from the advised move is what
 * a weaker move gives up. An endgame table (`source` "table") values it by the chance that best
 * play builds `table_target` from there. On 3x3 the solved game may answer (`source` "perfect"):
 * points too, exact, and the hint says "perfect play".
 */
export function describeAdvice(advice, score, t, number) {
  const { direction, values } = advice;
  const grades = advice.grades ?? {};
  if (!direction) return { move: t("hint.none"), chance: "", grades: [], columns: [], rows: [], how: "" };
  const byTable = advice.source === "table";
  // Off 4x4 the heuristic judges: its figures are no points.
  const byValue = !byTable && advice.evaluator === "heuristic";
  // What each legal direction shows, and how far behind the best it is, in its own unit.
  const figureOf = byTable
    ? (name) => Math.round(values[name] * 1000) / 10 // percent, one decimal
    : byValue
    ? (name) => Math.round(values[name])
    : (name) => Math.round(score + values[name]); // final score
  const show = byTable ? (figure) => `${number(figure)}%` : (figure) => number(figure);
  const behindKey = byTable ? "hint.behindChance" : byValue ? "hint.behindValue" : "hint.behind";
  const label = (name) => `${ARROWS[name]} ${t(`dir.${name}`)}`;
  const gradeRows = DIRECTIONS.map((name) => {
    const row = { direction: name, label: label(name), best: name === direction };
    if (!(name in values)) return { ...row, grade: t("hint.notLegal"), chance: "" };
    const grade = grades[name] ? t(`grade.${grades[name]}`) : "";
    return { ...row, grade, chance: byTable ? show(figureOf(name)) : "" };
  });
  const rows = DIRECTIONS.map((name) => {
    const row = { direction: name, label: label(name), best: false };
    if (!(name in values)) return { ...row, figure: "", compare: t("hint.notLegal") };
    const behind = Math.round((figureOf(direction) - figureOf(name)) * 10) / 10;
    return {
      ...row,
      best: name === direction,
      figure: show(figureOf(name)),
      compare: behind > 0 ? t(behindKey, { points: number(behind) }) : t("hint.best"),
    };
  });
  const perfect = advice.source === "perfect";
  const how = byTable
    ? t("hint.howTable", { tile: advice.table_target })
    : perfect
    ? t("hint.howPerfect")
    : t(byValue ? "hint.howValue" : "hint.how", {
        moves: advice.depth + 1,
        depth: advice.depth,
        ms: number(advice.elapsed_ms),
      });
  const figureColumn = byTable
    ? t("hint.columnChance", { tile: advice.table_target })
    : t(byValue ? "hint.columnValue" : "hint.columnFinal");
  return {
    move: perfect ? t("hint.perfectMove", { move: label(direction) }) : label(direction),
    chance: byTable ? t("hint.columnChance", { tile: advice.table_target }) : "",
    grades: gradeRows,
    columns: [figureColumn, t("hint.columnBehind")],
    rows,
    how,
  };
}

/** Why a hint failed: the server's reason, or that the solver refuses the board's size. */
export function hintProblem(error, size, t) {
  if (error instanceof ApiError && error.status === 422 && error.detail.startsWith("state.size")) {
    return t("notice.hintSize", { size: size.replace("x", "×") });
  }
  return t("notice.hintFailed", { detail: error.message });
}

export class Advisor {
  constructor({ api, controller, view, storage, speedSelect, strengthSelect }) {
    this.api = api;
    this.controller = controller;
    this.view = view;
    this.storage = storage;
    this.speedSelect = speedSelect;
    this.strengthSelect = strengthSelect;
    this.run = 0; // the current autoplay run's number; 0 when autoplay is off
    this.runs = 0;
    this.presets = null; // the server's answer about its presets, once asked
    this.shown = null; // {advice, state} of the hint on screen
    const speed = storage.get(KEYS.speed);
    if (speed in SPEEDS) speedSelect.value = speed;
    speedSelect.addEventListener("change", () => {
      storage.set(KEYS.speed, speedSelect.value);
      this.view.setQuickMotion(this.autoplaying && this.speed.quick);
    });
    strengthSelect.addEventListener("change", () =>
      storage.set(KEYS.strength, strengthSelect.value),
    );
    controller.onNewGame(() => this.stopAutoplay(false));
  }

  get speed() {
    return SPEEDS[this.speedSelect.value] ?? SPEEDS.normal;
  }

  /** Fill the strength menu with the server's presets (quickest first), the remembered one
   *  chosen, else the server's default. A server that cannot say leaves the menu empty, and
   *  hints then use the server's default. */
  async loadStrengths() {
    let answer;
    try {
      answer = await this.presetList();
    } catch {
      this.strengthSelect.disabled = true;
      return;
    }
    const names = answer.presets.map((preset) => preset.name);
    this.strengthSelect.replaceChildren(
      ...answer.presets.map((preset) => {
        const option = document.createElement("option");
        option.value = preset.name;
        option.title = preset.summary;
        return option;
      }),
    );
    const stored = this.storage.get(KEYS.strength);
    this.strengthSelect.value = names.includes(stored) ? stored : answer.default;
    this.labelStrengths();
  }

  /** Each preset's name in the page's language (the name itself where no label is known). */
  labelStrengths() {
    for (const option of this.strengthSelect.options) {
      const key = `strength.${option.value}`;
      const label = this.view.t(key);
      option.textContent = label === key ? option.value : label;
    }
  }

  get autoplaying() {
    return this.run !== 0;
  }

  /** The server's presets ({presets, default, quickest}); asked once, again if that failed. */
  async presetList() {
    this.presets ??= this.api.presets();
    try {
      return await this.presets;
    } catch (error) {
      this.presets = null;
      throw error;
    }
  }

  /** The preset the strength menu names, or the server's default. */
  async presetName() {
    return this.strengthSelect.value || (await this.presetList()).default;
  }

  /** The solver's advice on `state` at the chosen strength, waiting politely while the server
   *  is busy with others. */
  async ask(state) {
    const preset = await this.presetName();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.api.hint(state, preset);
      } catch (error) {
        const busy = error instanceof ApiError && error.status === 429;
        if (!busy || attempt >= BUSY_RETRIES) throw error;
        await sleep(BUSY_PAUSE_MS);
      }
    }
  }

  /** Ask the solver about the current state; show its advice if the game has not moved on. */
  async hint() {
    const state = this.controller.state;
    if (!state) return;
    let advice;
    try {
      advice = await this.ask(state);
    } catch (error) {
      this.view.showNotice(hintProblem(error, this.controller.size, this.view.t.bind(this.view)));
      return;
    }
    if (this.controller.state !== state) return;
    this.shown = { advice, state };
    this.showAdvice();
    this.view.announce(
      advice.direction
        ? this.view.t("announce.hint", { direction: this.view.t(`dir.${advice.direction}`) })
        : this.view.t("hint.none"),
    );
  }

  /** Show the hint on screen in the current language, while its game has not moved on. */
  showAdvice() {
    if (!this.shown || this.shown.state !== this.controller.state) return;
    const { advice, state } = this.shown;
    const view = this.view;
    view.showHint(describeAdvice(advice, state.score, view.t.bind(view), (n) => view.number(n)));
  }

  toggleAutoplay() {
    if (this.autoplaying) this.stopAutoplay();
    else this.startAutoplay();
  }

  startAutoplay() {
    if (this.autoplaying || this.controller.banner) return;
    this.run = ++this.runs;
    this.view.setAutoplay(true);
    this.view.setQuickMotion(this.speed.quick);
    this.view.announce(this.view.t("announce.autoplayOn"));
    this.loop(this.run);
  }

  /** Stop autoplay; `announce` is false when a banner or notice already says why. */
  stopAutoplay(announce = true) {
    if (!this.autoplaying) return;
    this.run = 0;
    this.view.setAutoplay(false);
    this.view.setQuickMotion(false);
    if (announce) this.view.announce(this.view.t("announce.autoplayOff"));
  }

  /** The player moved: autoplay stops and the player's move follows in the queue. */
  takeOver() {
    this.stopAutoplay();
  }

  async loop(run) {
    const controller = this.controller;
    while (this.run === run) {
      await controller.answered(); // nothing plays while a question is open
      if (this.run !== run) return;
      const state = controller.state;
      if (!state || state.over || controller.banner || controller.replacing) break;
      const { pauseMs } = this.speed;
      let advice;
      try {
        advice = await this.ask(state);
      } catch (error) {
        this.view.showNotice(hintProblem(error, this.controller.size, this.view.t.bind(this.view)));
        break;
      }
      await controller.answered();
      if (this.run !== run) return;
      if (controller.replacing) break;
      if (controller.state !== state) continue;
      if (!advice.direction) break;
      await controller.enqueue(advice.direction);
      if (pauseMs) await sleep(pauseMs);
    }
    // The game ended, a banner asks a question or the solver failed: each says so itself.
    if (this.run === run) this.stopAutoplay(false);
  }

  relabel() {
    this.labelStrengths();
    this.view.setAutoplay(this.autoplaying);
    this.showAdvice();
  }
}
