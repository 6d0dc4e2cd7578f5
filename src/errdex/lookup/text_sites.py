"""The fallback when no record matches: the lines whose literal text the message contains.

A paste whose message errdex never mined (built in a way the miner does not model)
still lands where its words are written, as a plain search would find it. Such a
match names only a place: no record, no explanation, and says so in its reason.

Bounded for any paste: the message's first ``MAX_LEADS`` distinct three-word windows
are probed in the store's ``text_sites`` index (``PER_LEAD`` rows each at most), and
only those rows are checked for containment.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rapidfuzz import fuzz

from errdex.lookup.classes import CLASS_ONLY
from errdex.lookup.parse import main_event
from errdex.lookup.ranking import Match
from errdex.records.text_sites import TextSite, contained, spaced, windows, words
from errdex.store.protocol import Store
from errdex.templates.analysis import shape_of
from errdex.templates.matching import verify

REASON = "the text appears here; errdex did not see how it is raised"
MAX_LEADS = 128  # windows of the message probed; a longer message's tail is not probed
_MAX_WORDS = 4_000  # words of the message read at all
# Below every record match: approximate ones start at 0.6 similarity.
_TOP_SCORE = 0.5
# A text the message holds only part of: this many of its word windows at least (all of
# them when it has fewer), scored below any text it holds whole.
_PART_WINDOWS = 2
_PART_SCORE = 0.3
PART_REASON = ("part of the text appears here (the paste is cut short or reworded); errdex "
               "did not see how it is raised")


@dataclass(frozen=True)
class TextSiteMatch:
    """A line whose literal text the pasted message contains; not a record."""

    score: float
    reason: str
    repo: str
    site: TextSite

    def to_json(self) -> dict[str, object]:
        """The explain JSON shape of a match without a record: ``candidate`` instead."""
        return {
            "score": round(self.score, 4), "reason": self.reason, "bound": {},
            "candidate": {
                "repo": self.repo, "filePath": self.site.file_path,
                "lineNumber": self.site.line_number, "text": self.site.text,
                "githubUrl": self.site.github_url,
            },
        }


def find_text_sites(
    store: Store, text: str, *, top: int = 5, repo: str | None = None
) -> list[TextSiteMatch]:
    """The lines whose literals the main error's message (else the whole paste) contains,
    those saying the most of it first."""
    message = main_event(text).message or text
    found = words(message[: _MAX_WORDS * 16])[:_MAX_WORDS]
    leads = windows(found)[:MAX_LEADS]
    haystack = spaced(found)
    probed = set(leads)
    whole: dict[tuple[str, str, int], dict[str, TextSite]] = {}  # a line's texts held whole
    parts: dict[tuple[str, str, int], TextSiteMatch] = {}
    for site_repo, site in store.text_sites(leads, repo):
        site_words = words(site.text)
        where = (site_repo, site.file_path, site.line_number)
        if contained(site_words, haystack):
            whole.setdefault(where, {}).setdefault(site.text, site)
            continue
        # part of it: as many of its word windows as grep would need
        own = windows(site_words)
        shared = sum(1 for w in own if w in probed)
        if shared < min(_PART_WINDOWS, len(own)):
            if shared and _nearly(site.text, message):  # a letter off: a typo fixed since
                whole.setdefault(where, {}).setdefault(site.text, site)
            continue
        # more windows shared first (as grep ranks lines), then more of the text
        score = _PART_SCORE * min(shared, 8) / 8 * (0.5 + 0.5 * shared / len(own))
        if where not in parts or parts[where].score < score:
            parts[where] = TextSiteMatch(round(score, 4), PART_REASON, site_repo, site)
    matches = {**parts, **{where: _held(where, texts, haystack, len(found))
                           for where, texts in whole.items()}}
    ordered = sorted(matches.values(), key=lambda m: (
        -m.score, m.repo, m.site.file_path, m.site.line_number))
    return ordered[:top]


# A text at least this long that the message holds but for a letter or two (a typo fixed
# since: ``Maximium destructuring depth reached.``) counts as held whole; the message's
# first this many characters are compared.
_NEARLY_CHARS = 24
_NEARLY = 90
_NEARLY_MESSAGE = 1_000


def _nearly(site_text: str, message: str) -> bool:
    """Whether ``message`` holds ``site_text`` but for a letter or two."""
    site_text = site_text.strip()
    if len(site_text) < _NEARLY_CHARS:
        return False
    return fuzz.partial_ratio(site_text.lower(), message[:_NEARLY_MESSAGE].lower(),
                              score_cutoff=_NEARLY) >= _NEARLY


def _held(where: tuple[str, str, int], texts: dict[str, TextSite], haystack: str,
          message_words: int) -> TextSiteMatch:
    """A line whose texts the message holds whole, scored above any part by how much of the
    message they say together: the line that writes ``A "Scope" at "`` and ``" received …``
    beats the one writing only the second (a line's texts are the pieces of its message
    between its holes, so more of them held is more of the message traced there)."""
    shown = sorted(texts.values(), key=lambda site: haystack.find(spaced(words(site.text))))
    held = sum(len(words(site.text)) for site in shown)
    share = min(held / max(message_words, 1), 1.0)
    first = min(shown, key=lambda site: site.line_number)
    site = first if len(shown) == 1 else replace(
        first, text=_JOIN.join(site.text.strip() for site in shown))
    return TextSiteMatch(round(_PART_SCORE + (_TOP_SCORE - _PART_SCORE) * share, 4), REASON,
                         where[0], site)


_JOIN = " … "


# A record match this thin (its template's literal text under this share of the message,
# or approximate) gives way to a text site holding more of the message (``outranks``).
_THIN = 0.4
_MIN_TEXT_WORDS = 4


def thin(matches: list[Match], text: str) -> bool:
    """Whether every record match is approximate or matched with little literal text of its
    own (``Could not read %s`` against "Could not read from remote repository"): a line
    holding more of the message may then be the better answer (``outranks``)."""
    message = main_event(text).message or text
    return all(m.approximate or len(_literal(m)) < _THIN * len(message) for m in matches) or (
        bool(matches) and _phrase_in_hole(matches[0]))


# A hole value of this many words is a phrase: maybe a literal written elsewhere (a
# constant the template decorates), which a line of source may say whole (``hole_filled``).
_PHRASE_WORDS = 3
_FILLS = 0.75  # the line says this share of the hole's words at least


def _phrases(match: Match) -> list[list[str]]:
    """The words of each hole value that reads as a phrase: three words or more, not a path
    or a URL (``See {}`` holding ``https://…/Troubleshooting.md#x``: a link, not a message)."""
    return [found for value in match.bound.values() if "/" not in value and "\\" not in value
            and len(found := words(value)) >= _PHRASE_WORDS]


def _phrase_in_hole(match: Match) -> bool:
    return bool(_phrases(match))


def hole_filled(texts: list[TextSiteMatch], matches: list[Match]) -> list[TextSiteMatch]:
    """``texts`` with the lines that say, whole, what the best record's hole holds first;
    empty when none does. A generic template (``yaml: error at line {}, column {}: {}``)
    decorating a message written as a constant elsewhere (``"unknown escape character: "``):
    the line writing the message is the answer grep gives, and the more specific one."""
    if not texts or not matches or matches[0].approximate:
        return []
    held = _phrases(matches[0])

    def fills(text: TextSiteMatch) -> bool:
        site = words(text.site.text)
        return text.reason == REASON and len(site) >= _PHRASE_WORDS and any(
            spaced(site) in spaced(value) and len(site) >= _FILLS * len(value)
            for value in held)

    filling = [text for text in texts if fills(text)]
    return [*filling, *(text for text in texts if text not in filling)] if filling else []


def outranks(texts: list[TextSiteMatch], matches: list[Match], text: str = "") -> bool:
    """Whether the best text site, a literal of at least ``_MIN_TEXT_WORDS`` words the paste
    holds whole, says more of the message than each (thin) record match. Grep would land
    on that literal; so does errdex. A match found by similar text says only the words of
    its literal that the paste (``text``) holds, or fewer runs of three of them than the
    line (the paste quoting a template's frame, ``parse error at line``, not its words)."""
    if not texts or texts[0].reason != REASON:
        return False
    site = words(texts[0].site.text)
    if _line_said_elsewhere(site, matches, text):
        return False
    pasted_words = words(text)
    pasted, pasted_windows = set(pasted_words), set(windows(pasted_words))

    def said(match: Match) -> tuple[int, int]:
        """The words of a match's literal it says, and (found by similar text) its runs
        of three words the paste holds; a full match says all of them."""
        literal = words(_literal(match))
        if not match.reason.startswith("approximate:") or not pasted:
            return len(literal), len(windows(literal))
        # similar text, not a frame: the words of it the paste holds, and (as grep ranks
        # lines) the runs of three of them, fewer than the line's, which the paste holds all
        return (sum(1 for word in literal if word in pasted),
                sum(1 for window in windows(literal) if window in pasted_windows))

    told = [said(m) for m in matches]
    # a line of three words is enough against text matches saying two at most (``{} is not
    # {}.``); not against a class matched alone, which says where, if not what
    least = _PHRASE_WORDS if all(held < _PHRASE_WORDS for held, _ in told) and not any(
        CLASS_ONLY in m.reason for m in matches) else _MIN_TEXT_WORDS
    runs = len(windows(site))
    return len(site) >= least and all(
        held < len(site) or (approximate and shared < runs)
        for (held, shared), approximate in zip(
            told, (m.reason.startswith("approximate:") for m in matches), strict=True))


# A record saying this many words of a line it matches whole (``{} is required`` against
# ``--file is required``) holds that line against a hint printed under it (``Run with --help
# for more information.``): it says most of the line itself.
_LINE_WORDS = 2
# A paste's lines read for ``_line_said_elsewhere``: its first this many, this long at most.
_LINES = 64
_LINE_CHARS = 2_000


def _line_said_elsewhere(site: list[str], matches: list[Match], text: str) -> bool:
    """Whether a record matches one line of the message whole, saying most of that line's
    words itself, and the site's text is not in that line: the site holds other words of
    the paste (a hint printed below the error), not more of the error line
    (``Your requirements could not be resolved …`` over the ``Potential causes: …`` list
    printed under it)."""
    message = main_event(text).message or text
    lines = [line for line in (raw.strip() for raw in message.split("\n", _LINES)[:_LINES])
             if line and len(line) <= _LINE_CHARS]
    said = spaced(site)
    for match in matches:
        if match.approximate or CLASS_ONLY in match.reason:
            continue
        literal = len(words(_literal(match)))
        if literal < _LINE_WORDS:
            continue
        for line in lines:
            line_words = words(line)
            if 2 * literal >= len(line_words) and said not in spaced(line_words) and verify(
                    match.record.message_pattern, line) is not None:
                return True
    return False


def _literal(match: Match) -> str:
    if CLASS_ONLY in match.reason:  # found by its class alone: says none of the message
        return ""
    return " ".join(f for f in shape_of(match.record.message_pattern).fragments if f)


__all__ = ["MAX_LEADS", "PART_REASON", "REASON", "TextSiteMatch", "find_text_sites", "hole_filled",
           "outranks", "thin"]
