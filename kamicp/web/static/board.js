// Drawing a board as SVG, for both pages: the play page's board from the JSON of
// POST /api/board (kamicp.web.page.board_json), the design page's from its design.
//
//   drawBoard(svg, board, {onCellClick, seams}) -> view
//     svg          an <svg> element; emptied, then filled with the board
//     board        the board JSON: cells (points, or centre on graph boards; optional: a
//                  label, shown as the cell's title, and at, a designer's entry [i, j],
//                  kept as data-at), colours, regions, palette, view, and optional links,
//                  border, pivot, radius, labels
//     onCellClick  optional, called as onCellClick(cellNumber, event) on a click on a cell
//     seams        optional: leave each cell's edge to the page's style (the designer
//                  paints cell by cell); else a region's cells run together
//   view.setColours(colours, regions)  recolour every cell (palette indices, null for a
//                                      hole; region ids)
//   view.paint(cell, colour, region)   recolour one cell
//   view.setPalette(palette)           new colours for the palette's entries; repaints
//   view.setPivot(cell)                ring the pivot cell (null: no ring)
//   view.mark(cells, outline)          outline a group of cells (segments [[x,y],[x,y]])
//   view.unmark()                      remove the outline
//   view.showGraph(regions, links)     the region graph over the board: a node per region
//                                      (at the mean of its cells' centres), links between
//   view.hideGraph()                   remove it
//   view.cells                         the cell elements, by cell number
//
// Each cell element carries data-cell (its number), data-colour (its palette index, or
// "hole") and data-region (the smallest starting region of its current region). The
// geometry is the server's: this module only draws the polygons and centres it is given.

export const SVG = "http://www.w3.org/2000/svg";

