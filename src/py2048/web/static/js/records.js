// What the player keeps besides the game in progress: statistics and past games. Every game
// is counted once, when it ends (game over) or when New game replaces it after a move; a game
// in which Undo was used (practice) is counted apart. Past games are kept as their review
// link's fragment (seed and packed moves: a 5,000-move game is about 1.7 KB), newest first.
// Everything lives in the browser's storage (StorageManager), beside the saves. Statistics are
// per board size; past games of every size share one list.

import { GameCodeError, decodeGame, encodeGame, gameOfSave } from "./gamecode.js";
import { DEFAULT_SIZE, KEYS, sizedKey } from "./storage.js";

/** How many past games the browser keeps; the oldest goes first. */
export const KEEP_GAMES = 200;
/** The `format` of an exported file of past games. */
export const GAMES_FORMAT = "py2048-games";
const WIN_TILE = 2048;

/** One kind of game's counts (normal or practice), all zero. */
function blankCounts() {
  return {
    played: 0,
    won: 0,
    totalScore: 0,
    bestScore: 0,
    bestTile: 0,
    finalTiles: {}, // the largest tile a game ended with -> how many games
    streak: 0, // games won in a row, up to the last one
    longestStreak: 0,
  };
}

export function blankStatistics() {
  return { games: blankCounts(), practice: blankCounts() };
}

/** The largest tile on a board. */
export function largestTile(board) {
  return Math.max(0, ...board.flat());
}

/** `counts` after one more game that ended with `score` and `tile` (won: reached 2048). */
export function countGame(counts, { score, tile, won }) {
  const finalTiles = { ...counts.finalTiles, [tile]: (counts.finalTiles[tile] ?? 0) + 1 };
  const streak = won ? counts.streak + 1 : 0;
  return {
    played: counts.played + 1,
    won: counts.won + (won ? 1 : 0),
    totalScore: counts.totalScore + score,
    bestScore: Math.max(counts.bestScore, score),
    bestTile: Math.max(counts.bestTile, tile),
    finalTiles,
    streak,
    longestStreak: Math.max(counts.longestStreak, streak),
  };
}

/** What a statistics panel shows of `counts`: rates and averages made from the counts. */
export function summarize(counts) {
  const { played, won } = counts;
  return {
    ...counts,
    winRate: played ? (100 * won) / played : 0,
    averageScore: played ? Math.round(counts.totalScore / played) : 0,
  };
}

const isCount = (value) => Number.isSafeInteger(value) && value >= 0;

/** Stored counts as they should be, or blank ones when what is stored is not. */
function readCounts(raw) {
  if (raw === null || typeof raw !== "object") return blankCounts();
  const counts = blankCounts();
  for (const name of Object.keys(counts)) {
    if (name === "finalTiles") continue;
    if (!isCount(raw[name])) return blankCounts();
    counts[name] = raw[name];
  }
  const tiles = raw.finalTiles;
  if (tiles === null || typeof tiles !== "object") return blankCounts();
  for (const [tile, count] of Object.entries(tiles)) {
    if (!/^\d+$/.test(tile) || !isCount(count)) return blankCounts();
    counts.finalTiles[tile] = count;
  }
  return counts;
}

/** A past game as kept: it must decode, and its figures must be whole numbers. */
function validEntry(entry) {
  if (entry === null || typeof entry !== "object" || typeof entry.code !== "string") return false;
  try {
    const game = decodeGame(entry.code);
    if (game.history.length !== entry.moves) return false;
  } catch (error) {
    if (error instanceof GameCodeError) return false;
    throw error;
  }
  const known = ["score", "tile", "moves"].every((name) => isCount(entry[name]));
  return known && typeof entry.date === "string" && !Number.isNaN(Date.parse(entry.date));
}

/** The past game an entry holds: {seed, history, practice}. */
export function gameOfEntry(entry) {
  return decodeGame(entry.code);
}

/** A problem with an imported file: `key` names the message in the locales. */
export class RecordsError extends Error {
  constructor(key, values = {}) {
    super(key);
    this.name = "RecordsError";
    this.key = key;
    this.values = values;
  }
}

