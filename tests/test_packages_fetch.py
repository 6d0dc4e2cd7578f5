"""Release specs, downloads from a local index and npm registry, archive safety, identity."""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

import pytest

from errdex.errors import RepositoryError, UsageError
from errdex.packages.archives import read_archive
from errdex.packages.fetch import download, index_files, pypi_index_url
from errdex.packages.identity import Identity, find_tag, forge_of, identify, tag_candidates
from errdex.packages.specs import PackageSpec, is_spec, parse_spec
from tests.package_fixtures import (
    NEEDS_NPM,
    add_tar_member,
    build_sdist,
    build_wheel,
    npm_env,
    npm_registry,
    npm_tarball,
    serve,
    simple_index,
    widget_module,
)

# --- specs -------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "spec"), [
    ("pypi:requests==2.26.0", PackageSpec("pypi", "requests", "2.26.0")),
    ("PyPI:Foo_Bar[socks]==1.0rc1", PackageSpec("pypi", "Foo_Bar", "1.0rc1")),
    ("npm:axios@0.21.1", PackageSpec("npm", "axios", "0.21.1")),
    ("npm:@babel/core@7.22.5", PackageSpec("npm", "@babel/core", "7.22.5")),
    ("npm:left-pad@1.3.0-beta.1", PackageSpec("npm", "left-pad", "1.3.0-beta.1")),
])
def test_a_pinned_spec_names_one_release(text: str, spec: PackageSpec) -> None:
    assert parse_spec(text) == spec
    assert parse_spec(str(spec)) == spec


@pytest.mark.parametrize(("text", "says"), [
    ("pypi:requests", "not pinned"),
    ("pypi:requests>=2.0", "write pypi:requests==VERSION"),
    ("pypi:requests==2.*", "not one exact version"),
    ("pypi:../evil==1.0", "not a PyPI project name"),
    ("npm:axios", "not pinned"),
    ("npm:@babel/core", "not pinned"),
    ("npm:axios@^1.0.0", "not one exact version"),
    ("npm:axios@latest", "not one exact version"),
    ("npm:../x@1.0.0", "not an npm package name"),
    ("gem:rails@7.0.0", "not a release spec"),
])
def test_anything_else_is_one_clear_usage_error(text: str, says: str) -> None:
    with pytest.raises(UsageError, match=says.replace("*", r"\*")):
        parse_spec(text)


def test_only_a_registry_prefix_makes_a_spec() -> None:
    assert is_spec("pypi:x") and is_spec("npm:@a/b@1.0.0")
    assert not is_spec("./pypi:x") and not is_spec("/src/repo") and not is_spec("C:/src")
    assert parse_spec("pypi:Foo.Bar-baz==1").normalized == "foo-bar-baz"


