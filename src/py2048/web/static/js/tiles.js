// The board's tiles, as the game and the review draw them: one tile is a positioned box (its
// cell in --row and --col) holding a face in the tile's colours (tiles.css). The grid is built
// to the board's shape; --rows and --cols size it (game.css).

/** Larger tiles share its colours (tile-super), and are written 2 with a raised exponent. */
const LARGEST_COLOURED = 131072;

/** A board's shape: {rows, cols}. */
export function boardShape(board) {
  return { rows: board.length, cols: board[0]?.length ?? 0 };
}

/** Give `grid` (role=grid) one row of cells per board row, `rows` by `cols`, when it has
 *  another shape, and size the page's board to it; the grid's cells, in reading order. */
export function shapeGrid(grid, { rows, cols }) {
  const shaped = grid.children.length === rows &&
    [...grid.children].every((row) => row.children.length === cols);
  if (!shaped) {
    grid.replaceChildren(
      ...Array.from({ length: rows }, () => {
        const row = document.createElement("div");
        row.className = "grid-row";
        row.setAttribute("role", "row");
        for (let c = 0; c < cols; c++) {
          const cell = document.createElement("div");
          cell.className = "grid-cell";
          cell.setAttribute("role", "gridcell");
          row.append(cell);
        }
        return row;
      }),
    );
  }
  document.body.style.setProperty("--rows", String(rows));
  document.body.style.setProperty("--cols", String(cols));
  document.body.dataset.size = `${rows}x${cols}`;
  return [...grid.querySelectorAll("[role=gridcell]")];
}

export function placeTile(tile, [row, col]) {
  tile.style.setProperty("--row", row);
  tile.style.setProperty("--col", col);
}

/** A tile's classes: its value's colour and font size, or the largest tiles' shared ones. */
function tileClass(value) {
  return value <= LARGEST_COLOURED ? `tile-${value}` : "tile-super";
}

/** `value` in `face`: its digits, or 2 with a raised exponent. */
function writeValue(face, value) {
  if (value <= LARGEST_COLOURED) {
    face.textContent = String(value);
    return;
  }
  const power = document.createElement("sup");
  power.textContent = String(Math.round(Math.log2(value)));
  face.replaceChildren("2", power);
}

export function makeTile(value, cell, extraClass = "") {
  const tile = document.createElement("div");
  tile.className = `tile ${tileClass(value)} ${extraClass}`.trim();
  placeTile(tile, cell);
  const face = document.createElement("div");
  face.className = "tile-face";
  writeValue(face, value);
  tile.append(face);
  return tile;
}

/** Draw `board` (rows of values, 0 empty) into `tiles` at once, and name each of the grid's
 *  `cells` by its tile ("empty" in the page's language for none). */
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

/** A small picture of a board for lists (the strategy page's mini boards, the review's costliest
 *  moves): a span per cell, as many columns as the board has. */
export function miniBoard(board, label) {
  const picture = document.createElement("div");
  picture.className = "mini-board";
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", label);
  const { rows, cols } = boardShape(board);
  picture.style.setProperty("--mini-rows", String(rows));
  picture.style.setProperty("--mini-cols", String(cols));
  for (const value of board.flat()) {
    const cell = document.createElement("span");
    if (value) {
      cell.className = `tile-face ${tileClass(value)}`;
      writeValue(cell, value);
    }
    picture.append(cell);
  }
  return picture;
}
