"""What a paste says about where it came from, and records of that place ranked first.

In an index of many repositories the same words occur in many of them: "invalid value"
is written in a Python CLI library and in a large C code base alike. The paste itself says
which it is: its format (a Python traceback, a Java stack, a Rust panic, a Node error), the
languages of the files in its frames, the packages those files sit in
(``site-packages/click/core.py``, ``node_modules/axios/…``, a JVM frame's
``org.apache.zookeeper…``), and the program that printed it (``Usage: prog …``, a log
line's ``prog[123]:``). Records of that language and repository gain a little, enough to
decide between similar candidates, and say why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from errdex.languages import extensions
from errdex.languages._engine.pastes.common import ErrorEvent
from errdex.lookup.classes import specific
from errdex.lookup.parse import main_event
from errdex.lookup.ranking import Match, Scored, short_class
from errdex.lookup.text_sites import TextSiteMatch

__all__ = ["LANGUAGE_BONUS", "REPO_BONUS", "Context", "apply_context", "family_of_path",
           "foreign", "may_name", "named_texts_win", "order_texts", "read_context"]

LANGUAGE_BONUS = 0.2  # below a full match's edge over an approximate one, above specificity
REPO_BONUS = 0.2
_SCAN_CHARS = 20_000
_MOST_FRAMES = 40

# One family per runtime: a traceback of one may name any of its languages' files.
_FAMILIES = {"c": "c", "cpp": "c", "javascript": "javascript", "typescript": "javascript",
             "tsx": "javascript", "java": "jvm", "kotlin": "jvm"}
_FAMILY_NAMES = {"c": "C/C++", "javascript": "JavaScript/TypeScript", "jvm": "JVM",
                 "python": "Python", "go": "Go", "rust": "Rust", "csharp": ".NET",
                 "ruby": "Ruby", "php": "PHP", "swift": "Swift"}
# An event's format (``ErrorEvent.kind``) → the family of its runtime, and how to say it.
_KINDS = {"python": ("python", "Python traceback"), "rust-panic": ("rust", "Rust panic"),
          "go-panic": ("go", "Go panic"), "go": ("go", "Go error"),
          "jvm": ("jvm", "Java stack"), "node": ("javascript", "Node error"),
          "dotnet": ("csharp", ".NET exception"), "ruby": ("ruby", "Ruby error"),
          "php": ("php", "PHP error"), "cpp": ("c", "C++ exception")}
# The families whose code a runtime's error may come from: its own, and native extensions
# (a Python traceback may end in a Rust or C extension's error: pydantic-core, lxml).
_NATIVE = {"python": {"rust", "c"}, "javascript": {"rust", "c"}, "ruby": {"c"}, "php": {"c"},
           "swift": {"c"}, "go": {"c"}}
_EXTENSIONS = {ext: _FAMILIES.get(name, name)
               for name, suffixes in extensions().items() for ext in suffixes}

# Where a frame's file sits in an installed package: the package is the folder after it.
_PACKAGE_DIRS = re.compile(
    r"(?:site-packages|dist-packages|node_modules(?:/@[\w.\-]+)?|gems|vendor/[\w.\-]+)"
    r"/([A-Za-z][\w.\-]{0,80})/"
)
_GO_MODULE = re.compile(r"(?:pkg/mod/|/src/)(?:github\.com|gitlab\.com|golang\.org/x)/"
                        r"(?:[\w.\-]+/)?([\w.\-]+?)(?:@[^/]*)?/")
_CRATE = re.compile(r"\.cargo/registry/src/[^/]+/([A-Za-z][\w\-]*?)-\d[\w.\-]*/")
_VERSIONED = re.compile(r"-\d[\w.]*$")
_USAGE = re.compile(r"(?im)^\s*usage:\s+([A-Za-z][\w.\-]{1,40})\b")
_LOG_PROGRAM = re.compile(r"(?m)^(?:\S+ +){0,4}?([A-Za-z][\w.\-]{1,30})\[\d+\]: ")
_PROGRAM_PREFIX = re.compile(r"(?m)^([a-z][\w.\-]{1,30}): (?:error|fatal|warning)\b")
# A qualified Python class at a line's start (``jinja2.exceptions.UndefinedError``), where a
# traceback's last line or a log names it.
_QUALIFIED = re.compile(r"(?m)^[ \t]*[a-z_][a-z0-9_]{1,40}(?:\.[a-z_][a-z0-9_]{0,40}){0,4}"
                        r"\.[A-Z][A-Za-z0-9]{0,60}(?:Error|Exception)\b")
_JVM_SKIPPED = frozenset({"java", "javax", "jakarta", "sun", "jdk", "kotlin", "kotlinx",
                          "org", "com", "net", "io", "internal", "android", "androidx",
                          "scala", "apache", "lang", "util", "base", "reflect", "main"})


@dataclass(frozen=True)
class Context:
    """Where a paste comes from: its runtimes' families and the names of its places."""

    families: frozenset[str] = frozenset()
    family_reason: str = ""
    names: tuple[str, ...] = ()  # package or program names, normalized, best first
    name_reasons: tuple[str, ...] = ()  # how each was read ("frames name package click")

    def empty(self) -> bool:
        return not self.families and not self.names

    def contradicts(self, file_path: str) -> bool:
        """Whether a record's file is of a language the paste's runtime cannot have raised
        from (a Python file for a Node error; not a Rust extension for a Python one)."""
        if not self.families:
            return False
        family = family_of_path(file_path)
        if family is None or family in self.families:
            return False
        return not any(family in _NATIVE.get(own, ()) for own in self.families)


