// The game controller: holds the current state (the engine's save), queues the player's
// moves, sends them to the server one at a time, and hands each answer to the view and to
// storage. It knows no rules: the server decides what a move does, and what Undo gives back.
//
// Practice mode lets the player take moves back. A game in which Undo was used is marked
// practice by the server and never sets the best score: the best falls back to what it was
// before that game began (kept as `py2048.best.before`).
// Each board size keeps its own game in progress and best score (see chooseSize).

import { ApiError, OfflineError } from "./api.js";
import { DEFAULT_SIZE, KEYS, sizeOfState } from "./storage.js";

export class GameController {
  constructor({ api, storage, view, records }) {
    this.api = api;
    this.storage = storage;
    this.view = view;
    this.records = records; // statistics and past games: each game is kept when it ends
    this.state = null;
    this.best = storage.loadBest();
    this.bestBefore = storage.loadBestBefore() ?? this.best;
    this.practiceMode = storage.get(KEYS.practice) === "on";
    this.queue = [];
    this.draining = null;
    this.starting = null; // the restore of the saved game, while it runs
    this.banner = null; // "win" | "over" | null: moves wait while a banner asks a question
    this.saveRefused = false;
    this.newGameListeners = new Set();
    this.question = null; // the New game question while it is open: a promise of the answer
    this.replacing = false; // true from a confirmed New game until the new game is on screen
    this.undoing = null; // the Undos on their way, one after another
  }

  t(key, values) {
    return this.view.t(key, values);
  }

  /** Call `listener()` whenever a new game replaces the current one. */
  onNewGame(listener) {
    this.newGameListeners.add(listener);
  }

  // --- start ---------------------------------------------------------------------------------

  /** The board size on screen, "5x5" (the size of the game restored or started). */
  get size() {
    return this.storage.size;
  }

