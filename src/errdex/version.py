"""errdex's version, in a module of its own: the miner stamps it on every mine, and the
package's ``__init__`` re-exports it, so mining never imports the package it sits under."""

__version__ = "0.1.0"
