// Wires the review page together: language, view, controller, the replay's keys and buttons.

import { api } from "./api.js";
import { followLanguageMenu } from "./i18n.js";
import { ReviewController } from "./review.js";
import { ReviewView } from "./reviewview.js";
import { StorageManager } from "./storage.js";

const byId = (id) => document.getElementById(id);

/** Keys of the replay; the slider, menus, buttons and fields keep their own keys. */
function replayKey(event, controller) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  const owner = "input, select, textarea, button, a, summary, [role=button]";
  if (target instanceof Element && target.closest(owner)) {
    return;
  }
  const actions = {
    ArrowLeft: () => controller.step(-1),
    ArrowRight: () => controller.step(1),
    Home: () => controller.step(-controller.last),
    End: () => controller.step(controller.last),
    " ": () => controller.togglePlay(),
  };
  const action = actions[event.key];
  if (action && controller.review) {
    event.preventDefault();
    action();
  }
}

async function main() {
  const view = new ReviewView();
  const controller = new ReviewController({ api, view });

  await followLanguageMenu(new StorageManager(), (translator) => {
    view.setTranslator(translator);
    if (controller.review) {
      view.showReview(controller.review, controller.game.practice, controller.state.over);
      view.showPosition(controller.position);
    } else if (controller.game) {
      view.showGame(controller.game, window.location.href);
    }
    view.setPlaying(Boolean(controller.timer));
  });

  byId("replay-start").addEventListener("click", () => controller.step(-controller.last));
  byId("replay-back").addEventListener("click", () => controller.step(-1));
  byId("replay-forward").addEventListener("click", () => controller.step(1));
  byId("replay-end").addEventListener("click", () => controller.step(controller.last));
  byId("replay-play").addEventListener("click", () => controller.togglePlay());
  byId("replay-slider").addEventListener("input", (event) => {
    controller.pause();
    controller.seek(Number(event.target.value));
  });
  document.addEventListener("keydown", (event) => replayKey(event, controller));

  byId("review-cancel").addEventListener("click", () => controller.cancel());
  byId("review-again").addEventListener("click", () => controller.grade());
  byId("review-setting").addEventListener("change", () => {
    if (controller.game) controller.grade();
  });
  byId("copy-link").addEventListener("click", () => controller.copyLink());
  byId("share-game").addEventListener("click", () => controller.shareGame());
  byId("review-link").addEventListener("focus", (event) => event.target.select());
  byId("export").addEventListener("click", () => controller.exportGame());
  const fileInput = byId("import-file");
  byId("import").addEventListener("click", () => fileInput.click());
  fileInput.addEventListener("change", async () => {
    const [file] = fileInput.files;
    fileInput.value = "";
    if (file) await controller.importFile(file);
  });
  window.addEventListener("hashchange", () => controller.openFromAddress());
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (!controller.review) return;
      view.drawGraph(controller.review);
      view.moveCursor(controller.position);
    }, 150);
  });

  document.documentElement.dataset.ready = "true";
  await controller.openFromAddress();
}

main();
