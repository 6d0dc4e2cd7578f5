"""Composition applied to a mine: records rewritten with what their calls print.

Once every file is read (``errdex.mining.extract``), each record whose site calls a
producer gets the templates ``errdex.mining.producers`` composes, one record per
alternative on the site's line; a candidate that reaches none is dropped; the constants
and message methods a message prints are spelled out. An incremental mine reads the
producers its calls reach in files it did not read, and re-reads the files that call a
producer its changed files define.
"""

from __future__ import annotations

import re
from dataclasses import replace

from errdex.languages import SPECS
from errdex.languages.base import Language
from errdex.languages.facts import Call, Producer, constant_names, has_text
from errdex.mining.files import MinedRecord, hole_names, producers_of
from errdex.mining.nearest import typed_choice
from errdex.mining.producers import (
    MAX_DEPTH,
    Composed,
    Producers,
    Source,
    class_name,
    printed_argument,
)
from errdex.records.model import TemplateSource, content_hash, record_id
from errdex.repo.git import Tree, grep_paths, read_blobs
from errdex.templates.template import lost_last_character

# A helper many callers pass their messages to (``ParamType.fail``): its raise prints
# each of them (more than one site's own alternatives).
MAX_CALLERS = 64


def worth_keeping(composed: Composed) -> bool:
    """A composed template that says something (not a lone hole passed through)."""
    return has_text(composed.template)


def compose_records(mined: list[MinedRecord], producers: Producers) -> list[MinedRecord]:
    """Give every record whose site calls a producer the templates composition finds (one
    record per alternative, on the site's line), drop candidates that reach none, spell out
    the repository's string constants a message prints; the records changed."""
    out: list[MinedRecord] = []
    changed: list[MinedRecord] = []
    passed_in: list[MinedRecord] = []  # candidates inside a helper: what its callers pass
    from_calls: list[MinedRecord] = []  # records of what a site's call prints
    for m in mined:
        kept: list[Composed] = []
        called = m.call is not None
        owner = m.call.owner if m.call is not None else _owner_of(m.extras.enclosing_symbol)
        if m.call is not None:
            composed: list[Composed] = []
            reaching: list[tuple[Call, list[Composed]]] = []  # what each choice reached
            for call, written in producers.variants(m.call):  # each choice of its calls
                reached = producers.compose(call)
                reaching.append((call, reached or []))
                if reached is None and m.candidate:  # a class from elsewhere: its first argument
                    reached = _first_argument(call)
                composed.extend(replace(c, sources=(*written, *c.sources)) for c in reached or [])
            kept = [_lost_tail(c) for found in composed
                    for c in producers.spelled(found, owner, m.record.file_path)
                    if worth_keeping(c)] or _derived(reaching, producers)
            m.call = None
        pending, m.pending = m.pending, None
        if not kept:
            if m.candidate:
                passed_in.append(m)
                continue
            if pending is not None and not _has_hook(m):
                plain = Composed(pending[1], (), None)
                spelled = producers.spelled(plain, owner, m.record.file_path)
                if spelled != [plain]:
                    kept = [_lost_tail(c) for c in spelled if worth_keeping(c)]
        if not kept:
            out.append(m)
            continue
        made = _as_records(m, kept)
        changed += made
        if called:
            from_calls += made
    echoes = _echoes([*out, *from_calls], from_calls, producers)
    changed = [m for m in changed if id(m) not in echoes]
    for m in passed_in:
        changed += _as_records(m, _from_callers(m, producers))
    marked = any(p.error_code or p.http_status for found in producers.by_name.values()
                 for p in found)
    for m in (*out, *changed) if marked else ():  # the code and status its class sets
        record = m.record
        if record.error_class and (record.error_code is None or record.http_status is None):
            code, status = producers.marks(record.error_class, record.file_path)
            record.error_code = record.error_code or code
            record.http_status = record.http_status or status
    mined[:] = [*out, *changed]  # ``finish_records`` orders them
    return changed


