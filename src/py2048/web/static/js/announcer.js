// The notice and the polite live region, which the game and review pages both carry
// (#notice with #notice-text and #notice-close; #announcer).

/** How long a passing remark stays on screen. */
const FLASH_MS = 4000;

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

  /** Show `text` as a notice for a few seconds (a passing remark, such as a key that does
   *  nothing here), and say it politely too. */
  flash(text, ms = FLASH_MS) {
    this.showNotice(text);
    this.announce(text);
    clearTimeout(this.flashing);
    this.flashing = setTimeout(() => {
      if (this.noticeText.textContent === text) this.hideNotice();
    }, ms);
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
