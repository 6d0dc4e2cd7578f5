"""Cached folders within a disk budget: what the clone cache and the release cache share.

One folder per key under ``repos/``, each with a lock file under ``locks/``: held shared
while the folder is in use, so eviction (which takes it exclusively, without waiting) never
removes a folder in use, also across processes and concurrent runs; the lock file's mtime
is the folder's last use. Folders are built under ``tmp/`` and renamed into place, so a
failure leaves nothing; temporary folders of dead processes are removed at start. POSIX.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


class BudgetedFolders:
    """The folders under ``root``, least recently used evicted over ``budget`` bytes."""

    def __init__(self, root: Path, budget_bytes: int):
        self.root = root.absolute()  # absolute: git runs outside the current folder
        self.budget = budget_bytes
        for folder in ("repos", "locks", "tmp"):
            (self.root / folder).mkdir(parents=True, exist_ok=True)

    @contextmanager
    def locked(self, key: str) -> Iterator[Path]:
        """The folder of ``key`` (may not exist yet), kept from eviction while in use."""
        lock_path = self.root / "locks" / f"{key}.lock"
        with open(lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_SH)
            os.utime(lock_path)
            try:
                yield self.root / "repos" / key
            finally:
                os.utime(lock_path)
                fcntl.flock(lock, fcntl.LOCK_UN)

    def scratch(self, label: str) -> Path:
        """A fresh temporary folder's path, named so ``clean_stale`` knows its process."""
        return self.root / "tmp" / f"{label}.{os.getpid()}.{time.monotonic_ns()}"

    def clean_stale(self) -> None:
        """Remove temporary folders left by processes that died on this host."""
        for folder in (self.root / "tmp").iterdir():
            pid = folder.name.rsplit(".", 2)[-2] if folder.name.count(".") >= 2 else ""
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)

    def size(self) -> int:
        return sum(tree_bytes(p) for p in (self.root / "repos").iterdir())

    def enforce_budget(self) -> list[str]:
        """Evict least recently used folders not in use until the cache fits its budget."""
        with open(self.root / "evict.lock", "a") as guard:
            fcntl.flock(guard, fcntl.LOCK_EX)
            entries = []
            for path in (self.root / "repos").iterdir():
                lock_path = self.root / "locks" / f"{path.name}.lock"
                used = lock_path.stat().st_mtime if lock_path.exists() else 0.0
                entries.append((used, path, lock_path))
            total = sum(tree_bytes(path) for _, path, _ in entries)
            evicted = []
            for _, path, lock_path in sorted(entries, key=lambda e: e[0]):
                if total <= self.budget:
                    break
                with open(lock_path, "a") as lock:
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        continue  # in use right now
                    size = tree_bytes(path)
                    shutil.rmtree(path, ignore_errors=True)
                    total -= size
                    evicted.append(path.name)
            return evicted


def tree_bytes(path: Path) -> int:
    total = 0
    for folder, _, names in os.walk(path):
        for name in names:
            with suppress(OSError):
                total += os.lstat(os.path.join(folder, name)).st_size
    return total


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


__all__ = ["BudgetedFolders", "tree_bytes"]