def read_context(event: ErrorEvent, paste: str | None = None) -> Context:
    """The context of one event: its format, its frames' files, the program it names."""
    frames = event.frames[:_MOST_FRAMES]
    families: set[str] = set()
    reason = ""
    kind = _KINDS.get(event.kind)
    if event.kind == "python" and not frames and "Traceback (most" not in event.text:
        kind = None  # a bare ``Class: message`` line: read as Python's, printed by any runtime
    if kind is not None:
        families.add(kind[0])
        reason = kind[1]
    if not families:
        frame_families = {f for frame in frames if (f := family_of_path(frame.file))}
        if len(frame_families) == 1:
            families = frame_families
            reason = f"frames in {_FAMILY_NAMES.get(next(iter(families)), 'one language')} files"
    names: dict[str, str] = {}
    text = (paste or event.text or "")[:_SCAN_CHARS]
    qualified = [event.error_class] if event.error_class and "." in event.error_class else []
    if "." in text and ("Error" in text or "Exception" in text):  # one printed elsewhere
        qualified += [m.group(0) for m in _QUALIFIED.finditer(text)][:4]
    for name in qualified:
        for module in _class_packages(name, event.kind):
            names.setdefault(module, f"the class is of package {module}")
    for frame in frames:
        for name in _frame_packages(frame.file, frame.function, event.kind):
            names.setdefault(name, f"frames name package {name}")
    for regex, how, marker in ((_USAGE, "usage of", "sage:"), (_LOG_PROGRAM, "printed by", "]: "),
                               (_PROGRAM_PREFIX, "printed by", ": ")):
        if marker not in text:  # a substring test first: most pastes name no program
            continue
        for match in regex.finditer(text):
            program = match.group(1)
            names.setdefault(_normal(program), f"{how} program {program}")
    return Context(frozenset(families), reason, tuple(names), tuple(names.values()))


def may_name(event: ErrorEvent) -> bool:
    """Whether ``read_context(event)`` may read a package or program name (False: it reads
    none). The substring tests it makes before each form, and no more: a scan rechecks
    thousands of log lines that have no frames and name nothing, and this says so for a
    fraction of reading them."""
    if event.frames or (event.error_class and "." in event.error_class):
        return True
    text = (event.text or "")[:_SCAN_CHARS]
    if "." in text and ("Error" in text or "Exception" in text):
        return True
    # ``_USAGE``, ``_LOG_PROGRAM``; ``_PROGRAM_PREFIX`` needs ``: `` then one of its words
    return "sage:" in text or "]: " in text or ": error" in text or ": fatal" in text or (
        ": warning" in text)


