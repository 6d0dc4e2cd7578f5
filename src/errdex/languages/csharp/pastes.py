""".NET stack traces: ``Unhandled exception. X: msg``, ``at … in file:line N``, ``--->`` inners;
and the forms test runners and IDEs give them (``dotnet_message``, ``runner_header``,
Visual Studio's copied details).

``Outer: a ---> Inner: b`` prints the inner exception's frames first, then
``--- End of inner exception stack trace ---`` and the outer's. Each exception
is one event, outer first, so the innermost (the root cause) comes last, as
Java's deepest ``Caused by:`` does.
"""

from __future__ import annotations

import re

from errdex.languages._engine.pastes import PasteReader, Pastes
from errdex.languages._engine.pastes.common import (
    DOTNET_NAMESPACES,
    DOTTED_NAME,
    ErrorEvent,
    Found,
    Frame,
    Lines,
    looks_like_class,
    one,
    split_class,
)
from errdex.languages._engine.pastes.stacks import first_frame_style, frame_style

_UNHANDLED = re.compile(r"Unhandled [Ee]xception[.:] +")
_INNER = " ---> "
_END_OF_INNER = "--- End of inner exception stack trace ---"
_FRAME = re.compile(
    r"\s+at (?P<func>[^(\n]+)\([^)\n]*\)(?: in (?P<file>\S.*):line (?P<line>\d+))?\s*"
)
# an exception whose HResult is not its class's default prints it after the class
# (``Npgsql.NpgsqlException (0x80004005): msg``, ``SqlException (0x80131904): msg``)
_HRESULT = re.compile(r"(?<=[\w`]) \(0x[0-9A-Fa-f]{8}\)(?=: )")
# the compiler's names of a local function and of an async method's state machine
_LOCAL = re.compile(r"<(?P<outer>\w+)>g__(?P<inner>\w+)\|\d+_\d+")
_STATE_MACHINE = re.compile(r"<(?P<method>\w+)>d__\d+\.MoveNext$")
# ArgumentException's Message adds the parameter (.NET Core; .NET Framework on a line of its
# own, ``\r\n`` included); the throw site's text has not got it
_PARAMETER = re.compile(r" \(Parameter '[^'\n]*'\)$|\r?\nParameter name: [\w.]*$")
_FRAMEWORK_PARAMETER = re.compile(r"\r?\nParameter name: ([\w.]*)(?=\r?\n|$)")
# Visual Studio's exception helper quotes the message: ``System.X: 'msg'``; a localized
# one with its language's quotes (``System.X:“msg”``, ``System.X: « msg »``)
_QUOTES = {"'": "'", "“": "”", "«": "»", "„": "“", "「": "」"}
_QUOTED = re.compile(r"(?P<open>['“«„「])(?P<message>.*)(?P<close>['”»“」])", re.DOTALL)
# NUnit and xUnit print ``System.ArgumentException : msg`` (a space before the colon)
_RUNNER = re.compile(r"(?P<indent>[ \t]*)(?P<class>[A-Za-z_][\w.`]*) : ?(?P<rest>.*)")
# The ASP.NET developer page's frames: ``Ns.Type.Method() in File.cs`` (no line number)
_PAGE_FRAME = re.compile(r"\s*(?P<func>[\w.+<>`$]+)\([^)\n]*\) in (?P<file>[\w.\-]+\.cs)\s*")
_MESSAGE_LINES = 40  # a runner's message lines before its frames, at most
# Visual Studio's watch and locals windows: a property's name, its value as a C# string
# (``\r\n`` and quotes escaped), maybe its type
# (a stack's value may be cut short by the paste: no closing quote)
_WATCH = re.compile(
    r"\s*(?P<name>Message|StackTrace)\s+\"(?P<value>(?:[^\"\\\n]|\\.)*)(?P<end>\"\s*\w*)?\s*")
# Visual Studio's "Copy Details": the class alone on its line, then indented properties
# (``  HResult=…``, ``  Message=…`` whose text may run over lines, ``  Source=…``,
# ``  StackTrace:`` over ``at`` frames)
_DETAIL = re.compile(r"[ \t]+(?P<key>HResult|Message|Source|StackTrace|TargetSite|"
                     r"InnerException|ParamName|ObjectName|Data)[=:](?P<value>.*)")
