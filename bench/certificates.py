"""Certificates on real levels (BENCHMARKS.md, "Certificates"): which evidence each optimum
gets, what writing it costs, and how long each checker takes.

    python bench/certificates.py ../shared/data/kami2-story [--limit 60] [--write-limit 300]

For every puzzle of the files and folders given, in this process: the default solver with
``--limit`` seconds; for an optimum, ``write_certificate`` with ``--write-limit`` seconds
(the kinds of evidence in their default order); then ``kamicp.proof.verification.verify``
in this process and ``python3 -I -S kamicp/proof/standalone.py DIR`` as a process of its own
(a bare interpreter: no site packages, no kamicp). One Markdown row per puzzle, then a
summary: evidence kinds, log sizes and the check-to-solve time ratios (median and largest).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kamicp.formats import puzzles
from kamicp.game.regions import region_graph
from kamicp.proof.certificate import CertificateOptions, NoEvidence, write_certificate
from kamicp.proof.verification import verify
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve

STANDALONE = Path(__file__).resolve().parents[1] / "kamicp" / "proof" / "standalone.py"


def one(path: str, board, limit: float, write_limit: float, folder: Path, alone: bool) -> dict:
    """Solve, certify and check one puzzle; the row's figures."""
    g = region_graph(board)
    started = time.perf_counter()
    result = solve(g, options=SolveOptions(time_limit=limit))
    row = {"name": board.name or Path(path).stem, "status": result.status, "moves": result.moves}
    row["solve"] = time.perf_counter() - started
    if result.status != "optimal":
        return row
    out = folder / row["name"]
    started = time.perf_counter()
    try:
        manifest = write_certificate(
            board, path, result, str(out), options=CertificateOptions(time_limit=write_limit)
        )
    except NoEvidence as err:
        row["evidence"] = f"none ({err})"
        return row
    row["write"] = time.perf_counter() - started
    evidence = manifest["evidence"]
    row["evidence"] = evidence["kind"]
    row["claims"] = evidence.get("claims", "")
    row["bytes"] = sum(f.stat().st_size for f in out.iterdir() if f.name != "puzzle.puz")
    started = time.perf_counter()
    row["kamicp_ok"] = all(step.ok for step in verify(str(out), drat_trim=False))
    row["kamicp_check"] = time.perf_counter() - started
    if alone:
        started = time.perf_counter()
        command = [sys.executable, "-I", "-S", str(STANDALONE), str(out)]
        done = subprocess.run(command, capture_output=True, text=True)
        row["standalone_check"] = time.perf_counter() - started
        row["standalone_code"] = done.returncode
    shutil.rmtree(out)
    return row


def main(argv=None) -> int:
    """Print the table for the puzzles given."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("paths", nargs="+")
    p.add_argument("--limit", type=float, default=60.0, help="seconds for each solve")
    p.add_argument("--write-limit", type=float, default=300.0, help="seconds for each certificate")
    p.add_argument("--no-standalone", action="store_true", help="check with kamicp only")
    args = p.parse_args(argv)
    print("| level | moves | solve s | evidence | claims | bytes | write s | kamicp check s "
          "| standalone s | standalone exit |")  # fmt: skip
    print("|---|--:|--:|---|--:|--:|--:|--:|--:|--:|")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path, _, board in puzzles(args.paths):
            row = one(path, board, args.limit, args.write_limit, Path(tmp), not args.no_standalone)
            rows.append(row)
            cells = [row["name"], row["moves"], f"{row['solve']:.2f}", row.get("evidence", "-")]
            cells += [row.get("claims", ""), row.get("bytes", "")]
            for key in ("write", "kamicp_check", "standalone_check"):
                cells.append(f"{row[key]:.2f}" if key in row else "")
            cells.append(row.get("standalone_code", ""))
            if row.get("kamicp_ok") is False:
                cells[3] += " (kamicp REJECTED)"
            print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)
    checked = [r for r in rows if "kamicp_check" in r]
    kinds = {}
    for r in rows:
        kinds[r.get("evidence", r["status"])] = kinds.get(r.get("evidence", r["status"]), 0) + 1
    print(f"\n{len(rows)} puzzles; evidence: {kinds}")
    for key in ("kamicp_check", "standalone_check"):
        ratios = [r[key] / (r["solve"] + r["write"]) for r in checked if key in r]
        if ratios:
            print(f"{key} / (solve + write): median {statistics.median(ratios):.2f}, "
                  f"largest {max(ratios):.2f}")  # fmt: skip
    logs = [r for r in checked if r["evidence"] == "log"]
    if logs:
        print(f"logs: {len(logs)}, largest {max(r['bytes'] for r in logs):,} bytes, "
              f"writing {sum(r['write'] for r in logs):.1f} s in all")  # fmt: skip
    bad = [r["name"] for r in checked if not r["kamicp_ok"] or r.get("standalone_code", 0) != 0]
    print(f"not accepted by both checkers: {bad or 'none'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
