// The play page: the puzzle and the moves played live here; the server replays them (the
// rules engine), solves and hints (kamicp.web.app lists the endpoints).

import { $, Job, call } from "./api.js";
import { drawBoard } from "./board.js";

const FRAME_MS = 700; // the pause between two moves of a solution shown
const END_PAUSES = 4; // frames the solved board stays before the player's game comes back

const game = {
  puzzle: null, // {text, format, name}: what every request sends
  board: null, // the board JSON
  view: null, // what drawBoard answered
  moves: [], // [region, colour] pairs played
  undone: [], // moves taken back, the last one first to redo
  colour: 0, // the colour picked
  links: null, // the current region graph's links (pairs of region ids)
  job: null, // the running solve or hint
  playing: false, // a solution being shown
};

let queue = Promise.resolve(); // requests that change the game run one after the other

function serial(work) {
  queue = queue.then(work).catch((err) => say(String(err), true));
  return queue;
}

function say(text, error = false) {
  const message = $("message");
  message.textContent = text.replace(/^Error: /, "");
  message.classList.toggle("error", error);
}

function timeLimit() {
  const value = Number($("time-limit").value);
  return value > 0 ? value : 60;
}

// -- the board and the position -----------------------------------------------------------

async function load(puzzle) {
  stopShowing();
  await cancelJob();
  const board = await call("POST", "/api/board", { puzzle });
  Object.assign(game, { puzzle, board, moves: [], undone: [], colour: 0 });
  game.view = drawBoard($("board"), board, { onCellClick: (i) => serial(() => click(i)) });
  $("rules-note").textContent =
    board.rules === "pivot"
      ? "Pivot rules: every move recolours the pivot's region (the ringed cell). Click a " +
        "colour (or press its key) to play it, or a cell to take its colour."
      : "Free rules: click any region to flood it with the colour picked.";
  for (const id of ["hint-text", "solve-text", "proof", "progress"]) {
    $(id).textContent = "";
    for (const key of Object.keys($(id).dataset)) delete $(id).dataset[key];
  }
  say("");
  swatches();
  $("graph-option").hidden = board.geometry === "graph";
  await replay([]);
  // the title comes last: once it names the board, the whole page is about that board
  const name = board.name || puzzle.name;
  $("title").textContent = `${name} — ${board.geometry}, ${board.rules} rules`;
  document.title = `${name} — kamicp play`;
}

// The key that picks colour i. Where every colour is named by one digit (KAMI 2 levels,
// Flood-It boards) it is that digit, the one the messages and hints name ("red (4)");
// else its place, 1 to 9.
function keyOf(i) {
  const names = game.board.palette.map((entry) => entry.name);
  const digits = names.every((name) => /^[0-9]$/.test(name)) && new Set(names).size === names.length;
  if (digits) return names[i];
  return i < 9 ? String(i + 1) : "";
}

function swatches() {
  const box = $("swatches");
  box.replaceChildren();
  game.board.palette.forEach((entry, i) => {
    const button = document.createElement("button");
    button.className = "swatch";
    button.dataset.colour = i;
    button.style.background = entry.colour;
    button.style.color = entry.light ? "#1d1d1d" : "#ffffff";
    button.setAttribute("role", "radio");
    const shortcut = keyOf(i);
    button.title = `${entry.called || entry.name}${shortcut ? ` (key ${shortcut})` : ""}`;
    const key = document.createElement("kbd");
    key.textContent = shortcut;
    button.append(key);
    if (entry.name !== shortcut) {  // a name the key does not already show
      const name = document.createElement("span");
      name.textContent = entry.name;
      button.append(name);
    }
    if (entry.called && entry.called.toLowerCase() !== entry.name.toLowerCase()) {
      const called = document.createElement("small");
      called.textContent = entry.called;
      button.append(called);
    }
    button.addEventListener("click", () => chooseColour(i));
    box.append(button);
  });
  pick(0);
}

