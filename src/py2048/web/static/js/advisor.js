// Hint and autoplay: the server's solver advises, the controller plays. The player can take
// over at any moment: a key or swipe stops autoplay and is played as the player's own move,
// after any autoplay move already on its way.

import { ApiError } from "./api.js";
import { KEYS } from "./storage.js";
import { ARROWS, DIRECTIONS } from "./view.js";

/**
 * Pause between autoplay moves at each speed, and which of the server's presets the solver
 * searches with: its default one, or its quickest. The server names them (GET /api/presets).
 */
export const SPEEDS = {
  slow: { pauseMs: 800, presetRole: "default" },
  normal: { pauseMs: 250, presetRole: "default" },
  fast: { pauseMs: 0, presetRole: "quickest" },
};

/** Hints search with the server's default preset. */
const HINT_PRESET_ROLE = "default";
/** A busy server (429) is asked again after a pause, this many times at most. */
const BUSY_RETRIES = 10;
const BUSY_PAUSE_MS = 300;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The solver's advice in a player's words: every text of the hint is made here, and the view
 * only places it. With `t` (labels) and `number` (the language's number format).
 *
 * Who answered decides what a direction's value means. The search (`source` "search") values it
 * by the points the game is still expected to score after it, so the game's `score` plus that
 * value is the final score the move leads to, and the difference from the advised move is what
 * a weaker move gives up. An endgame table (`source` "table") values it by the chance that best
 * play builds `table_target` from there.
 */
export function describeAdvice(advice, score, t, number) {
  const { direction, values } = advice;
  if (!direction) return { move: t("hint.none"), columns: [], rows: [], how: "" };
  const byTable = advice.source === "table";
  // What each legal direction shows, and how far behind the best it is, in its own unit.
  const figureOf = byTable
    ? (name) => Math.round(values[name] * 1000) / 10 // percent, one decimal
    : (name) => Math.round(score + values[name]); // final score
  const show = byTable ? (figure) => `${number(figure)}%` : (figure) => number(figure);
  const behindKey = byTable ? "hint.behindChance" : "hint.behind";
  const rows = DIRECTIONS.map((name) => {
    const row = { direction: name, label: `${ARROWS[name]} ${t(`dir.${name}`)}`, best: false };
    if (!(name in values)) return { ...row, figure: "", compare: t("hint.notLegal") };
    const behind = Math.round((figureOf(direction) - figureOf(name)) * 10) / 10;
    return {
      ...row,
      best: name === direction,
      figure: show(figureOf(name)),
      compare: behind > 0 ? t(behindKey, { points: number(behind) }) : t("hint.best"),
    };
  });
  const how = byTable
    ? t("hint.howTable", { tile: advice.table_target })
    : t("hint.how", {
        moves: advice.depth + 1,
        depth: advice.depth,
        ms: number(advice.elapsed_ms),
      });
  const figureColumn = byTable
    ? t("hint.columnChance", { tile: advice.table_target })
    : t("hint.columnFinal");
  return {
    move: `${ARROWS[direction]} ${t(`dir.${direction}`)}`,
    columns: [figureColumn, t("hint.columnBehind")],
    rows,
    how,
  };
}

export class Advisor {
  constructor({ api, controller, view, storage, speedSelect }) {
    this.api = api;
    this.controller = controller;
    this.view = view;
    this.storage = storage;
    this.speedSelect = speedSelect;
    this.run = 0; // the current autoplay run's number; 0 when autoplay is off
    this.runs = 0;
    this.presets = null; // the server's answer about its presets, once asked
    this.shown = null; // {advice, state} of the hint on screen
    const speed = storage.get(KEYS.speed);
    if (speed in SPEEDS) speedSelect.value = speed;
    speedSelect.addEventListener("change", () => storage.set(KEYS.speed, speedSelect.value));
    controller.onNewGame(() => this.stopAutoplay(false));
  }

  get autoplaying() {
    return this.run !== 0;
  }

  /** The name of the server's `default` or `quickest` preset; asked once, asked again if that
   *  failed. */
  async presetName(role) {
    this.presets ??= this.api.presets();
    try {
      return (await this.presets)[role];
    } catch (error) {
      this.presets = null;
      throw error;
    }
  }

  /** The solver's advice on `state` with the preset playing `role`, waiting politely while the
   *  server is busy with others. */
  async ask(state, role) {
    const preset = await this.presetName(role);
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
      advice = await this.ask(state, HINT_PRESET_ROLE);
    } catch (error) {
      this.view.showNotice(this.view.t("notice.hintFailed", { detail: error.message }));
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
    this.view.announce(this.view.t("announce.autoplayOn"));
    this.loop(this.run);
  }

  /** Stop autoplay; `announce` is false when a banner or notice already says why. */
  stopAutoplay(announce = true) {
    if (!this.autoplaying) return;
    this.run = 0;
    this.view.setAutoplay(false);
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
      const { pauseMs, presetRole } = SPEEDS[this.speedSelect.value] ?? SPEEDS.normal;
      let advice;
      try {
        advice = await this.ask(state, presetRole);
      } catch (error) {
        this.view.showNotice(this.view.t("notice.hintFailed", { detail: error.message }));
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
    this.view.setAutoplay(this.autoplaying);
    this.showAdvice();
  }
}
