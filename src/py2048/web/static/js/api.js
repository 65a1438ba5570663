// The client of the py2048 server's /api routes. The server runs the rules; this module only
// carries the game's state (the engine's JSON save) there and back.

/** The server answered with an error: `status` is the HTTP status, `detail` its message. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
  }

  /** True when the server rejected what we sent (a 4xx), not when it failed. */
  get rejected() {
    return this.status >= 400 && this.status < 500;
  }
}

/** The server could not be reached at all. */
export class OfflineError extends Error {
  constructor(cause) {
    super("the py2048 server did not answer");
    this.name = "OfflineError";
    this.cause = cause;
  }
}

function post(path, body) {
  return request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The server's JSON answer to a request; an ApiError or OfflineError when there is none. */
async function request(path, options = {}) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new OfflineError(error);
  }
  let payload = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  if (!response.ok) {
    const detail = payload && payload.detail !== undefined ? payload.detail : response.statusText;
    throw new ApiError(response.status, typeof detail === "string" ? detail : JSON.stringify(detail));
  }
  return payload;
}

export const api = {
  /** A new game: `{state}`; `seed` null lets the server choose. */
  newGame(seed = null) {
    return post("/api/new", { seed });
  },

  /** Check a saved game before resuming it: `{state}`, or an ApiError naming what is wrong. */
  check(state) {
    return post("/api/check", { state });
  },

  /** Play `direction` on `state`: `{state, moved, gain, motions, spawned, won_now, over}`. */
  move(state, direction) {
    return post("/api/move", { state, direction });
  },

  /** The player chose Keep going after the win: `{state}` with keep_going true. */
  keepGoing(state) {
    return post("/api/keep-going", { state });
  },

  /** The solver's advice: `{direction, values, depth, elapsed_ms}`. */
  hint(state, preset) {
    return post("/api/hint", { state, preset });
  },

  /** The solver's presets: `{presets, default, quickest}`, `presets` quickest first. */
  presets() {
    return request("/api/presets");
  },
};
