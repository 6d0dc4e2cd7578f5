"""The web app, in-process: every page and JSON route, the one error shape, limits."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

import errdex
from errdex.api import StorePool
from errdex.datasets.lines import import_dataset
from errdex.interfaces.web.app import create_app
from errdex.interfaces.web.errors import MAX_BODY_BYTES
from errdex.interfaces.web.view import record_path
from errdex.records.model import EXPLANATION_FIELDS
from errdex.store.sqlite import SQLiteStore
from tests.conftest import SEED_RECORD, GitRepo

SEED = json.loads(SEED_RECORD.read_text(encoding="utf-8"))["record"]

SHAPES_PY = '''"""Canvas shapes."""


def resize(width: int, height: int) -> None:
    """Resize the canvas; both sides are pixels."""
    if width <= 0:
        raise ValueError(f"width must be positive, got {width}")
    if height > 4096:
        raise ValueError(f"height {height} is over the limit of 4096")


def load(name: str) -> bytes:
    raise FileNotFoundError(f"no shape named {name!r} in the catalog")
'''

CAST_RS = '''pub enum DType { F32, I8 }

pub fn cast(dtype: DType) -> f32 {
    match dtype {
        DType::F32 => 1.0,
        other => panic!("cast: unsupported dtype {:?}", other),
    }
}
'''

WIDTH_ERROR = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/app.py", line 3, in <module>\n'
    "    resize(-2, 10)\n"
    '  File "/home/me/widgets/pkg/shapes.py", line 7, in resize\n'
    '    raise ValueError(f"width must be positive, got {width}")\n'
    "ValueError: width must be positive, got -2\n"
)


def sibling_of_seed() -> dict[str, Any]:
    """A second burn record in the seed's family (unsupported-dtype)."""
    record = dict(SEED)
    record.update(
        id="a1b2c3d4e5f60718", slug="conv3d-unsupported-dtype",
        errorMessage="conv3d: unsupported dtype {:?}",
        messagePattern="conv3d: unsupported dtype (.+?)", lineNumber=259,
        documentation="conv3d dispatches on the input dtype; other dtypes panic.",
        solutions=["Cast the input to a float dtype before conv3d."],
        tags=["burn", "dtype"],
    )
    return record


def build_index_db(make_repo: Callable[..., GitRepo], db: Path) -> Path:
    """Mine a small widgets repo and import the seed record and a sibling of it."""
    repo = make_repo()
    repo.write("pkg/shapes.py", SHAPES_PY)
    repo.write("src/lib.rs", CAST_RS)
    repo.commit("shapes")
    with SQLiteStore(db) as store:
        errdex.mine(repo.root, db=store, jobs=1)
        import_dataset(store, SEED_RECORD)
        extra = db.parent / "sibling.json"
        extra.write_text(json.dumps({"record": sibling_of_seed(),
                                     "datasetVersion": "2026-09-12T17:17:11.597Z"}))
        import_dataset(store, extra)
    return db


@pytest.fixture
def web_db(make_repo: Callable[..., GitRepo], tmp_path: Path) -> Path:
    return build_index_db(make_repo, tmp_path / "web.sqlite")


@pytest.fixture
def client(web_db: Path) -> TestClient:
    return local_client(create_app(web_db))


def local_client(app: Any) -> TestClient:
    """A client that talks to ``app`` as a browser on this machine does (Host: localhost;
    the TestClient's own ``testserver`` is not an allowed host)."""
    return TestClient(app, base_url="http://localhost", raise_server_exceptions=False)


def family_of(db: Path, tag: str) -> list[Any]:
    """The records of one family, computed from the store directly."""
    with SQLiteStore(db) as store:
        return [s.record for s in store.records() if s.record.background_tag == tag]


def assert_error(response: Any, status: int, code: str) -> dict[str, str]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert list(body) == ["error"]
    assert sorted(body["error"]) == ["code", "message"]
    assert body["error"]["code"] == code
    assert "Traceback" not in response.text
    return body["error"]


# --- JSON API --------------------------------------------------------------------------


def test_api_explain_is_exactly_the_cli_json(client: TestClient, web_db: Path) -> None:
    response = client.post("/api/explain", json={"text": WIDTH_ERROR})
    assert response.status_code == 200
    payload = response.json()
    assert list(payload) == ["matches"]
    best = payload["matches"][0]
    assert list(best) == ["score", "reason", "bound", "record"]
    assert best["record"]["filePath"] == "pkg/shapes.py"
    assert best["record"]["lineNumber"] == 7
    assert list(best["bound"].values()) == ["-2"]
    assert "full pattern match" in best["reason"]
    with SQLiteStore(web_db) as store:
        expected = errdex.open_index(store).explain(WIDTH_ERROR, top=5)
    assert payload == json.loads(json.dumps({"matches": [m.to_json() for m in expected]}))