function element(name, attributes = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function centreOf(cell) {
  if (cell.centre) return cell.centre;
  const n = cell.points.length;
  const x = cell.points.reduce((sum, p) => sum + p[0], 0) / n;
  const y = cell.points.reduce((sum, p) => sum + p[1], 0) / n;
  return [x, y];
}

// Room, in layout units, for the row and column numbers left of and above a grid board.
const LABELS = 0.75;

function drawLabels(svg, labels, x, y) {
  const group = element("g", { class: "labels" });
  for (const [n, at] of labels.columns) {
    const text = element("text", { x: at, y: y - LABELS / 2 });
    text.textContent = n;
    group.append(text);
  }
  for (const [n, at] of labels.rows) {
    const text = element("text", { x: x - LABELS / 2, y: at });
    text.textContent = n;
    group.append(text);
  }
  svg.append(group);
}

export function drawBoard(svg, board, { onCellClick, seams = false } = {}) {
  svg.replaceChildren();
  const [x, y, width, height] = board.view;
  const links = board.links || [];
  let palette = board.palette;
  const pad = 0.25;
  const room = board.labels ? LABELS : 0; // the moves' words count rows and columns
  svg.setAttribute(
    "viewBox",
    `${x - pad - room} ${y - pad - room} ${width + 2 * pad + room} ${height + 2 * pad + room}`,
  );
  if (board.labels) drawLabels(svg, board.labels, x, y);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.dataset.geometry = board.geometry;

  const lines = element("g", { class: "links" });
  for (const [a, b] of links) {
    const [x1, y1] = board.cells[a].centre;
    const [x2, y2] = board.cells[b].centre;
    lines.append(element("line", { x1, y1, x2, y2 }));
  }
  svg.append(lines);

  const group = element("g", { class: "cells" });
  const cells = board.cells.map((cell, i) => {
    const node = cell.points
      ? element("polygon", { points: cell.points.map((p) => p.join(",")).join(" ") })
      : element("circle", { cx: cell.centre[0], cy: cell.centre[1], r: board.radius });
    node.classList.add("cell");
    node.dataset.cell = i;
    if (cell.at) node.dataset.at = cell.at.join(",");
    if (cell.label) {
      const title = element("title");
      title.textContent = cell.label;
      node.append(title);
    }
    if (onCellClick) node.addEventListener("click", (event) => onCellClick(i, event));
    node.addEventListener("mouseenter", () => hover(node.dataset.region));
    node.addEventListener("mouseleave", () => hover(null));
    group.append(node);
    return node;
  });
  svg.append(group);
  if (board.border && board.border.length) {
    const d = board.border.map(([a, b]) => `M${a[0]},${a[1]}L${b[0]},${b[1]}`).join("");
    svg.append(element("path", { class: "board-border", d }));
  }

  const marks = element("g", { class: "marks" });
  const graph = element("g", { class: "region-graph" });
  svg.append(marks, graph);

  let ring = null; // the pivot's
  function setPivot(cell) {
    if (cell === null || cell === undefined) {
      if (ring) ring.remove();
      ring = null;
      return;
    }
    if (!ring) {
      ring = element("circle", { class: "pivot", r: 0.16 });
      const title = element("title");
      title.textContent = "the pivot: every move recolours its region";
      ring.append(title);
      svg.append(ring);
    }
    const [px, py] = centreOf(board.cells[cell]);
    ring.setAttribute("cx", px);
    ring.setAttribute("cy", py);
  }

  let hovered = [];
  function hover(region) {
    for (const node of hovered) node.classList.remove("hover");
    hovered = region === null ? [] : cells.filter((node) => node.dataset.region === region);
    for (const node of hovered) node.classList.add("hover");
  }

  function paint(i, colour, region) {
    const node = cells[i];
    const hole = colour === null;
    const fill = hole ? "" : palette[colour].colour;
    node.classList.toggle("hole", hole);
    node.style.fill = fill;
    node.style.stroke = seams || links.length ? "" : fill;
    node.dataset.colour = hole ? "hole" : colour;
    node.dataset.region = region;
  }

  function setColours(colours, regions) {
    cells.forEach((_, i) => paint(i, colours[i], regions[i]));
  }

  function setPalette(entries) {
    palette = entries;
    cells.forEach((node, i) => {
      const colour = node.dataset.colour === "hole" ? null : Number(node.dataset.colour);
      paint(i, colour, node.dataset.region);
    });
  }

  function unmark() {
    marks.replaceChildren();
    for (const node of cells) node.classList.remove("hinted");
  }

  function mark(chosen, outline) {
    unmark();
    for (const i of chosen) cells[i].classList.add("hinted");
    if (outline.length) {
      const d = outline.map(([a, b]) => `M${a[0]},${a[1]}L${b[0]},${b[1]}`).join("");
      marks.append(element("path", { class: "hint-outline", d }));
    }
  }

  function hideGraph() {
    graph.replaceChildren();
  }

  function showGraph(regions, links) {
    hideGraph();
    const sums = new Map();
    regions.forEach((region, i) => {
      const [x, y] = centreOf(board.cells[i]);
      const sum = sums.get(region) || [0, 0, 0];
      sums.set(region, [sum[0] + x, sum[1] + y, sum[2] + 1]);
    });
    const at = new Map([...sums].map(([region, [x, y, n]]) => [region, [x / n, y / n]]));
    for (const [a, b] of links) {
      const [x1, y1] = at.get(a);
      const [x2, y2] = at.get(b);
      graph.append(element("line", { x1, y1, x2, y2 }));
    }
    regions.forEach((region, i) => {
      if (!at.has(region)) return;
      const [cx, cy] = at.get(region);
      at.delete(region);
      const node = element("circle", { cx, cy, r: 0.22, "data-region": region });
      node.style.fill = cells[i].style.fill;
      graph.append(node);
    });
  }

  setColours(board.colours, board.regions);
  setPivot(board.pivot);
  return { setColours, paint, setPalette, setPivot, mark, unmark, showGraph, hideGraph, cells };
}