# --- PyPI downloads ----------------------------------------------------------------------


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A local index folder that ERRDEX_PYPI_INDEX_URL points at."""
    folder = tmp_path / "index"
    folder.mkdir()
    monkeypatch.setenv("ERRDEX_PYPI_INDEX_URL", str(folder))
    return folder


def test_the_override_wins_over_pip_settings(index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", "https://mirror.example/simple")
    assert pypi_index_url() == str(index)
    monkeypatch.delenv("ERRDEX_PYPI_INDEX_URL")
    assert pypi_index_url() == "https://mirror.example/simple"


def test_an_sdist_is_downloaded_from_a_local_folder(index: Path, tmp_path: Path) -> None:
    build_sdist(index, "widget", "1.0", {"widget/core.py": widget_module("1.0")})
    build_wheel(index, "widget", "1.0", {"widget/core.py": widget_module("1.0")})
    build_sdist(index, "widget", "2.0", {"widget/core.py": widget_module("2.0")})
    (tmp_path / "out").mkdir()
    got = download(parse_spec("pypi:Widget==1.0"), tmp_path / "out")
    assert got.kind == "sdist" and got.path.name == "widget-1.0.tar.gz" and not got.notes
    with pytest.raises(RepositoryError, match=r"no release 3\.0 on .*versions there: 1\.0, 2\.0"):
        download(parse_spec("pypi:widget==3.0"), tmp_path / "out")


def test_a_simple_index_over_http(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = tmp_path / "built"
    built.mkdir()
    sdist = build_sdist(built, "widget", "1.0", {"widget/core.py": widget_module("1.0")})
    wheel = build_wheel(built, "gadget", "0.1", {"gadget/__init__.py": "X = 1\n"})
    native = build_wheel(built, "native", "0.1", {"native/__init__.py": ""},
                         tag="cp311-cp311-manylinux_2_17_x86_64")
    root = tmp_path / "simple"
    simple_index(root, "widget", [sdist], yanked={sdist.name: "broken on Windows"})
    simple_index(root, "gadget", [wheel])
    simple_index(root, "native", [native])
    out = tmp_path / "out"
    out.mkdir()
    with serve(root) as url:
        monkeypatch.setenv("ERRDEX_PYPI_INDEX_URL", url)
        files = index_files(url, "widget")
        assert files[0].sha256 and files[0].yanked == "broken on Windows"
        got = download(parse_spec("pypi:widget==1.0"), out)
        assert got.kind == "sdist" and got.notes == ["yanked: broken on Windows"]
        wheel_got = download(parse_spec("pypi:gadget==0.1"), out)
        assert wheel_got.kind == "wheel" and "pure-Python wheel" in wheel_got.notes[0]
        with pytest.raises(RepositoryError, match="no source distribution and no pure-Python"):
            download(parse_spec("pypi:native==0.1"), out)
        with pytest.raises(RepositoryError, match="no such project"):
            download(parse_spec("pypi:absent==1.0"), out)
    with pytest.raises(RepositoryError, match="unreachable"):
        download(parse_spec("pypi:widget==1.0"), out)  # the server is gone


def test_a_file_that_does_not_match_its_published_hash_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = tmp_path / "built"
    built.mkdir()
    sdist = build_sdist(built, "widget", "1.0", {"widget/core.py": widget_module("1.0")})
    root = tmp_path / "simple"
    simple_index(root, "widget", [sdist], wrong_hash=True)
    (tmp_path / "out").mkdir()
    with serve(root) as url:
        monkeypatch.setenv("ERRDEX_PYPI_INDEX_URL", url)
        with pytest.raises(RepositoryError, match="does not match the sha256"):
            download(parse_spec("pypi:widget==1.0"), tmp_path / "out")
    assert not list((tmp_path / "out").iterdir())


# --- archives ----------------------------------------------------------------------------


def _keep_all(path: str) -> bool:
    return True


def test_the_top_folder_is_stripped_and_links_inside_are_left_out(tmp_path: Path) -> None:
    sdist = build_sdist(tmp_path, "widget", "1.0", {"widget/core.py": "X = 1\n"})
    link = tarfile.TarInfo("widget-1.0/widget/alias.py")
    link.type, link.linkname = tarfile.SYMTYPE, "core.py"
    add_tar_member(sdist, link)
    unpacked = read_archive(sdist, _keep_all)
    assert unpacked.top == "widget-1.0"
    assert set(unpacked.files) == {"PKG-INFO", "widget/core.py"}
    assert unpacked.skipped["link"] == 1


@pytest.mark.parametrize(("name", "kind", "target", "says"), [
    ("widget-1.0/../../evil.py", tarfile.REGTYPE, "", "path traversal"),
    ("/etc/cron.d/evil", tarfile.REGTYPE, "", "absolute"),
    ("widget-1.0/passwd", tarfile.SYMTYPE, "/etc/passwd", "points outside"),
    ("widget-1.0/up", tarfile.SYMTYPE, "../../..", "points outside"),
    ("widget-1.0/hard", tarfile.LNKTYPE, "../outside", "points outside"),
])
def test_an_archive_that_would_unpack_outside_its_folder_is_refused(
        tmp_path: Path, name: str, kind: bytes, target: str, says: str) -> None:
    sdist = build_sdist(tmp_path, "widget", "1.0", {"widget/core.py": "X = 1\n"})
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    add_tar_member(sdist, info, b"evil = True\n" if kind == tarfile.REGTYPE else b"")
    with pytest.raises(RepositoryError, match=says):
        read_archive(sdist, _keep_all)


def test_a_zip_with_a_traversal_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "widget-1.0.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("widget-1.0/widget/core.py", "X = 1\n")
        out.writestr("widget-1.0/../../evil.py", "evil = True\n")
    with pytest.raises(RepositoryError, match="path traversal"):
        read_archive(archive, _keep_all)


def test_not_an_archive_is_one_line(tmp_path: Path) -> None:
    bogus = tmp_path / "widget-1.0.tar.gz"
    bogus.write_bytes(b"<html>not found</html>")
    with pytest.raises(RepositoryError, match="not a readable archive"):
        read_archive(bogus, _keep_all)


# --- identity ----------------------------------------------------------------------------


def test_the_source_repository_comes_from_project_urls() -> None:
    spec = parse_spec("pypi:widget==1.0")
    meta = (b"Metadata-Version: 2.1\nName: Widget\nVersion: 1.0\n"
            b"Home-page: https://widget.example.org\n"
            b"Project-URL: Tracker, https://github.com/wrong/tracker/issues\n"
            b"Project-URL: Source Code, https://github.com/acme/widget/tree/main\n")
    identity = identify(spec, meta)
    assert (identity.source, identity.host, identity.repo) == (
        "acme/widget", "github.com", "acme/widget@1.0")
    plain = identify(spec, b"Name: widget\nVersion: 1.0\nHome-page: https://widget.example.org\n")
    assert plain.repo == "pypi/widget@1.0" and plain.host is None


def test_npm_repository_forms() -> None:
    spec = parse_spec("npm:@acme/gizmo@2.1.0")
    for repository, source in [
        ("acme/gizmo", "acme/gizmo"),
        ("github:acme/gizmo", "acme/gizmo"),
        ({"type": "git", "url": "git+https://github.com/acme/gizmo.git"}, "acme/gizmo"),
        ("gitlab:group/sub/gizmo", "group/sub/gizmo"),
    ]:
        data = {"name": "@acme/gizmo", "version": "2.1.0", "repository": repository}
        assert identify(spec, _json(data)).source == source
    monorepo = {"name": "@acme/gizmo", "version": "2.1.0", "repository": {
        "url": "https://github.com/acme/tools.git", "directory": "packages/gizmo"}}
    links = identify(spec, _json(monorepo))
    links.tag = "@acme/gizmo@2.1.0"
    assert links.links().permalink("0" * 40, "lib/a.js", 3, 9) == (
        "https://github.com/acme/tools/blob/@acme/gizmo@2.1.0/packages/gizmo/lib/a.js#L3-L9")
    none = identify(spec, _json({"name": "@acme/gizmo", "version": "2.1.0"}))
    assert none.repo == "npm/@acme/gizmo@2.1.0"
    assert none.links().permalink("x", "lib/a.js", 1, 2) == (
        "https://www.npmjs.com/package/@acme/gizmo/v/2.1.0?activeTab=code")


def _json(data: object) -> bytes:
    import json

    return json.dumps(data).encode()


def test_forges_are_read_from_the_usual_url_shapes() -> None:
    assert forge_of("git+ssh://git@github.com/acme/widget.git").repo == "acme/widget"  # type: ignore[union-attr]
    assert forge_of("https://www.github.com/acme/widget#readme").repo == "acme/widget"  # type: ignore[union-attr]
    assert forge_of("https://gitlab.com/g/sub/p/-/tree/main").repo == "g/sub/p"  # type: ignore[union-attr]
    assert forge_of("https://example.org/acme/widget") is None
    assert forge_of("https://github.com/acme") is None


def test_a_tag_is_one_the_forge_lists_never_a_guess() -> None:
    identity = Identity("pypi", "widget", "1.0", "acme/widget", host="github.com")
    asked: list[str] = []

    def tags(url: str) -> set[str] | None:
        asked.append(url)
        return {"widget-1.0", "1.0", "v0.9"}

    assert find_tag(identity, tags) == "1.0"
    assert asked == ["https://github.com/acme/widget.git"]
    assert find_tag(identity, lambda url: {"v0.9"}) is None
    assert find_tag(identity, lambda url: None) is None
    assert tag_candidates("@acme/gizmo", "2.0.0")[:2] == ["v2.0.0", "2.0.0"]
    assert "gizmo@2.0.0" in tag_candidates("@acme/gizmo", "2.0.0")
    identity.tag = "1.0"
    assert identity.links().permalink("f" * 40, "widget/core.py", 1, 9) == (
        "https://github.com/acme/widget/blob/1.0/widget/core.py#L1-L9")


# --- npm ---------------------------------------------------------------------------------


@NEEDS_NPM
def test_npm_pack_from_a_local_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tarball = npm_tarball(tmp_path, "@acme/gizmo", "1.2.3",
                          {"lib/index.js": "throw new Error('gizmo is broken');\n"})
    registry = tmp_path / "registry"
    registry.mkdir()
    for key, value in npm_env(tmp_path).items():
        monkeypatch.setenv(key, value)
    with serve(registry) as url:
        npm_registry(registry, url, "@acme/gizmo", {"1.2.3": tarball})
        monkeypatch.setenv("ERRDEX_NPM_REGISTRY", url)
        out = tmp_path / "out"
        out.mkdir()
        got = download(parse_spec("npm:@acme/gizmo@1.2.3"), out)
        assert got.kind == "npm" and got.path.is_file()
        unpacked = read_archive(got.path, _keep_all)
        assert unpacked.top == "package" and "lib/index.js" in unpacked.files
        with pytest.raises(RepositoryError, match="no such package or version"):
            download(parse_spec("npm:@acme/gizmo@9.9.9"), out)


def test_tags_are_read_from_the_forge_and_a_dead_host_is_asked_once(
        make_repo: object, tmp_path: Path) -> None:
    import subprocess

    from errdex.packages import identity as identity_module

    repo = make_repo()  # type: ignore[operator]
    repo.commit_files({"widget/core.py": "X = 1\n"})
    subprocess.run(["git", "-C", str(repo.root), "tag", "v1.0"], check=True)
    assert identity_module.remote_tags(repo.root.as_uri()) == {"v1.0"}
    dead = "https://errdex-test.invalid/acme/widget.git"
    assert identity_module.remote_tags(dead) is None
    assert "errdex-test.invalid" in identity_module._UNREACHABLE


def test_without_a_tag_pypi_files_link_to_the_inspector_at_the_site_line() -> None:
    spec = parse_spec("pypi:requests==2.26.0")
    url = "https://files.pythonhosted.org/packages/e7/01/35/requests-2.26.0.tar.gz"
    identity = identify(spec, b"Name: requests\nVersion: 2.26.0\n", download_url=url,
                        top="requests-2.26.0")
    assert identity.links().permalink("0" * 40, "requests/models.py", 372, 408) == (
        "https://inspector.pypi.io/project/requests/2.26.0/packages/e7/01/35/"
        "requests-2.26.0.tar.gz/requests-2.26.0/requests/models.py#line.390")
    elsewhere = identify(spec, None, download_url="https://mirror.example/requests.tar.gz")
    assert elsewhere.links().permalink("0" * 40, "requests/models.py", 1, 9) is None


def test_packages_of_one_repository_at_one_version_have_their_own_keys() -> None:
    meta = "Name: {}\nVersion: 3.3.9\nProject-URL: Source, https://github.com/psycopg/psycopg\n"
    keys = {identify(parse_spec(f"pypi:{name}==3.3.9"), meta.format(name).encode()).repo
            for name in ("psycopg", "psycopg-binary", "Psycopg_Pool")}
    assert keys == {"psycopg/psycopg@3.3.9", "psycopg/psycopg/psycopg-binary@3.3.9",
                    "psycopg/psycopg/Psycopg_Pool@3.3.9"}
    babel = {"version": "7.1.0", "repository": "babel/babel"}
    assert identify(parse_spec("npm:@babel/core@7.1.0"), _json(
        {"name": "@babel/core", **babel})).repo == "babel/babel/@babel/core@7.1.0"
    assert identify(parse_spec("npm:@babel/babel@7.1.0"), _json(
        {"name": "@babel/babel", **babel})).repo == "babel/babel@7.1.0"
