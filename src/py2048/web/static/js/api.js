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

/** A request's body with its `size` ("5x5") as [rows, cols], left out on 4x4. */
function gameBody({ size = "4x4", ...game }) {
  return size === "4x4" ? game : { ...game, size: size.split("x").map(Number) };
}

function post(path, body, signal = undefined) {
  return request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
}

/** The review of a game, with `onProgress(graded, total)` as the server's search goes; the
 *  request stops (an AbortError) when `signal` aborts. */
async function reviewStream(game, onProgress, signal) {
  let response;
  try {
    response = await fetch("/api/review/stream", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(gameBody(game)),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new OfflineError(error);
  }
  if (!response.ok) {
    let detail = response.statusText;
    try {
      detail = (await response.json()).detail ?? detail;
    } catch {
      // the status says enough
    }
    const text = typeof detail === "string" ? detail : JSON.stringify(detail);
    throw new ApiError(response.status, text);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffered += decoder.decode(value ?? new Uint8Array(), { stream: !done });
    let end;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (!line) continue;
      const message = JSON.parse(line);
      if (message.progress) onProgress(message.progress.graded, message.progress.total);
      else if (message.error) throw new ApiError(500, message.error);
      else return message;
    }
    if (done) throw new OfflineError(new Error("the review stopped before its end"));
  }
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
  /** A new game: `{state}`; `seed` null lets the server choose; `size` "5x5" (4x4 when left
   *  out). */
  newGame(seed = null, size = "4x4") {
    return post("/api/new", gameBody({ seed, size }));
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

  /** Take back the last `steps` moves: `{state}`, marked practice. */
  undo(state, steps = 1) {
    return post("/api/undo", { state, steps });
  },

  /** The game a seed and its moves make: `{state}`, or an ApiError naming the bad move. */
  replay({ seed, history, practice = false, size = "4x4" }) {
    return post("/api/replay", gameBody({ seed, history, practice, size }));
  },

  /** The solver's review of a game `{seed, history, practice, setting}`: `{review, state}`,
   *  with `onProgress(graded, total)` on the way. */
  review(game, onProgress = () => {}, signal = undefined) {
    return reviewStream(game, onProgress, signal);
  },

  /** The solver's advice: `{direction, values, depth, elapsed_ms, source, ...}`; the board's
   *  size travels in the state. */
  hint(state, preset) {
    return post("/api/hint", { state, preset });
  },

  /** The solver's presets: `{presets, default, quickest}`, `presets` quickest first. */
  presets() {
    return request("/api/presets");
  },
};