// A colour chosen (its swatch, its key): under pivot rules, where every move recolours the
// pivot's region, it is played at once, as in Flood-It; under free rules it is picked for
// the next region clicked.
function chooseColour(i) {
  pick(i);
  const board = game.board;
  const pivot = board.rules === "pivot" ? board.pivot : null;
  if (pivot !== null && pivot !== undefined && game.colours && game.colours[pivot] !== i) {
    serial(() => click(pivot));
  }
}

function pick(i) {
  game.colour = i;
  for (const button of $("swatches").children) {
    const on = Number(button.dataset.colour) === i;
    button.classList.toggle("picked", on);
    button.setAttribute("aria-checked", on);
  }
}

function show(state) {
  game.moves = state.moves;
  game.colours = state.colours;
  game.view.setColours(state.colours, state.regions);
  game.view.unmark();
  game.links = state.links;
  drawGraph();
  for (const button of $("swatches").children) button.classList.remove("suggested");
  const hinted = $("hint-text"); // a hint is about the position it was asked at
  hinted.textContent = "";
  delete hinted.dataset.movesLeft;
  const known = state.par !== null && state.par !== undefined;
  const status = $("status");
  status.textContent = state.solved
    ? `Solved in ${state.used} moves${known ? ` (par ${state.par})` : ""}.`
    : `Moves used: ${state.used}${known ? ` / par ${state.par}` : ""}`;
  status.dataset.used = state.used;
  const left = new Set(state.regions).size;
  const colours = new Set(state.colours).size;
  const plural = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  $("count").textContent = `${plural(left, "region")}, ${plural(colours, "colour")} left`;
  status.classList.toggle("solved", state.solved);
  $("board").dataset.solved = state.solved;
  $("undo").disabled = state.used === 0;
  $("redo").disabled = game.undone.length === 0;
}

function drawGraph() {
  const regions = game.view.cells.map((node) => Number(node.dataset.region));
  if ($("graph").checked && game.links) game.view.showGraph(regions, game.links);
  else game.view.hideGraph();
}

async function replay(moves) {
  const state = await call("POST", "/api/play", { puzzle: game.puzzle, moves });
  show(state);
  say(""); // an error of a move before is no longer about this position
  return state;
}

async function click(cell) {
  if (game.playing) return;
  try {
    const state = await call("POST", "/api/play", {
      puzzle: game.puzzle,
      moves: game.moves,
      click: { cell, colour: game.colour },
    });
    game.undone = [];
    show(state);
    say(`Played ${state.last}.`);
  } catch (err) {
    say(err.message, true);
  }
}

function undo() {
  if (!game.moves.length) return;
  game.undone.push(game.moves[game.moves.length - 1]);
  return replay(game.moves.slice(0, -1));
}

function redo() {
  if (!game.undone.length) return;
  return replay([...game.moves, game.undone.pop()]);
}

function restart() {
  game.undone = [...game.undone, ...game.moves.slice().reverse()];
  return replay([]);
}

// -- hints and solves: jobs in the server's child processes --------------------------------

function bounds(job) {
  const low = job.lower === null ? "" : `${job.lower} ≤ `;
  const high = job.upper === null ? "" : ` ≤ ${job.upper}`;
  return low || high ? `${low}optimum${high}` : "no bound yet";
}

