// A game as a review link holds it: its seed and its moves in the URL's fragment, which the
// browser never sends to a server.
//
//   /review#seed=42&n=7&moves=LSVA&practice=1
//   /review#seed=42&size=5x5&n=7&moves=LSVA
//
// `moves` packs the moves four to a byte (U 0, R 1, D 2, L 3; the first move in the byte's two
// highest bits), written in base64url without padding: 5,000 moves take 1,667 characters. `n`
// says how many moves there are; `practice=1` marks a game in which Undo was used; `size`
// (rows x columns) is left out for 4x4.

import { DEFAULT_SIZE, isSize, sizeOfState } from "./storage.js";

const LETTERS = "URDL";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const SEED_LIMIT = 2 ** 53;

/** A link that cannot be read: `key` names the message (with `values`) in the locales. */
export class GameCodeError extends Error {
  constructor(key, values = {}) {
    super(key);
    this.name = "GameCodeError";
    this.key = key;
    this.values = values;
  }
}

/** The fragment (without "#") for a game: {seed, history ("URDL..."), practice, size}. */
export function encodeGame({ seed, history, practice = false, size = DEFAULT_SIZE }) {
  const bytes = new Uint8Array(Math.ceil(history.length / 4));
  for (let i = 0; i < history.length; i++) {
    bytes[i >> 2] |= LETTERS.indexOf(history[i]) << (6 - 2 * (i & 3));
  }
  let moves = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.ceil(((Math.min(3, bytes.length - i)) * 8) / 6);
    for (let k = 0; k < chars; k++) moves += BASE64URL[(chunk >> (18 - 6 * k)) & 63];
  }
  const params = new URLSearchParams({ seed: String(seed) });
  if (size !== DEFAULT_SIZE) params.set("size", size);
  params.set("n", String(history.length));
  params.set("moves", moves);
  if (practice) params.set("practice", "1");
  return params.toString();
}

/** The game a fragment holds, {seed, history, practice, size}; a GameCodeError says what is
 *  wrong. */
export function decodeGame(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const seedText = params.get("seed");
  if (seedText === null) throw new GameCodeError("link.noSeed");
  const seed = Number(seedText);
  if (!/^\d+$/.test(seedText) || !Number.isSafeInteger(seed) || seed >= SEED_LIMIT) {
    throw new GameCodeError("link.badSeed", { seed: seedText.slice(0, 30) });
  }
  const size = params.get("size") ?? DEFAULT_SIZE;
  if (!isSize(size)) throw new GameCodeError("link.badSize", { size: size.slice(0, 30) });
  const countText = params.get("n");
  const count = Number(countText);
  if (countText === null || !/^\d+$/.test(countText) || !Number.isSafeInteger(count)) {
    throw new GameCodeError("link.badCount");
  }
  const moves = params.get("moves") ?? "";
  const bits = [];
  for (let i = 0; i < moves.length; i++) {
    const value = BASE64URL.indexOf(moves[i]);
    if (value < 0) throw new GameCodeError("link.damaged", { move: 3 * i + 1 });
    for (let k = 5; k >= 0; k--) bits.push((value >> k) & 1);
  }
  const needed = Math.ceil(Math.ceil(count / 4) * 8 / 6);
  if (moves.length < needed) throw new GameCodeError("link.short", { count });
  if (moves.length > needed) throw new GameCodeError("link.damaged", { move: count + 1 });
  let history = "";
  for (let i = 0; i < count; i++) history += LETTERS[(bits[2 * i] << 1) | bits[2 * i + 1]];
  return { seed, history, practice: params.get("practice") === "1", size };
}

/** The review page's address for a game. */
export function reviewAddress(game) {
  return `/review#${encodeGame(game)}`;
}

/** The game of a save (the engine's JSON save, as Export writes it). */
export function gameOfSave(state) {
  return {
    seed: state.seed,
    history: state.history,
    practice: Boolean(state.practice),
    size: sizeOfState(state),
  };
}

/** A py2048 save's text, parsed; a GameCodeError when it is not JSON or not a py2048 save. The
 *  server checks everything else. */
export function parseSaveText(text) {
  let save;
  try {
    save = JSON.parse(text);
  } catch {
    throw new GameCodeError("import.notJson");
  }
  const isObject = save !== null && typeof save === "object" && !Array.isArray(save);
  if (!isObject || save.format !== "py2048") {
    throw new GameCodeError("import.foreign");
  }
  return save;
}
