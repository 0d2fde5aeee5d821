// The design page: the page keeps the design (see kamicp/web/drafts.py for its JSON) and
// draws it as the play page draws a board (board.js); the server computes the polygons,
// checks the design, proves the par and writes the files, so no geometry, format or rule
// lives here. This script draws and edits the board; design-files.js asks the server about
// the whole board.

import { $, call, post } from "./api.js";
import { drawBoard } from "./board.js";
import { guarded, showError, state } from "./design-common.js";
import { check, download, playIt, refreshFormats, writeFile } from "./design-files.js";

// Edits kept for undo: at most 2 MB on the largest boards (60 x 60 cells, 10 KB a design).
const MOST_UNDO = 200;

// -- drawing ------------------------------------------------------------------------------

let view = null; // what drawBoard answered
let numbers = new Map(); // "i,j" -> the number of the cell drawn for entry [i, j]

async function reshape() {
  const { geometry, rows, columns, top } = state.design;
  state.drawn = await post("/api/design/shapes", { geometry, rows, columns, top });
  draw();
}

function palette() {
  return state.design.colours.map((colour, k) => ({ colour, name: state.design.palette[k] }));
}

function colourAt([i, j]) {
  return state.design.cells[i][j];
}

// The design as drawBoard takes a board: each entry drawn is a cell, its own region.
function draw() {
  const [x0, y0, x1, y1] = state.drawn.box;
  const cells = state.drawn.cells;
  numbers = new Map(cells.map((cell, n) => [cell.at.join(","), n]));
  const board = {
    geometry: state.design.geometry,
    view: [x0, y0, x1 - x0, y1 - y0],
    cells: cells.map(({ at, points }) => ({ at, points })),
    palette: palette(),
    colours: cells.map((cell) => colourAt(cell.at)),
    regions: cells.map((_, n) => n),
  };
  view = drawBoard($("board"), board, { seams: true });
  markPivot();
}

function entry(at) {
  const [i, j] = at.split(",").map(Number);
  return [i, j];
}

function paintAt(i, j) {
  const n = numbers.get(`${i},${j}`);
  view.paint(n, colourAt([i, j]), n);
}

function markPivot() {
  const design = state.design;
  const pivot = design.rules === "pivot" ? design.pivot || firstCell() : null;
  view.setPivot(pivot ? numbers.get(pivot.join(",")) : null);
  if (pivot) $("board").dataset.pivot = pivot.join(",");
  else delete $("board").dataset.pivot;
}

function firstCell() {
  const cells = state.design.cells;
  for (let i = 0; i < cells.length; i++) {
    for (let j = 0; j < cells[i].length; j++) if (cells[i][j] !== null) return [i, j];
  }
  return null;
}

// -- the controls from the design, and back ------------------------------------------------

function fillControls() {
  const d = state.design;
  $("name").value = d.name;
  $("geometry").value = d.geometry;
  $("rows").value = d.rows;
  $("columns").value = d.columns;
  $("rules").value = d.rules;
  $("colour-count").value = d.palette.length;
  $("par").value = d.par === null ? "" : d.par;
  sizeLabels();
  fillPalette();
  rulesChanged();
}

function sizeLabels() {
  const kami2 = state.design.geometry === "kami2";
  // A KAMI 2 file row is drawn as an upright strip of triangles, level with the others.
  $("rows-label").textContent = kami2 ? "File rows (strips)" : "Rows";
  $("columns-label").textContent = kami2 ? "Triangles per strip" : "Columns";
  $("kami2-note").hidden = !kami2;
}

function fillPalette() {
  const list = $("palette");
  list.replaceChildren();
  state.design.palette.forEach((name, k) => {
    const item = document.createElement("li");
    item.className = "swatch";
    item.dataset.index = k;
    item.innerHTML = `
      <button type="button" class="pick" title="paint with this colour (key ${k + 1})"></button>
      <input type="color" class="colour-pick" aria-label="colour ${k + 1}">
      <input type="text" class="colour-name" aria-label="name of colour ${k + 1}">`;
    item.querySelector(".pick").addEventListener("click", () => choose(k));
    const picker = item.querySelector(".colour-pick");
    picker.value = state.design.colours[k];
    picker.addEventListener("input", () => {
      state.design.colours[k] = picker.value;
      item.querySelector(".pick").style.background = picker.value;
      view.setPalette(palette());
    });
    const label = item.querySelector(".colour-name");
    label.value = name;
    label.addEventListener("change", () => {
      state.design.palette[k] = label.value.trim();
      edited();
    });
    item.querySelector(".pick").style.background = state.design.colours[k];
    if (k < 9) item.querySelector(".pick").textContent = String(k + 1);
    list.append(item);
  });
  choose(Math.min(state.colour, state.design.palette.length - 1));
}

function choose(k) {
  state.colour = k;
  for (const item of $("palette").children) {
    item.classList.toggle("chosen", Number(item.dataset.index) === k);
  }
}

function rulesChanged() {
  const pivot = state.design.rules === "pivot";
  $("pivot-tool").hidden = !pivot;
  if (!pivot && $("tool-pivot").checked) $("tool-paint").checked = true;
  if (state.drawn) markPivot();
}

