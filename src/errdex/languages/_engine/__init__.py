"""The language engine: one extract loop, one per-file index, one message type.

How a language plugs in (a folder ``languages/<lang>/`` with ``__init__.py``, a spec
module and its ``.scm`` query):

1. Write the query. Each pattern names its outer node with a capture (``@raise``,
   ``@call``) and the parts a handler needs with dotted captures (``@raise.class``).
   Message variables are captured as ``@assign`` (or ``@assign.add`` for ``+=``) with
   ``@assign.name``: the engine indexes those itself, by name, in source order.
2. Write one handler per outer capture: ``handler(caps, file) -> Site | list[Site] |
   None``, where ``file`` is the ``FileIndex`` (``files.py``) of the file, or your
   subclass of it when the file tells more (imports: fill ``file.imports`` from the
   spec's ``index`` hook, which sees every match that is no assignment).
3. Declare the spec (``spec.py``)::

       SPEC = LanguageSpec(
           name="python", grammar="python", extensions=(".py",),
           query=Path(__file__).with_name("python.scm"),
           handlers=(("raise", raise_site), ("call", call_site)),
           new_index=FileIndex, index=index_import,
       )

   and export ``SPEC`` (or ``SPECS``, one per grammar) from the folder's
   ``__init__.py``: the registry (``languages/__init__.py``) builds the ``Language``.
   Add the language's row to the registry's ``KNOWN`` (name, folder, extensions, the
   module of its paste readers) so that a process imports the folder only when it meets
   the language (a folder not listed is found and imported at once; a test checks the
   rows). Keep the folder's ``__init__`` importing its spec lazily, as the others do:
   its ``pastes.py`` is then read without the grammar and mining code.

The loop (``extract.py``): parse (cached per file) → run the query → index the file →
each handler, in the spec's order, over every match holding its capture, skipping a
match whose outer node ``spec.skip`` rejects (default: inside a parse error) →
``spec.finish`` → sort by the outer node's position → ``FileSites``.

Messages (``message.py``): ``Message`` is the one message type; ``joined`` concatenates,
``constant`` is one known string. ``reader.py`` reads expressions into messages from
tables (string node types and their decoder, the ``+`` node, parentheses, variables),
with hooks for what a language does differently; ``strings.py`` holds the shared
string decoders (C-like escapes); ``pieces.py`` and ``calls.py`` the concatenation,
placeholder and argument readers several languages share.

What the later stages read of a language is on its spec too, so that a language is one
folder: ``evidence`` (``evidence.py``: function node types, docstring and doc-section
readers, guards a construct carries, how a condition is negated, the test readers),
``snippets`` (``snippets.py``: how validationCode, typeGuard and tryCatchPattern are
written, the standard library names a snippet may use), ``constants``
(``constants.py``: messages printed from string constants of other files) and
``pastes`` (``pastes/``: the recognizers that read what the language's runtime prints,
a traceback or a panic, each with its rank among every language's).
"""

from typing import TYPE_CHECKING

from errdex.lazy import lazy_names

if TYPE_CHECKING:
    from errdex.languages._engine.extract import index_file, language
    from errdex.languages._engine.files import Captures, FileIndex
    from errdex.languages._engine.message import Message, constant, joined, operand_hole
    from errdex.languages._engine.spec import Handler, LanguageSpec, Sites

__all__ = [
    "Captures", "FileIndex", "Handler", "LanguageSpec", "Message", "Sites", "constant",
    "index_file", "joined", "language", "operand_hole",
]

# The engine's names on first use, so that ``pastes/`` (what a log scan reads with) imports
# without the engine, tree-sitter and the mining code. (The loop itself is
# ``extract.extract``: here ``extract`` is its module, as for any submodule.)
__getattr__ = lazy_names(__name__, {
    ".extract": ("index_file", "language"),
    ".files": ("Captures", "FileIndex"),
    ".message": ("Message", "constant", "joined", "operand_hole"),
    ".spec": ("Handler", "LanguageSpec", "Sites"),
})
