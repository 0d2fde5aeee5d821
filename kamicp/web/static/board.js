// Drawing a board as SVG from the JSON of POST /api/board (kamicp.web.page.board_json).
//
//   drawBoard(svg, board, {onCellClick}) -> view
//     svg          an <svg> element; emptied, then filled with the board
//     board        the board JSON: cells (points, or centre on graph boards), colours,
//                  regions, palette, links, border, pivot, view, radius, labels
//     onCellClick  optional, called as onCellClick(cellNumber, event) on a click on a cell
//   view.setColours(colours, regions)  recolour every cell (palette indices, region ids)
//   view.mark(cells, outline)          outline a group of cells (segments [[x,y],[x,y]])
//   view.unmark()                      remove the outline
//   view.showGraph(regions, links)     the region graph over the board: a node per region
//                                      (at the mean of its cells' centres), links between
//   view.hideGraph()                   remove it
//   view.cells                         the cell elements, by cell number
//
// Each cell element carries data-cell (its number), data-colour (its palette index) and
// data-region (the smallest starting region of its current region). The geometry is the
// server's: this module only draws the polygons and centres it is given.

const SVG = "http://www.w3.org/2000/svg";

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

export function drawBoard(svg, board, { onCellClick } = {}) {
  svg.replaceChildren();
  const [x, y, width, height] = board.view;
  const pad = 0.25;
  const room = board.labels ? LABELS : 0; // the moves' words count rows and columns
  svg.setAttribute(
    "viewBox",
    `${x - pad - room} ${y - pad - room} ${width + 2 * pad + room} ${height + 2 * pad + room}`,
  );
  if (board.labels) drawLabels(svg, board.labels, x, y);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.dataset.geometry = board.geometry;

  const links = element("g", { class: "links" });
  for (const [a, b] of board.links) {
    const [x1, y1] = board.cells[a].centre;
    const [x2, y2] = board.cells[b].centre;
    links.append(element("line", { x1, y1, x2, y2 }));
  }
  svg.append(links);

  const group = element("g", { class: "cells" });
  const cells = board.cells.map((cell, i) => {
    const node = cell.points
      ? element("polygon", { points: cell.points.map((p) => p.join(",")).join(" ") })
      : element("circle", { cx: cell.centre[0], cy: cell.centre[1], r: board.radius });
    node.classList.add("cell");
    node.dataset.cell = i;
    const title = element("title");
    title.textContent = cell.label;
    node.append(title);
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
  if (board.pivot !== null && board.pivot !== undefined) {
    const [px, py] = centreOf(board.cells[board.pivot]);
    const pivot = element("circle", { class: "pivot", cx: px, cy: py, r: 0.16 });
    const title = element("title");
    title.textContent = "the pivot: every move recolours its region";
    pivot.append(title);
    svg.append(pivot);
  }

  let hovered = [];
  function hover(region) {
    for (const node of hovered) node.classList.remove("hover");
    hovered = region === null ? [] : cells.filter((node) => node.dataset.region === region);
    for (const node of hovered) node.classList.add("hover");
  }

  function setColours(colours, regions) {
    cells.forEach((node, i) => {
      const entry = board.palette[colours[i]];
      node.style.fill = entry.colour;
      node.style.stroke = board.links.length ? "" : entry.colour;
      node.dataset.colour = colours[i];
      node.dataset.region = regions[i];
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
  return { setColours, mark, unmark, showGraph, hideGraph, cells };
}
