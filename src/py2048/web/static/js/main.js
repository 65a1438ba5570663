// Wires the game page together: storage, view, controller, advisor, input and language.

import { Advisor } from "./advisor.js";
import { api } from "./api.js";
import { GameController } from "./controller.js";
import { gameOfSave, reviewAddress } from "./gamecode.js";
import { followLanguageMenu } from "./i18n.js";
import { InputManager } from "./input.js";
import { StorageManager } from "./storage.js";
import { View } from "./view.js";

const byId = (id) => document.getElementById(id);

async function main() {
  const storage = new StorageManager();
  const view = new View();
  const controller = new GameController({ api, storage, view });
  const advisor = new Advisor({ api, controller, view, storage, speedSelect: byId("speed") });

  await followLanguageMenu(storage, (translator) => {
    view.setTranslator(translator);
    byId("rules-link-more").href = `/rules/${translator.language}`;
    controller.relabel();
    advisor.relabel();
  });
  // A menu needs the arrow keys only while it is being used: once its choice is made, they
  // move the tiles again.
  for (const select of document.querySelectorAll("select")) {
    select.addEventListener("change", () => byId("grid").focus());
  }

  new InputManager(byId("board"), {
    move(direction) {
      advisor.takeOver();
      controller.enqueue(direction);
    },
    restart() {
      controller.requestNewGame();
    },
    undo() {
      if (!controller.practiceMode) {
        controller.undo(); // says that Undo needs practice mode
        return false;
      }
      advisor.takeOver();
      controller.undo();
      return true;
    },
  });

  /** Open the review of the game on screen; the game and its save stay as they are. */
  async function openReview() {
    advisor.stopAutoplay();
    await controller.settled();
    if (controller.state) window.location.assign(reviewAddress(gameOfSave(controller.state)));
  }
  byId("new-game").addEventListener("click", () => controller.requestNewGame());
  byId("win-new-game").addEventListener("click", () => controller.startNewGame());
  byId("try-again").addEventListener("click", () => controller.startNewGame());
  byId("keep-going").addEventListener("click", () => controller.keepGoing());
  byId("hint").addEventListener("click", () => advisor.hint());
  byId("autoplay").addEventListener("click", () => advisor.toggleAutoplay());
  byId("review").addEventListener("click", openReview);
  byId("over-review").addEventListener("click", openReview);
  byId("practice").addEventListener("click", () =>
    controller.setPracticeMode(!controller.practiceMode),
  );
  byId("undo").addEventListener("click", () => {
    advisor.takeOver();
    controller.undo();
  });
  view.setPracticeMode(controller.practiceMode);

  await controller.start();
  document.documentElement.dataset.ready = "true";
}

main();
