"""``python -m errdex.interfaces.cli``: the same as the ``errdex`` command."""

from errdex.interfaces.cli import main

main()
