// What the design page's scripts share: the page's state, and how they show an error
// (the server is reached through api.js, as the play page reaches it).

import { $ } from "./api.js";

export const state = {
  design: null, // the design JSON
  drawn: null, // polygons of every entry, from /api/design/shapes
  colour: 0, // the palette index painted with
  version: 0, // counts edits: a proof answers for the version it was asked for
  painting: null, // the stroke in progress: {tool, restore}
  file: null, // the file the app was opened with, if any
  format: null, // the format the board was read in: saved in first when it fits
  undo: [], // earlier designs, as JSON text, the last one on top
  resizes: 0, // counts the changes of size asked for: the last one is drawn
  designProblem: null, // why the design is no board, as the error line shows it
  checking: null, // the Job of the check of par under way (api.js)
};

export function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

export async function guarded(work) {
  showError(null);
  try {
    await work();
  } catch (error) {
    showError(error);
  }
}