def _class_packages(error_class: str | None, kind: str) -> list[str]:
    """The packages a qualified class names: ``jinja2.exceptions.UndefinedError`` →
    ``jinja2``; a JVM ``com.zaxxer.hikari.pool.X`` → ``zaxxer``, ``hikari``, ``pool``."""
    if not error_class or "." not in error_class or kind not in ("python", "jvm", "message"):
        return []
    parts = error_class.split(".")[:-1]
    if kind == "python":
        parts = parts[:1]
    return [_normal(p) for p in parts[:4] if p not in _JVM_SKIPPED and len(p) > 2
            and p not in ("builtins", "exceptions", "errors", "System", "Microsoft")][:3]


def family_of_path(path: str) -> str | None:
    """The language family of a file by its extension (``x.tsx`` → javascript)."""
    suffix = PurePosixPath(path.replace("\\", "/")).suffix.lower()
    return _EXTENSIONS.get(suffix)


def _frame_packages(path: str, function: str | None, kind: str) -> list[str]:
    """The package names a frame's file (or a JVM frame's qualified function) sits in."""
    path = path.replace("\\", "/")
    found = [_normal(_VERSIONED.sub("", m.group(1))) for m in _PACKAGE_DIRS.finditer(path)]
    found += [_normal(m.group(1)) for m in _GO_MODULE.finditer(path)]
    found += [_normal(m.group(1)) for m in _CRATE.finditer(path)]
    if kind == "jvm" and function and "." in function:
        parts = function.split(".")[:-2]  # package parts, without the class and method
        found += [_normal(p) for p in parts[1:4] if p not in _JVM_SKIPPED and len(p) > 2]
    return [name for name in found if len(name) > 1]


def _normal(name: str) -> str:
    """A package, program or repository name compared: lowercase letters and digits."""
    return re.sub(r"[^a-z0-9]", "", name.lower().removesuffix(".js").removesuffix(".py"))


def _repo_names(repo: str) -> tuple[str, ...]:
    """What a repository may be called by a package or program: ``pallets/click`` →
    ``click``; ``openssh/openssh-portable`` → ``opensshportable``, ``openssh``."""
    name = repo.lower().rpartition("/")[2]
    words = [w for w in re.split(r"[-_.]", name) if w]
    names = [_normal(name), *(_normal(w) for w in words if len(w) > 2)]
    return tuple(dict.fromkeys([*names, *(n.rstrip("0123456789") for n in names)]))


def _names_repo(name: str, repo: str) -> bool:
    """Whether a package or program name names a repository (``sshd`` → ``openssh``)."""
    forms = {name, name.rstrip("0123456789")}  # jinja2: pallets/jinja
    if name.endswith("d") and len(name) > 3:
        forms.add(name[:-1])  # a daemon: sshd, httpd
    for repo_name in _repo_names(repo):
        for form in forms:
            if form == repo_name or (len(form) >= 3 and repo_name.endswith(form) and (
                    repo_name.startswith(("open", "lib", "py", "node", "go")))):
                return True
    return False


def foreign(context: Context, scored: dict[str, Scored], error_class: str | None = None
            ) -> bool:
    """Whether every candidate contradicts the paste: of a language its runtime cannot
    raise from, or raising another class than the paste's (specific) one. The search then
    goes on (approximately, by class) among records that could have raised it."""
    if not scored:
        return False
    if all(context.contradicts(s.row.file_path) for s in scored.values()):
        return True
    if not error_class or not specific(error_class):
        return False
    short = short_class(error_class)
    return all(s.row.error_class and short_class(s.row.error_class) != short
               for s in scored.values())


