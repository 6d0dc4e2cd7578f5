"""Qt's logging calls and assertions are records worded as Qt prints them: ``qWarning``'s
format, a ``QDebug`` stream's items joined by a space, ``Q_ASSERT``'s and
``Q_ASSERT_X``'s ``ASSERT…`` lines. The fixture is built with Qt 5 when its headers are
here, and what it prints must match its records."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import any_fullmatch, line_with, messages, mine_once, records_at
from tests.conftest import GitRepo

PLAYER_CPP = """\
#include <QDebug>
#include <QString>
#include <QtGlobal>

struct Player {
  int volume = 0;
  void *d = nullptr;
  void setVolume(int v, const QString &device) {
    if (v > 100)
      qWarning("volume %d is above the maximum", v);
    if (device.isEmpty())
      qWarning() << "no output device for player" << device;
    qDebug() << "volume set to" << v;
    Q_ASSERT(d);
    Q_ASSERT_X(volume >= 0, "Player::setVolume", "volume went negative");
    Q_ASSERT(volume  <  50);
    volume = v;
  }
};

int main(int argc, char **argv) {
  Player p;
  p.volume = argc > 1 ? -1 : 70;
  int dummy = 1;
  p.d = &dummy;
  p.setVolume(120, QString());
  return 0;
}
"""

# What Qt 5.15 printed for the program above (``./player``, ``./player x``).
PRINTED = {
    'qWarning("volume': "volume 120 is above the maximum",
    'qWarning() <<': 'no output device for player ""',
    "Q_ASSERT(volume": 'ASSERT: "volume < 50" in file src/player.cpp, line 16',
    "Q_ASSERT_X": 'ASSERT failure in Player::setVolume: "volume went negative", file '
                  "src/player.cpp, line 15",
}


def _built(root: Path) -> dict[str, str] | None:
    """What the fixture prints, when Qt 5's headers and g++ are here."""
    if not shutil.which("g++") or not shutil.which("pkg-config") or subprocess.run(
            ["pkg-config", "--exists", "Qt5Core"], check=False).returncode != 0:
        return None
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "Qt5Core"], check=True,
                           capture_output=True, text=True).stdout.split()
    subprocess.run(["g++", "-fPIC", "-o", "player", "src/player.cpp", *flags], cwd=root,
                   check=True, capture_output=True)
    plain = subprocess.run(["./player"], cwd=root, capture_output=True, text=True)
    other = subprocess.run(["./player", "x"], cwd=root, capture_output=True, text=True)
    lines = plain.stderr.splitlines()
    return {'qWarning("volume': lines[0], 'qWarning() <<': lines[1],
            "Q_ASSERT(volume": lines[-1], "Q_ASSERT_X": other.stderr.splitlines()[-1]}


def test_qt_logging_and_assertions_are_records_as_qt_prints_them(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/player.cpp": PLAYER_CPP})

    def at(needle: str) -> list[errdex.StoredRecord]:
        return records_at(records, "src/player.cpp", line_with(PLAYER_CPP, needle))

    assert messages(at('qWarning("volume')) == ["volume %d is above the maximum"]
    assert {r.record.severity for r in at('qWarning("volume')} == {"warning"}
    assert messages(at("qWarning() <<")) == ["no output device for player {device}"]
    assert not at("qDebug()")  # below warning: a log statement, not a record
    assert not at("Q_ASSERT(d)")  # a bare pointer check says nothing
    assert messages(at("Q_ASSERT(volume")) == ['ASSERT: "volume < 50"']
    assert {r.record.error_type for r in at("Q_ASSERT_X")} == {"panic"}
    printed = _built(root) or PRINTED
    for needle, line in printed.items():
        assert any_fullmatch(at(needle), line), line
        top = errdex.resolve(line, db=tmp_path / "once.sqlite").matches[0]
        assert top.record.line_number == line_with(PLAYER_CPP, needle), line