// Anything that changes the board: a proof or a listed optimum no longer holds.
function edited() {
  state.version += 1;
  state.design.optimum = null;
  if (!state.checking) {
    $("verdict").textContent = "";
    $("verdict").dataset.verdict = "";
    $("proof").textContent = "";
  }
  refreshFormats();
}

// Before an edit: keep the design as it is, for undo.
function remember() {
  state.undo.push(JSON.stringify(state.design));
  if (state.undo.length > MOST_UNDO) state.undo.shift();
  $("undo").disabled = false;
}

// After a stroke that changed nothing: forget what remember() kept.
function forgetUnchanged() {
  if (state.undo.at(-1) === JSON.stringify(state.design)) state.undo.pop();
  $("undo").disabled = state.undo.length === 0;
}

async function undo() {
  if (!state.undo.length) return;
  const design = JSON.parse(state.undo.pop());
  $("undo").disabled = state.undo.length === 0;
  const reshaped = ["geometry", "rows", "columns", "top"].some(
    (k) => design[k] !== state.design[k],
  );
  state.design = design;
  fillControls();
  if (reshaped) await reshape();
  else draw();
  edited();
}

// -- editing ------------------------------------------------------------------------------

function tool() {
  return document.querySelector('input[name="tool"]:checked').value;
}

function apply(polygon, stroke) {
  const [i, j] = entry(polygon.dataset.at);
  const cells = state.design.cells;
  const now = cells[i][j];
  if (stroke.tool === "paint") {
    if (now === null || now === state.colour) return;
    cells[i][j] = state.colour;
  } else if (stroke.tool === "hole") {
    if (stroke.restore === (now !== null)) return;
    if (!stroke.restore && samePivot(i, j)) state.design.pivot = null;
    cells[i][j] = stroke.restore ? state.colour : null;
  } else if (stroke.tool === "fill") {
    if (now === null || now === state.colour) return;
    fill(i, j, now);
  } else if (stroke.tool === "pivot") {
    if (now === null) return;
    state.design.pivot = [i, j];
  }
  paintAt(i, j);
  markPivot();
  edited();
}

function samePivot(i, j) {
  const p = state.design.pivot;
  return p && p[0] === i && p[1] === j;
}

// The fill tool recolours the entry's one-colour patch; the neighbours come from the server.
function fill(i, j, from) {
  const next = new Map(state.drawn.cells.map((c) => [c.at.join(","), c.next]));
  const cells = state.design.cells;
  const todo = [[i, j]];
  cells[i][j] = state.colour;
  while (todo.length) {
    const [a, b] = todo.pop();
    paintAt(a, b);
    for (const [c, d] of next.get(`${a},${b}`)) {
      if (cells[c][d] === from) {
        cells[c][d] = state.colour;
        todo.push([c, d]);
      }
    }
  }
}

function startStroke(event) {
  const polygon = event.target.closest("polygon.cell");
  if (!polygon) return;
  event.preventDefault();
  const [i, j] = entry(polygon.dataset.at);
  const stroke = { tool: tool(), restore: state.design.cells[i][j] === null };
  remember();
  state.painting = stroke.tool === "paint" || stroke.tool === "hole" ? stroke : null;
  apply(polygon, stroke);
  if (!state.painting) forgetUnchanged();
}

function endStroke() {
  if (!state.painting) return;
  state.painting = null;
  forgetUnchanged();
}

function continueStroke(event) {
  if (!state.painting) return;
  const found = document.elementFromPoint(event.clientX, event.clientY);
  const polygon = found && found.closest && found.closest("polygon.cell");
  if (polygon) apply(polygon, state.painting);
}

// -- size, geometry, rules, colours --------------------------------------------------------

async function resize() {
  // a size half typed (empty, 0, beyond the limits) is not asked of the server: the field
  // says what it takes, and the board stays as it is until the size is one a design can have
  for (const id of ["rows", "columns"]) {
    const v = $(id).validity;
    if (v.valueMissing || v.badInput || v.rangeUnderflow || v.rangeOverflow) {
      $(id).reportValidity();
      return;
    }
  }
  const d = state.design;
  const rows = Number($("rows").value);
  const columns = Number($("columns").value);
  const geometry = $("geometry").value;
  // a KAMI 2 design keeps its strips' offset; a new one starts where no entry is outside
  const top = geometry !== "kami2" ? undefined : d.geometry === "kami2" ? d.top : rows - 1;
  // The server checks the size: an answer here means it is one a design can have.
  const asked = ++state.resizes;
  const drawn = await post("/api/design/shapes", { geometry, rows, columns, top });
  if (asked !== state.resizes) return; // a later change of size answers for both
  remember();
  const shown = new Set(drawn.cells.map((cell) => cell.at.join(",")));
  const cells = [];
  for (let i = 0; i < rows; i++) {
    const row = [];
    for (let j = 0; j < columns; j++) {
      const kept = i < d.rows && j < d.columns ? d.cells[i][j] : 0;
      row.push(shown.has(`${i},${j}`) ? kept : null); // above its strip: no cell
    }
    cells.push(row);
  }
  Object.assign(d, { geometry, rows, columns, cells, top });
  if (top === undefined) delete d.top;
  if (d.pivot && !shown.has(d.pivot.join(","))) d.pivot = null;
  state.drawn = drawn;
  sizeLabels();
  draw();
  edited();
}

