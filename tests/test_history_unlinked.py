"""A wording that history shows removed for good, linked to no current site, no longer hides
where the message lives now: a close current template or a line holding more of it."""

from __future__ import annotations

import errdex

OLD_GUARD = ("def check(user, action):\n"
             "    if not user.can(action):\n"
             "        raise PermissionError(f'not allowed to {action} this record')\n")
# v2: the check moved into a policy class of another file, and reads differently
NEW_POLICY = ("class Policy:\n"
              "    def authorize(self, user, action, kind):\n"
              "        if not user.can(action):\n"
              "            raise PermissionError(f'{kind}: not allowed to {action} records')\n")
OLD_TABLE = ("def refuse(action):\n"
             "    raise PermissionError(f'{action} is not allowed for this account')\n")
# v2: the message is a value of a table; the raise has no wording of its own
NEW_TABLE = ("# refusals, by action\n"
             "MESSAGES = {\n"
             "    'delete': 'delete is not allowed for this account',\n"
             "}\n\n\n"
             "def refuse(action):\n"
             "    raise PermissionError(MESSAGES[action])\n")



def test_a_close_current_template_outranks_a_wording_gone_for_good(two_releases, store):
    repo = two_releases({"pkg/guard.py": OLD_GUARD},
                         {"pkg/policy.py": NEW_POLICY})
    summary = errdex.mine_history(repo.root, db=store)
    assert [r.linked for r in summary.releases] == [0, 0]  # another file, symbol, wording
    matches = errdex.explain("PermissionError: not allowed to delete this record", db=store)
    assert matches[0].record.file_path == "pkg/policy.py" and matches[0].removed is None
    assert matches[0].approximate
    old = next(m for m in matches if m.record.file_path == "pkg/guard.py")  # still listed
    assert old.removed is not None and old.version is not None
    assert old.version.span() == "v1.0.0"


def test_a_line_holding_more_of_the_message_outranks_a_wording_gone_for_good(two_releases,
                                                                           store):
    repo = two_releases({"pkg/deny.py": OLD_TABLE}, {"pkg/deny.py": NEW_TABLE})
    errdex.mine_history(repo.root, db=store)
    paste = "PermissionError: delete is not allowed for this account"
    found = errdex.resolve(paste, db=store)
    assert not found.matches
    assert found.text_sites[0].site.file_path == "pkg/deny.py"
    assert found.text_sites[0].site.line_number == 3  # the table's line, not the old raise
    # explain still lists the old wording, removed, with the release that printed it
    (old, *_) = errdex.explain(paste, db=store)
    assert old.removed is not None and old.version is not None
    assert old.record.error_message == "{action} is not allowed for this account"


def test_a_plain_mine_keeps_its_removed_record_first(make_repo, store):
    """Without history nothing says the site is gone for good: the exact match stays first."""
    repo = make_repo()
    repo.commit_files({"pkg/deny.py": OLD_TABLE})
    errdex.mine(repo.root, db=store)
    repo.commit_files({"pkg/deny.py": NEW_TABLE})
    errdex.mine(repo.root, db=store)
    found = errdex.resolve("PermissionError: delete is not allowed for this account", db=store)
    assert found.matches and found.matches[0].removed is not None


OLD_CHECK = ("def authorize(user, action):\n"
             "    if not user.can(action):\n"
             "        raise PermissionError(f'not allowed to {action} this record')\n")
# v2: the message's words come from a table the raise joins; errdex sees no wording there
NEW_CHECK = ("WORDS = {\n"
             "    'denied': 'not allowed to',\n"
             "}\n\n\n"
             "def authorize(user, action, kind='denied'):\n"
             "    if not user.can(action):\n"
             "        raise PermissionError(' '.join([WORDS[kind], action]))\n")


def test_a_short_literal_holds_a_wording_gone_for_good(two_releases, store):
    """Three words are too few for a line to outrank a current record, but they say where a
    site history shows gone for good is written now, when they are words of its wording."""
    repo = two_releases({"pkg/auth.py": OLD_CHECK}, {"pkg/auth.py": NEW_CHECK})
    errdex.mine_history(repo.root, db=store)
    paste = "PermissionError: not allowed to delete this record"
    (old, *_) = errdex.explain(paste, db=store)
    assert old.removed is not None and old.version is not None  # the v1.0.0 raise
    found = errdex.resolve(paste, db=store)
    assert not found.matches
    assert (found.text_sites[0].site.file_path, found.text_sites[0].site.line_number) == (
        "pkg/auth.py", 2)


def test_a_short_literal_of_other_words_leaves_the_gone_wording_first(two_releases, store):
    """A three-word line that is not words of the gone wording says nothing of it."""
    table = NEW_CHECK.replace("'not allowed to'", "'this record denied'")
    repo = two_releases({"pkg/auth.py": OLD_CHECK}, {"pkg/auth.py": table})
    errdex.mine_history(repo.root, db=store)
    found = errdex.resolve("PermissionError: not allowed to delete this record denied",
                           db=store)
    assert found.matches and found.matches[0].removed is not None


NEW_ELSEWHERE = ("def refuse(user, action):\n"
                 "    raise LookupError(f'not allowed to {action}')\n")


def test_a_current_full_match_ranks_above_a_wording_gone_for_good(two_releases, store):
    """History adds, never displaces: the current record the paste matches ranks as it would
    without --history, the gone wording (its class named in the paste) right after it."""
    repo = two_releases({"pkg/auth.py": OLD_CHECK},
                         {"pkg/deny.py": NEW_ELSEWHERE})
    errdex.mine_history(repo.root, db=store)
    first, second, *_ = errdex.explain("PermissionError: not allowed to delete this record",
                                       db=store)
    assert first.record.file_path == "pkg/deny.py" and first.removed is None
    assert second.removed is not None and second.version is not None
    assert second.score < first.score
