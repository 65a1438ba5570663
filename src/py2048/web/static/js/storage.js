// The browser's memory of the game: the state after every move, the best score (and what it
// was before the game in progress, which a practice game falls back to), the chosen language,
// autoplay speed, solver strength and practice mode, and the statistics and past games that
// records.js keeps. When localStorage is unavailable (a private window, a full
// quota) the page keeps working from memory for the session.

export const KEYS = Object.freeze({
  state: "py2048.state",
  backup: "py2048.state.backup",
  best: "py2048.best",
  bestBefore: "py2048.best.before",
  practice: "py2048.practice",
  language: "py2048.language",
  speed: "py2048.autoplay.speed",
  strength: "py2048.solver.strength",
  statistics: "py2048.statistics",
  games: "py2048.games",
  counted: "py2048.games.counted", // the seed of the last game the statistics counted
});

/** Stands in for localStorage when the browser gives none: remembers until the page closes. */
class MemoryStore {
  constructor() {
    this.items = new Map();
  }

  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    this.items.set(key, String(value));
  }

  removeItem(key) {
    this.items.delete(key);
  }
}

function openStore() {
  try {
    const store = window.localStorage;
    const probe = "py2048.probe";
    store.setItem(probe, probe);
    store.removeItem(probe);
    return store;
  } catch {
    return new MemoryStore();
  }
}

export class StorageManager {
  constructor(store = openStore()) {
    this.store = store;
    /** False when nothing outlives the page (localStorage unavailable). */
    this.persistent = !(store instanceof MemoryStore);
  }

  get(key) {
    try {
      return this.store.getItem(key);
    } catch {
      return null;
    }
  }

  set(key, value) {
    try {
      this.store.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  }

  /** The saved game exactly as stored (a string, or null when there is none). */
  loadRawState() {
    return this.get(KEYS.state);
  }

  saveState(state) {
    return this.set(KEYS.state, JSON.stringify(state));
  }

  /** Keep a saved value the page could not use, so the player can still recover it. */
  backUpState(raw) {
    return this.set(KEYS.backup, raw);
  }

  loadBest() {
    const best = Number(this.get(KEYS.best));
    return Number.isSafeInteger(best) && best > 0 ? best : 0;
  }

  saveBest(best) {
    return this.set(KEYS.best, String(best));
  }

  /** The best score before the game in progress began; null when not known (older saves). */
  loadBestBefore() {
    const raw = this.get(KEYS.bestBefore);
    const best = Number(raw);
    return raw !== null && Number.isSafeInteger(best) && best >= 0 ? best : null;
  }

  saveBestBefore(best) {
    return this.set(KEYS.bestBefore, String(best));
  }
}
