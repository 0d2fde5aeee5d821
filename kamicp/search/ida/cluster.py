"""The workers of a parallel proof as the actors of a Ray cluster.

Each worker is a Ray actor holding a :class:`~kamicp.search.ida.tasks.TaskSearch`, made
from a pickled :class:`~kamicp.search.ida.tasks.WorkerSetup` (the board, the options, what
is known), so that it may run on any machine of the cluster. An actor runs two threads: one
answers jobs, the other takes the flags (*hungry*, *stopping*) that the search reads at its
next state. An actor that dies (its process killed, its machine gone) fails its job's
reference: the job is answered as lost, and :meth:`RayWorkers.restart` makes a new actor.
Ray is imported only here (``pip install 'kamicp[cluster]'``).
"""

from __future__ import annotations

import os
import threading

from kamicp.errors import KamicpError
from kamicp.search.ida.tasks import Answer, Job, WorkerSetup

__all__ = ["RayWorker", "RayWorkers", "connect"]


class RayWorker:
    """A worker as a Ray actor's class: a search, its flags, and its jobs."""

    def __init__(self, setup: WorkerSetup, stamp: int = 0):
        self.flags = [False, False]  # hungry, stopping
        self.stamps = [stamp, stamp]  # the stamp of each flag's last setting
        self.busy = threading.Lock()  # held while a job is searched
        self.search = None
        self.reset(setup, stamp)

    def reset(self, setup: WorkerSetup, stamp: int) -> None:
        """Become a worker of the search ``setup`` describes, flags down (a job of the last
        search still running is stopped first); settings stamped before ``stamp`` are
        stale."""
        self.flags[1] = True
        with self.busy:
            self.flags[:] = [False, False]
            self.stamps = [stamp, stamp]
            self.search = setup.search(lambda: self.flags[0], lambda: self.flags[1])

    def answer(self, job: Job) -> Answer:
        """Search a job's task."""
        with self.busy:
            return self.search.answer(job)

    def set_flag(self, which: int, value: bool, stamp: int) -> None:
        """Set flag ``which`` (0 hungry, 1 stopping), unless a later setting (or reset)
        came first: an actor that runs two calls at once may run them in either order."""
        if stamp > self.stamps[which]:
            self.flags[which], self.stamps[which] = value, stamp

    def pid(self) -> int:
        """The actor's process id."""
        return os.getpid()


def connect(address: str, cpus: int | None = None) -> bool:
    """Join the Ray cluster at ``address`` (``"local"``: start one here, with ``cpus`` CPUs);
    whether this call started Ray (and so should shut it down)."""
    try:
        import ray
    except ImportError:
        raise KamicpError("--ray needs Ray: pip install 'kamicp[cluster]'") from None
    if ray.is_initialized():
        return False
    quiet = {"include_dashboard": False, "log_to_driver": False}
    if address == "local":
        ray.init(num_cpus=cpus, **quiet)
    else:
        ray.init(address=address, **quiet)
    return True


class RayWorkers:
    """Ray actors as the workers (:class:`~kamicp.search.ida.engine.Workers`).

    Parameters
    ----------
    address : str
        The cluster's address; ``"local"`` starts one on this machine.
    size : int or None
        Actors to start; None: one per CPU of the cluster.
    keep : bool
        Keep the actors from one search to the next (each :meth:`start` resets them) until
        :meth:`shut`; else :meth:`close` ends them.
    """

    def __init__(self, address: str, size: int | None = None, keep: bool = False):
        self.keep = keep
        self.address = address
        self.size = size or 0  # known once started, when None
        self.wanted = size
        self.ray = None
        self.started = False  # this process started Ray (and shuts it down)
        self.actor_class = None
        self.actors: list = []
        self.jobs: dict = {}  # a job's reference -> its worker
        self.setup_ref = None
        self.flags = [False, False]
        self.stamp = 0  # counts the flags' settings and the resets: the actors order them
        self.sent = 0  # jobs sent, all searches

    def start(self, setup: WorkerSetup) -> None:
        """Join the cluster (only now: a search that ends on one core needs none) and start
        the actors, or reset the kept ones."""
        if self.ray is None:
            self.started = connect(self.address, self.wanted)
            import ray

            self.ray = ray
            self.size = self.wanted or max(1, int(ray.cluster_resources()["CPU"]))
            self.actor_class = ray.remote(num_cpus=1, max_concurrency=2, max_restarts=0)(RayWorker)
        self.setup_ref = self.ray.put(setup)  # one copy in the cluster's store, not one each
        self.flags = [False, False]
        self.stamp += 1  # the last search's stop, if it comes late, is stale
        if self.actors:
            self.ray.get([a.reset.remote(self.setup_ref, self.stamp) for a in self.actors])
        else:
            self.actors = [
                self.actor_class.remote(self.setup_ref, self.stamp) for _ in range(self.size)
            ]

    def pids(self) -> list[int]:
        """The actors' process ids."""
        return self.ray.get([a.pid.remote() for a in self.actors])

    def send(self, w: int, job: Job) -> None:
        self.jobs[self.actors[w].answer.remote(job)] = w
        self.sent += 1

    def receive(self, timeout: float | None) -> tuple[int, Answer | None] | None:
        if not self.jobs:
            return None
        ready, _ = self.ray.wait(list(self.jobs), num_returns=1, timeout=timeout)
        if not ready:
            return None
        w = self.jobs.pop(ready[0])
        try:
            return w, self.ray.get(ready[0])
        except self.ray.exceptions.RayTaskError as bug:  # raised in the actor: raised here
            raise bug.as_instanceof_cause() from None
        except self.ray.exceptions.RayError:  # the actor died: its job is lost
            return w, None

    def how_lost(self, w: int) -> str:
        """How worker ``w`` ended, in words."""
        return "its Ray actor died"

    def restart(self, w: int) -> None:
        self.ray.kill(self.actors[w], no_restart=True)
        actor = self.actors[w] = self.actor_class.remote(self.setup_ref, self.stamp)
        for which, value in enumerate(self.flags):
            if value:
                self.stamp += 1
                actor.set_flag.remote(which, value, self.stamp)

    def set_hungry(self, hungry: bool) -> None:
        self.flag(0, hungry)

    def stop(self) -> None:
        self.flag(1, True)

    def flag(self, which: int, value: bool) -> None:
        """Set a flag on every actor."""
        self.flags[which] = value
        self.stamp += 1
        for actor in self.actors:
            actor.set_flag.remote(which, value, self.stamp)

    def close(self) -> None:
        if self.keep:
            self.stop()  # a job still running ends at its next state, its answer unread
            self.jobs = {}
            return
        self.shut()

    def shut(self) -> None:
        """End the actors, and Ray if this process started it."""
        if self.ray is None:
            return
        for actor in self.actors:
            self.ray.kill(actor, no_restart=True)
        self.actors, self.jobs = [], {}
        if self.started:
            self.ray.shutdown()