def test_api_explain_top_repo_and_no_match(client: TestClient) -> None:
    text = "deform_conv2d_backward: unsupported dtype I8"
    (match,) = client.post("/api/explain", json={"text": text, "top": 1}).json()["matches"]
    assert match["record"] == SEED
    other = client.post("/api/explain", json={"text": text, "repo": "acme/widgets"})
    assert other.status_code == 200
    for found in other.json()["matches"]:
        assert found["record"]["repo"] == "acme/widgets"
        assert found["reason"].startswith("approximate")
    nothing = client.post("/api/explain", json={"text": "zzz qqq nothing like it"})
    assert nothing.status_code == 200 and nothing.json() == {"matches": []}


def test_api_explain_bad_input(client: TestClient) -> None:
    error = assert_error(client.post("/api/explain", json={"text": "   "}), 400, "bad_request")
    assert "empty input" in error["message"]
    assert_error(client.post("/api/explain", json={"top": 2}), 422, "validation_error")
    assert_error(client.post("/api/explain", json={"text": "x", "top": 0}), 422,
                 "validation_error")
    assert_error(client.post("/api/explain", content=b"{not json",
                             headers={"content-type": "application/json"}),
                 422, "validation_error")
    not_allowed = client.get("/api/explain")
    assert_error(not_allowed, 405, "method_not_allowed")
    assert not_allowed.headers["allow"] == "POST"


def test_api_body_limit_by_length_and_by_reading(client: TestClient) -> None:
    big = json.dumps({"text": "x" * (MAX_BODY_BYTES + 10)}).encode()
    assert_error(client.post("/api/explain", content=big,
                             headers={"content-type": "application/json"}),
                 413, "payload_too_large")

    def chunks():  # no Content-Length: the limit holds while reading
        yield b'{"text": "'
        for _ in range(40):
            yield b"y" * 65536
        yield b'"}'

    response = client.post("/api/explain", content=chunks(),
                           headers={"content-type": "application/json"})
    assert_error(response, 413, "payload_too_large")
    form = client.post("/explain", data={"text": "z" * (MAX_BODY_BYTES + 1)})
    assert form.status_code == 413
    ok = client.post("/api/explain", json={"text": "ValueError: " + "w" * 5000})
    assert ok.status_code == 200


def test_api_search_records_repos(client: TestClient) -> None:
    found = client.get("/api/search", params={"q": "unsupported dtype"}).json()
    assert list(found) == ["records"]
    assert {r["slug"] for r in found["records"]} >= {
        "deform-conv2d-backward-unsupported-dtype", "conv3d-unsupported-dtype",
        "cast-unsupported-dtype",
    }
    one = client.get("/api/search", params={"q": "dtype", "limit": 1}).json()
    assert len(one["records"]) == 1
    assert client.get("/api/search", params={"q": 'AND OR "( NEAR *'}).status_code == 200
    assert_error(client.get("/api/search"), 422, "validation_error")
    assert_error(client.get("/api/search", params={"q": "x", "limit": 0}), 422,
                 "validation_error")

    assert client.get(f"/api/records/{SEED['id']}").json() == SEED
    by_slug = client.get("/api/records/conv3d-unsupported-dtype")
    assert by_slug.json()["id"] == "a1b2c3d4e5f60718"
    error = assert_error(client.get("/api/records/0000000000000000"), 404, "not_found")
    assert "0000000000000000" in error["message"]

    repos = client.get("/api/repos").json()["repos"]
    assert {r["repo"]: r["records"] for r in repos} == {"acme/widgets": 4, "tracel-ai/burn": 2}


def test_openapi_lists_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in ("/api/explain", "/api/search", "/api/records/{record_id}", "/api/repos"):
        assert path in spec["paths"]
    explain = spec["paths"]["/api/explain"]["post"]
    assert set(explain["responses"]) >= {"200", "400", "404", "413", "422", "500"}


def test_unknown_api_path_and_server_errors_keep_the_shape(web_db: Path) -> None:
    app = create_app(web_db)

    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("secret internal detail /etc/passwd")

    app.router.routes.insert(0, app.router.routes.pop())  # before the /api catch-all
    client = local_client(app)
    assert_error(client.get("/api/nope"), 404, "not_found")
    error = assert_error(client.get("/api/boom"), 500, "internal_error")
    assert "secret" not in error["message"]
    page = client.get("/api/boom", headers={"accept": "text/html"})
    assert page.status_code == 500 and "secret" not in page.text


