"""Child processes that end with the process that started them (Linux).

Killed with SIGKILL, errdex cannot clean up, and its children would not notice on their
own: a pool worker waits on a queue whose write end its sibling workers hold too, and a
worker's ``git cat-file`` waits on that worker. ``PR_SET_PDEATHSIG`` asks the kernel to
kill a child when its parent goes: worker pools pass ``die_with_parent`` as their
initializer, and every git child gets ``kill_with_parent()`` as its ``preexec_fn``.
A forkserver's workers are children of the fork server, which in turn lives as long as
any of them holds its "alive" pipe: there the worker watches the pool's owner itself.
Elsewhere (macOS, Windows) all of this does nothing.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1
_ANCESTORS_CHECKED = 4  # worker → forkserver → owner, and one spare


def _load_prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, typed, or None where there is none (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                      ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


# Resolved once, before any fork: a child between fork and exec only makes the call.
_PRCTL = _load_prctl()


def supported() -> bool:
    """Whether children can be tied to their parent's life here."""
    return _PRCTL is not None


def set_parent_death_signal(sig: int = signal.SIGKILL) -> bool:
    """Have the kernel send ``sig`` to this process when its parent dies."""
    if _PRCTL is None:
        return False
    return _PRCTL(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0


def ancestors(limit: int = _ANCESTORS_CHECKED) -> list[int]:
    """Pids of this process's parent, grandparent… (``limit`` of them), read from /proc."""
    chain: list[int] = []
    pid = os.getpid()
    while len(chain) < limit and pid > 1:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:
            break
        pid = int(fields[1])  # after "(comm)": state, ppid
        chain.append(pid)
    return chain


def die_with_parent(owner: int | None = None) -> None:
    """Worker-pool initializer: end this worker when the process that started it dies.

    ``owner`` is the process that created the pool (default: multiprocessing's parent
    process). Set first, then checked: an owner that died before the signal was armed
    is no longer among the ancestors, and the worker leaves at once instead of waiting
    on a queue forever. When the owner is not the parent (the forkserver start method),
    a thread waits for the owner to exit.
    """
    if owner is None:
        parent = multiprocessing.parent_process()
        owner = parent.pid if parent is not None and parent.pid is not None else os.getppid()
    if not set_parent_death_signal():
        return
    chain = ancestors()
    if chain and owner not in chain:
        os._exit(1)
    if chain and chain[0] != owner:
        _exit_with(owner)


def _exit_with(owner: int) -> None:
    """End this process when ``owner`` exits (a daemon thread waits on its pidfd)."""
    try:
        pidfd: int | None = os.pidfd_open(owner)
    except ProcessLookupError:
        os._exit(1)
    except OSError:  # a kernel before 5.3: look every second instead
        pidfd = None

    def wait() -> None:
        if pidfd is not None:
            select.select([pidfd], [], [])
        else:
            while owner in ancestors():
                time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=wait, name="errdex-owner-watch", daemon=True).start()


def kill_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that has the child killed when this process dies, or None.

    The kernel follows the *thread* that started the child, so a long-lived child
    (a blob reader) started off the main thread gets none: it would die with that
    thread. Between fork and exec it only makes two system calls (libc's ``prctl``,
    resolved before any fork, and ``getppid``): no lock, no import, nothing another
    thread could hold, which is what makes ``preexec_fn`` unsafe with threads.
    """
    if _PRCTL is None:
        return None
    prctl = _PRCTL
    owner = os.getpid()

    def arm() -> None:
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != owner:  # the parent died between fork and here
            os._exit(1)

    return arm


def on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()
