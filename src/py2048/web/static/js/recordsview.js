// The Statistics dialog of the game page: the counts, a bar chart of the largest tile each game
// reached, the practice games apart, and the past games with Review and Delete. Draws what
// records.js keeps; knows nothing of storage or the server.

import { gameOfEntry, summarize } from "./records.js";
import { reviewAddress } from "./gamecode.js";

/** "5x5" as the page writes a size: 5×5. */
export function sizeName(size) {
  return size.replace("x", "×");
}

const byId = (id) => document.getElementById(id);

export class RecordsView {
  /** `words` gives the page's labels: {t(key, values), number(value), language}. */
  constructor(words) {
    this.words = words;
    this.dialog = byId("records-dialog");
    this.message = byId("records-message");
    this.onDelete = () => {};
  }

  t(key, values) {
    return this.words.t(key, values);
  }

  number(value) {
    return this.words.number(value);
  }

  get isOpen() {
    return this.dialog.open;
  }

  open() {
    this.hideMessage();
    this.confirmReset(false);
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    this.dialog.close();
  }

  date(iso) {
    const format = new Intl.DateTimeFormat(this.words.language, {
      dateStyle: "medium",
      timeStyle: "short",
    });
    return format.format(new Date(iso));
  }

  /** Draw the statistics of the board `size` and the past games (of every size). */
  show(statistics, games, size = "4x4") {
    byId("stats-size").textContent = this.t("stats.size", { size: sizeName(size) });
    this.showCounts(summarize(statistics.games));
    this.showTiles(statistics.games.finalTiles);
    const practice = statistics.practice;
    byId("stats-practice").textContent = this.t("stats.practice", {
      played: this.number(practice.played),
      won: this.number(practice.won),
      best: this.number(practice.bestScore),
    });
    this.showGames(games);
  }

  showCounts(counts) {
    const items = [
      ["played", this.number(counts.played)],
      ["won", this.number(counts.won)],
      ["winRate", `${this.number(Math.round(counts.winRate * 10) / 10)}%`],
      ["bestScore", this.number(counts.bestScore)],
      ["averageScore", this.number(counts.averageScore)],
      ["bestTile", counts.bestTile ? String(counts.bestTile) : "–"],
      ["streak", this.number(counts.streak)],
      ["longestStreak", this.number(counts.longestStreak)],
    ];
    byId("stats").replaceChildren(
      ...items.map(([name, value]) => {
        const item = document.createElement("div");
        item.className = "stat";
        item.dataset.stat = name;
        const term = document.createElement("dt");
        term.textContent = this.t(`stats.${name}`);
        const figure = document.createElement("dd");
        figure.textContent = value;
        item.append(term, figure);
        return item;
      }),
    );
  }

  /** One bar per largest tile, its length by the games that ended with it. */
  showTiles(finalTiles) {
    const tiles = Object.keys(finalTiles)
      .map(Number)
      .sort((a, b) => a - b);
    const most = Math.max(1, ...Object.values(finalTiles));
    const body = byId("tile-chart-body");
    if (!tiles.length) {
      const row = document.createElement("tr");
      const cell = document.createElement("td");
      cell.colSpan = 2;
      cell.textContent = this.t("stats.noTiles");
      row.append(cell);
      body.replaceChildren(row);
      return;
    }
    body.replaceChildren(
      ...tiles.map((tile) => {
        const row = document.createElement("tr");
        row.dataset.tile = String(tile);
        const label = document.createElement("th");
        label.scope = "row";
        label.textContent = String(tile);
        const cell = document.createElement("td");
        const bar = document.createElement("span");
        bar.className = "tile-bar";
        bar.setAttribute("aria-hidden", "true");
        bar.style.setProperty("--share", String(finalTiles[tile] / most));
        const count = document.createElement("span");
        count.className = "tile-count";
        count.textContent = this.number(finalTiles[tile]);
        cell.append(bar, count);
        row.append(label, cell);
        return row;
      }),
    );
  }

  showGames(games) {
    byId("games-none").hidden = games.length > 0;
    byId("games-scroll").hidden = games.length === 0;
    byId("games-export").disabled = games.length === 0;
    byId("games-body").replaceChildren(...games.map((entry) => this.gameRow(entry)));
  }

  gameRow(entry) {
    const row = document.createElement("tr");
    row.dataset.code = entry.code;
    const when = this.date(entry.date);
    const date = document.createElement("td");
    date.textContent = when;
    const notes = [];
    const { size } = gameOfEntry(entry);
    if (size !== "4x4") notes.push(sizeName(size));
    if (entry.practice) notes.push(this.t("games.practice"));
    if (entry.ended === "abandoned") notes.push(this.t("games.abandoned"));
    if (notes.length) {
      const note = document.createElement("span");
      note.className = "game-note";
      note.textContent = notes.join(", ");
      date.append(document.createElement("br"), note);
    }
    const cells = [entry.score, entry.tile, entry.moves].map((value, index) => {
      const cell = document.createElement("td");
      cell.className = "figure";
      cell.textContent = index === 1 ? String(value) : this.number(value);
      return cell;
    });
    const actions = document.createElement("td");
    actions.className = "game-actions";
    const open = document.createElement("a");
    open.className = "button";
    open.href = reviewAddress(gameOfEntry(entry));
    open.textContent = this.t("games.open");
    open.setAttribute("aria-label", this.t("games.openLabel", { date: when }));
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "button game-delete";
    remove.textContent = this.t("games.delete");
    remove.setAttribute("aria-label", this.t("games.deleteLabel", { date: when }));
    remove.addEventListener("click", () => this.onDelete(entry, when));
    actions.append(open, remove);
    row.append(date, ...cells, actions);
    return row;
  }

  /** Say `text` at the top of the dialog, where focus then goes (a screen reader reads it). */
  say(text) {
    this.message.textContent = text;
    this.message.hidden = false;
    this.message.focus();
  }

  hideMessage() {
    this.message.hidden = true;
  }

  /** Show or hide the question before the statistics are reset. */
  confirmReset(show) {
    byId("stats-reset-confirm").hidden = !show;
    byId("stats-reset").hidden = show;
    if (show) byId("stats-reset-cancel").focus();
  }
}