# --- pages ---------------------------------------------------------------------------


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def test_home_has_the_paste_box_and_repos(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<form class="paste" action="/explain" method="post">' in page.text
    assert 'name="text"' in page.text
    assert 'href="/acme/widgets"' in page.text and 'href="/tracel-ai/burn"' in page.text
    assert client.get("/static/style.css").status_code == 200


def test_explain_form_shows_bound_values_and_why(client: TestClient) -> None:
    page = client.post("/explain", data={"text": WIDTH_ERROR})
    assert page.status_code == 200
    text = text_of(page.text)
    assert "width must be positive, got {width}" in text
    assert "full pattern match" in text
    assert "pkg/shapes.py:7" in text
    assert re.search(r"<th>width</th><td><code>-2</code>", page.text)
    assert 'href="/acme/widgets/width-must-be-positive-got"' in page.text
    assert 'class="line raised" id="L7"' in page.text
    linked = client.get("/explain", params={"text": "ValueError: width must be positive, got 0"})
    assert linked.status_code == 200 and "exact" in linked.text
    assert client.get("/explain", follow_redirects=False).status_code == 303


def test_explain_form_flags_approximate_and_empty(client: TestClient) -> None:
    page = client.post("/explain", data={"text": "ValueError: width should be positive, got -2"})
    assert page.status_code == 200
    assert "approx-badge" in page.text and "approximate" in text_of(page.text)
    empty = client.post("/explain", data={"text": "  "})
    assert empty.status_code == 400
    assert "empty input" in empty.text and 'name="text"' in empty.text
    none = client.post("/explain", data={"text": "qqq zzz"})
    assert "No record matches this error" in none.text


def test_record_page_has_every_section(client: TestClient, web_db: Path) -> None:
    page = client.get("/tracel-ai/burn/deform-conv2d-backward-unsupported-dtype")
    assert page.status_code == 200
    html, text = page.text, text_of(page.text)
    assert "deform_conv2d_backward: unsupported dtype {:?}" in text
    assert "deform_conv2d_backward: unsupported dtype (.+?)" in text
    assert SEED["githubUrl"] in html
    assert 'class="line raised" id="L243"' in html
    assert re.search(r'href="#L225"[^>]*>225</a>', html)
    assert re.search(r'href="#L261"[^>]*>261</a>', html)
    for key in ("documentation", "triggerScenarios", "commonSituations", "solutions",
                "exampleFix", "handlingStrategy", "validationCode", "typeGuard",
                "tryCatchPattern", "preventionTips", "tags", "backgroundTag"):
        assert f'id="{key}"' in html, key
    assert SEED["solutions"][0] in text
    assert "Not written yet" not in text
    related = html[html.index("Related: the"):]
    linked = set(re.findall(r'class="rec-msg" href="([^"]+)"', related))
    family = family_of(web_db, "unsupported-dtype")
    assert linked == {record_path(r) for r in family if r.id != SEED["id"]}
    assert "/tracel-ai/burn/conv3d-unsupported-dtype" in linked
    assert 'href="/family/unsupported-dtype"' in html


def test_record_page_of_a_mined_record(client: TestClient) -> None:
    page = client.get("/acme/widgets/no-shape-named-in-the-catalog")
    assert page.status_code == 200
    assert 'class="line raised" id="L13"' in page.text
    assert "https://github.com/acme/widgets/blob/" in page.text
    record = client.get("/api/records/acme/widgets:no-shape-named-in-the-catalog")
    assert record.status_code == 404  # a slash ends the id: the API takes ?repo= instead
    record = client.get("/api/records/no-shape-named-in-the-catalog",
                        params={"repo": "acme/widgets"}).json()
    written = [key for key in EXPLANATION_FIELDS if record[key]]
    for key in written:
        assert f'id="{key}"' in page.text, key
    if len(written) < len(EXPLANATION_FIELDS):
        assert "errdex enrich</code> writes them" in page.text


def test_repo_family_and_search_pages(client: TestClient, web_db: Path) -> None:
    repo = client.get("/acme/widgets")
    assert repo.status_code == 200
    assert 'id="type-exception"' in repo.text and 'id="type-panic"' in repo.text
    assert "4 records" in text_of(repo.text)
    burn = client.get("/tracel-ai/burn")
    assert 'href="/family/unsupported-dtype"' in burn.text
    family = client.get("/family/unsupported-dtype")
    assert family.status_code == 200
    members = family_of(web_db, "unsupported-dtype")
    repos = {r.repo for r in members}
    assert f"{len(members)} records in {len(repos)} repositor" in text_of(family.text)
    for member in members:
        assert f'href="{record_path(member)}"' in family.text
    search = client.get("/search", params={"q": "catalog"})
    assert "1 result for" in text_of(search.text)
    assert 'href="/acme/widgets/no-shape-named-in-the-catalog"' in search.text
    assert client.get("/search").status_code == 200


def test_missing_pages_are_404_pages(client: TestClient) -> None:
    html = {"accept": "text/html"}
    for path in ("/acme/nothing", "/acme/widgets/no-such-slug", "/family/no-such-family",
                 f"/acme/widgets/{SEED['slug']}", "/a/b/c/d"):
        page = client.get(path, headers=html)
        assert page.status_code == 404, path
        assert page.headers["content-type"].startswith("text/html")
        assert "Paste an error" in page.text
    assert_error(client.get("/acme/nothing"), 404, "not_found")


# --- schemathesis: generated requests against the OpenAPI spec ---------------------------


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("schemathesis")
    db = build_index_db(lambda: GitRepo(root / "repo", "https://github.com/acme/widgets.git"),
                        root / "fuzz.sqlite")
    # schemathesis calls the app as Host: testserver, allowed here as --allowed-host would
    return schemathesis.openapi.from_asgi("/openapi.json",
                                          create_app(db, allowed_hosts=["testserver"]))


def test_openapi_no_server_errors(api_schema: Any) -> None:
    """Every operation in /openapi.json, with generated inputs: never a 5xx, one error shape.

    Driven through schemathesis' Python API (its pytest plugin does not support pytest 9).
    """
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 10
    statuses: Counter[int] = Counter()
    modes = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    for operation, mode in itertools.product(operations, modes):

        @given(case=operation.as_strategy(mode))
        @settings(max_examples=25, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def check(case: Any) -> None:
            response = case.call()
            statuses[response.status_code] += 1
            case.validate_response(response, checks=[not_a_server_error])
            is_json = "json" in response.headers.get("content-type", "")
            if response.status_code >= 400 and is_json:
                assert sorted(response.json()["error"]) == ["code", "message"], response.text
            # Echoed input is escaped in HTML, so a raw 'File "' can only be a traceback.
            assert 'File "' not in response.text
            assert not is_json or "Traceback" not in response.text

        try:
            check()
        except Unsatisfiable:
            assert mode is GenerationMode.NEGATIVE  # nothing to break: no parameters
    assert statuses[200] > 100 and statuses[422] > 10, statuses


# --- the store pool: per-thread connections, one shared index that follows the database -----


def test_index_follows_records_added_while_serving(client: TestClient, web_db: Path) -> None:
    text = "brand new failure: gizmo 42 exploded"
    assert client.post("/api/explain", json={"text": text}).json() == {"matches": []}
    record = dict(SEED)
    record.update(id="feedfacecafebeef", slug="brand-new-failure-gizmo-exploded",
                  errorMessage="brand new failure: gizmo {} exploded",
                  messagePattern="brand new failure: gizmo (.+?) exploded")
    path = web_db.parent / "new.json"
    path.write_text(json.dumps({"record": record, "datasetVersion": "2026-09-12T17:17:11.597Z"}))
    with SQLiteStore(web_db) as store:
        import_dataset(store, path)
    (match, *_) = client.post("/api/explain", json={"text": text}).json()["matches"]
    assert match["record"]["id"] == "feedfacecafebeef"
    assert list(match["bound"].values()) == ["42"]


def test_store_pool_serves_many_threads(web_db: Path) -> None:
    pool = StorePool(web_db)

    def work(n: int) -> tuple[str, int]:
        (best, *_) = pool.index().explain(f"ValueError: width must be positive, got {n}")
        return best.bound["width"], len(pool.store().search("dtype"))

    with ThreadPoolExecutor(max_workers=8) as executor:
        results = list(executor.map(work, range(64)))
    assert [width for width, _ in results] == [str(n) for n in range(64)]
    assert len({found for _, found in results}) == 1


def test_pages_escape_what_they_echo(client: TestClient) -> None:
    attack = "<script>alert(1)</script>"
    for page in (client.get("/search", params={"q": attack}),
                 client.post("/explain", data={"text": attack})):
        assert attack not in page.text
        assert "&lt;script&gt;" in page.text
