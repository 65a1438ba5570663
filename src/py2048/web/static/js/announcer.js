// The notice and the polite live region, which the game and review pages both carry
// (#notice with #notice-text and #notice-close; #announcer).

/**
 * What a page tells the player besides its board: a notice shown until dismissed, and words
 * for screen readers. Each page's view extends it, so its controller says everything through
 * the view.
 */
export class Announcer {
  constructor() {
    this.notice = document.getElementById("notice");
    this.noticeText = document.getElementById("notice-text");
    this.announcer = document.getElementById("announcer");
    document.getElementById("notice-close").addEventListener("click", () => this.hideNotice());
  }

  showNotice(text) {
    this.noticeText.textContent = text;
    this.notice.hidden = false;
  }

  hideNotice() {
    this.notice.hidden = true;
  }

  /** Say `text` in the polite live region (said again even when it repeats). */
  announce(text) {
    this.announcer.textContent = "";
    requestAnimationFrame(() => {
      this.announcer.textContent = text;
    });
  }
}
