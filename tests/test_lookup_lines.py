"""Explain: records found from a paste's lines, multi-line templates and bare classes."""

from __future__ import annotations

from errdex.lookup.ranking import class_signal


def test_a_nested_classs_binary_name_matches_its_simple_name():
    reasons: list[str] = []
    assert class_signal("com.acme.Store$MissingKey", "MissingKey", reasons) > 0
    assert class_signal("com.acme.Store$MissingKey", "Other", []) < 0
