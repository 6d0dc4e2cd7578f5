"""A PHP console command's error lines (``$io->writeError('<error>…</error>')``,
``$output->writeln("<warning>…</warning>")``): a log site whose pattern is the line the
terminal shows, style tags dropped; untagged output is no site. Where PHP is installed,
the fixture prints its lines through a stand-in output that drops the tags as Symfony
Console's formatter does, and each must match its record."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import errdex
from tests.compose_steps import fullmatches, line_with, messages, mine_fixture, records_at

COMMAND = """<?php

class PlainOutput
{
    public function writeError($line, $newline = true, $verbosity = 0)
    {
        $tags = '#</?(error|warning|info|comment|question|[a-z]+=[^<>]*)?>#';
        echo preg_replace($tags, '', $line), "\\n";
    }

    public function writeln($line)
    {
        $this->writeError($line);
    }
}

class Installer
{
    private $io;

    public function __construct($io)
    {
        $this->io = $io;
    }

    public function run($name, $dev)
    {
        $err = 'Your requirements could not be resolved to an installable set of packages.';
        $this->io->writeError('<error>'. $err .'</error>', true, 1); // resolved
        $this->io->writeError('<info>Updating dependencies</info>'); // info
        $this->io->writeln("<warning>Package {$name} is abandoned.</warning>"); // abandoned
        $this->io->writeError('<fg=red>' . $dev . '</>'); // bare
        $this->io->writeError("\\n".'<error>Installation failed: '.$name.'.</error>'); // blank
    }
}

(new Installer(new PlainOutput()))->run('acme/old', 'x');
"""
FILES = {"src/Installer.php": COMMAND}


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[errdex.StoredRecord]]:
    return mine_fixture(tmp_path_factory, "console", "console", FILES)


def _at(records: list[errdex.StoredRecord], marker: str) -> list[errdex.StoredRecord]:
    return records_at(records, "src/Installer.php", line_with(COMMAND, f"// {marker}"))


def test_an_error_or_warning_tagged_line_is_a_log_site_without_its_tags(
    console: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = console
    resolved, abandoned = _at(records, "resolved"), _at(records, "abandoned")
    assert messages(resolved) == [
        "Your requirements could not be resolved to an installable set of packages."]
    assert [(r.record.error_type, r.record.severity) for r in resolved] == [("log", "error")]
    assert [r.record.severity for r in abandoned] == ["warning"]
    assert "<" not in abandoned[0].record.message_pattern


def test_untagged_output_and_a_tag_around_no_words_are_no_sites(
    console: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = console
    assert _at(records, "info") == []
    assert _at(records, "bare") == []


@pytest.mark.skipif(shutil.which("php") is None, reason="no PHP interpreter installed")
def test_each_pattern_matches_the_line_php_prints(
    console: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    root, records = console
    done = subprocess.run(["php", str(root / "src" / "Installer.php")],
                          capture_output=True, text=True, check=True)
    printed = done.stdout.splitlines()
    assert printed[0] == ("Your requirements could not be resolved to an installable set of "
                          "packages.")
    assert fullmatches(_at(records, "resolved")[0], printed[0])
    assert fullmatches(_at(records, "abandoned")[0], printed[2])
    assert printed[4:] == ["", "Installation failed: acme/old."]
    assert fullmatches(_at(records, "blank")[0], printed[5])


def test_a_blank_line_printed_before_the_text_is_not_part_of_it(
    console: tuple[Path, list[errdex.StoredRecord]],
) -> None:
    _, records = console
    assert messages(_at(records, "blank")) == ["Installation failed: {$name}."]
