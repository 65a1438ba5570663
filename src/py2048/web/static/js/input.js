// Keys and swipes turned into "move", "restart" and "undo" events. Knows nothing of the game.

const KEY_DIRECTIONS = {
  ArrowUp: "up",
  ArrowRight: "right",
  ArrowDown: "down",
  ArrowLeft: "left",
  // Letters by their place on the keyboard, so W A S D and H J K L work on every layout.
  KeyW: "up",
  KeyD: "right",
  KeyS: "down",
  KeyA: "left",
  KeyK: "up",
  KeyL: "right",
  KeyJ: "down",
  KeyH: "left",
};

const RESTART_CODE = "KeyR";
/** U, or Ctrl+Z (Cmd+Z on a Mac): the handler says whether it took the key (practice mode). */
const UNDO_CODE = "KeyU";
const UNDO_WITH_CONTROL_CODE = "KeyZ";

/** The least distance, in CSS pixels, a drag must cover to count as a swipe. */
export const SWIPE_THRESHOLD = 10;

/** The direction of a drag by (dx, dy), or null when it is too short. */
export function swipeDirection(dx, dy) {
  const absX = Math.abs(dx);
  const absY = Math.abs(dy);
  if (Math.max(absX, absY) < SWIPE_THRESHOLD) return null;
  if (absX > absY) return dx > 0 ? "right" : "left";
  return dy > 0 ? "down" : "up";
}

function isTypingTarget(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest("input, select, textarea, [contenteditable], dialog"));
}

export class InputManager {
  /** `board` receives the swipes; `handlers` are {move(direction), restart(), undo()}; undo
   *  returns whether it took the key (otherwise Ctrl+Z is left to the browser). */
  constructor(board, handlers) {
    this.board = board;
    this.handlers = handlers;
    this.drag = null;
    document.addEventListener("keydown", (event) => this.onKey(event));
    board.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    board.addEventListener("pointerup", (event) => this.onPointerUp(event));
    board.addEventListener("pointercancel", () => {
      this.drag = null;
    });
  }

  onKey(event) {
    if (event.isComposing || isTypingTarget(event.target)) return;
    const control = event.ctrlKey || event.metaKey;
    if (control && !event.altKey && !event.shiftKey && event.code === UNDO_WITH_CONTROL_CODE) {
      if (this.handlers.undo?.()) event.preventDefault();
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const direction = KEY_DIRECTIONS[event.code];
    if (direction) {
      event.preventDefault();
      this.handlers.move(direction);
    } else if (event.code === RESTART_CODE) {
      event.preventDefault();
      this.handlers.restart();
    } else if (event.code === UNDO_CODE && this.handlers.undo) {
      event.preventDefault();
      this.handlers.undo();
    }
  }

  onPointerDown(event) {
    if (!event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
    // Buttons on the board (the banners') keep their own clicks.
    if (event.target instanceof Element && event.target.closest("button, a, select")) return;
    this.drag = { id: event.pointerId, x: event.clientX, y: event.clientY };
    try {
      this.board.setPointerCapture(event.pointerId);
    } catch {
      // The pointer is already gone; the drag simply will not end here.
    }
    event.preventDefault();
  }

  onPointerUp(event) {
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    this.drag = null;
    const direction = swipeDirection(event.clientX - drag.x, event.clientY - drag.y);
    if (direction) this.handlers.move(direction);
  }
}
