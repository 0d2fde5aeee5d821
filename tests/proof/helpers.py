"""The DRAT tests' independent oracle and proof helpers.

The oracle re-checks every lemma forward with plain unit propagation (no watches, no
backward pass, no core marking), so it shares no code with ``kamicp.proof.drat``.
"""

from __future__ import annotations

import itertools
import random

from pysat.solvers import Solver

from kamicp.proof import drat
from kamicp.proof.dimacs import parse_proof

# Solvers of python-sat that log proofs. MapleSAT ('mpl') is left out: its proofs are known to
# fail checking (it logs some learnt clauses in a form that is not RUP).
PROOF_SOLVERS = [
    "cd103",
    "cd15",
    "cd19",
    "cd30",
    "g3",
    "g4",
    "g42",
    "gc3",
    "gc4",
    "lgl",
    "mcb",
    "mcm",
    "ergo",
]


# All eight 3-clauses over variables 1, 2, 3: UNSAT, yet unit propagation alone finds nothing.
ALL8 = [[a * 1, b * 2, c * 3] for a, b, c in itertools.product((1, -1), repeat=3)]


def up_conflict(clauses: list[list[int]], assumptions: list[int] = ()) -> bool:
    """Naive unit propagation from ``assumptions``: True when some clause becomes false."""
    true: set[int] = set()
    for x in assumptions:
        if -x in true:
            return True
        true.add(x)
    changed = True
    while changed:
        changed = False
        for c in clauses:
            if any(x in true for x in c):
                continue
            free = [x for x in c if -x not in true]
            if not free:
                return True
            if len(free) == 1:
                true.add(free[0])
                changed = True
    return False


def naive_rup(formula: list[list[int]], lemma: list[int]) -> bool:
    return up_conflict(formula, [-x for x in lemma])


def naive_rat(formula: list[list[int]], lemma: list[int]) -> bool:
    """RAT on the first literal, every resolvent checked by naive propagation."""
    if not lemma:
        return False
    p = lemma[0]
    return all(
        up_conflict(formula, [-x for x in lemma] + [-y for y in d if y != -p])
        for d in formula
        if -p in d
    )


def naive_check(formula: list[list[int]], lemmas: list[list[int]]) -> bool:
    """Forward check of a deletion-free proof: every lemma up to a top-level conflict."""
    current = [list(c) for c in formula]
    if any(not c for c in current) or up_conflict(current):
        return True
    for lemma in lemmas:
        if not lemma or not (naive_rup(current, lemma) or naive_rat(current, lemma)):
            return False
        current.append(lemma)
        if up_conflict(current):
            return True
    return False


def brute_force_sat(clauses: list[list[int]]) -> bool:
    nvars = max((abs(x) for c in clauses for x in c), default=0)
    for bits in itertools.product((False, True), repeat=nvars):
        if all(any(bits[abs(x) - 1] == (x > 0) for x in c) for c in clauses):
            return True
    return False


def solver_proof(clauses: list[list[int]], name: str = "cd15") -> list[str] | None:
    """A pysat solver's proof lines, or None when the formula is satisfiable."""
    with Solver(name=name, bootstrap_with=clauses, with_proof=True) as s:
        if s.solve():
            return None
        return s.get_proof()


def to_lines(steps: list[tuple[bool, list[int]]]) -> list[str]:
    return [("d " if d else "") + " ".join(map(str, lits + [0])) for d, lits in steps]


def parse_lines(lines: list[str]) -> list[tuple[bool, list[int]]]:
    out = []
    for line in lines:
        toks = line.split()
        delete = toks[0] == "d"
        out.append((delete, [int(t) for t in toks[delete:-1]]))
    return out


def encode_binary(lines: list[str]) -> bytes:
    """Binary DRAT written independently of the parser: ``2v+sign`` in 7-bit groups."""
    out = bytearray()
    for delete, lits in parse_lines(lines):
        out.append(ord("d") if delete else ord("a"))
        for x in lits + [0]:
            u = 2 * abs(x) + (x < 0) if x else 0
            while u >= 0x80:
                out.append(0x80 | (u & 0x7F))
                u >>= 7
            out.append(u)
    return bytes(out)


def debug_check(clauses: list[list[int]], proof: list[str]) -> drat.DratResult:
    """The checker with its watch/fixpoint invariants asserted after every backward step."""
    return drat.check_steps(clauses, parse_proof(proof), debug=True)


def random_3sat(nvars: int, ratio: float, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [
        [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, nvars + 1), 3)]
        for _ in range(round(ratio * nvars))
    ]


def validate_failure(formula: list[list[int]], lines: list[str], result: drat.DratResult):
    """The oracle confirms a rejection of a deletion-free proof (one step per line)."""
    steps = parse_lines(lines)
    assert not any(d for d, _ in steps)
    if result.line is None:
        assert "never derives" in result.reason
        assert not up_conflict(formula + [lits for _, lits in steps])
        return
    before = formula + [lits for _, lits in steps[: result.line - 1]]
    lemma = steps[result.line - 1][1]
    if lemma:
        assert "neither RUP nor RAT" in result.reason
        assert not naive_rup(before, lemma) and not naive_rat(before, lemma)
    else:
        assert "empty clause does not follow" in result.reason
        assert not up_conflict(before)
