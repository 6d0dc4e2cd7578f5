"""Steps the composition tests of every language share: mine a fixture repository, find
the records at a line, read their template sources, check a printed message.

Each language's test module keeps its own fixtures and assertions; these steps are the
plumbing they wrote alike, kept in one place so that a change to how a fixture is mined
or read reaches every language at once.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import pytest

import errdex
from errdex.records.model import Record, RecordExtras
from tests.conftest import GitRepo

# A mined record with its extras, as the JVM tests read them from a store.
Pair = tuple[Record, RecordExtras]


def mine_fixture(tmp_path_factory: pytest.TempPathFactory, folder: str, name: str,
                 files: dict[str, str]) -> tuple[Path, list[errdex.StoredRecord]]:
    """The fixture repository ``acme/<name>`` committed and mined once, in one job (so a
    module-scoped fixture costs one mine), with its root for running the fixture."""
    root = tmp_path_factory.mktemp(folder)
    repo = GitRepo(root / "repo", f"https://github.com/acme/{name}.git")
    repo.commit_files(files)
    db = root / "errdex.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    with errdex.open_store(db) as store:
        return repo.root, list(store.records(repo=f"acme/{name}"))


def mine_once(make_repo: Callable[..., GitRepo], tmp_path: Path, files: dict[str, str]
              ) -> tuple[Path, list[errdex.StoredRecord]]:
    """The records of ``files`` committed to a fresh ``acme/widgets`` and mined once (a
    test's own small repository, for one composition form), with its root."""
    repo = make_repo()
    repo.commit_files(files)
    db = tmp_path / "once.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    with errdex.open_store(db) as store:
        return repo.root, list(store.records(repo="acme/widgets"))


def mine_changed(make_repo: Callable[..., GitRepo], tmp_path: Path, files: dict[str, str],
                 changed: dict[str, str]) -> list[errdex.StoredRecord]:
    """The records after a second, incremental mine of ``files`` with ``changed`` committed
    over them: the case where composition must reach callers in files not read again."""
    repo = make_repo()
    repo.commit_files(files)
    db = tmp_path / "inc.sqlite"
    errdex.mine(repo.root, db=db, jobs=1)
    repo.commit_files(changed)
    summary = errdex.mine(repo.root, db=db, jobs=1)
    assert summary.incremental
    with errdex.open_store(db) as store:
        return list(store.records(repo="acme/widgets"))


def mine_pairs(make_repo: Callable[..., GitRepo], store: errdex.Store,
               files: dict[str, str]) -> list[Pair]:
    """Every record of ``files`` mined into ``store``, with its extras."""
    repo = make_repo()
    repo.commit_files(files)
    errdex.mine(repo.root, db=store)
    return [(s.record, s.extras) for s in store.records()]


def python_prints(root: Path, code: str) -> str:
    """What the real interpreter prints running ``code`` with the fixture ``root`` importable:
    the message a rule's pattern must match, from the runtime rather than from the test."""
    done = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(root)!r})\n"
                           + code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def java_prints(root: Path, sources: dict[str, str], main: str) -> str:
    """What the JVM prints running the class ``main`` of ``sources`` (file name → text),
    compiled into ``root``: the messages a rule's patterns must match, from the runtime."""
    paths = []
    for name, text in sources.items():
        (root / name).write_text(text, encoding="utf-8")
        paths.append(str(root / name))
    subprocess.run(["javac", "-d", str(root), *paths], check=True, capture_output=True)
    return subprocess.run(["java", "-cp", str(root), main], check=True, capture_output=True,
                          text=True).stdout


def native_runs(root: Path, build: list[str], runs: Iterable[Sequence[str]]) -> list[str]:
    """Build a C or C++ fixture in ``root`` (``build``: the compiler's command line, its
    program named by ``-o``) and run the program once per argument list: what each run
    printed on stderr, its last newline off (a run may exit non-zero, as an error does)."""
    subprocess.run(build, cwd=root, check=True, capture_output=True)
    program = "./" + build[build.index("-o") + 1]
    return [subprocess.run([program, *args], cwd=root, capture_output=True, text=True,
                           check=False).stderr.removesuffix("\n") for args in runs]


def mono_prints(root: Path, sources: dict[str, str], *, references: Sequence[str] = ()) -> str:
    """What mono prints running ``sources`` (file name → text; a ``.cs`` one holds ``Main``,
    the others are data it reads from its folder), compiled with mcs into ``root``: the
    messages a rule's patterns must match, from the runtime."""
    for name, text in sources.items():
        (root / name).write_text(text, encoding="utf-8")
    code = [name for name in sources if name.endswith(".cs")]
    subprocess.run(["mcs", *(f"-r:{r}" for r in references), "-out:run.exe", *code],
                   cwd=root, check=True, capture_output=True)
    return subprocess.run(["mono", "run.exe"], cwd=root, check=True, capture_output=True,
                          text=True).stdout


def ruby_raises(source: Path, receiver: str, method: str, args: Iterable[object]
                ) -> tuple[str, str]:
    """What real Ruby raises calling ``receiver.new.method(*args)`` from the fixture file
    ``source``: the exception's class (last part of its name) and its message."""
    ruby = shutil.which("ruby")
    assert ruby is not None
    code = (
        "require 'json'\n"
        f"require {str(source)!r}\n"
        "begin\n"
        f"  {receiver}.new.send({method!r}.to_sym, *JSON.parse({json.dumps(list(args))!r}))\n"
        "rescue => e\n"
        "  puts JSON.dump([e.class.name.split('::').last, e.message])\n"
        "end\n"
    )
    done = subprocess.run([ruby, "-e", code], capture_output=True, text=True, check=True)
    name, message = json.loads(done.stdout)
    return name, message


