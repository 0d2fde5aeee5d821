"""Many puzzles in one ``solve``: one after another in this process, or side by side in
worker processes, every answer printed in the order the puzzles were given.

Start-up (imports, the compiled bounds) is paid once for all of them. With several puzzles
each answer gets a header line ``== FILE#INDEX ==`` (text) or the keys ``file`` and
``index`` (JSON, one object a line). Ctrl-C or SIGTERM stops the run: the workers are
killed at once (their own children die with them), the answers finished are printed, and
the exit code is 3.
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Callable

from kamicp import plural
from kamicp.game.board import Board
from kamicp.procs import memory
from kamicp.procs.interruptible import noting_interrupts
from kamicp.runs.bar import bar, say

__all__ = ["AHEAD", "show", "solve_all"]

# Jobs handed to the pool per worker: one waiting behind the one running keeps a worker
# busy between two puzzles, and more would only be lost when the run is stopped.
AHEAD = 2


def show(out, number: int, where: str, index: int, answer, as_json: bool) -> None:
    """Print one puzzle's answer among several.

    Parameters
    ----------
    out : file
        Where to print.
    number : int
        The answer's place in the output (0 for the first: no blank line before it).
    where : str
        The puzzle's file, as messages show it.
    index : int
        The puzzle's 1-based index in its file.
    answer : kamicp.cli.solve.Answer
        Its answer.
    as_json : bool
        One JSON object a line, with ``file`` and ``index``, instead of text.
    """
    if as_json:
        say(json.dumps({**answer.data, "file": where, "index": index}), out)
    else:
        head = f"{'' if number == 0 else chr(10)}== {where}#{index} =="
        say(f"{head}\n{answer.text}", out)


def solve_all(
    puzzles: list[tuple[str, int, Board]],
    answer: Callable,
    request,
    jobs: int = 1,
    as_json: bool = False,
    out=None,
) -> int:
    """Answer every puzzle and print the answers in the order given.

    Parameters
    ----------
    puzzles : list of tuple of (str, int, Board)
        Each puzzle's file, index in it, and board.
    answer : callable
        ``answer(where, board, request)``: one puzzle's answer, with ``text``, ``data``,
        ``result`` and ``code`` (:func:`kamicp.cli.solve.answer`); run in the workers, so a
        function of a module, not a closure.
    request : kamicp.cli.solve.Request
        What is asked of every puzzle.
    jobs : int
        Worker processes solving puzzles side by side; 1 solves them here, one by one.
    as_json : bool
        JSON lines instead of text.
    out : file or None
        Where to print; None for the standard output at the time of the call.

    Returns
    -------
    int
        The worst exit code over the answers; at least 3 if Ctrl-C or SIGTERM left a
        puzzle unanswered.
    """
    out = sys.stdout if out is None else out
    printed = {"count": 0, "code": 0}
    # a bar on a terminal, unless --progress lines go there
    shown = bar(len(puzzles), "puzzle", quiet=request.progress is not None)

    def emit(number: int, done) -> None:
        where, index, _ = puzzles[number]
        show(out, printed["count"], where, index, done, as_json)
        printed["count"] += 1
        printed["code"] = max(printed["code"], done.code)
        shown.update(1)

    with shown:
        if jobs == 1:
            stopped = _one_by_one(puzzles, answer, request, emit)
        else:
            stopped = _side_by_side(puzzles, answer, request, jobs, emit)
    if stopped:
        done = plural.count(printed["count"], "puzzle")
        print(f"kamicp: interrupted: {done} of {len(puzzles)} answered", file=sys.stderr)
        return max(printed["code"], 3)
    return printed["code"]


def _one_by_one(puzzles, answer, request, emit) -> bool:
    """Answer the puzzles here in turn; True when Ctrl-C or SIGTERM stopped the run."""
    try:
        with noting_interrupts():  # also between two solves, where no driver is listening
            for number, (where, _, board) in enumerate(puzzles):
                memory.rearm()  # a limit the last puzzle reached is not this one's
                done = answer(where, board, request)
                emit(number, done)
                if done.result.interrupted:
                    return number + 1 < len(puzzles)
    except KeyboardInterrupt:
        return True
    return False


def _quiet() -> None:
    """A worker ignores Ctrl-C: the terminal sends it to every process of the group, and
    the parent alone decides to stop (it kills the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _job(job: tuple) -> object:
    """One puzzle's answer, in a worker."""
    answer, where, board, request = job
    return answer(where, board, request)


def _side_by_side(puzzles, answer, request, jobs, emit) -> bool:
    """Answer the puzzles in ``jobs`` worker processes, printing in order as answers come;
    True when Ctrl-C or SIGTERM stopped the run."""
    # here, not at start-up: multiprocessing and the executor only serve --jobs
    from kamicp.procs.pool import Throttle, start_pool

    workers = min(jobs, len(puzzles))
    pool, processes = start_pool(workers, _quiet)
    throttle = Throttle(pool, AHEAD * workers, processes)
    for number, (where, _, board) in enumerate(puzzles):
        throttle.submit(_job, (answer, where, board, request), number)
    finished: dict = {}
    following = 0  # the next puzzle to print
    stopped = False
    try:
        with noting_interrupts():
            while following < len(puzzles):
                number, done = throttle.next()
                finished[number] = done
                while following in finished:
                    emit(following, finished.pop(following))
                    following += 1
    except KeyboardInterrupt:
        stopped = True
    finally:
        # Killed, not asked to stop: a worker's solve would take SIGTERM as Ctrl-C and
        # answer first, and nothing a worker holds needs closing (no journal, no file).
        for process in processes:
            if process.exitcode is None:
                process.kill()
        pool.shutdown(wait=True, cancel_futures=True)
    for number in sorted(finished):  # answered after a puzzle that was still running
        emit(number, finished[number])
    return stopped
