"""Site evidence from a file's syntax tree: enclosing symbol, signature, parameters, guards.

The walk is the same for every language; what differs (which nodes are functions,
how a condition is negated) is the language's ``EvidenceRules`` (``rules.py``):
locate the statement at the site's line, climb to the enclosing function, and
record every ``if`` / ``else`` / match arm / switch case on the way as a
``Guard`` (the condition under which the site fires, and its negation — the
condition a caller must meet). A language's own constructs may carry their own guard
(Rust's ``assert!``-like macros and ``.expect``-like methods).
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.evidence.docs import doc_notes
from errdex.evidence.rules import rules_for
from errdex.languages._engine.evidence import EvidenceRules, squash
from errdex.languages.base import Site, ancestors, parse, text
from errdex.records.evidence import DocNote, Evidence, Guard

_STOP = frozenset({"class_definition", "class_declaration", "impl_item", "module", "program",
                   "source_file", "translation_unit", "compilation_unit"})
_SKIP_PARAMS = frozenset({"self", "cls", "this", "&self", "&mut self", "mut self", "$this"})
_PARAM_LISTS = frozenset({
    "parameters", "formal_parameters", "parameter_list", "function_value_parameters",
    "method_parameters", "lambda_parameters",
})
_SWAP = {"==": "!=", "!=": "==", "===": "!==", "!==": "===", "<": ">=", ">=": "<", ">": "<=",
         "<=": ">", "in": "not in", "not in": "in", "is": "is not", "is not": "is"}
_CASES = frozenset({"match_arm", "case_clause", "switch_case", "switch_default", "expression_case",
                    "default_case", "case_statement", "switch_block_statement_group",
                    "type_case"})
MAX_GUARDS = 3


def file_evidence(language: str, grammar: str, data: bytes, sites: list[Site]) -> list[Evidence]:
    """Evidence for each of ``sites`` (same order), from one parse of the file."""
    if not sites:
        return []
    root = parse(grammar, data).root_node
    lines = data.split(b"\n")
    return [site_evidence(root, lines, language, site) for site in sites]


def site_node(root: Node, line: int, lines: list[bytes]) -> tuple[Node, Node] | None:
    """The leaf at the first non-blank column of ``line`` (1-based), and the outermost
    node starting there (the statement)."""
    if line - 1 >= len(lines):
        return None
    raw = lines[line - 1]
    column = len(raw) - len(raw.lstrip())
    node = root.descendant_for_point_range((line - 1, column), (line - 1, column + 1))
    if node is None:
        return None
    leaf = node
    while node.parent is not None and node.parent.start_point == node.start_point and (
        node.parent.type not in _STOP and node.parent.parent is not None
    ):
        node = node.parent
    return leaf, node


def enclosing_function(node: Node, language: str) -> Node | None:
    kinds = rules_for(language).functions
    return next((a for a in ancestors(node) if a.type in kinds), None)


def site_evidence(root: Node, lines: list[bytes], language: str, site: Site) -> Evidence:
    """What the syntax tree says about one site (``lines``: the file's bytes split on ``\\n``)."""
    evidence = Evidence(symbol=site.symbol)
    located = site_node(root, site.line, lines)
    if located is None:
        return evidence
    leaf, node = located
    function = node if node.type in rules_for(language).functions else enclosing_function(
        node, language
    )
    if function is not None:
        evidence.signature = signature(function)
        evidence.declarations, evidence.parameters = parameters(function)
    evidence.guards = guards(leaf, node, function, language, site.line)[:MAX_GUARDS]
    evidence.docs = relevant_notes(doc_notes(function, node, language), site)
    return evidence


def relevant_notes(notes: list[DocNote], site: Site) -> list[DocNote]:
    """The summary, and the notes about this site's class or kind (not other exceptions)."""
    wanted = (site.error_class or "").rpartition(".")[2].rpartition("::")[2]
    kept: list[DocNote] = []
    for note in notes:
        if note.kind == "panics" and site.error_type != "panic":
            continue
        if note.kind == "errors" and site.error_type == "panic":
            continue
        named = (note.error_class or "").rpartition(".")[2].rpartition("::")[2]
        if note.kind in ("raises", "throws") and named and wanted and named != wanted:
            continue
        kept.append(note)
    return kept


def signature(function: Node) -> str:
    """The function's text up to its body: ``def open(self, path: str) -> Store``."""
    body = function.child_by_field_name("body")
    raw = function.text or b""
    if body is not None:
        raw = raw[: body.start_byte - function.start_byte]
    return squash(raw.decode("utf-8", "replace").rstrip(" {:=\n"))


def parameters(function: Node) -> tuple[list[str], list[str]]:
    """Each parameter as written, and its name (self/this left out)."""
    plist = function.child_by_field_name("parameters")
    if plist is None:
        declarator = function.child_by_field_name("declarator")  # C/C++
        plist = declarator.child_by_field_name("parameters") if declarator else None
    if plist is None:
        plist = next((c for c in function.named_children if c.type in _PARAM_LISTS), None)
    if plist is None:
        return [], []
    declarations, names = [], []
    for child in plist.named_children:
        if "comment" in child.type or child.type in ("self_parameter",):
            continue
        name = _param_name(child)
        if not name or name in _SKIP_PARAMS:
            continue
        declarations.append(squash(text(child), 120))
        names.append(name)
    return declarations, names


def _param_name(node: Node) -> str | None:
    if node.type in ("identifier", "simple_identifier", "variable_name"):
        return text(node)
    for field in ("name", "pattern", "left", "declarator"):
        child = node.child_by_field_name(field)
        if child is not None:
            return _param_name(child) if child.type not in ("identifier",) else text(child)
    stack = list(node.named_children)
    while stack:
        child = stack.pop(0)
        if child.type in ("identifier", "simple_identifier", "variable_name"):
            return text(child).lstrip("$") if child.type != "variable_name" else text(child)
        stack.extend(child.named_children)
    return None


# --- guards -----------------------------------------------------------------------------


def guards(
    leaf: Node, node: Node, function: Node | None, language: str, line: int
) -> list[Guard]:
    """The conditions under which the site fires, innermost first."""
    found: list[Guard] = []
    rules = rules_for(language)
    if rules.own_guards is not None:
        found.extend(rules.own_guards(node, leaf, line))
    child = leaf
    for parent in ancestors(leaf):
        if parent == function or parent.type in _STOP:
            break
        found.extend(_branch_guards(parent, child, rules))
        guard = _case_guard(parent, child, rules)
        if guard is not None:
            found.append(guard)
        child = parent
    return found


def _within(node: Node, outer: Node | None) -> bool:
    return outer is not None and outer.start_byte <= node.start_byte and (
        node.end_byte <= outer.end_byte
    )


def _branch_guards(parent: Node, child: Node, rules: EvidenceRules) -> list[Guard]:
    """``if c { site }`` → fires when c; ``else { site }`` → fires when not c (and not any
    ``elif`` condition before it)."""
    condition = parent.child_by_field_name("condition")
    if condition is None or not ("if" in parent.type or parent.type.startswith("unless")):
        return []
    if _within(child, condition):
        return []
    cond = _unwrap(condition)
    negative = parent.type.startswith("unless")
    alternatives = parent.children_by_field_name("alternative")
    holder = next((a for a in alternatives if _within(child, a)), None)
    line = parent.start_point[0] + 1
    if (holder is not None) == negative:
        return [Guard(kind="if", condition=squash(text(cond)), negated=negate(cond, rules),
                      line=line)]
    found = [Guard(kind="else", condition=negate(cond, rules), negated=squash(text(cond)),
                   line=line)]
    for earlier in alternatives:
        if earlier == holder:
            break
        elif_cond = earlier.child_by_field_name("condition")
        if earlier.type == "elif_clause" and elif_cond is not None:
            found.append(Guard(kind="else", condition=negate(elif_cond, rules),
                               negated=squash(text(elif_cond)),
                               line=earlier.start_point[0] + 1))
    return found


def _unwrap(node: Node) -> Node:
    while node.type in ("parenthesized_expression", "condition_clause") and node.named_children:
        inner = node.child_by_field_name("value") or node.named_children[0]
        if node.type == "parenthesized_expression" and node.named_child_count != 1:
            break
        node = inner
    return node


def negate(node: Node, rules: EvidenceRules) -> str:
    """The condition's negation in the same language, simplified where it is one comparison."""
    node = _unwrap(node)
    if node.type in ("not_operator",) and node.child_by_field_name("argument") is not None:
        return squash(text(node.child_by_field_name("argument")))
    if node.type in ("unary_expression", "prefix_expression") and text(node).startswith("!"):
        operand = node.child_by_field_name("argument") or node.named_children[-1]
        return squash(text(_unwrap(operand)))
    operators = [c for c in node.children if not c.is_named]
    ops = [" ".join(text(o) for o in operators)] if operators else []
    comparison = node.type in ("comparison_operator", "binary_expression", "equality_expression",
                               "comparison_expression", "binary")
    if comparison and len(ops) == 1 and ops[0] in _SWAP and node.named_child_count == 2:
        left, right = node.named_children
        return squash(f"{text(left)} {_SWAP[ops[0]]} {text(right)}")
    return squash(rules.negation.format(text(node)))


def _case_guard(parent: Node, child: Node, rules: EvidenceRules) -> Guard | None:
    """A match arm / switch case holding the site; a catch-all lists the handled cases."""
    if parent.type not in _CASES:
        return None
    pattern = _case_pattern(parent)
    switch = next((a for a in ancestors(parent) if a.type not in (
        "match_block", "block", "switch_body", "switch_block", "compound_statement",
    )), None)
    subject_node = None
    if switch is not None:
        subject_node = switch.child_by_field_name("value") or switch.child_by_field_name(
            "subject") or switch.child_by_field_name("condition")
    subject = squash(text(_unwrap(subject_node)), 120) if subject_node is not None else "value"
    siblings = [s for s in (parent.parent.named_children if parent.parent else [])
                if s.type in _CASES and s != parent]
    handled = [squash(text(p), 80) for s in siblings if (p := _case_pattern(s)) is not None]
    line = parent.start_point[0] + 1
    written = squash(text(pattern), 80) if pattern is not None else None
    binding = rules.bindings and written is not None and (
        written.isidentifier() and written[:1].islower()
    )
    if written is None or written == "_" or binding:
        inside, outside = _membership(subject, handled, rules)
        return Guard(kind="catch-all", condition=outside, negated=inside, line=line,
                     subject=subject, handled=handled)
    inside, outside = _membership(subject, [written], rules)
    return Guard(kind="match-arm", condition=inside, negated=outside, line=line, subject=subject,
                 handled=[written])


def _case_pattern(case: Node) -> Node | None:
    for field in ("pattern", "value"):
        found = case.child_by_field_name(field)
        if found is not None:
            return found
    if case.type == "case_clause":
        return next((c for c in case.named_children if c.type == "case_pattern"), None)
    if case.type == "switch_block_statement_group":
        label = next((c for c in case.named_children if c.type == "switch_label"), None)
        return label.named_children[0] if label is not None and label.named_children else None
    return None


def _membership(subject: str, patterns: list[str], rules: EvidenceRules) -> tuple[str, str]:
    """(subject is one of patterns, subject is none of them) as code in the language."""
    if not patterns:
        return "true", "false"
    if rules.membership is not None:
        return rules.membership(subject, patterns)
    equal, unequal = rules.equality
    flat = [q.strip() for p in patterns for q in p.split(",")]
    return (" || ".join(f"{subject} {equal} {p}" for p in flat),
            " && ".join(f"{subject} {unequal} {p}" for p in flat))
