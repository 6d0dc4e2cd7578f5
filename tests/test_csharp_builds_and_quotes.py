"""C# messages written per build and pasted from a localized Visual Studio.

A message holding an ``#if … #else … #endif`` (one sentence for .NET Framework, another
for .NET Core) is a site per build: each build's whole text, not a hole where the
sentence goes (a hole lets a lone literal of one branch outrank the throw). Visual Studio's
exception helper quotes the message in the user's language (``System.X:“msg”``,
``System.X: « msg »``): the quotes are not part of the message."""

from __future__ import annotations

import re

from errdex.languages.csharp.spec import extract as extract_cs
from errdex.lookup.parse import parse_events

STORAGE = """\
namespace Jobs
{
    public class Storage
    {
        public static Storage Current
        {
            get
            {
                throw new InvalidOperationException(
                    "Storage has not been initialized yet. " +
#if NET45
                    "Call UseSqlStorage first."
#elif NETSTANDARD
                    "Call AddStorage on the builder."
#else
                    "Call AddStorage on the service collection."
#endif
                    );
            }
        }
    }
}
"""


def test_a_message_with_an_if_else_is_a_site_per_build() -> None:
    sites = extract_cs(STORAGE.encode()).sites
    patterns = sorted(s.template.pattern() for s in sites)
    assert len(patterns) == 3
    assert {s.line for s in sites} == {9}
    for build in ("Call UseSqlStorage first.", "Call AddStorage on the builder.",
                  "Call AddStorage on the service collection."):
        printed = f"Storage has not been initialized yet. {build}"
        assert sum(bool(re.fullmatch(p, printed)) for p in patterns) == 1
    assert not any(re.fullmatch(p, "Storage has not been initialized yet. Call me.")
                   for p in patterns)


def test_a_localized_exception_helpers_quotes_are_taken_off() -> None:
    for paste, message in [
        ("System.InvalidOperationException:“Storage has not been initialized yet.”",
         "Storage has not been initialized yet."),
        ("System.IO.IOException: « Le fichier est utilisé par un autre processus »",
         "Le fichier est utilisé par un autre processus"),
        ("System.InvalidOperationException: 'Sequence contains no elements'",
         "Sequence contains no elements"),
    ]:
        [event] = parse_events(paste)
        assert (event.error_class, event.message) == (paste.split(":")[0], message)


def test_quotes_that_do_not_pair_stay() -> None:
    [event] = parse_events("System.FormatException: 'Input string “abc was not valid'")
    assert event.message == "Input string “abc was not valid"
