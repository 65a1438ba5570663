// The review controller: reads the game from the page's link, asks the server's solver to
// grade it (showing its progress, cancellable), then steps through the replay. Export saves
// the game as a py2048 file; Import opens one. Nothing here touches the game in progress or
// its save: the review page only reads what its link or file holds.

import { ApiError, OfflineError } from "./api.js";
import { GameCodeError, decodeGame, encodeGame, gameOfSave, parseSaveText } from "./gamecode.js";
import { share, shareText } from "./share.js";

/** Pause between two positions while the replay plays. */
const PLAY_MS = 450;

export class ReviewController {
  constructor({ api, view }) {
    this.api = api;
    this.view = view;
    this.game = null; // {seed, history, practice}
    this.review = null;
    this.state = null; // the game's save after its moves, for Export
    this.position = 0;
    this.aborter = null;
    this.timer = null;
    view.onSeek = (position) => {
      this.pause();
      this.seek(position);
    };
  }

  t(key, values) {
    return this.view.t(key, values);
  }

  // --- opening a game ----------------------------------------------------------------------------

  /** Open the game the address's fragment holds; a bad link says what is wrong and changes
   *  nothing. */
  async openFromAddress() {
    const fragment = window.location.hash.replace(/^#/, "");
    if (!fragment) {
      if (!this.game) this.view.showEmpty();
      return;
    }
    let game;
    try {
      game = decodeGame(fragment);
    } catch (error) {
      if (!(error instanceof GameCodeError)) throw error;
      this.view.showNotice(this.t("link.problem", { reason: this.t(error.key, error.values) }));
      if (!this.game) this.view.showEmpty();
      return;
    }
    this.view.hideNotice();
    await this.open(game);
  }

  async open(game) {
    this.pause();
    this.game = game;
    this.review = null;
    this.state = null;
    this.view.showGame(game, window.location.href);
    await this.grade();
  }

  /** Ask the server's solver to grade the game at the chosen setting, with progress; a review
   *  already on its way is stopped first. */
  async grade() {
    this.stopGrading();
    const game = this.game;
    const aborter = new AbortController();
    this.aborter = aborter;
    this.view.showProgress(0, game.history.length);
    let answer;
    try {
      answer = await this.api.review(
        { ...game, setting: this.view.setting() },
        (graded, total) => {
          if (this.aborter === aborter) this.view.showProgress(graded, total);
        },
        aborter.signal,
      );
    } catch (error) {
      if (this.aborter !== aborter) return; // cancelled, or another grading took its place
      this.aborter = null;
      if (error instanceof ApiError && error.status === 422 && error.detail.startsWith("size:")) {
        this.view.showStopped(this.t("review.sizeRefused", { size: game.size.replace("x", "×") }));
      } else if (error instanceof ApiError && error.rejected) {
        this.view.showStopped(this.t("review.refused", { detail: error.detail }));
      } else if (error instanceof OfflineError) {
        this.view.showStopped(this.t("notice.offline"));
      } else {
        this.view.showStopped(this.t("review.failed", { detail: error.message }));
      }
      return;
    }
    if (this.aborter !== aborter) return;
    this.aborter = null;
    this.review = answer.review;
    this.state = answer.state;
    this.view.hideProgress();
    this.view.showReview(answer.review, game.practice, answer.state.over);
    this.seek(0);
    this.view.announce(
      this.t("announce.reviewed", {
        moves: answer.review.moves.length,
        accuracy: this.view.number(answer.review.accuracy),
      }),
    );
  }

  /** Stop a grading on its way: closing its request stops the server's search too. */
  stopGrading() {
    const aborter = this.aborter;
    this.aborter = null;
    if (aborter) aborter.abort();
    return Boolean(aborter);
  }

  /** Cancel: the grading stops and the page says so; Review again starts it anew. */
  cancel() {
    if (this.stopGrading()) this.view.showStopped(this.t("review.stopped"));
  }

  // --- the replay --------------------------------------------------------------------------------

  get last() {
    return this.review ? this.review.moves.length : 0;
  }

  seek(position) {
    if (!this.review) return;
    this.position = Math.max(0, Math.min(this.last, position));
    this.view.showPosition(this.position);
  }

  step(delta) {
    this.pause();
    this.seek(this.position + delta);
  }

  togglePlay() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    if (!this.review || this.timer) return;
    if (this.position >= this.last) this.seek(0);
    this.view.setPlaying(true);
    this.timer = setInterval(() => {
      if (this.position >= this.last) {
        this.pause();
        return;
      }
      this.seek(this.position + 1);
    }, PLAY_MS);
  }

  pause() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.view.setPlaying(false);
  }

  // --- share and keep ----------------------------------------------------------------------------

  async copyLink() {
    const link = window.location.href;
    try {
      await navigator.clipboard.writeText(link);
      this.view.sayBesideButtons(this.t("share.copied"));
    } catch {
      this.view.sayBesideButtons(this.t("share.copyByHand"));
    }
  }

  /** Share the reviewed game: its final score, largest tile and this review's link. */
  async shareGame() {
    if (!this.review) return;
    const figures = { score: this.review.final_score, tile: this.review.max_tile };
    const view = this.view;
    const { text } = shareText(this.game, figures, view.t.bind(view), (n) => view.number(n));
    const outcome = await share(text);
    if (outcome === "copied") view.sayBesideButtons(this.t("share.copiedText"));
    else if (outcome === "refused") view.sayBesideButtons(this.t("share.byHand", { text }));
  }

  /** Save the reviewed game as a py2048 file (the engine's save format). */
  exportGame() {
    if (!this.state) return;
    const blob = new Blob([JSON.stringify(this.state)], { type: "application/json" });
    const address = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = address;
    link.download = `py2048-seed-${this.state.seed}-${this.state.moves}-moves.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(address), 1000);
  }

  /** Open a py2048 file's game here. A file that is not a py2048 save, or whose moves do not
   *  rebuild its board, gets a message and changes nothing. */
  async importFile(file) {
    let save;
    try {
      save = parseSaveText(await file.text());
    } catch (error) {
      if (!(error instanceof GameCodeError)) throw error;
      this.view.sayBesideButtons(this.t(error.key));
      return;
    }
    try {
      await this.api.check(save);
    } catch (error) {
      if (error instanceof ApiError && error.rejected) {
        this.view.sayBesideButtons(this.t("import.invalid", { detail: error.detail }));
      } else this.view.sayBesideButtons(this.t("notice.offline"));
      return;
    }
    const game = gameOfSave(save);
    let replayed;
    try {
      replayed = (await this.api.replay(game)).state;
    } catch (error) {
      if (error instanceof ApiError && error.rejected) {
        this.view.sayBesideButtons(this.t("import.setUp"));
      } else this.view.sayBesideButtons(this.t("notice.offline"));
      return;
    }
    const sameBoard = JSON.stringify(replayed.board) === JSON.stringify(save.board);
    const same = sameBoard && replayed.score === save.score;
    if (!same) {
      this.view.sayBesideButtons(this.t("import.setUp"));
      return;
    }
    this.view.hideButtonsMessage();
    // The address now holds the imported game: its link can be shared like any other.
    window.location.hash = encodeGame(game);
  }
}
