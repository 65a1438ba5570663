// The browser's memory of the game: the state after every move, the best score (and what it
// was before the game in progress, which a practice game falls back to), the chosen language,
// autoplay speed, solver strength and practice mode, the board size on screen, and the
// statistics and past games that records.js keeps. When localStorage is unavailable (a private
// window, a full quota) the page keeps working from memory for the session.
// Each board size keeps its own game, best score and statistics: 4x4 under the keys below, as
// before sizes existed, other sizes under the key with the size added ("py2048.best.5x5").

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
  size: "py2048.size", // the board size on screen, "5x5"; 4x4 when absent
});

/** The classic board, and the size a game without one has. */
export const DEFAULT_SIZE = "4x4";
/** The smallest and largest side of a board (isSize says the same). */
export const MIN_SIDE = 3;
export const MAX_SIDE = 8;

/** Whether `size` is a board size as the page writes it: "5x5", "4x6" (rows x columns). */
export function isSize(size) {
  return /^[3-8]x[3-8]$/.test(String(size));
}

/** The size of a save: its `size` field ([rows, cols]) as "5x5", or 4x4 when it has none. */
export function sizeOfState(state) {
  return Array.isArray(state?.size) ? `${state.size[0]}x${state.size[1]}` : DEFAULT_SIZE;
}

/** The key under which `size` keeps what `key` holds for 4x4. */
export function sizedKey(key, size) {
  return size === DEFAULT_SIZE ? key : `${key}.${size}`;
}

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
    /** The board size whose game, best score and statistics the methods below read. */
    this.size = this.loadSize();
  }

  /** The size last played ("5x5"), 4x4 when none was chosen. */
  loadSize() {
    const size = this.get(KEYS.size);
    return isSize(size) ? size : DEFAULT_SIZE;
  }

  /** Play `size` from now on: the game, best score and statistics read are its own. */
  useSize(size) {
    this.size = size;
    if (size === DEFAULT_SIZE) this.remove(KEYS.size);
    else this.set(KEYS.size, size);
  }

  /** `key` for the size on screen. */
  sized(key) {
    return sizedKey(key, this.size);
  }

  remove(key) {
    try {
      this.store.removeItem(key);
    } catch {
      // nothing to do: the value stays or was never there
    }
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
    return this.get(this.sized(KEYS.state));
  }

  saveState(state) {
    return this.set(this.sized(KEYS.state), JSON.stringify(state));
  }

  /** Keep a saved value the page could not use, so the player can still recover it. */
  backUpState(raw) {
    return this.set(this.sized(KEYS.backup), raw);
  }

  loadBest() {
    const best = Number(this.get(this.sized(KEYS.best)));
    return Number.isSafeInteger(best) && best > 0 ? best : 0;
  }

  saveBest(best) {
    return this.set(this.sized(KEYS.best), String(best));
  }

  /** The best score before the game in progress began; null when not known (older saves). */
  loadBestBefore() {
    const raw = this.get(this.sized(KEYS.bestBefore));
    const best = Number(raw);
    return raw !== null && Number.isSafeInteger(best) && best >= 0 ? best : null;
  }

  saveBestBefore(best) {
    return this.set(this.sized(KEYS.bestBefore), String(best));
  }
}
