"""BlobReader.read_many: several blobs in one round trip to git, in order, a missing one None."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from errdex.repo import git
from errdex.repo.git import BlobReader


def _repo(tmp_path: Path, files: dict[str, bytes]) -> dict[str, str]:
    """A repository holding ``files`` at one commit; each file's blob id."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    listing = subprocess.run(["git", "-C", str(tmp_path), "ls-files", "-s"], check=True,
                             capture_output=True, text=True).stdout
    return {line.split("\t")[1]: line.split()[1] for line in listing.splitlines()}


@pytest.mark.parametrize("per_write", [1, 2, 256])
def test_read_many_keeps_order_and_marks_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, per_write: int
) -> None:
    monkeypatch.setattr(git, "_REQUESTS_PER_WRITE", per_write)
    files = {f"f{i}.py": f"raise ValueError('n{i}')\n".encode() * (i + 1) for i in range(5)}
    files["big.py"] = b"x = 1\n" * 30_000  # larger than a pipe's buffer
    blobs = _repo(tmp_path, files)
    absent = "0123456789abcdef0123456789abcdef01234567"
    wanted = [(blobs["f3.py"], "f3.py"), (absent, "gone.py"), (blobs["big.py"], "big.py"),
              *((blobs[f"f{i}.py"], f"f{i}.py") for i in range(5))]
    reader = BlobReader(tmp_path)
    try:
        found = reader.read_many(wanted)
        again = reader.read_present(blobs["f0.py"], "f0.py")  # the pipe stays in step
    finally:
        reader.close()
    assert found == [files["f3.py"], None, files["big.py"], *(files[f"f{i}.py"] for i in range(5))]
    assert again == files["f0.py"]
