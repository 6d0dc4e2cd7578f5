"""A site moved into another function and reworded between two mined releases (one step
of ``mine --history-stride minor`` sees both changes) keeps its lineage when the wordings
are nearly the same, and only then."""

from __future__ import annotations

import subprocess

import errdex

OLD_DECODER = ("def decode_element(key, offset):\n"
               "    raise ValueError(f\"Encountered unknown key '{key}' at {offset}\")\n")
NEW_LEXER = ("import os\n\n\n"
             "def fail_on_unknown_key(key, offset):\n"
             "    raise ValueError(f\"Encountered an unknown key '{key}' at offset {offset}\")\n")
OTHER_LEXER = ("import os\n\n\n"
               "def fail_on_bad_token(token, offset):\n"
               "    raise ValueError(f\"Unexpected token '{token}' at offset {offset}\")\n")



def test_moved_and_reworded_at_once_keeps_its_lineage(two_releases, store):
    repo = two_releases({"pkg/decoder.py": OLD_DECODER},
                         {"pkg/lexer.py": NEW_LEXER})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 1]
    (match, *_) = errdex.explain("ValueError: Encountered unknown key 'id' at 12", db=store)
    assert (match.record.file_path, match.record.line_number) == ("pkg/lexer.py", 5)
    assert match.removed is None and match.version is not None
    assert (match.version.file_path, match.version.span()) == ("pkg/decoder.py", "v1.0.0")


def test_another_message_of_the_class_elsewhere_is_not_the_site(two_releases, store):
    repo = two_releases({"pkg/decoder.py": OLD_DECODER},
                         {"pkg/lexer.py": OTHER_LEXER})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 0]
    matches = errdex.explain("ValueError: Encountered unknown key 'id' at 12", db=store)
    assert matches[0].record.file_path == "pkg/decoder.py" and matches[0].removed is not None


OLD_CHECK = ("def authorize(user, action):\n"
             "    if not user.can(action):\n"
             "        raise PermissionError(f'not allowed to {action} this record')\n")
# v2: a subclass of its own, and a shorter message
NEW_CHECK = ("class Denied(PermissionError):\n"
             "    pass\n\n\n"
             "def authorize(user, action):\n"
             "    if not user.can(action):\n"
             "        raise Denied(f'not allowed to {action}')\n")
# v2 bis: the function also gained a second error of another class
NEW_CHECKS = NEW_CHECK + ("    if user.locked:\n"
                          "        raise LookupError(f'no user allowed to {action} here')\n")


def test_a_subclass_raised_instead_keeps_the_lineage_when_nothing_else_changed_there(
        two_releases, store):
    repo = two_releases({"pkg/auth.py": OLD_CHECK}, {"pkg/auth.py": NEW_CHECK})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 1]
    (match, *_) = errdex.explain("PermissionError: not allowed to delete this record",
                                 db=store)
    assert (match.record.error_class, match.record.line_number) == ("Denied", 7)
    assert match.removed is None and match.version is not None
    assert match.version.template == "not allowed to {action} this record"


def test_a_class_change_among_other_changes_in_the_function_needs_the_same_text(
        two_releases, store):
    repo = two_releases({"pkg/auth.py": OLD_CHECK}, {"pkg/auth.py": NEW_CHECKS})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 0]


def _every(message: str) -> str:
    return ("def record_every(calls):\n"
            "    if not calls:\n"
            f"        raise RuntimeError({message!r})\n")


SHORT = "Missing calls inside every block."
LONGER = "Missing mocked calls inside every block: make sure the object is a mock"
NOTED = (LONGER + "\nNote: an inline function cannot be mocked; no call is recorded at its "
         "call sites. Extract a wrapper that is not inline, or mock what it uses instead.")


def test_a_wording_that_gains_words_or_a_note_keeps_its_lineage(make_repo, store):
    """The issue's appended-text case in history: each wording holds the one before almost
    whole, though plain similarity is low; the site changed alone in its function."""
    repo = make_repo()
    for number, message in enumerate((SHORT, LONGER, NOTED), 1):
        repo.commit_files({"pkg/every.py": _every(message)}, f"v{number}")
        subprocess.run(["git", "-C", str(repo.root), "tag", f"v{number}.0.0"], check=True)
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 1, 1]
    (match, *_) = errdex.explain(f"RuntimeError: {SHORT}", db=store)
    assert match.removed is None and match.record.error_message == NOTED
    assert match.version is not None and match.version.span() == "v1.0.0"


def _unknown_key(*raises: str) -> str:
    return ("def fail_on_unknown_key(key, offset, path, text, hint):\n"
            + "".join(f"    if {n}:\n        raise ValueError(f{r!r})\n"
                      for n, r in enumerate(raises, 1)))


BEFORE = "Unexpected token at offset {offset}: unknown key '{key}' at path {path}{hint}"
AFTER = ("Encountered an unknown key '{key}' at offset {offset} at path: {path}\n"
         "Use ignore_unknown_keys=True to skip keys the model lacks.\nInput: {text}")
ANOTHER = "Key '{key}' repeats at offset {offset}"


def test_the_only_site_a_function_lost_and_gained_keeps_its_lineage_reworded_much(
        two_releases, store):
    repo = two_releases({"pkg/lexer.py": _unknown_key(BEFORE)},
                         {"pkg/lexer.py": _unknown_key(AFTER)})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 1]


def test_a_function_that_lost_one_site_and_gained_two_links_by_similarity_only(
        two_releases, store):
    repo = two_releases({"pkg/lexer.py": _unknown_key(BEFORE)},
                         {"pkg/lexer.py": _unknown_key(AFTER, ANOTHER)})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 0]