/**
 * The entries a file of past games holds, checked for form (its games' moves are checked by
 * the caller, which asks the server); a RecordsError says what is wrong.
 */
export function parseGamesFile(text) {
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    throw new RecordsError("import.notJson");
  }
  if (file === null || typeof file !== "object" || file.format !== GAMES_FORMAT) {
    throw new RecordsError("games.importForeign");
  }
  if (!Array.isArray(file.games)) throw new RecordsError("games.importForeign");
  file.games.forEach((entry, index) => {
    if (!validEntry(entry)) throw new RecordsError("games.importBadGame", { number: index + 1 });
  });
  return file.games.map((entry) => ({
    code: entry.code,
    date: entry.date,
    score: entry.score,
    tile: entry.tile,
    moves: entry.moves,
    practice: Boolean(entry.practice),
    won: Boolean(entry.won),
    ended: entry.ended === "abandoned" ? "abandoned" : "over",
  }));
}

export class Records {
  constructor(storage, now = () => new Date()) {
    this.storage = storage;
    this.now = now;
  }

  readJson(key) {
    const raw = this.storage.get(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw);
    } catch {
      return null;
    }
  }

  /** {games, practice}: the counts of normal and of practice games on `size`. */
  statistics(size = DEFAULT_SIZE) {
    const raw = this.readJson(sizedKey(KEYS.statistics, size));
    if (raw === null || typeof raw !== "object") return blankStatistics();
    return { games: readCounts(raw.games), practice: readCounts(raw.practice) };
  }

  /** The past games kept, newest first (entries that cannot be read are left out). */
  games() {
    const raw = this.readJson(KEYS.games);
    return Array.isArray(raw) ? raw.filter(validEntry) : [];
  }

  saveGames(games) {
    return this.storage.set(KEYS.games, JSON.stringify(games.slice(0, KEEP_GAMES)));
  }

  /**
   * Keep a game that ended (`ended` "over") or that New game replaced ("abandoned"): it joins
   * the past games, and the statistics count it once. The same game kept again (an Undo after
   * game over, then another end) replaces its entry and is not counted twice.
   */
  record(state, ended) {
    if (!state || state.moves === 0) return false;
    const game = gameOfSave(state);
    const entry = {
      code: encodeGame(game),
      date: this.now().toISOString(),
      score: state.score,
      tile: largestTile(state.board),
      moves: state.moves,
      practice: game.practice,
      won: Boolean(state.won),
      ended,
    };
    const seed = String(state.seed);
    const countedKey = sizedKey(KEYS.counted, game.size);
    const counted = this.storage.get(countedKey) === seed;
    const same = (kept) => {
      const keptGame = gameOfEntry(kept);
      return keptGame.seed === state.seed && keptGame.size === game.size;
    };
    const games = this.games().filter((kept) => !(counted && same(kept)));
    this.saveGames([entry, ...games]);
    if (!counted) {
      const statistics = this.statistics(game.size);
      const kind = entry.practice ? "practice" : "games";
      statistics[kind] = countGame(statistics[kind], {
        score: entry.score,
        tile: entry.tile,
        won: entry.tile >= WIN_TILE || entry.won,
      });
      this.storage.set(sizedKey(KEYS.statistics, game.size), JSON.stringify(statistics));
      this.storage.set(countedKey, seed);
    }
    return true;
  }

  /** Forget the past game whose entry has `code`. */
  remove(code) {
    return this.saveGames(this.games().filter((entry) => entry.code !== code));
  }

  /** Every count of `size` back to zero (the past games stay). */
  resetStatistics(size = DEFAULT_SIZE) {
    return this.storage.set(sizedKey(KEYS.statistics, size), JSON.stringify(blankStatistics()));
  }

  /** Every past game as one file's text ({format, version, games}). */
  exportText() {
    return JSON.stringify({ format: GAMES_FORMAT, version: 1, games: this.games() }, null, 1);
  }

  /** Add imported entries to the past games (those already kept are skipped), newest first;
   *  the number added. */
  merge(entries) {
    const games = this.games();
    const known = new Set(games.map((entry) => entry.code));
    const added = entries.filter((entry) => !known.has(entry.code));
    const all = [...games, ...added].sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
    this.saveGames(all);
    return added.length;
  }
}