function used(k) {
  return state.design.cells.some((row) => row.includes(k));
}

async function recount() {
  const d = state.design;
  const k = Number($("colour-count").value);
  if (k < d.palette.length) {
    const gone = d.palette.slice(k).findIndex((_, n) => used(k + n));
    if (gone >= 0) {
      $("colour-count").value = d.palette.length;
      throw new Error(`colour ${d.palette[k + gone]} is on the board: paint over it first`);
    }
    remember();
    d.palette.length = k;
    d.colours.length = k;
  } else if (k > d.palette.length) {
    const fresh = await post("/api/design/blank", {
      geometry: "square",
      rows: 1,
      columns: 1,
      colours: k,
    });
    remember();
    const spare = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");
    for (let n = d.palette.length; n < k; n++) {
      const name = [fresh.palette[n], ...spare].find((s) => !d.palette.includes(s));
      d.palette.push(name);
      d.colours.push(fresh.colours.find((c) => !d.colours.includes(c)) || fresh.colours[n]);
    }
  }
  fillPalette();
  edited();
}

// -- opening ---------------------------------------------------------------

async function open(design, file) {
  state.design = design;
  if (file !== undefined) state.file = file;
  state.colour = 0;
  state.undo = [];
  $("undo").disabled = true;
  const listed = design.optimum; // a proved optimum the file records: the board is that one
  fillControls();
  await reshape();
  edited();
  if (listed !== null && listed !== undefined) {
    state.design.optimum = listed;
    $("proof").textContent = `the file records a proved optimum of ${listed} moves`;
  }
}

async function openText(text, filename, index = 0) {
  const format = $("open-format").value || null;
  const design = await post("/api/design/from-text", { text, filename, index, format });
  const picker = $("puzzle-picker");
  picker.hidden = design.puzzles <= 1;
  if (index === 0) {
    $("puzzle-index").replaceChildren(
      ...Array.from({ length: design.puzzles }, (_, n) => new Option(`${n + 1}`, n)),
    );
    state.opened = { text, filename };
  }
  state.format = design.format;
  delete design.puzzles;
  delete design.format;
  await open(design);
}

// -- wiring -------------------------------------------------------------------------------

function wire() {
  const svg = $("board");
  svg.addEventListener("pointerdown", (e) => guarded(async () => startStroke(e)));
  svg.addEventListener("pointermove", continueStroke);
  window.addEventListener("pointerup", endStroke);
  $("undo").addEventListener("click", () => guarded(undo));
  $("name").addEventListener("change", () => {
    state.design.name = $("name").value;
    refreshFormats();
  });
  for (const id of ["geometry", "rows", "columns"]) {
    $(id).addEventListener("change", () => guarded(resize));
  }
  $("rules").addEventListener("change", () => {
    remember();
    state.design.rules = $("rules").value;
    if (state.design.rules === "free") state.design.pivot = null;
    rulesChanged();
    edited();
  });
  $("colour-count").addEventListener("change", () => guarded(recount));
  $("par").addEventListener("change", () => {
    const text = $("par").value.trim();
    state.design.par = text === "" ? null : Number(text);
    refreshFormats();
  });
  $("check").addEventListener("click", () => guarded(check));
  $("download").addEventListener("click", () => guarded(download));
  $("play").addEventListener("click", () => guarded(playIt));
  $("write").addEventListener("click", () => guarded(writeFile));
  $("open-file").addEventListener("change", (e) => {
    const file = e.target.files[0];
    if (file) guarded(async () => openText(await file.text(), file.name));
  });
  $("puzzle-index").addEventListener("change", () =>
    guarded(() => openText(state.opened.text, state.opened.filename, Number($("puzzle-index").value))),
  );
  const canvas = $("canvas");
  canvas.addEventListener("dragover", (e) => e.preventDefault());
  canvas.addEventListener("drop", (e) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) guarded(async () => openText(await file.text(), file.name));
  });
  document.addEventListener("keydown", (e) => {
    // a digit typed into a field belongs to it; elsewhere (the tools too) it picks a colour
    if (e.target.closest('input[type="text"], input[type="number"], select, textarea')) return;
    if ((e.ctrlKey || e.metaKey) && e.key === "z") {
      e.preventDefault();
      guarded(undo);
      return;
    }
    const k = Number(e.key) - 1;
    if (k >= 0 && k < Math.min(9, state.design.palette.length)) choose(k);
  });
}

async function main() {
  wire();
  await guarded(async () => {
    const start = await call("GET", "/api/design/start");
    $("write").hidden = start.file === null;
    state.format = start.format;
    await open(start.design, start.file);
    if (start.problem) showError(start.problem);
  });
  document.body.dataset.ready = "true";
}

main();