async function runJob(kind) {
  await cancelJob();
  const job = new Job();
  const mine = () => game.job === job;
  game.job = job;
  busy(true);
  const body = { puzzle: game.puzzle, moves: game.moves, time_limit: timeLimit() };
  try {
    await job.start(`/api/${kind}`, body);
  } catch (err) {
    if (mine()) {
      game.job = null;
      busy(false);
    }
    throw err;
  }
  const progress = $("progress");
  const name = kind === "hint" ? "Hint" : "Solve";
  const ended = await job.finish((now) => {
    const line = now.line ? ` — ${now.line}` : "";
    progress.textContent = `${name}: ${now.seconds.toFixed(1)} s, ${bounds(now)}${line}`;
  });
  if (!mine()) return ended; // cancelled: cancelJob has said so
  game.job = null;
  busy(false);
  const why = ended.error ? ` (${ended.error})` : "";
  progress.textContent =
    ended.state === "done"
      ? `${name} done in ${ended.seconds.toFixed(1)} s.`
      : `${name} ${ended.state} after ${ended.seconds.toFixed(1)} s: ${bounds(ended)}${why}.`;
  progress.dataset.state = ended.state;
  return ended;
}

async function cancelJob() {
  const job = game.job;
  if (!job) return;
  game.job = null;
  busy(false);
  const ended = await job.cancel();
  const progress = $("progress");
  if (!ended) {
    progress.textContent = "Cancelled before it started.";
    progress.dataset.state = "cancelled";
    return;
  }
  const what = ended.state === "cancelled" ? "Cancelled" : `Ended (${ended.state})`;
  progress.textContent = `${what} after ${ended.seconds.toFixed(1)} s: ${bounds(ended)}.`;
  progress.dataset.state = ended.state;
}

function busy(on) {
  $("cancel").disabled = !on;
  $("hint").disabled = on;
  $("solve").disabled = on;
}

async function hint() {
  const text = $("hint-text");
  text.textContent = "Thinking…";
  delete text.dataset.movesLeft;
  const at = JSON.stringify(game.moves);
  const puzzle = game.puzzle;
  const job = await runJob("hint");
  const r = job.result;
  if (game.puzzle !== puzzle || JSON.stringify(game.moves) !== at) {
    text.textContent = ""; // the position changed while the hint was thought of
    return;
  }
  if (!r) {
    text.textContent = "No hint: the search did not finish.";
    return;
  }
  text.dataset.movesLeft = r.moves ?? "";
  if (r.moves === 0) {
    text.textContent = "Already solved.";
  } else if (!r.move) {
    text.textContent = "No move solves this board.";
  } else {
    text.textContent =
      r.status === "optimal"
        ? `Next: ${r.move_text}. Moves left: ${r.moves} (proved).`
        : `Next: ${r.move_text}, of the best solution found: ${r.moves} moves, not proved optimal.`;
    game.view.mark(r.cells, r.outline);
    const swatch = $("swatches").children[r.move[1]];
    if (swatch) swatch.classList.add("suggested");
  }
}

async function solve() {
  const text = $("solve-text");
  text.textContent = "Solving from the start…";
  delete text.dataset.moves;
  $("proof").textContent = "";
  const puzzle = game.puzzle;
  const job = await runJob("solve");
  const r = job.result;
  if (game.puzzle !== puzzle) return; // another puzzle was opened meanwhile
  if (!r) {
    text.textContent = `Not solved: ${bounds(job)}.`;
    return;
  }
  const optimum =
    r.status === "optimal" ? `Optimum: ${r.moves} moves` : `${r.status}: ${r.moves ?? "no"} moves`;
  text.textContent = `${optimum}:`;
  const list = document.createElement("ol");
  list.id = "solution-steps";
  for (const step of r.text) {
    const item = document.createElement("li");
    item.textContent = step;
    list.append(item);
  }
  text.append(list);
  text.dataset.moves = r.moves ?? "";
  const proved = `bounds ${r.lower} ≤ optimum ≤ ${r.upper ?? "?"}`;
  $("proof").textContent = `${r.status}; ${proved}; ${r.proof} (${r.solver}, ${r.seconds} s)`;
  if (r.solution.length) await serial(() => showSolution(r.solution));
}

