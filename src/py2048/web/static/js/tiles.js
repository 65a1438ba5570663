// The board's tiles, as the game and the review draw them: one tile is a positioned box (its
// cell in --row and --col) holding a face in the tile's colours (tiles.css).

export function placeTile(tile, [row, col]) {
  tile.style.setProperty("--row", row);
  tile.style.setProperty("--col", col);
}

export function makeTile(value, cell, extraClass = "") {
  const tile = document.createElement("div");
  tile.className = `tile tile-${value} ${extraClass}`.trim();
  placeTile(tile, cell);
  const face = document.createElement("div");
  face.className = "tile-face";
  face.textContent = String(value);
  tile.append(face);
  return tile;
}

/** Draw `board` (4 rows of 4 values, 0 empty) into `tiles` at once, and name each of the
 *  grid's `cells` by its tile ("empty" in the page's language for none). */
export function drawTiles(tiles, cells, board, emptyLabel, extraClass = "tile-new") {
  tiles.replaceChildren();
  board.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value) tiles.append(makeTile(value, [r, c], extraClass));
    }),
  );
  board.flat().forEach((value, index) => {
    cells[index].setAttribute("aria-label", value ? String(value) : emptyLabel);
  });
}

/** A small picture of a board for lists (the strategy page's mini boards): 16 spans. */
export function miniBoard(board, label) {
  const picture = document.createElement("div");
  picture.className = "mini-board";
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", label);
  for (const value of board.flat()) {
    const cell = document.createElement("span");
    if (value) {
      cell.className = `tile-face tile-${value}`;
      cell.textContent = String(value);
    }
    picture.append(cell);
  }
  return picture;
}
