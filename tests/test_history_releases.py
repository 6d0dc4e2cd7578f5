"""Which tags ``mine --history`` reads as releases: a build or channel tag of a version is
not a later version of its own."""

from __future__ import annotations

from errdex.repo.releases import version_key


def test_a_tag_naming_a_build_of_a_version_is_not_a_release():
    for tag in ("v0.7.3-eap-13", "v2.1.0_build_7", "release-1.4.2-hotfix-3"):
        assert version_key(tag) is None


def test_named_releases_still_read_as_versions():
    for tag, numbers in (("release-1.2", (1, 2)), ("ktor-3.3.0", (3, 3, 0)),
                         ("lib2-4.0.1", (4, 0, 1)), ("v1.10.0", (1, 10, 0))):
        read = version_key(tag)
        assert read is not None and read[0][0] == numbers
