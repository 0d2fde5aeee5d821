"""Puzzle files: reading, writing and detecting each format kamicp knows.

One module per format (:mod:`~kamicp.formats.grid`, :mod:`~kamicp.formats.flood`,
:mod:`~kamicp.formats.gameid`, :mod:`~kamicp.formats.puz`, :mod:`~kamicp.formats.graph`,
:mod:`~kamicp.formats.floodit99`, :mod:`~kamicp.formats.digits`),
files and folders in :mod:`~kamicp.formats.files`, and the formats by name in
:mod:`~kamicp.formats.registry`. Code outside this package imports from here.
"""

from kamicp.formats.files import EXTENSIONS, STDIN, iter_paths, read_text, shown
from kamicp.formats.puz import decode_rle, encode_rle
from kamicp.formats.registry import FORMATS, detect, dump, load, parse, puzzles, sources

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "STDIN",
    "decode_rle",
    "detect",
    "dump",
    "encode_rle",
    "iter_paths",
    "load",
    "parse",
    "puzzles",
    "read_text",
    "shown",
    "sources",
]