def _echoes(own: list[MinedRecord], callers: list[MinedRecord], producers: Producers
            ) -> set[int]:
    """The records (by ``id``) of calls to a helper that throws itself
    (``throw duplicate(name)`` where ``duplicate`` does ``throw new X("dup: " + a)``) whose
    template and class are those of the helper's own raise: the raise already says it, and
    a copy at each caller would split a lookup's tie."""
    raised: dict[tuple[str, int], set[tuple[str, str | None]]] = {}
    for m in own:
        helper = producers.helper_at(m.record.file_path, m.extras.enclosing_symbol)
        if helper is not None:
            raised.setdefault((helper.path, helper.line), set()).add(_identity(m))
    if not raised:
        return set()
    return {id(m) for m in callers if any(
        _identity(m) in raised.get((s.file_path, s.line_number), ())
        for s in m.extras.template_sources or () if s.role == "helper")}


def _identity(m: MinedRecord) -> tuple[str, str | None]:
    return m.record.message_pattern or "", m.record.error_class


def _as_records(m: MinedRecord, alternatives: list[Composed]) -> list[MinedRecord]:
    """``m`` with the first alternative's template, and a copy for each other one."""
    records = []
    for i, alternative in enumerate(alternatives):
        target = m if i == 0 else _copy(m, i)
        _retemplate(target, alternative)
        records.append(target)
    return records


def _from_callers(m: MinedRecord, producers: Producers) -> list[Composed]:
    """What a raise inside a helper prints when it only passes a parameter on
    (``def fail(msg): raise ConfigError(msg)``): each message the helper's callers make
    it print (at most ``MAX_CALLERS``; a cut is counted)."""
    helper = producers.helper_at(m.record.file_path, m.extras.enclosing_symbol)
    if helper is None:
        return []
    seen: dict[str, Composed] = {}
    for composed in producers.reached.get(helper, ()):
        if worth_keeping(composed):
            seen.setdefault(composed.template.normalized(), composed)
    kept = list(seen.values())
    if len(kept) > MAX_CALLERS:
        producers.capped += 1
        kept = kept[:MAX_CALLERS]
    source = Source(helper.path, helper.line, "callers")
    return [replace(c, sources=(source,), error_class=m.record.error_class or c.error_class)
            for c in kept]


def _lost_tail(composed: Composed) -> Composed:
    """A message ending in one character once its constants are spelled out
    (``std::string(Msg::BAD_ESCAPE) + c``): as when the text is written at the site."""
    template = lost_last_character(composed.template)
    return composed if template is composed.template else replace(composed, template=template)


def _derived(reaching: list[tuple[Call, list[Composed]]], producers: Producers
             ) -> list[Composed]:
    """``new QueryFailedError(query, parameters, err)`` of a class whose whole message is a
    property of an argument (``super(driverError.toString().replace(…))``: the driver's
    words), which source does not spell. The raise is still that class's: one record of the
    class alone, its pattern a lone hole (found by the class a paste names and the frames,
    never by text). Not a call of a helper that raises it (``this.query("BEGIN")``)."""
    for call, reached in reaching:
        given = {h.name for arg in call.args for t in arg for h in t.holes}
        found = [c for c in reached[:1] if c.error_class and len(c.template.parts) == 1 and len(
            holes := c.template.holes) == 1 and holes[0].name not in given
            and "." in (holes[0].name or "").split("(", 1)[0]]  # a property of an argument
        if found and (producer := producers.find(call)) is not None and producer.is_class and (
                not producer.result_types or typed_choice(producer, call) is not None):
            return found  # not of overloads the call's types do not tell apart: any of them
    return []


def _first_argument(call: Call) -> list[Composed] | None:
    """What a class of another package prints, as the language's own errors do: its first
    argument (each alternative of it, e.g. the branches of a ternary)."""
    name = call.named()
    if not call.args or (not call.makes_error and (call.method or not name[:1].isupper())):
        return None
    return [Composed(t, (), class_name(name)) for t in printed_argument(call)]