def apply_context(context: Context, scored: dict[str, Scored]) -> None:
    """Raise the candidates of the paste's language family and repository, saying so.

    Nothing changes when every candidate agrees (or none does): only a choice between
    places is decided, never the order within one.
    """
    if context.empty() or not scored:
        return
    by_repo: dict[str, str | None] = {}
    for item in scored.values():
        repo = item.row.repo
        if repo not in by_repo:
            by_repo[repo] = next((why for name, why in zip(
                context.names, context.name_reasons, strict=True) if _names_repo(name, repo)),
                None)
    families = {family_of_path(item.row.file_path) for item in scored.values()}
    language_decides = bool(context.families & families) and len(families) > 1
    repo_decides = len(set(by_repo.values())) > 1
    family = _FAMILY_NAMES.get(next(iter(context.families)), "") if context.families else ""
    for item in scored.values():
        if language_decides and family_of_path(item.row.file_path) in context.families:
            item.score += LANGUAGE_BONUS
            item.reasons.append(f"{context.family_reason}: preferring {family} records")
        elif context.contradicts(item.row.file_path) and not item.approximate:
            # a place at best: a line of the paste holding more of the message may say more
            item.approximate = True
            item.reasons.append(f"{context.family_reason}: not a {family} record")
        why = by_repo.get(item.row.repo)
        if repo_decides and why is not None:
            item.score += REPO_BONUS
            item.reasons.append(why)


def order_texts(text: str, texts: list[TextSiteMatch]) -> list[TextSiteMatch]:
    """Text sites of the repository the paste names first, then those of a language its
    runtime can raise from, each group by how much they say; lines saying as much, those
    in a file the stack's frames name first."""
    if len(texts) < 2:
        return texts
    event = main_event(text)
    context = read_context(event, text)
    places = _framed_places(event)
    if context.empty() and not places:
        return texts
    # among lines saying as much, those in a file the stack's frames name (its name, or a
    # class's: a .NET or JVM frame without a file names ``Ns.Reader.Read``) come first
    return sorted(texts, key=lambda t: (not _named(context, t.repo),
                                        context.contradicts(t.site.file_path), -t.score,
                                        not _in_places(t.site.file_path, places)))


def _framed_places(event: ErrorEvent) -> frozenset[str]:
    """The file names and file stems (class names) the event's first frames name."""
    places: set[str] = set()
    for frame in event.frames[:_MOST_FRAMES // 4]:
        if frame.file:
            places.add(PurePosixPath(frame.file.replace("\\", "/")).name)
        parts = re.split(r"[.+$]", re.sub(r"`\d+|<[^>]*>", "", frame.function or ""))
        if len(parts) >= 2 and parts[-2][:1].isupper():
            places.add(parts[-2])
    return frozenset(places)


def _in_places(file_path: str, places: frozenset[str]) -> bool:
    name = PurePosixPath(file_path).name
    return name in places or name.partition(".")[0] in places


def named_texts_win(text: str, matches: list[Match], texts: list[TextSiteMatch]) -> bool:
    """Whether a line in the repository the paste names, or in a language its runtime
    raises from, beats records matched only approximately elsewhere or in a language it
    cannot raise from (``jinja2.exceptions.UndefinedError`` against a reworded template of
    another library: the literal in jinja says more; a .NET exception against a Go one)."""
    if not texts or not matches or not all(m.approximate for m in matches):
        return False
    context = read_context(main_event(text), text)
    if context.families and all(context.contradicts(m.record.file_path) for m in matches) and (
            family_of_path(texts[0].site.file_path) in context.families):
        return True  # a .NET exception: a line of C# says more than a Go template like it
    if not context.names or not _named(context, texts[0].repo):
        return False
    return not any(_named(context, m.record.repo) for m in matches)


def _named(context: Context, repo: str) -> bool:
    return any(_names_repo(name, repo) for name in context.names)
