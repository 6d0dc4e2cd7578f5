"""C++ uncaught exceptions as the runtime prints them: the message is ``what()``'s text.

libstdc++ (gcc)::

    terminate called after throwing an instance of 'YAML::TypedBadConversion<int>'
      what():  bad conversion
    Aborted (core dumped)

libc++ (clang, macOS) on one line: ``libc++abi: terminating due to uncaught exception of
type std::runtime_error: msg`` (older: ``libc++abi.dylib: terminating with uncaught
exception of type …``). The class loses its template arguments (records name the class
as a throw writes it, ``TypedBadConversion``); a ``what()`` spanning lines runs to a blank
line or to what the shell prints after the abort. Without a ``what()`` (``throw 42``) there
is no message to look up: no event.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import Found, Frame, Lines, one

_TERMINATE = "terminate called after throwing an instance of '"
_WHAT = re.compile(r"\s*what\(\):  ?(?P<msg>.*)")
_LIBCXX = re.compile(r"libc\+\+abi(?:\.dylib)?: terminating (?:due to|with) uncaught exception "
                     r"of type (?P<cls>[^\s:]+(?:::[^\s:]+)*(?:<[^\n]*?>)?): (?P<msg>.*)")
_AFTER_ABORT = re.compile(r"(?:Aborted|Abort trap|\S*: abort|\[\d+\]\s|Process finished|"
                          r"Segmentation fault|.*\(core dumped\))")
_TEMPLATE_ARGS = re.compile(r"<.*>$")
_WITH = re.compile(r"\s*\[with [^\n]*\]$")  # the template arguments gcc names after a function
_TEMPLATE_ARGUMENTS = re.compile(r"<[^<>()]*>")  # innermost first


def terminate(lines: Lines, i: int) -> Found | None:
    """An uncaught exception's ``terminate called …``/``what():`` pair, or libc++'s line."""
    line = lines[i]
    start = line.find(_TERMINATE)
    if start >= 0:
        rest = line[start + len(_TERMINATE):]
        end = rest.rfind("'")
        what = _WHAT.fullmatch(lines[i + 1]) if i + 1 < len(lines) and end > 0 else None
        if what is None:
            return None
        parts = [what.group("msg").rstrip()]
        j = i + 2
        while j < len(lines) and lines[j].strip() and not _AFTER_ABORT.match(lines[j]):
            parts.append(lines[j].rstrip())
            j += 1
        return one(lines.event(i, j, "\n".join(parts), exception_class(rest[:end]), "cpp"), j)
    found = _LIBCXX.search(line)
    if found is None:
        return None
    return one(lines.event(i, i + 1, found.group("msg").rstrip(),
                           exception_class(found.group("cls")), "cpp"), i + 1)


def exception_class(name: str) -> str:
    """``YAML::TypedBadConversion<int>`` → ``YAML::TypedBadConversion``."""
    return _TEMPLATE_ARGS.sub("", name.strip()) or name.strip()


_ASSERTIONS = (  # glibc's, musl's, MSVC's and macOS's wording of a failed ``assert``
    re.compile(r"(?:[^:\n]*: )?(?P<file>[^:\n]+):(?P<line>\d+): (?P<func>[^\n]*?): ?"
               r"(?P<said>Assertion [`'].*' failed\.?)"),
    # Android's bionic: ``file:7: func: assertion "cond" failed``
    re.compile(r"(?:[^:\n]*: )?(?P<file>[^:\n]+):(?P<line>\d+): (?P<func>[^\n]*?): "
               r"assertion \"(?P<condition>.*)\" failed"),
    re.compile(r"Assertion failed: \(.*\), function (?P<func>[^,\n]+), file (?P<file>[^,\n]+), "
               r"line (?P<line>\d+)\.?"),
    re.compile(r"Assertion failed: .* \((?P<file>[^:()\n]+): (?P<func>[^:\n]+): "
               r"(?P<line>\d+)\)"),
    re.compile(r"Assertion failed: .*, file (?P<file>.+), line (?P<line>\d+)"),
)


def assertion(lines: Lines, i: int) -> Found | None:
    """A failed ``assert``'s line (module docstring): the message with its place as a frame
    (glibc's message is what follows the function, which a C++ compiler prints whole,
    template arguments and all: the frame keeps its name; bionic's is read as glibc's)."""
    line = lines[i].strip()
    if "Assertion" not in line and 'assertion "' not in line:
        return None
    at = line.find("Assertion failed: ")
    for wording in _ASSERTIONS:
        found = wording.fullmatch(line if at < 0 or wording is _ASSERTIONS[0] else line[at:])
        if found is not None:
            function = found.groupdict().get("func")
            frame = Frame(found.group("file").strip(), int(found.group("line")),
                          function_name(function) if function else function)
            said = found.groupdict().get("said") or line
            if found.groupdict().get("condition") is not None:  # bionic's, in glibc's words
                said = f"Assertion `{found.group('condition')}' failed."
            return one(lines.event(i, i + 1, said, None, "cpp", (frame,)), i + 1)
    return None


def function_name(pretty: str) -> str:
    """The qualified name a failed assert's function is printed as: gcc and clang print C++
    functions whole (``const Ch* ns::Value<E, A>::GetString() const [with E = …]``), C ones
    by name; a record names the function it is written in, so only ``ns::Value::GetString``
    is kept."""
    name = _WITH.sub("", pretty.strip())
    while (bare := _TEMPLATE_ARGUMENTS.sub("", name)) != name:
        name = bare
    words = name.split("(", 1)[0].split()
    return words[-1].lstrip("*&") if words else pretty


# A multi-line runtime format: before pytest's, the JVM's and the single-line readers.
PASTES = Pastes((PasteReader(45, terminate), PasteReader(46, assertion)),
                markers=(_TERMINATE, "terminating due to uncaught exception",
                         "terminating with uncaught exception", "Assertion", 'assertion "'))
