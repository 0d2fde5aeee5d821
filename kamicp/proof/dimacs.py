"""Reading the inputs of a DRAT check: a DIMACS CNF formula and a DRAT proof, text or binary.

A text proof has one step a line: literals ending with ``0``, ``d`` first for a deletion,
``c`` for a comment line. A binary proof starts each step with the byte ``a`` (add) or ``d``
(delete), then each literal ``l`` as the number ``2*|l| + (l < 0)`` in 7-bit groups, low
group first, the high bit set on all but the last byte, then a zero byte. The kind is
detected from the content. Parsing is linear in the size of the input.

Examples
--------
>>> parse_dimacs("p cnf 2 3\\n1 2 0\\n-1 0\\n-2 0\\n")
[[1, 2], [-1], [-2]]
>>> steps = parse_proof("c a comment\\n1 0\\nd 1 2 0\\n0\\n")
>>> steps.deletes, steps.lits, steps.where
([False, True, False], [[1], [1, 2], []], [2, 3, 4])
>>> parse_proof(b"a\\x02\\x00").lits  # binary: add the clause (1)
[[1]]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

__all__ = ["ProofInput", "ProofSteps", "ProofSyntaxError", "parse_dimacs", "parse_proof"]

ProofInput = str | bytes | Iterable[str] | Iterable[bytes]


class ProofSyntaxError(ValueError):
    """A proof step that cannot be parsed; ``line`` is where (text line, or binary step)."""

    def __init__(self, line: int, message: str, unit: str = "line") -> None:
        super().__init__(f"{unit} {line}: {message}")
        self.line = line


@dataclass
class ProofSteps:
    """A parsed proof: per step, deletion flag, literals and source line (or step number)."""

    deletes: list[bool]
    lits: list[list[int]]
    where: list[int]
    binary: bool


def _looks_binary(data: bytes) -> bool:
    """Binary DRAT starts steps with ``a`` and ends them with a zero byte, text never has one."""
    return bool(data) and (data[:1] == b"a" or b"\0" in data[:65536])


def _parse_text_line(raw: bytes, where: int) -> tuple[bool, list[int]] | None:
    """One text line -> (is deletion, literals without the final 0), None for blank/comment."""
    toks = raw.split()
    if not toks or toks[0][:1] == b"c":
        return None
    delete = toks[0] == b"d"
    try:
        nums = list(map(int, toks[1:] if delete else toks))
    except ValueError:
        nums = []
    # int() also takes "+1" and "1_0", which are no DIMACS literals.
    if not nums or nums[-1] != 0 or b"+" in raw or b"_" in raw:
        raise ProofSyntaxError(where, f"cannot parse {_show_bytes(raw.strip())}")
    nums.pop()
    if 0 in nums:
        raise ProofSyntaxError(where, "a 0 before the end of the step (one step per line)")
    return delete, nums


def _show_bytes(s: bytes, limit: int = 60) -> str:
    text = s.decode("ascii", errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _text_lines(proof: ProofInput) -> Iterator[bytes]:
    if isinstance(proof, bytes):
        yield from proof.splitlines()
    elif isinstance(proof, str):
        for line in proof.splitlines():
            yield line.encode("ascii", errors="replace")
    else:
        for item in proof:
            chunk = item if isinstance(item, bytes) else item.encode("ascii", errors="replace")
            # An item is normally one line, but tolerate items holding several.
            yield from chunk.splitlines() or [b""]


def _parse_binary(data: bytes) -> ProofSteps:
    """Binary DRAT: ``a``/``d`` byte, then literals ``2*var + sign`` in 7-bit groups, low
    group first, high bit set on all but the last byte, then a zero byte."""
    deletes: list[bool] = []
    lits_all: list[list[int]] = []
    where: list[int] = []
    i, n = 0, len(data)
    step = 0
    while i < n:
        step += 1
        head = data[i]
        if head not in (0x61, 0x64):
            raise ProofSyntaxError(step, f"cannot parse: byte {head:#04x} at offset {i}", "step")
        i += 1
        lits: list[int] = []
        while True:
            value, shift = 0, 0
            while True:
                if i >= n:
                    raise ProofSyntaxError(step, "cannot parse: the proof ends inside it", "step")
                b = data[i]
                i += 1
                value |= (b & 0x7F) << shift
                shift += 7
                if b < 0x80:
                    break
            if value == 0:
                break
            if value < 2:
                raise ProofSyntaxError(step, f"cannot parse: literal code {value}", "step")
            lits.append(-(value >> 1) if value & 1 else value >> 1)
        deletes.append(head == 0x64)
        lits_all.append(lits)
        where.append(step)
    return ProofSteps(deletes, lits_all, where, True)


def parse_proof(proof: ProofInput) -> ProofSteps:
    """Parse a proof given as text, bytes (text or binary DRAT) or an iterable of lines.

    Raises :class:`ProofSyntaxError` on a malformed step. O(proof size).
    """
    if isinstance(proof, bytes) and _looks_binary(proof):
        return _parse_binary(proof)
    deletes: list[bool] = []
    lits_all: list[list[int]] = []
    where: list[int] = []
    for number, raw in enumerate(_text_lines(proof), start=1):
        step = _parse_text_line(raw, number)
        if step is not None:
            deletes.append(step[0])
            lits_all.append(step[1])
            where.append(number)
    return ProofSteps(deletes, lits_all, where, False)


def parse_dimacs(text: str | bytes) -> list[list[int]]:
    """The clauses of a DIMACS CNF (``p`` and ``c`` lines skipped; clauses may span lines).

    Raises ``ValueError`` on a token that is not an integer.
    """
    if isinstance(text, str):
        text = text.encode("ascii", errors="replace")
    clauses: list[list[int]] = []
    current: list[int] = []
    for raw in text.splitlines():
        s = raw.strip()
        if not s or s[:1] in (b"c", b"p", b"%"):
            continue
        for tok in s.split():
            lit = int(tok)
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if current:
        clauses.append(current)
    return clauses
