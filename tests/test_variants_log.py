"""Variants of a statement by the values in its holes: enum words that come back split,
numbers, ids, paths, hex and many distinct names vary, and the word count of a hole
counts."""

from __future__ import annotations

from errdex.lookup.variants_log import ENUM_WORDS, WILDCARD, Variants, shape_of_values, value_words


def _variants(values: list[dict[str, str]]) -> tuple[Variants, list[tuple[tuple[str, ...], ...]]]:
    variants = Variants()
    shapes = [variants.add(shape_of_values(v), line, f"line {line}")
              for line, v in enumerate(values, 1)]
    return variants, [tuple(w for _, w in variants.variant_of(s)) for s in shapes]


def test_numbers_ids_paths_and_addresses_vary_from_the_start():
    assert value_words("0x1f at /10.0.0.1:22 in /var/log/x user7 ab@c.d deadbeef00 --") == (
        WILDCARD, "at", WILDCARD, "in", WILDCARD, WILDCARD, WILDCARD, WILDCARD, WILDCARD)


def test_an_enum_that_comes_back_splits_and_a_word_seen_once_varies():
    _, keys = _variants([{"verb": w} for w in ["Accepted", "Failed", "Failed", "Accepted",
                                               "Postponed"]])
    assert keys[0] == keys[3] == (("Accepted",),)
    assert keys[1] == keys[2] == (("Failed",),)
    assert keys[4] == ((WILDCARD,),)


def test_many_distinct_names_vary_however_often_one_comes_back():
    users = [f"name{chr(97 + i)}" for i in range(ENUM_WORDS + 1)]
    _, keys = _variants([{"user": u} for u in users + ["root"] * 5])
    assert len(set(keys)) == 1


def test_a_slot_that_also_held_a_number_varies_whole():
    _, keys = _variants([{"epoch": v} for v in ["b", "b", "1", "a", "a"]])
    assert len(set(keys)) == 1


def test_the_word_count_of_a_hole_makes_a_variant():
    values = ["invalid user alice", "invalid user bob", "root", "admin", "invalid user carol"]
    variants, keys = _variants([{"user": v} for v in values])
    assert keys[0] == keys[1] == keys[4] == (("invalid", "user", WILDCARD),)
    assert keys[2] == keys[3] == ((WILDCARD,),)
    assert [(v.count, v.label) for v in variants.ordered()] == [
        (3, "user=invalid user <*>"), (2, "user=<*>")]


def test_every_entry_counted_once_and_lines_kept():
    variants, _ = _variants([{"s": w} for w in ["UP", "DOWN", "UP", "UP", "DOWN"]])
    rows = [(v.values, v.count, v.first_line, v.last_line, v.example)
            for v in variants.ordered()]
    assert rows == [({"s": "UP"}, 3, 1, 4, "line 1"), ({"s": "DOWN"}, 2, 2, 5, "line 2")]


def test_past_the_cap_known_words_still_split_and_new_ones_vary(monkeypatch):
    import errdex.lookup.variants_log as variants_log

    monkeypatch.setattr(variants_log, "_MAX_SHAPES", 4)
    values = [("UP", "a"), ("DOWN", "b"), ("UP", "c"), ("DOWN", "d"),  # the cap: 4 shapes
              ("UP", "e"), ("DOWN", "f"), ("SIDEWAYS", "g"), ("UP", "h")]
    variants, keys = _variants([{"state": s, "who": w} for s, w in values])
    assert len(variants.seen) <= 2 * 4
    assert keys[0] == keys[2] == keys[4] == keys[7] == (("UP",), (WILDCARD,))
    assert keys[1] == keys[3] == keys[5] == (("DOWN",), (WILDCARD,))
    assert keys[6] == ((WILDCARD,), (WILDCARD,))
    assert sum(v.count for v in variants.ordered()) == len(values)


def test_a_hole_named_by_no_name_is_labelled_by_its_place():
    variants, _ = _variants([{'"Notification': "Notification: 3", "n.state": "UP"}] * 2)
    assert variants.ordered()[0].label == "#1=Notification: <*>, n.state=UP"


def test_a_variant_is_written_as_the_message_with_its_words_in_the_holes():
    variants = Variants(r"(.+?) password for (.+?) from (.+?) port (.+?)")
    for verb, who in [("Failed", "invalid user x1"), ("Failed", "invalid user y2"),
                      ("Accepted", "root"), ("Accepted", "root")]:
        variants.add(shape_of_values({"verb": verb, "who": who, "host": "10.0.0.1",
                                      "port": "22"}), 1, "")
    assert [(v.text, v.to_json()["template"]) for v in variants.ordered()] == [
        ("Failed password for invalid user <*> from <*> port <*>",) * 2,
        ("Accepted password for root from <*> port <*>",) * 2]
    unread = Variants(r"(.+?) password for (.+?)")
    unread.add(shape_of_values({"verb": "Failed"}), 1, "")  # a hole left unread
    assert unread.ordered()[0].text is None and "template" not in unread.ordered()[0].to_json()
