"""An older wording that matches only because a hole swallowed words a current template
spells out (mine --history) ranks below that template, even as a close match."""

from __future__ import annotations

import errdex

OLD_READER = ("def expect(expected, got):\n"
              "    raise ValueError(f'Expected {expected} but was {got}')\n")
NEW_READER = ("def expect(expected, got, path):\n"
              "    raise ValueError(f'Expected {expected} but was {got} at path {path}')\n")
# v2 also spells the position out where objects are read, and appends a hint
LEXER = ("def begin_object(token, line, column, path):\n"
         "    raise ValueError(f'Expected BEGIN_OBJECT but was {token} at line {line} '\n"
         "                     f'column {column} path {path}\\nSee https://example.org/help')\n")


def test_a_current_template_spelling_out_what_a_hole_swallowed_ranks_first(two_releases,
                                                                          store):
    repo = two_releases({"pkg/reader.py": OLD_READER},
                        {"pkg/reader.py": NEW_READER, "pkg/lexer.py": LEXER})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 1]
    matches = errdex.explain(
        "ValueError: Expected BEGIN_OBJECT but was STRING at line 1 column 17", db=store)
    assert matches[0].record.file_path == "pkg/lexer.py" and matches[0].approximate
    assert "spells out as its own words" in matches[0].reason
    assert matches[1].record.file_path == "pkg/reader.py" and matches[1].version is not None


def test_an_older_wording_whose_holes_hold_only_values_stays_first(two_releases, store):
    repo = two_releases({"pkg/reader.py": OLD_READER},
                        {"pkg/reader.py": NEW_READER, "pkg/lexer.py": LEXER})
    errdex.mine_history(repo.root, db=store)
    (match, *_) = errdex.explain("ValueError: Expected NAME but was NUMBER 42", db=store)
    assert match.record.file_path == "pkg/reader.py" and not match.approximate
    assert match.version is not None and match.version.template.startswith("Expected {")
