"""A journal of proved bounds: what a long IDA* proof learnt, kept in a file, so that a
stopped run can be continued where it stopped.

IDA*'s transposition table maps a state (position, first open piece, last move's context) to a
proved lower bound on the moves it needs (``Ida.dfs``); its tripod and tetrapod
caches map a position to a check's value and the budget it was capped at. None of these
depends on the iteration, the time or the options of the run that proved it, only on the
board, the final colour asked for and the code of the search (which decides what a key means
and which moves a state may make: the canonical order of commuting moves, rules R5, R6). So a
journal is one SQLite file (Python's ``sqlite3``) holding such entries per *identity*: a
SHA-256 of the region graph, the rules, the final colour and the source of every kamicp
module. A run whose identity differs (another board, another final colour, any other
version of kamicp) shares nothing with the entries of another; it is not an error, the
journal then simply holds nothing for it yet.

What is written, and why it is sound (``encodings/bounds.md``, "Journal"): only values the
search keeps as proved (one process or many: :mod:`kamicp.search.ida.engine` writes what its
workers prove). Entries are written in
one transaction committed every :data:`COMMIT_EVERY` seconds and when the run ends (a time
limit, Ctrl-C, SIGTERM); a run killed outright loses at most the last seconds of them.

Example::

    >>> import os, tempfile
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "proof.journal")
    >>> with Journal(path, g, None) as j:
    ...     j.bound(b"state", 3)
    >>> with Journal(path, g, None) as j:
    ...     j.load().bounds
    {b'state': 3}
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from kamicp.errors import InputError
from kamicp.game.regions import RegionGraph

__all__ = [
    "CHECK_KINDS",
    "COMMIT_EVERY",
    "FORMAT",
    "LOCK_WAIT",
    "TABLES",
    "Journal",
    "Learnt",
    "code_digest",
    "ensure_journal",
    "identity",
]

FORMAT = "kamicp journal 1"
COMMIT_EVERY = 5.0  # seconds between commits while a run goes on
LOCK_WAIT = 2.0  # seconds to wait for a journal that another run has open

TABLES = {"meta", "runs", "bounds", "checks"}  # what _SCHEMA makes
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, identity TEXT UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS bounds (
    run INTEGER NOT NULL, key BLOB NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (run, key));
CREATE TABLE IF NOT EXISTS checks (
    run INTEGER NOT NULL, kind TEXT NOT NULL, key BLOB NOT NULL,
    value INTEGER NOT NULL, cap INTEGER NOT NULL, PRIMARY KEY (run, kind, key));
"""


@dataclass
class Learnt:
    """What a journal holds for one identity: the table's bounds and the checks' values."""

    bounds: dict[bytes, int] = field(default_factory=dict)
    tripods: dict[bytes, tuple[int, int]] = field(default_factory=dict)  # (value, cap)
    tetrapods: dict[bytes, tuple[int, int]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.bounds) + len(self.tripods) + len(self.tetrapods)