def php_runner(requires: Iterable[str], instance: str, prelude: str = "") -> str:
    """A PHP script calling ``(new instance())->{$argv[1]}(...json args)`` after requiring
    the fixture files, printing what it threw as JSON ``[short class, message]``; a
    ``prelude`` of braced namespaces (stubs) comes first, the run then in the global one."""
    body = "".join(f"require __DIR__ . '/{name}';\n" for name in requires) + (
        "try {\n"
        f"    (new {instance}())->{{$argv[1]}}(...json_decode($argv[2], true));\n"
        "    echo json_encode(null);\n"
        "} catch (\\Throwable $e) {\n"
        "    echo json_encode([(new \\ReflectionClass($e))->getShortName(), $e->getMessage()]);\n"
        "}\n")
    return "<?php\n" + (f"{prelude}namespace {{\n{body}}}\n" if prelude else body)


def php_raises(runtime: Path, method: str, args: Iterable[object]) -> tuple[str, str]:
    """What real PHP throws running the fixture's ``run.php`` (a ``php_runner``) for
    ``method``: the exception's short class and its message."""
    done = subprocess.run(["php", str(runtime / "run.php"), method, json.dumps(list(args))],
                          capture_output=True, text=True, check=True)
    thrown, message = json.loads(done.stdout)
    return thrown, message


def line_starting(text: str, start: str, *, stripped: bool = False) -> int:
    """The 1-based line of ``text`` that starts with ``start`` (after its indent when
    ``stripped``): where a fixture's producer or site is written."""
    return next(i for i, line in enumerate(text.splitlines(), 1)
                if (line.strip() if stripped else line).startswith(start))


def line_with(text: str, needle: str) -> int:
    """The 1-based line of ``text`` that holds ``needle`` (a marker comment)."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def records_at(records: list[errdex.StoredRecord], path: str, number: int
               ) -> list[errdex.StoredRecord]:
    """The records of one line: a site with branches has one record per message."""
    return [r for r in records if r.record.file_path == path and r.record.line_number == number]


def pairs_at(mined: list[Pair], path: str, number: int) -> list[Pair]:
    """``records_at`` for records read with their extras."""
    return [(r, e) for r, e in mined if r.file_path == path and r.line_number == number]


def source_lines(extras: RecordExtras) -> list[tuple[str, int]]:
    """Where the record's message is written, outermost first."""
    return [(s.file_path, s.line_number) for s in extras.template_sources]


def source_roles(extras: RecordExtras) -> list[tuple[str, int, str]]:
    """``source_lines`` with what each place gave the message (class message, factory…)."""
    return [(s.file_path, s.line_number, s.role) for s in extras.template_sources]


def with_message(records: Iterable[errdex.StoredRecord], message: str,
                 error_class: str | None = None) -> list[errdex.StoredRecord]:
    """The records of one template (and class): a producer used at several sites gives a
    record per site, all sharing it."""
    return [r for r in records if r.record.error_message == message
            and (error_class is None or r.record.error_class == error_class)]


def fullmatches(record: errdex.StoredRecord, printed: str) -> bool:
    """Whether the mined pattern matches the whole message the program printed: the
    check that a composed template is the message the code really builds."""
    return re.fullmatch(record.record.message_pattern, printed, re.DOTALL) is not None


def any_thrown(found: list[errdex.StoredRecord], error_class: str, printed: str) -> bool:
    """Whether one of a site's records names the class the runtime threw and matches
    what it printed (a site with branches has a record per branch)."""
    return any(r.record.error_class == error_class and fullmatches(r, printed) for r in found)


def messages(found: Iterable[errdex.StoredRecord]) -> list[str]:
    """The messages of a site's records, sorted: a site with branches has one per branch."""
    return sorted(r.record.error_message for r in found)


def classes(found: Iterable[errdex.StoredRecord]) -> set[str | None]:
    """The error classes of a site's records (one class for every branch, as a rule)."""
    return {r.record.error_class for r in found}


def matched_among(found: Iterable[errdex.StoredRecord], texts: Iterable[str]) -> list[str]:
    """Which of ``texts`` the records fullmatch, sorted: what a site's records say it prints,
    among the messages a fixture's overloads or branches print."""
    found = list(found)
    return sorted({t for t in texts if any(fullmatches(r, t) for r in found)})


def any_fullmatch(found: Iterable[errdex.StoredRecord], printed: str) -> bool:
    """Whether one of a site's records matches the whole one-line message a run printed:
    which branch ran is the runtime's choice."""
    return any(re.fullmatch(r.record.message_pattern, printed) for r in found)


def one_pair_at(mined: list[Pair], path: str, number: int) -> Pair:
    """The one record of a line that must have exactly one (its messages when not)."""
    found = pairs_at(mined, path, number)
    assert len(found) == 1, [r.error_message for r, _ in found]
    return found[0]


def one_record_at(records: list[errdex.StoredRecord], path: str, number: int
                  ) -> errdex.StoredRecord:
    """``one_pair_at`` for stored records."""
    found = records_at(records, path, number)
    assert len(found) == 1, [r.record.error_message for r in found]
    return found[0]


def missing(*programs: str) -> bool:
    """Whether a program a runtime check needs (a compiler, an interpreter) is not installed:
    the check is skipped then, the mined records are still checked."""
    return any(shutil.which(p) is None for p in programs)