_DETAIL_ROWS = 4  # properties before Message, at most
_ESCAPES = {"r": "\r", "n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "0": "\0"}
_ESCAPE = re.compile(r"\\(.)")
_WATCH_ROWS = 12  # rows between Message and StackTrace looked at, at most


def _any_dotnet_name(name: str) -> bool:
    return DOTTED_NAME.fullmatch(name) is not None


def dotnet_trace(lines: Lines, i: int) -> Found | None:
    """A .NET exception with its inner exceptions and frames: one event per exception."""
    line = _HRESULT.sub("", lines[i], count=1)
    unhandled = _UNHANDLED.match(line) if line.startswith("Unhandled") else None
    if unhandled:
        header = line[unhandled.end() :]
    else:
        k = i + 1  # the inner exceptions' headers come before the first frame
        while k < len(lines) and lines[k].startswith(_INNER):
            k += 1
        style = first_frame_style(lines, k)
        if style != "dotnet" and not (style is None and line.startswith(DOTNET_NAMESPACES)):
            return None
        if split_class(line, looks_like_class) is None:
            return None
        header = line
    j = i + 1
    while j < len(lines) and lines[j].startswith(_INNER):
        header += _HRESULT.sub("", lines[j], count=1)
        j += 1
    more = _message_lines(lines, j, unhandled is not None)  # ``Object name: 'X'.``
    if more:
        header += "\n" + "\n".join(lines[j:j + more])
        j += more
    chain = [split_class(part, _any_dotnet_name) or (None, part) for part in header.split(_INNER)]
    groups: list[tuple[list[Frame], int]] = [([], j)]  # frames, and the line after them
    while j < len(lines):
        stripped = lines[j].strip()
        frame = _FRAME.fullmatch(lines[j])
        if frame:
            read = _frame(frame)
            if read is not None:
                groups[-1][0].append(read)
        elif stripped == _END_OF_INNER:
            groups.append(([], j + 1))
        elif not stripped.startswith("--- End of stack trace from previous location"):
            break
        j += 1
        groups[-1] = (groups[-1][0], j)
    events: list[ErrorEvent] = []
    for depth, (error_class, message) in enumerate(chain):
        group = len(chain) - 1 - depth  # the innermost exception's frames are printed first
        frames, stop = groups[group] if group < len(groups) else ([], j)
        stop = j if depth == 0 else stop
        if group >= len(groups) and depth < len(chain) - 1:
            frames = _caught_in(groups)
        events.append(lines.event(i, stop, dotnet_message(message), error_class, "dotnet",
                                  frames, printed=dotnet_printed(message)))
    if len(chain) == 1:  # an AggregateException printed without its inner exceptions
        events += [lines.event(i, j, dotnet_message(inner), None, "dotnet",
                               printed=dotnet_printed(inner))
                   for inner in aggregated(chain[0][1])]
    return tuple(events), j


def _caught_in(groups: list[tuple[list[Frame], int]]) -> list[Frame]:
    """The methods of a wrapping exception whose own frames the paste cut off (no ``End of
    inner exception stack trace`` line came): its inner's, outermost first, as an inner
    stack runs up to the method that caught it and threw the wrap; their lines are the
    inner's, so only the methods are kept."""
    return [Frame("", None, f.function) for f in groups[-1][0][::-1] if f.function]


_AGGREGATE = "One or more errors occurred."
_MOST_AGGREGATED = 8


def aggregated(message: str) -> list[str]:
    """The inner messages an ``AggregateException`` quotes after its own (``One or more
    errors occurred. (inner one) (inner two)``), each in balanced parentheses; none when
    the message is not one."""
    message = message.strip()
    if not message.startswith(_AGGREGATE + " ("):
        return []
    inners: list[str] = []
    depth, start = 0, 0
    for k in range(len(_AGGREGATE) + 1, len(message)):
        char = message[k]
        if char == "(":
            depth += 1
            start = k + 1 if depth == 1 else start
        elif char == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                inners.append(message[start:k])
                if len(inners) == _MOST_AGGREGATED:
                    break
        elif depth == 0 and not char.isspace():
            break  # text outside the quoted messages: not .NET's form
    return [inner for inner in inners if inner.strip()]


def _message_lines(lines: Lines, j: int, unhandled: bool) -> int:
    """How many lines after an exception's header go on its message (the lines .NET
    appends: ``Object name: 'X'.``, ``Actual value was 5.``, .NET Framework's ``Parameter
    name: x``; a message of several lines): those before its first frame, when one follows
    within ``_MESSAGE_LINES`` lines; after ``Unhandled exception.``, those up to a blank
    line or the end too."""
    k = j
    while k < len(lines) and k - j < _MESSAGE_LINES and lines[k].strip():
        if _FRAME.fullmatch(lines[k]):
            return k - j
        if lines[k].startswith(_INNER) or lines[k].strip() == _END_OF_INNER:
            return 0
        k += 1
    return k - j if unhandled and (k == len(lines) or not lines[k].strip()) else 0


def _frame(match: re.Match[str]) -> Frame | None:
    """A frame read by ``_FRAME``; one printed without its file (a release build) keeps
    the method it names, which tells a file's sites apart (``frames.apply_frames``), unless
    the compiler made the method (``Program.<Main>b__0``: no source has it). A local
    function's and an async method's compiled names are the methods the source writes."""
    function = written_method(match.group("func").strip())
    if match.group("file"):
        return Frame(match.group("file"), int(match.group("line")), function)
    return None if "<" in function else Frame("", None, function)


def written_method(function: str) -> str:
    """A frame's method as the source writes it: ``Ns.Type.<Outer>g__Inner|4_0`` (a local
    function) as ``Ns.Type.Outer.Inner``, ``Ns.Type.<Run>d__12.MoveNext`` (an async
    method's state machine) as ``Ns.Type.Run``; other names as they are."""
    function = _LOCAL.sub(lambda m: f"{m.group('outer')}.{m.group('inner')}", function)
    return _STATE_MACHINE.sub(lambda m: m.group("method"), function)


def dotnet_printed(message: str) -> str:
    """The message as .NET Core prints it: .NET Framework's ``\r\nParameter name: x`` as
    `` (Parameter 'x')``, Visual Studio's quotes off; a record holding what the runtime
    appends (``ArgumentException``'s parameter, ``ObjectDisposedException``'s object name)
    matches it whole."""
    message = _FRAMEWORK_PARAMETER.sub(r" (Parameter '\1')", message.strip(), count=1)
    return _unquoted(message).replace("\r\n", "\n").rstrip()


def dotnet_message(message: str) -> str:
    """The message as the throw site wrote it: without the parameter ArgumentException
    appends, and without the quotes Visual Studio's exception helper puts around it."""
    return _PARAMETER.sub("", _unquoted(message.strip())).rstrip()


def _unquoted(message: str) -> str:
    """``message`` without the quotes Visual Studio's exception helper puts around it."""
    quoted = _QUOTED.fullmatch(message)
    if quoted and " " in quoted.group("message") and (
            _QUOTES[quoted.group("open")] == quoted.group("close")):
        return quoted.group("message").strip()
    return message


def runner_header(lines: Lines, i: int) -> Found | None:
    """An exception as a test runner prints it (``System.ArgumentException : msg``, the
    message's lines indented under it, a blank line, then ``at`` frames), or as the ASP.NET
    developer page does (``Class: msg`` over ``Ns.Type.Method() in File.cs`` lines)."""
    line = lines[i]
    runner = _RUNNER.fullmatch(line) if " : " in line or line.rstrip().endswith(" :") else None
    page = runner is None and i + 1 < len(lines) and _PAGE_FRAME.fullmatch(lines[i + 1])
    if runner is not None:
        error_class, first = runner.group("class"), runner.group("rest")
    elif page:
        split = split_class(line, looks_like_class)
        if split is None:
            return None
        error_class, first = split
    else:
        return None
    if not looks_like_class(error_class) and not error_class.startswith(DOTNET_NAMESPACES):
        return None
    parts = [first] if first.strip() else []
    j = i + 1
    while runner is not None and j < len(lines) and j - i <= _MESSAGE_LINES:
        if frame_style(lines[j]) is not None or lines[j].strip().startswith("Stack Trace:"):
            break
        parts.append(lines[j].rstrip())
        j += 1
    frames: list[Frame] = []
    while j < len(lines):
        at = _FRAME.fullmatch(lines[j])
        on_page = None if at else _PAGE_FRAME.fullmatch(lines[j])
        if at is None and on_page is None and lines[j].strip():
            if not lines[j].strip().startswith(("Stack Trace:", "--- End of")):
                break
        elif at is not None:
            read = _frame(at)
            if read is not None:
                frames.append(read)
        elif on_page is not None:
            frames.append(Frame(on_page.group("file"), None, on_page.group("func")))
        j += 1
    message = dotnet_message("\n".join(parts))
    if not message:
        return None
    return one(lines.event(i, j, message, error_class, "dotnet", frames), j)


def watch_window(lines: Lines, i: int) -> Found | None:
    """Visual Studio's ``Message "…"`` row (escaped), with the ``StackTrace "…"`` row after
    it read for frames."""
    row = _WATCH.fullmatch(lines[i])
    if row is None or row.group("name") != "Message" or row.group("end") is None:
        return None
    message = dotnet_message(_unescape(row.group("value")).replace("\r\n", "\n"))
    if not message:
        return None
    frames: tuple[Frame, ...] = ()
    j = i + 1
    stop = j
    while j < len(lines) and j - i <= _WATCH_ROWS:
        trace = _WATCH.fullmatch(lines[j])
        if trace is not None and trace.group("name") == "StackTrace":
            stack = _unescape(trace.group("value")).replace("\r\n", "\n")
            found = dotnet_trace(Lines("System.Exception: x\n" + stack.strip("\n")), 0)
            frames = found[0][0].frames if found is not None else ()
            stop = j + 1
            break
        j += 1
    return one(lines.event(i, stop, message, None, "dotnet", frames), stop)


def helper_quoted(lines: Lines, i: int) -> Found | None:
    """Visual Studio's exception helper: ``System.X: 'msg'``, the message quoted over one
    line or several (a .NET class: a namespace of its own, or ``…Exception``); a localized
    Visual Studio's quotes too (``System.X:“msg”``)."""
    line = lines[i]
    opener = next((q for q in _QUOTES if f": {q}" in line or (q != "'" and f":{q}" in line)),
                  None)
    split = split_class(line.replace(f":{opener}", f": {opener}", 1), _any_dotnet_name) if (
        opener is not None) else None
    if split is None or opener is None:
        return None
    error_class, first = split
    closer = _QUOTES[opener]
    if not first.startswith(opener) or not (
            error_class.startswith(DOTNET_NAMESPACES) or error_class.endswith("Exception")):
        return None
    j = i + 1
    while not lines[j - 1].rstrip().endswith(closer) and j < len(lines) and (
            j - i <= _MESSAGE_LINES):
        j += 1
    if not lines[j - 1].rstrip().endswith(closer):
        return None
    message = dotnet_message("\n".join([first, *lines[i + 1 : j]]))
    stop = j
    frames: list[Frame] = []
    while stop < len(lines) and (frame := _FRAME.fullmatch(lines[stop])) is not None:
        read = _frame(frame)
        if read is not None:
            frames.append(read)
        stop += 1
    return one(lines.event(i, stop, message, error_class, "dotnet", frames),
               stop) if message else None


def copied_details(lines: Lines, i: int) -> Found | None:
    """Visual Studio's "Copy Details" of an exception: the class on a line of its own,
    then ``Message=`` among its indented properties, and the frames under ``StackTrace:``."""
    name = lines[i].strip()
    if name != lines[i].rstrip() or not _any_dotnet_name(name) or not (
            name.endswith("Exception") or name.startswith(DOTNET_NAMESPACES)):
        return None
    j = i + 1
    row = _DETAIL.fullmatch(lines[j]) if j < len(lines) else None
    while row is not None and row.group("key") != "Message" and j - i < _DETAIL_ROWS:
        j += 1
        row = _DETAIL.fullmatch(lines[j]) if j < len(lines) else None
    if row is None or row.group("key") != "Message":
        return None
    parts = [row.group("value")]
    k = j + 1
    while k < len(lines) and k - j <= _MESSAGE_LINES and lines[k].strip() and (
            _DETAIL.fullmatch(lines[k]) is None and _FRAME.fullmatch(lines[k]) is None):
        parts.append(lines[k].rstrip())
        k += 1
    frames: list[Frame] = []
    while k < len(lines):
        frame = _FRAME.fullmatch(lines[k])
        if frame is None and _DETAIL.fullmatch(lines[k]) is None:
            break
        read = _frame(frame) if frame is not None else None
        if read is not None:
            frames.append(read)
        k += 1
    message = dotnet_message("\n".join(parts))
    return one(lines.event(i, k, message, name, "dotnet", frames), k) if message else None


def _unescape(value: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), value)


PASTES = Pastes((PasteReader(88, copied_details), PasteReader(89, helper_quoted),
                 PasteReader(90, dotnet_trace), PasteReader(95, runner_header),
                 PasteReader(96, watch_window)),
                markers=("Exception : ", 'Message "', 'Message  "', 'Message\t"'))