@cache
def code_digest() -> str:
    """SHA-256 of the source of every kamicp module: any change of the code makes a new
    identity (a stricter rule than needed, but one that cannot be forgotten)."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def identity(g: RegionGraph, final_colour: int | None) -> str:
    """The identity of a search: the region graph, its rules and pivot, the final colour and
    the code. O(n + m)."""
    text = repr((FORMAT, code_digest(), g.rules, g.k, g.pivot, g.colour, g.adj, final_colour))
    return hashlib.sha256(text.encode()).hexdigest()


class Journal:
    """The entries of one identity in the journal file ``path`` (made if missing).

    Raises :class:`kamicp.errors.InputError` if ``path`` exists and is not a kamicp
    journal; it is then left as it was.
    """

    def __init__(self, path: str, g: RegionGraph, final_colour: int | None):
        self.path = path
        self.db = _open(path)
        # one run at a time: the file stays locked from the first write to the close
        self.db.execute("PRAGMA locking_mode = EXCLUSIVE")
        try:
            self.run = self._run_id(identity(g, final_colour))
        except sqlite3.OperationalError as err:
            self.db.close()
            raise InputError(_why(err), path) from None
        self.written = 0  # entries written by this run
        self.last_commit = time.monotonic()

    def _run_id(self, ident: str) -> int:
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO runs (identity) VALUES (?)", (ident,))
        return self.db.execute("SELECT id FROM runs WHERE identity = ?", (ident,)).fetchone()[0]

    def load(self) -> Learnt:
        """Every entry of this identity; an InputError for a file that was changed by hand
        or by something else (a missing table, a key that is not bytes, a value that is not
        a count, a kind of check unknown here)."""
        out = Learnt()
        try:
            rows = self.db.execute("SELECT key, value FROM bounds WHERE run = ?", (self.run,))
            out.bounds = {_blob(key): _count(value) for key, value in rows}
            query = "SELECT kind, key, value, cap FROM checks WHERE run = ?"
            for kind, key, value, cap in self.db.execute(query, (self.run,)):
                if kind not in CHECK_KINDS:
                    raise ValueError(f"a check of kind {kind!r}")
                getattr(out, kind)[_blob(key)] = (_count(value), _count(cap))
        except (sqlite3.Error, ValueError) as err:
            raise InputError(f"not a kamicp journal ({err})", self.path) from None
        return out

    def bound(self, key: bytes, value: int) -> None:
        """A proved lower bound on the moves a state needs (kept if above the one held)."""
        self.db.execute(
            "INSERT INTO bounds VALUES (?, ?, ?) ON CONFLICT (run, key) "
            "DO UPDATE SET value = max(value, excluded.value)",
            (self.run, key, value),
        )
        self._wrote()

    def check(self, kind: str, key: bytes, value: int, cap: int) -> None:
        """A tripod or tetrapod check's value, capped at ``cap`` (``kind``: "tripods" or
        "tetrapods"); it replaces the one held, which the search only recomputes when this
        one says more."""
        if kind not in ("tripods", "tetrapods"):
            raise ValueError(f"unknown check {kind!r}")
        row = (self.run, kind, key, value, cap)
        self.db.execute("INSERT OR REPLACE INTO checks VALUES (?, ?, ?, ?, ?)", row)
        self._wrote()

    def _wrote(self) -> None:
        self.written += 1
        if time.monotonic() - self.last_commit >= COMMIT_EVERY:
            self.commit()

    def commit(self) -> None:
        """Commit what was written so far."""
        self.db.commit()
        self.last_commit = time.monotonic()

    def close(self) -> None:
        """Commit and close the file."""
        self.commit()
        self.db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _open(path: str) -> sqlite3.Connection:
    """The journal's database, made if the file is missing or empty; an InputError if the
    file is something else (SQLite only reads it to find out)."""
    try:
        db = sqlite3.connect(path, timeout=LOCK_WAIT)
    except sqlite3.Error as err:
        raise InputError(f"cannot open the journal ({err})", path) from None
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if tables and "meta" not in tables:
            raise InputError("not a kamicp journal (an SQLite file of something else)", path)
        if tables:
            row = db.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
            if row is None or row[0] != FORMAT:
                found = "none" if row is None else repr(row[0])
                raise InputError(f"not a {FORMAT!r} file (format {found})", path)
            if missing := sorted(TABLES - tables):
                raise InputError(f"not a kamicp journal (no table {', '.join(missing)})", path)
        else:
            with db:
                db.executescript(_SCHEMA)
                db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
    except sqlite3.Error as err:
        db.close()
        raise InputError(_why(err), path) from None
    except InputError:
        db.close()
        raise
    return db


def ensure_journal(path: str) -> None:
    """Make the journal file if missing; an InputError if ``path`` is not one (say, before a
    search that would only meet the problem in a backend process)."""
    _open(path).close()


CHECK_KINDS = ("tripods", "tetrapods")  # the checks a journal keeps (Learnt's fields)


def _blob(key) -> bytes:
    if not isinstance(key, bytes):
        raise ValueError(f"a key of type {type(key).__name__}")
    return key


def _count(value) -> int:
    if not isinstance(value, int) or value < 0:
        raise ValueError(f"a value {value!r}")
    return value


def _why(err: sqlite3.Error) -> str:
    if "locked" in str(err):
        return "the journal is in use by another run (one run at a time)"
    return f"not a kamicp journal ({err})"
