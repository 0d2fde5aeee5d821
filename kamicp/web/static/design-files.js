// The design page's questions about the whole board: check its par (the proof's bounds as
// they come, and Cancel), which formats hold it, and saving it (a download, or the file the
// page was opened with).

import { $, post, showError, state } from "./design-common.js";

export async function check() {
  if (state.checking) {
    state.checking.abort();
    return;
  }
  const version = state.version;
  const limit = Number($("time-limit").value) || 30;
  const controller = new AbortController();
  state.checking = controller;
  $("check").textContent = "Cancel";
  $("verdict").textContent = `checking... (at most ${limit} s)`;
  $("verdict").dataset.verdict = "busy";
  $("proof").textContent = "";
  try {
    const response = await fetch("/api/design/check", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ design: state.design, time_limit: limit }),
      signal: controller.signal,
    });
    if (!response.ok) throw new Error((await response.json()).error);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the check ended without an answer");
      text += value;
      let end;
      while ((end = text.indexOf("\n")) >= 0) {
        const line = JSON.parse(text.slice(0, end));
        text = text.slice(end + 1);
        if (line.error) throw new Error(line.error);
        if (line.done) return judged(line, version);
        const found = line.upper === null ? "" : `, a solution of ${line.upper}`;
        $("proof").textContent = `proved so far: at least ${line.lower} moves${found} (${line.seconds} s)`;
      }
    }
  } catch (error) {
    const cancelled = controller.signal.aborted;
    $("verdict").textContent = cancelled ? "check cancelled" : "";
    $("verdict").dataset.verdict = cancelled ? "cancelled" : "";
    if (!cancelled) throw error;
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