  /** Restore the saved game exactly, or start a new one; an unusable save is backed up. */
  start() {
    this.starting = this.restore().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** Play on a board of `size` ("5x5"): its saved game comes back, or a new one starts; the
   *  game left stays saved under its size, so nothing is lost and nothing asked. */
  async chooseSize(size) {
    if (this.starting) await this.starting;
    await this.settled();
    if (size === this.size) return;
    this.queue.length = 0;
    this.banner = null;
    this.state = null; // no move plays until the new size's game is on screen
    this.storage.useSize(size);
    this.best = this.storage.loadBest();
    this.bestBefore = this.storage.loadBestBefore() ?? this.best;
    this.view.setSize(size);
    this.starting = this.restore().finally(() => {
      this.starting = null;
    });
    await this.starting;
    for (const listener of this.newGameListeners) listener();
  }

  async restore() {
    this.view.setSize(this.size);
    this.view.setBest(this.best);
    const raw = this.storage.loadRawState();
    if (raw === null) return this.startNewGame();
    let saved;
    try {
      saved = JSON.parse(raw);
    } catch {
      return this.recoverFrom(raw, this.t("notice.notJson"));
    }
    if (sizeOfState(saved) !== this.size) {
      return this.recoverFrom(raw, this.t("notice.wrongSize", { size: this.size }));
    }
    try {
      await this.api.check(saved); // the server, which runs the rules, is the judge of a save
    } catch (error) {
      if (error instanceof ApiError && error.rejected) return this.recoverFrom(raw, error.detail);
      return this.reportFailure(error);
    }
    this.show(saved);
    if (saved.won && !saved.keep_going) this.openBanner("win");
    else if (saved.over) this.openBanner("over");
  }

  async recoverFrom(raw, reason) {
    this.state = null; // a save the server refused is no game to keep
    this.storage.backUpState(raw);
    this.view.showNotice(this.t("notice.corrupt", { reason, key: this.storage.sized(KEYS.backup) }));
    await this.startNewGame();
  }

  reportFailure(error) {
    this.queue.length = 0;
    if (error instanceof OfflineError) this.view.showNotice(this.t("notice.offline"));
    else this.view.showNotice(this.t("notice.failed", { detail: error.message }));
  }

  /** Draw a state as it stands (a loaded or new game): no slide, no "+N". */
  show(state) {
    this.state = state;
    this.view.hideBanners();
    this.view.hideHint();
    this.view.drawBoard(state.board);
    this.view.setScore(state.score);
    this.view.setPracticeGame(Boolean(state.practice));
    this.recordBest();
  }

  /** Keep `state` in the browser; say so once if the browser refuses (full or disabled). */
  save(state) {
    const saved = this.storage.saveState(state) && this.storage.persistent;
    if (saved || this.saveRefused) return;
    this.saveRefused = true;
    this.view.showNotice(this.t("notice.saveFailed"));
  }

  /** A game's score becomes the best score, unless Undo was used in it. */
  recordBest() {
    if (this.state.practice) {
      // The game may have raised the best before its first Undo: that no longer counts.
      if (this.best > this.bestBefore) {
        this.best = this.bestBefore;
        this.storage.saveBest(this.best);
      }
    } else if (this.state.score > this.best) {
      this.best = this.state.score;
      this.storage.saveBest(this.best);
    }
    this.view.setBest(this.best);
  }

  // --- new game --------------------------------------------------------------------------------

  get inProgress() {
    return Boolean(this.state && this.state.moves > 0 && !this.state.over);
  }

  /**
   * New game from the button or R: asks first when a game is in progress. Waits for the saved
   * game to be restored first, so that it is never thrown away unasked.
   */
  async requestNewGame() {
    if (this.starting) await this.starting;
    if (this.inProgress && !(await this.ask())) return;
    await this.startNewGame();
  }

  /** Ask whether to throw the game away; true when the player says so. */
  async ask() {
    this.question = this.view.confirmNewGame();
    try {
      const confirmed = await this.question;
      // Said before anyone else waiting for the answer hears it, so none plays on.
      if (confirmed) this.replacing = true;
      return confirmed;
    } finally {
      this.question = null;
    }
  }

  /** Resolves once no question is open: autoplay and queued moves wait for the answer. */
  async answered() {
    while (this.question) {
      try {
        await this.question;
      } catch {
        // An answer that failed is still an answer.
      }
    }
  }

  async startNewGame() {
    this.queue.length = 0;
    // A game that New game replaces after a move is kept (once) as one left unfinished.
    if (this.inProgress) this.records.record(this.state, "abandoned");
    let answer;
    try {
      // 4x4 asks as before sizes existed: a plain New game stays as quick.
      answer = await (this.size === DEFAULT_SIZE
        ? this.api.newGame()
        : this.api.newGame(null, this.size));
    } catch (error) {
      return this.reportFailure(error);
    } finally {
      this.replacing = false;
    }
    this.banner = null;
    this.bestBefore = this.best;
    this.storage.saveBestBefore(this.best);
    this.show(answer.state);
    this.save(answer.state);
    this.view.announce(this.t("announce.newGame"));
    for (const listener of this.newGameListeners) listener();
  }

  // --- moves ---------------------------------------------------------------------------------

  /** Queue a move; moves are played in the order they came, each after the last one's slide. */
  enqueue(direction) {
    if (this.banner || !this.state) return Promise.resolve();
    this.queue.push(direction);
    if (!this.draining) {
      this.view.setBusy(true);
      this.draining = this.drain().finally(() => {
        this.draining = null;
        this.view.setBusy(false);
      });
    }
    return this.draining;
  }

  async drain() {
    while (this.queue.length && !this.banner) {
      await this.answered();
      if (!this.queue.length || this.banner) break;
      await this.play(this.queue.shift());
    }
  }

  async play(direction) {
    const sent = this.state;
    let answer;
    try {
      answer = await this.api.move(sent, direction);
    } catch (error) {
      if (this.state !== sent) return;
      if (error instanceof ApiError && error.rejected) {
        return this.recoverFrom(JSON.stringify(sent), error.detail);
      }
      return this.reportFailure(error);
    }
    // A new game that started while the move was on its way wins: the answer is for a game
    // that is gone.
    if (this.state !== sent) return;
    const where = this.t(`dir.${direction}`);
    if (!answer.moved) {
      this.view.announce(this.t("announce.noMove", { direction: where }));
      return;
    }
    this.state = answer.state;
    this.save(answer.state);
    this.view.hideHint();
    this.view.setScore(answer.state.score, answer.gain);
    this.recordBest();
    const slid = this.view.animateMove(answer);
    this.view.announce(this.describe(answer, where));
    if (answer.over) this.records.record(answer.state, "over");
    if (answer.won_now) this.openBanner("win");
    else if (answer.over) this.openBanner("over");
    await slid;
  }

  describe(answer, where) {
    const parts = [this.t("announce.moved", { direction: where })];
    const merged = new Map();
    for (const motion of answer.motions) {
      if (motion.merged) merged.set(motion.to.join(","), motion.value * 2);
    }
    if (merged.size) {
      parts.push(this.t("announce.merged", { tiles: [...merged.values()].join(", ") }));
    }
    if (answer.spawned) {
      const { value, row, col } = answer.spawned;
      parts.push(this.t("announce.spawned", { value, row: row + 1, col: col + 1 }));
    }
    parts.push(this.t("announce.score", { score: answer.state.score }));
    return parts.join(" ");
  }

  // --- win and game over -----------------------------------------------------------------------

  openBanner(kind) {
    this.banner = kind;
    this.queue.length = 0;
    if (kind === "win") {
      this.view.showWin();
      this.view.announce(this.t("announce.win"));
    } else {
      this.view.showOver(this.state.score);
      this.view.announce(this.t("announce.over", { score: this.state.score }));
    }
  }

  /** Keep going after the win; a win made on the last possible move then shows game over. */
  async keepGoing() {
    const sent = this.state;
    let answer;
    try {
      answer = await this.api.keepGoing(sent);
    } catch (error) {
      if (this.state !== sent) return;
      return this.reportFailure(error);
    }
    if (this.state !== sent) return; // the banner's New game came first
    this.state = answer.state;
    this.save(answer.state);
    this.banner = null;
    this.view.hideBanners();
    if (answer.state.over) this.records.record(answer.state, "over");
    if (answer.state.over) this.openBanner("over");
    else this.view.announce(this.t("announce.keepGoing"));
  }

  // --- practice mode and Undo ------------------------------------------------------------------

  /** Turn practice mode (the Undo button, U and Ctrl+Z) on or off; remembered. */
  setPracticeMode(on) {
    this.practiceMode = on;
    this.storage.set(KEYS.practice, on ? "on" : "off");
    this.view.setPracticeMode(on);
    this.view.announce(this.t(on ? "announce.practiceOn" : "announce.practiceOff"));
  }

  /** Resolves once no move is queued or on its way (the save then holds every move made). */
  async settled() {
    if (this.starting) await this.starting;
    while (this.draining) await this.draining;
  }

  /** Take back the last move (practice mode only): the server replays the game without it.
   *  Undos pressed faster than the server answers are taken back one after another. */
  undo() {
    if (!this.practiceMode) {
      this.view.flash(this.t("announce.undoNeedsPractice"));
      return Promise.resolve();
    }
    this.queue.length = 0;
    const previous = this.undoing ?? Promise.resolve();
    const undoing = previous.then(() => this.undoOnce());
    this.undoing = undoing;
    return undoing.finally(() => {
      if (this.undoing === undoing) this.undoing = null;
    });
  }

  async undoOnce() {
    await this.settled();
    const sent = this.state;
    if (!sent || sent.moves === 0) {
      this.view.announce(this.t("announce.nothingToUndo"));
      return;
    }
    let answer;
    try {
      answer = await this.api.undo(sent);
    } catch (error) {
      if (this.state !== sent) return;
      if (error instanceof ApiError && error.rejected) {
        this.view.showNotice(this.t("notice.undoFailed", { detail: error.detail }));
        return;
      }
      return this.reportFailure(error);
    }
    if (this.state !== sent) return; // a new game came first
    this.banner = null;
    this.show(answer.state);
    this.save(answer.state);
    this.view.announce(
      this.t("announce.undone", { moves: answer.state.moves, score: answer.state.score }),
    );
    if (answer.state.won && !answer.state.keep_going) this.openBanner("win");
  }

  /** Re-say what language-dependent text is on screen after a language switch. */
  relabel() {
    if (this.banner === "over") this.view.setFinalScore(this.state.score);
    this.view.hideHint();
  }
}
