"""scan's own templates for entries no statement explains (lookup/drain.py): values masked
inside words, a prefix tree by word count and first words, messages of one template
grouped and messages of different templates kept apart, on a small log written here."""

from __future__ import annotations

from errdex.lookup.drain import _LEAF_SIZE, WILDCARD, Drain, masked_words

LOG = [
    ("conn", "Accepted connection from 10.0.0.7 port 50122"),
    ("sess", "session opened for user alice by (uid=0)"),
    ("conn", "Accepted connection from 10.0.0.9 port 50140"),
    ("sess", "session opened for user bob by (uid=1001)"),
    ("disk", "disk /dev/sda1 is 91% full"),
    ("wake", "Starting worker initialization."),
    ("done", "Ending worker initialization."),
    ("conn", "Accepted connection from 192.168.1.20 port 22"),
    ("disk", "disk /dev/nvme0n1p2 is 97% full"),
    ("sess", "session opened for user carol by (uid=0)"),
    ("cron", "job nightly-backup finished at Fri Jun 17 07:07:00 2005"),
    ("cron", "job nightly-backup finished at Sat Jul 2 23:59:01 2005"),
    ("hex", "lock 0x7f3a2c held by thread 4b1e9a72 for 3200 ms"),
    ("hex", "lock 0x7f3a30 held by thread 9c0d1e55 for 12 ms"),
]


def _partition(keys: list[object]) -> set[frozenset[int]]:
    groups: dict[object, set[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, set()).add(i)
    return {frozenset(g) for g in groups.values()}


def test_values_are_masked_inside_words():
    assert masked_words("uid=0 rhost=10.1.2.3:22 at Fri Jun 17 07:07:00 2005 /var/log/x "
                        "0x1f 550e8400-e29b-41d4-a716-446655440000 https://h/a?b=1 id") == [
        "uid=<*>", "rhost=<*>", "at", *[WILDCARD] * 9, "id"]


def test_a_small_log_groups_by_template():
    drain = Drain()
    clusters = [drain.add(message) for _, message in LOG]
    assert _partition([c.id for c in clusters]) == _partition([k for k, _ in LOG])
    by_kind = {kind: cluster.template for (kind, _), cluster in zip(LOG, clusters,
                                                                     strict=True)}
    assert by_kind["sess"] == "session opened for user <*> by (uid=<*>)"
    assert by_kind["conn"] == "Accepted connection from <*> port <*>"
    assert by_kind["cron"] == "job nightly-backup finished at <*> <*> <*> <*> <*>"
    assert by_kind["hex"] == "lock <*> held by thread <*> for <*> ms"
    assert sum(c.size for c in {c.id: c for c in clusters}.values()) == len(LOG)


def test_one_word_apart_in_a_short_message_is_another_template():
    drain = Drain()
    first = drain.add("Cache warmed in region east")
    assert drain.add("Cache warmed in region west").id == first.id  # 4 of 5 agree
    assert drain.add("Cache dropped by operator request").id != first.id


def test_a_leaf_holds_a_bounded_number_of_templates():
    drain = Drain()
    for i in range(_LEAF_SIZE * 3):
        word = "".join(chr(97 + int(d)) for d in str(i))
        drain.add(f"alpha beta {word} gamma{word} delta{word} eps{word}")
    leaves = [drain.root]
    while any(node.children for node in leaves):
        leaves = [child for node in leaves for child in node.children.values()] + [
            node for node in leaves if not node.children]
    assert max(len(leaf.clusters) for leaf in leaves) <= _LEAF_SIZE
