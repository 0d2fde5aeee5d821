"""What the command-line tests share: the article's graph, the repository's root, and a run of
``kamicp`` in this process with its output captured."""

from __future__ import annotations

from pathlib import Path

from kamicp.cli.main import main
from tests.seed import DATA

__all__ = ["ARTICLE", "ROOT", "run"]

ARTICLE = str(DATA / "kami2-article-graph.json")
ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    """Run ``kamicp *argv``; return its exit code, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
