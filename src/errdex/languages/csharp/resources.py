"""C# resource strings: what ``Resources.NotFound`` holds when the text lives in a ``.resx``.

Visual Studio's resource generator writes, for each string of a ``.resx`` file, a
property of a ``Resources`` class (``Resources.Designer.cs``) whose getter only looks the
text up (``ResourceManager.GetString("NotFound", resourceCulture)``); the text itself is
in the property's doc comment, the one place C# source spells it::

    /// <summary>
    ///   Looks up a localized string similar to Non-overridable members (here: {0})
    ///may not be used..
    /// </summary>
    internal static string NotFound { get { return ResourceManager.GetString(…); } }

The generator adds one ``.`` after the value, writes each further line of it on a ``///``
line of its own and escapes XML. Each such property is a producer of the class: a
constant, its ``{0}`` placeholders parameters ``_0``,
``_1``… (``string.Format(culture, Resources.NotFound, name)`` passes them, ``calls.py``).
A value the generator cut short (``[rest of string was truncated]``) is left out.

The ``.resx`` file itself is read too (``resx_producers``): a generator that writes no doc
comments (or one that runs at build time, leaving no ``Designer.cs`` in the repository)
leaves the text there alone. Each ``<data name="NotFound"><value>…</value></data>`` of a
neutral ``Resources.resx`` is the constant ``Resources.NotFound``: the generated class is
named after the file. A culture's copy (``Resources.de.resx``) is a translation of it, and
a ``<data>`` with a ``type`` (an icon, a file) holds no text.
"""

from __future__ import annotations

import re
from html import unescape

from tree_sitter import Node

from errdex.languages.base import line_of, text
from errdex.languages.csharp.strings import composite_format
from errdex.languages.facts import Producer
from errdex.templates.template import Template

_SIMILAR = "Looks up a localized string similar to "
_TRUNCATED = "[rest of string was truncated]"
_PLACEHOLDER = re.compile(r"(?<!\{)\{(\d+)[^{}]*\}")
_NOT_IDENTIFIER = re.compile(r"\W")
_DATA = re.compile(
    rb"<data\s+name=\"([^\"]+)\"([^>]*)>\s*<value>([^<]*)</value>", re.DOTALL)


def resource_string(member: Node, owner: str, path: str) -> Producer | None:
    """The text a generated resource property returns, as a producer (module docstring)."""
    if member.type != "property_declaration" or b"GetString(" not in (member.text or b""):
        return None
    if text(member.child_by_field_name("type")) not in ("string", "String"):
        return None
    value = _documented(member)
    if value is None:
        return None
    return _constant(text(member.child_by_field_name("name")), value, owner, path,
                     line_of(member))


def resx_producers(source: bytes, path: str) -> list[Producer]:
    """The strings of a neutral ``.resx`` file, as its generated class's constants (module
    docstring)."""
    name = path.rsplit("/", 1)[-1]
    if name.count(".") != 1:
        return []
    owner = name.split(".", 1)[0]
    out: list[Producer] = []
    for match in _DATA.finditer(source):
        if b"type=" in match.group(2):  # ``type=``, ``mimetype=``: no string
            continue
        value = unescape(match.group(3).decode("utf-8", "replace"))
        if value.strip():
            line = source.count(b"\n", 0, match.start()) + 1
            out.append(_constant(_property(match.group(1).decode()), value, owner, path, line))
    return out


def _property(name: str) -> str:
    """The property the generator names a ``<data>`` after: what no identifier holds made
    ``_`` (``Shell.NotSet`` is ``Shell_NotSet``)."""
    made = _NOT_IDENTIFIER.sub("_", name)
    return "_" + made if made[:1].isdigit() else made


def _constant(name: str, value: str, owner: str, path: str, line: int) -> Producer:
    """A resource string: its ``{0}`` placeholders are parameters ``_0``, ``_1``…"""
    count = 1 + max((int(m.group(1)) for m in _PLACEHOLDER.finditer(value)), default=-1)
    params = tuple(f"_{i}" for i in range(count))
    template = Template(value, composite_format(value, list(params)))
    return Producer(name, params, (template,), "constant", path, line, owner)


def _documented(member: Node) -> str | None:
    """The value the doc comment above ``member`` says the resource holds."""
    comments: list[str] = []
    node = member.prev_named_sibling
    while node is not None and node.type == "comment":
        comments.insert(0, text(node))
        node = node.prev_named_sibling
    lines = [c.removeprefix("///") for c in comments if c.startswith("///")]
    start = next((i for i, line in enumerate(lines) if _SIMILAR in line), None)
    if start is None:
        return None
    body = [lines[start].split(_SIMILAR, 1)[1]]
    for line in lines[start + 1:]:
        if line.strip() == "</summary>":
            break
        body.append(line)
    value = unescape("\n".join(body))
    if _TRUNCATED in value or not value.endswith("."):
        return None
    return value[:-1] or None
