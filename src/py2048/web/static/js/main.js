// Wires the game page together: storage, view, controller, advisor, input and language, the
// Statistics dialog and sharing.

import { Advisor } from "./advisor.js";
import { api } from "./api.js";
import { GameController } from "./controller.js";
import { gameOfSave, reviewAddress } from "./gamecode.js";
import { followLanguageMenu } from "./i18n.js";
import { InputManager } from "./input.js";
import { largestTile, Records } from "./records.js";
import { RecordsPanel } from "./recordspanel.js";
import { RecordsView } from "./recordsview.js";
import { share, shareText } from "./share.js";
import { StorageManager } from "./storage.js";
import { View } from "./view.js";

const byId = (id) => document.getElementById(id);

async function main() {
  const storage = new StorageManager();
  const view = new View();
  const records = new Records(storage);
  const controller = new GameController({ api, storage, view, records });
  const advisor = new Advisor({
    api,
    controller,
    view,
    storage,
    speedSelect: byId("speed"),
    strengthSelect: byId("strength"),
  });
  const panel = new RecordsPanel({ api, records, view: new RecordsView(view), storage });

  await followLanguageMenu(storage, (translator) => {
    view.setTranslator(translator);
    byId("rules-link-more").href = `/rules/${translator.language}`;
    controller.relabel();
    advisor.relabel();
    panel.relabel();
  });
  const strengths = advisor.loadStrengths();
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
  /** Share the game on screen: its score, largest tile and review link. */
  async function shareGame() {
    const state = controller.state;
    if (!state) return;
    const figures = { score: state.score, tile: largestTile(state.board) };
    const { text } = shareText(gameOfSave(state), figures, view.t.bind(view), (n) => view.number(n));
    const outcome = await share(text);
    if (outcome === "copied") view.flash(view.t("share.copiedText"));
    else if (outcome === "refused") view.showNotice(view.t("share.byHand", { text }));
  }

  byId("new-game").addEventListener("click", () => controller.requestNewGame());
  byId("size").addEventListener("change", (event) => {
    advisor.stopAutoplay();
    controller.chooseSize(event.target.value);
  });
  byId("win-new-game").addEventListener("click", () => controller.startNewGame());
  byId("try-again").addEventListener("click", () => controller.startNewGame());
  byId("keep-going").addEventListener("click", () => controller.keepGoing());
  byId("hint").addEventListener("click", () => advisor.hint());
  byId("autoplay").addEventListener("click", () => advisor.toggleAutoplay());
  byId("review").addEventListener("click", openReview);
  byId("over-review").addEventListener("click", openReview);
  byId("over-share").addEventListener("click", shareGame);
  byId("statistics").addEventListener("click", () => {
    advisor.stopAutoplay();
    panel.open();
  });
  byId("records-close").addEventListener("click", () => byId("records-dialog").close());
  byId("stats-reset").addEventListener("click", () => panel.askReset());
  byId("stats-reset-cancel").addEventListener("click", () => panel.cancelReset());
  byId("stats-reset-ok").addEventListener("click", () => panel.reset());
  byId("games-export").addEventListener("click", () => panel.exportAll());
  const gamesFile = byId("games-import-file");
  byId("games-import").addEventListener("click", () => gamesFile.click());
  gamesFile.addEventListener("change", async () => {
    const [file] = gamesFile.files;
    gamesFile.value = "";
    if (file) await panel.importFile(file);
  });
  byId("practice").addEventListener("click", () =>
    controller.setPracticeMode(!controller.practiceMode),
  );
  byId("undo").addEventListener("click", () => {
    advisor.takeOver();
    controller.undo();
  });
  view.setPracticeMode(controller.practiceMode);

  await Promise.all([controller.start(), strengths]);
  document.documentElement.dataset.ready = "true";
}

main();