// The solution is shown from the start, move by move; then, after a pause on its end, the
// player's own game comes back as it was (its moves and what Redo would bring back).
async function showSolution(solution) {
  const puzzle = game.puzzle;
  const kept = { moves: game.moves.slice(), undone: game.undone.slice() };
  const pause = () => new Promise((resolve) => setTimeout(resolve, FRAME_MS));
  game.playing = true;
  $("stop").disabled = false;
  await replay([]);
  for (let i = 1; i <= solution.length && game.playing; i++) {
    await pause();
    if (!game.playing) break;
    const state = await replay(solution.slice(0, i));
    game.view.mark(state.moved.cells, state.moved.outline); // the region this step recoloured
    document.querySelectorAll("#solution-steps li").forEach((item, j) => {
      item.classList.toggle("now", j === i - 1); // the step the board shows played
    });
  }
  if (game.playing) for (let i = 0; i < END_PAUSES; i++) await pause();
  stopShowing();
  if (game.puzzle !== puzzle) return; // another puzzle was opened meanwhile
  await replay(kept.moves);
  game.undone = kept.undone;
  $("redo").disabled = game.undone.length === 0;
  say(kept.moves.length ? `Back to your game, move ${kept.moves.length}.` : "Back to your game.");
}

function stopShowing() {
  game.playing = false;
  $("stop").disabled = true;
}

// -- files --------------------------------------------------------------------------------

async function choose(puzzles) {
  const picker = $("picker");
  picker.replaceChildren();
  puzzles.forEach((p, i) => picker.append(new Option(`${i + 1}. ${p.name}`, i)));
  picker.hidden = puzzles.length < 2;
  picker.onchange = () => serial(() => load(puzzles[Number(picker.value)]));
  await load(puzzles[0]);
}

async function openText(text, name) {
  try {
    const { puzzles } = await call("POST", "/api/open", { text, name });
    await choose(puzzles);
  } catch (err) {
    say(err.message, true);
  }
}

async function openFile(file) {
  await openText(await file.text(), file.name);
}

// -- wiring -------------------------------------------------------------------------------

function wire() {
  $("undo").addEventListener("click", () => serial(undo));
  $("redo").addEventListener("click", () => serial(redo));
  $("restart").addEventListener("click", () => serial(restart));
  // hints and solves run beside play, so that the board stays live while they think
  $("hint").addEventListener("click", () => hint().catch((e) => say(e.message, true)));
  $("solve").addEventListener("click", () => solve().catch((e) => say(e.message, true)));
  $("cancel").addEventListener("click", () => cancelJob().catch((e) => say(e.message, true)));
  $("stop").addEventListener("click", stopShowing);
  $("graph").addEventListener("change", drawGraph);
  $("file").addEventListener("change", (event) => {
    const [file] = event.target.files;
    if (file) serial(() => openFile(file));
    event.target.value = "";
  });
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    document.body.classList.remove("dragging");
    const [file] = event.dataTransfer.files;
    if (file) serial(() => openFile(file));
  });
  // pasted text is a puzzle: a file's content or a game ID copied from Tatham's flood
  document.addEventListener("paste", (event) => {
    if (event.target.tagName === "INPUT") return;
    const text = event.clipboardData.getData("text");
    if (!text.trim()) return;
    event.preventDefault();
    serial(() => openText(text, "<pasted>"));
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    const keyed = game.board ? game.board.palette.findIndex((_, i) => keyOf(i) === event.key) : -1;
    if (keyed >= 0) chooseColour(keyed);
    else if (event.key === "z") serial(undo);
    else if (event.key === "y") serial(redo);
    else if (event.key === "r") serial(restart);
    else if (event.key === "h") hint().catch((e) => say(e.message, true));
  });
}

wire();
serial(async () => {
  // a board the designer handed over (its "Play it"), else the one the command opened
  const handed = sessionStorage.getItem("kamicp-board");
  sessionStorage.removeItem("kamicp-board");
  const { puzzles } = handed
    ? await call("POST", "/api/open", JSON.parse(handed))
    : await call("GET", "/api/start");
  await choose(puzzles);
  document.body.dataset.ready = "true";
});