def _copy(m: MinedRecord, index: int) -> MinedRecord:
    record = m.record.model_copy(deep=True)
    record.id = record_id(record.repo, record.file_path, None, m.record.id, None, index)
    return MinedRecord(record, m.extras.model_copy(deep=True), m.content_hash, level=m.level)


def _owner_of(symbol: str | None) -> str | None:
    """``Store.open`` → ``Store``; ``Flex::conv3d`` → ``Flex``; a function → None."""
    if not symbol:
        return None
    head = symbol.replace("::", ".").rpartition(".")[0]
    return head.rpartition(".")[2] or None


def _has_hook(m: MinedRecord) -> bool:
    """Whether the record's language resolves constants its own way (Rust's ``const``)."""
    spec = SPECS.get(m.extras.language or "")
    return spec is not None and spec.constants is not None


def _retemplate(m: MinedRecord, composed: Composed) -> None:
    template = composed.template
    m.candidate = False
    m.record.error_message = template.written
    m.record.message_pattern = template.pattern()
    m.record.error_class = m.record.error_class or composed.error_class
    m.record.error_code = m.record.error_code or composed.error_code
    m.record.http_status = m.record.http_status or composed.http_status
    m.record.slug = template.slug(fallback=m.record.error_class or m.extras.enclosing_symbol
                                  or "error")
    m.extras.hole_names = hole_names(template)
    m.extras.template_sources = [
        TemplateSource(file_path=s.path, line_number=s.line, role=s.role)
        for s in dict.fromkeys(composed.sources)  # each place once
    ]
    m.content_hash = content_hash(template.written, m.record.source_code)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def callers_of(tree: Tree[Language], defined: list[Producer], changed: set[str]) -> set[str]:
    """The unread files that name a producer the changed files define: their sites'
    composed messages may have changed with it (an incremental mine reads them too)."""
    names = {p.name for p in defined if p.path in changed}
    return {path for path in _files_naming(tree, names) if path not in changed}


def producers_elsewhere(tree: Tree[Language], producers: Producers, mined: list[MinedRecord],
                        read: set[str]) -> list[Producer]:
    """The producers an incremental mine's calls reach in files it did not read, found
    with ``git grep`` at the analyzed commit and read for their producers alone."""
    wanted: set[str] = set()
    for m in mined:
        if m.call is not None:
            wanted.add(m.call.named())
            if m.call.owner:
                wanted.add(m.call.owner)
            wanted.update(n for arg in m.call.args for t in arg for n in constant_names(t))
            wanted.update(inner.named() for _, inner in m.call.nested)
        if m.pending is not None and not _has_hook(m):  # the constants a message prints
            wanted.update(m.pending[0])
    names = wanted - producers.names() - {"super"}
    found: list[Producer] = []
    tracked = {f.path for f in tree.files}
    for _ in range(MAX_DEPTH):  # producers name their bases and inner calls in turn
        paths = {p for p in _files_naming(tree, names) if p not in read and p in tracked}
        if not paths:
            break
        read = read | paths
        fresh: list[Producer] = []
        for source, data in read_blobs(tree.root, [f for f in tree.files if f.path in paths]):
            fresh.extend(producers_of(source.path, source.language.name, data))
        found.extend(fresh)
        names = {name for p in fresh for name in _names_called(p)} - producers.names() - {
            p.name for p in found}
    return found


def _names_called(producer: Producer) -> set[str]:
    names = set(producer.bases)
    names.update(r.named() for r in producer.results if isinstance(r, Call))
    return names


def _files_naming(tree: Tree[Language], names: set[str]) -> set[str]:
    """Source files of the tree whose text holds one of ``names`` as a whole word."""
    words = sorted(n for n in names if _NAME.fullmatch(n))
    if not words:
        return set()
    extensions = {e for f in tree.files for e in f.language.extensions}
    pathspecs = [f"*{e}" for e in sorted(extensions)]
    found: set[str] = set()
    for start in range(0, len(words), 200):  # keep each command line short
        chunk = "|".join(words[start:start + 200])
        found.update(grep_paths(tree.root, tree.sha, rf"\b({chunk})\b", pathspecs))
    return found
