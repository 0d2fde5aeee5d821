"""Puzzle files: reading, writing and detecting each format kamicp knows."""

from kamicp.formats.registry import (
    EXTENSIONS,
    FORMATS,
    STDIN,
    decode_rle,
    detect,
    dump,
    encode_rle,
    iter_paths,
    load,
    parse,
    puzzles,
    read_text,
    shown,
)

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
]
