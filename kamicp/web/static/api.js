// What the play page and the design page share to reach their elements and the server.
//
//   $(id)                       the element of that id
//   call(method, url, body?)    the JSON answer of a request (body sent as JSON); a refusal
//                               (4xx, 5xx: {"error": line}) throws an Error of that line,
//                               with .status and .answer (the whole answer)
//   post(url, body)             call("POST", url, body)
//   new Job()                   a long computation on the server (kamicp/web/jobs.py):
//     job.start(url, body)        POST that starts it; its first answer
//     job.finish(onProgress)      ask for it every POLL_MS until it ends, calling
//                                 onProgress(answer) while it runs; its last answer
//     job.cancel()                DELETE it: the server kills its child; the answer (null
//                                 when it has not started yet: it is cancelled once it has)
//
// A job's answer holds id, kind, state (running, done, failed, cancelled), lower, upper,
// line, seconds, result and error. Jobs still running when the page goes away are
// cancelled; the server cancels those it no longer hears about too.

export const $ = (id) => document.getElementById(id);

export const POLL_MS = 250; // how often a running job is asked for its bounds

export async function call(method, url, body) {
  const options = { method };
  if (body !== undefined) {
    options.headers = { "Content-Type": "application/json" };
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(answer.error || `${url}: ${response.status} ${response.statusText}`);
    error.status = response.status;
    error.answer = answer;
    throw error;
  }
  return answer;
}

export function post(url, body) {
  return call("POST", url, body);
}

const running = new Set(); // the jobs this page started that have not ended

export class Job {
  answer = null; // the job as last asked for
  cancelled = false;

  async start(url, body) {
    this.answer = await post(url, body);
    running.add(this);
    if (this.cancelled) await this.cancel(); // cancelled while it started
    return this.answer;
  }

  async finish(onProgress = () => {}) {
    while (this.answer.state === "running" && !this.cancelled) {
      onProgress(this.answer);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (this.cancelled) break;
      const asked = await call("GET", `/api/jobs/${this.answer.id}`);
      if (!this.cancelled) this.answer = asked; // else the cancel's answer is the later one
    }
    running.delete(this);
    return this.answer;
  }

  async cancel() {
    this.cancelled = true;
    if (this.answer === null) return null;
    running.delete(this);
    this.answer = await call("DELETE", `/api/jobs/${this.answer.id}`);
    return this.answer;
  }
}

window.addEventListener("pagehide", () => {
  for (const job of running) {
    fetch(`/api/jobs/${job.answer.id}`, { method: "DELETE", keepalive: true });
  }
});
