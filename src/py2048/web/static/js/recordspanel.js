// The Statistics dialog's actions: open it, delete a past game, reset the counts (after a
// question), export every past game as one file and import such a file back. An imported file
// is checked whole before anything changes: every game must replay, on the server, to the
// score and tile it claims.

import { ApiError } from "./api.js";
import { RecordsError, gameOfEntry, largestTile, parseGamesFile } from "./records.js";

export class RecordsPanel {
  constructor({ api, records, view, storage }) {
    this.api = api;
    this.records = records;
    this.view = view;
    this.storage = storage; // says which board size's statistics to show
    view.onDelete = (entry, when) => this.remove(entry, when);
  }

  t(key, values) {
    return this.view.t(key, values);
  }

  refresh() {
    const size = this.storage.size;
    this.view.show(this.records.statistics(size), this.records.games(), size);
  }

  open() {
    this.refresh();
    this.view.open();
  }

  /** Redraw in a new language, if open. */
  relabel() {
    if (this.view.isOpen) this.refresh();
  }

  remove(entry, when) {
    this.records.remove(entry.code);
    this.refresh();
    this.view.say(this.t("games.deleted", { date: when }));
  }

  askReset() {
    this.view.confirmReset(true);
  }

  cancelReset() {
    this.view.confirmReset(false);
  }

  reset() {
    this.records.resetStatistics(this.storage.size);
    this.view.confirmReset(false);
    this.refresh();
    this.view.say(this.t("stats.resetDone"));
  }

  exportAll() {
    const blob = new Blob([this.records.exportText()], { type: "application/json" });
    const address = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = address;
    link.download = `py2048-games-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(address), 1000);
  }

  /** Import a file of past games: all of it, or (with a message saying why) nothing. */
  async importFile(file) {
    let entries;
    try {
      entries = parseGamesFile(await file.text());
    } catch (error) {
      if (!(error instanceof RecordsError)) throw error;
      this.view.say(this.t(error.key, error.values));
      return;
    }
    for (const [index, entry] of entries.entries()) {
      const problem = await this.replayProblem(entry);
      if (problem !== null) {
        this.view.say(this.t("games.importWrong", { number: index + 1, detail: problem }));
        return;
      }
    }
    const added = this.records.merge(entries);
    this.refresh();
    this.view.say(this.t("games.imported", { added, total: entries.length }));
  }

  /** Why `entry` does not replay to what it claims; null when it does. */
  async replayProblem(entry) {
    let state;
    try {
      state = (await this.api.replay(gameOfEntry(entry))).state;
    } catch (error) {
      return error instanceof ApiError ? error.detail : error.message;
    }
    if (state.score !== entry.score) return `score ${state.score}, not ${entry.score}`;
    const tile = largestTile(state.board);
    if (tile !== entry.tile) return `tile ${tile}, not ${entry.tile}`;
    return null;
  }
}
