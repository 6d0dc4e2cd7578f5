"""Recognizers for the log formats no language owns: JSON, logfmt, glog, Go's ``log``.

Package-internal: ``errdex.lookup.parse`` is the public interface. A runtime's
recognizers (Python tracebacks, Java stacks, Go panics, …) are in its language's folder,
declared on its spec (``errdex.languages._engine.pastes`` has the shared vocabulary);
``parse`` tries them all, with these, in rank order at each line.
"""
