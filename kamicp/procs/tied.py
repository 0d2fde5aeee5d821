"""Imported first by the fork server of :mod:`kamicp.procs.isolate` (its ``PRELOAD``): ties
the server to the thread that started it (:func:`kamicp.procs.child.die_with_parent`).

A fork server outlives the process that started it while it has children running, and its
children, each tied to the server, run on to their own time limits. Tied, the server dies
with that thread, even when kamicp is killed outright (SIGKILL), and every job it forked dies
with it. Its import is its whole purpose; :func:`kamicp.procs.isolate.start_fork_server`
starts the server from the main thread, which lives as long as the process.
"""

from __future__ import annotations

from kamicp.procs.child import die_with_parent

__all__: list[str] = []

die_with_parent()
