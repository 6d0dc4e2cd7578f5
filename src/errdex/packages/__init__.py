"""Package releases as sources to mine: registry specs (``pypi:NAME==VERSION``,
``npm:NAME@VERSION``), lockfiles and installed environments.

What a registry ships is what runs, so a release is fetched through the ecosystem's own
client (its index configuration, mirrors and credentials apply), unpacked into a cache and
mined like a repository, filed under the source repository its metadata names.
"""
