// Sharing a game: its score, largest tile and review link as one text, handed to the phone's
// share sheet (the Web Share API) or else copied to the clipboard.

import { reviewAddress } from "./gamecode.js";

/** The text that shares `game` ({seed, history, practice}) with its `score` and `tile`. */
export function shareText(game, { score, tile }, t, number) {
  const link = new URL(reviewAddress(game), window.location.origin).href;
  return { link, text: t("share.text", { score: number(score), tile, link }) };
}

/** On a phone (a coarse pointer, and the Web Share API) the share sheet; else the clipboard. */
function wantsShareSheet() {
  return typeof navigator.share === "function" && window.matchMedia("(pointer: coarse)").matches;
}

/**
 * Share `text`: "shared" (the share sheet took it), "cancelled" (the player closed the sheet),
 * "copied" (it is on the clipboard) or "refused" (neither worked: the caller shows the text).
 */
export async function share(text) {
  if (wantsShareSheet()) {
    try {
      await navigator.share({ text });
      return "shared";
    } catch (error) {
      if (error.name === "AbortError") return "cancelled";
      // Refused (no permission, a text it cannot take): the clipboard still may.
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    return "copied";
  } catch {
    return "refused";
  }
}
