// The design page's questions about the whole board: check its par (a job, as the play
// page's solves: the proof's bounds as they come, and Cancel), which formats hold it, and
// saving it (a download, or the file the page was opened with).

import { $, Job, post } from "./api.js";
import { showError, state } from "./design-common.js";

// The button cancels while a check runs: the server kills the proof's child.
export async function check() {
  if (state.checking) {
    await state.checking.cancel();
    return;
  }
  const version = state.version;
  const limit = Number($("time-limit").value) || 30;
  const job = new Job();
  state.checking = job;
  $("check").textContent = "Cancel";
  $("verdict").textContent = `checking... (at most ${limit} s)`;
  $("verdict").dataset.verdict = "busy";
  $("proof").textContent = "";
  try {
    await job.start("/api/design/check", { design: state.design, time_limit: limit });
    const ended = await job.finish((now) => {
      const found = now.upper === null ? "" : `, a solution of ${now.upper}`;
      const seconds = now.seconds.toFixed(1);
      $("proof").textContent = `proved so far: at least ${now.lower ?? 0} moves${found} (${seconds} s)`;
    });
    if (job.cancelled) {
      $("verdict").textContent = "check cancelled";
      $("verdict").dataset.verdict = "cancelled";
    } else if (ended.state === "done") {
      judged(ended.result, version);
    } else {
      const what = ended.state === "failed" ? "failed" : "was cancelled";
      throw new Error(`the proof ${what}: ${ended.error || "no answer"}`);
    }
  } catch (error) {
    $("verdict").textContent = "";
    $("verdict").dataset.verdict = "";
    throw error;
  } finally {
    state.checking = null;
    $("check").textContent = "Check par";
  }
}

function judged(found, version) {
  if (version !== state.version) {
    $("verdict").textContent = "the board changed during the check: check again";
    $("verdict").dataset.verdict = "stale";
    return;
  }
  $("verdict").textContent = found.message;
  $("verdict").dataset.verdict = found.verdict;
  const solution = found.solution ? `; a solution: ${found.solution}` : "";
  $("proof").textContent = `${found.status} (${found.proof}), ${found.seconds} s${solution}`;
  if (found.optimum !== null) state.design.optimum = found.optimum;
}

let formatsAsked = 0;
export async function refreshFormats() {
  const asked = ++formatsAsked;
  await new Promise((resolve) => setTimeout(resolve, 150)); // one request per burst of edits
  if (asked !== formatsAsked) return;
  let found;
  try {
    found = (await post("/api/design/formats", { design: state.design })).formats;
  } catch (error) {
    if (asked === formatsAsked) {
      showError(error);
      state.designProblem = $("error").textContent;
    }
    return;
  }
  if (asked !== formatsAsked) return;
  // The design is a board again: its problem is gone, other errors stay until the next act.
  if (state.designProblem && $("error").textContent === state.designProblem) showError(null);
  state.designProblem = null;
  const select = $("format");
  const chosen = select.value;
  select.replaceChildren(
    ...found.map(({ format, problem }) => {
      const option = new Option(format, format);
      option.disabled = problem !== null;
      option.title = problem || "";
      return option;
    }),
  );
  const fits = found.filter((f) => f.problem === null).map((f) => f.format);
  const preferred = [chosen, state.format].find((f) => fits.includes(f));
  select.value = preferred || fits[0] || "";
  const reading = $("open-format");
  if (reading.options.length === 1) reading.append(...found.map((f) => new Option(f.format)));
  const notes = found.filter((f) => f.problem !== null);
  $("format-notes").querySelector("ul").replaceChildren(
    ...notes.map(({ format, problem }) => {
      const item = document.createElement("li");
      item.textContent = `${format}: ${problem}`;
      return item;
    }),
  );
  select.dataset.ready = String(asked);
}

export async function download() {
  const saved = await post("/api/design/save", { design: state.design, format: $("format").value });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([saved.text], { type: "text/plain" }));
  link.download = saved.filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// The play page opens a board it finds here instead of its first one (sessionStorage: this tab
// only, gone once read).
export const HANDED_OVER = "kamicp-board";

export async function playIt() {
  const saved = await post("/api/design/save", { design: state.design, format: $("format").value });
  sessionStorage.setItem(HANDED_OVER, JSON.stringify({ text: saved.text, name: saved.filename }));
  window.location.href = "/";
}

export async function writeFile() {
  const body = { design: state.design, format: $("format").value, overwrite: false };
  try {
    await post("/api/design/write", body);
  } catch (error) {
    if (!(error.answer && error.answer.exists)) throw error;
    if (!window.confirm(error.message)) throw new Error(`not saved: ${state.file} is unchanged`);
    await post("/api/design/write", { ...body, overwrite: true });
  }
  $("verdict").textContent = `saved to ${state.file}`;
  $("verdict").dataset.verdict = "saved";
}
