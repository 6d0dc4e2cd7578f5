"""Rust site extraction: golden sites of small fixture files, and their patterns at run time.

The runtime messages below were produced by rustc 1.95 (edition 2021) from the same
macros; the suite itself does not need rustc.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.languages.base import Site
from errdex.languages.rust import LANGUAGE, extract
from errdex.lookup.parse import parse_events
from errdex.templates.template import compile_pattern

FIXTURES = Path(__file__).parent / "fixtures" / "rust"

# (line, written, pattern, error_type, error_class, symbol)
OPS_SITES = [
    (15, "deform_conv2d_backward: unsupported dtype {:?}",
     r"deform_conv2d_backward: unsupported dtype (.+?)", "panic", None,
     "Flex::deform_conv2d_backward"),
    (20, "conv3d: rank mismatch for {}",
     r"assertion `left == right` failed: conv3d: rank mismatch for (.+?)\n  left: (.+?)"
     r"\n right: (.+?)", "panic", None, "Flex::conv3d"),
    (21, "conv3d: weight must be 5-d", r"conv3d: weight must be 5-d", "panic", None,
     "Flex::conv3d"),
    (22, "conv3d: empty input",
     r"assertion `left != right` failed: conv3d: empty input\n  left: (.+?)\n right: (.+?)",
     "panic", None, "Flex::conv3d"),
    (23, "assertion failed: x.is_contiguous()", r"assertion failed: x\.is_contiguous\(\)",
     "panic", None, "Flex::conv3d"),
    (30, "failed to open the tensor file", r"failed to open the tensor file(?:: (.+?))?",
     "panic", None, "Flex::open"),
    (36, 'tensor is "empty"', r'tensor is "empty"(?:: (.+?))?', "panic", None, "Flex::first"),
    (42, "layout {kind} is handled by the caller",
     r"internal error: entered unreachable code: layout (.+?) is handled by the caller",
     "panic", None, "Flex::layout"),
    (43, "strided layout {}", r"not yet implemented: strided layout (.+?)", "panic", None,
     "Flex::layout"),
    (44, "layout kind {kind:#x}", r"not implemented: layout kind (-?0x[0-9a-f]+)", "panic",
     None, "Flex::layout"),
    (51, "empty shape string", r"empty shape string", "error", None, "parse_shape"),
    (53, "shape string too long: {} bytes", r"shape string too long: (.+?) bytes", "error",
     None, "parse_shape"),
    (56, "shape has {count} dimensions, at most {max} are supported",
     r"shape has (.+?) dimensions, at most (.+?) are supported", "error", None, "parse_shape"),
    (64, "zero-sized dimension in {:?}", r"zero-sized dimension in (.+?)", "error", None,
     "parse_shape"),
    (71, "name is empty", r"name is empty", "error", None, "check_name"),
    (72, "name is reserved", r"name is reserved", "error", None, "check_name"),
    (73, "name {} is too long ({} > 32)", r"name (.+?) is too long \((.+?) > 32\)", "error",
     None, "check_name"),
    (74, "name starts with '_'", r"name starts with '_'", "error", None, "check_name"),
    (75, "name contains a space", r"name contains a space", "error", None, "check_name"),
    (82, 'path ends with "/"\tnot a file', r'path ends with "\/"\tnot a file', "error", None,
     "check_path"),
    (84, "unknown path {path}", r"unknown path (.+?)", "error", None, "check_path"),
    (89, "header is too short", r"header is too short(?:: (.+?))?", "panic", None,
     "io::read_header"),
    (91, "bad magic {:02x?}", r"bad magic (.+?)", "panic", None, "io::read_header"),
    (93, "unsupported version {}", r"unsupported version (.+?)", "panic", None,
     "io::read_header"),
]

ERRORS_SITES = [
    (8, "unsupported dtype {0:?}", r"unsupported dtype (.+?)", "error",
     "FlexError::UnsupportedDtype", "FlexError"),
    (10, "shape mismatch: expected {expected:?}, got {actual:?}",
     r"shape mismatch: expected (.+?), got (.+?)", "error", "FlexError::ShapeMismatch",
     "FlexError"),
    (12, "tensor {0} has {} elements, limit is {max}",
     r"tensor (.+?) has (.+?) elements, limit is (.+?)", "error", "FlexError::TooLarge",
     "FlexError"),
    (19, "kernel {name} failed with code {code}", r"kernel (.+?) failed with code (.+?)",
     "error", "KernelError", "KernelError"),
]

# line → (runtime messages the pattern must fullmatch, near misses it must reject)
RUNTIME = {
    15: (["deform_conv2d_backward: unsupported dtype I8",
          "deform_conv2d_backward: unsupported dtype Complex { bits: 64 }"],
         ["deform_conv2d_backward: unsupported dtype ",
          "deform_conv2d_forward: unsupported dtype I8",
          "unsupported dtype I8"]),
    20: (["assertion `left == right` failed: conv3d: rank mismatch for x\n  left: 1\n right: 2"],
         ["conv3d: rank mismatch for x",
          "assertion `left == right` failed: conv3d: rank mismatch for x"]),
    22: (["assertion `left != right` failed: conv3d: empty input\n  left: 0\n right: 0"],
         ["assertion `left == right` failed: conv3d: empty input\n  left: 0\n right: 0"]),
    # rustc 1.95 prints a bare assert!'s condition as its tokens (``v[0]>3`` as
    # ``v[0] > 3``; rustfmt-formatted source reads the same)
    23: (["assertion failed: x.is_contiguous()"],
         ["assertion failed: x.is_contiguous", "x.is_contiguous()"]),
    30: (["failed to open the tensor file",
          'failed to open the tensor file: Os { code: 2, kind: NotFound, message: '
          '"No such file or directory" }'],
         ["failed to open the tensor",
          "failed to read the tensor file: Os { code: 2 }",
          "failed to open the tensor file Os { code: 2 }"]),
    36: (['tensor is "empty"'], ["tensor is empty"]),
    42: (["internal error: entered unreachable code: layout 3 is handled by the caller"],
         ["layout 3 is handled by the caller"]),
    43: (["not yet implemented: strided layout 3"], ["not implemented: strided layout 3"]),
    44: (["not implemented: layout kind 0x3", "not implemented: layout kind 0xff"],
         ["not implemented: layout kind 3", "not implemented: layout kind 0xZZ"]),
    56: (["shape has 9 dimensions, at most 8 are supported"],
         ["shape has 9 dimensions,              at most 8 are supported"]),
    82: (['path ends with "/"\tnot a file'], ['path ends with "/" not a file']),
    91: (["bad magic [46, 4c, 45, 59]"], ["bad magic"]),
}


def _sites(name: str) -> list[Site]:
    return extract((FIXTURES / name).read_bytes()).sites


def _row(site: Site) -> tuple[int, str, str, str, str | None, str | None]:
    template = site.template
    return (site.line, template.written, template.pattern(), site.error_type,
            site.error_class, site.symbol)


def test_language_registration() -> None:
    assert (LANGUAGE.name, LANGUAGE.grammar, LANGUAGE.extensions) == ("rust", "rust", (".rs",))


def test_ops_golden_sites() -> None:
    result = extract((FIXTURES / "ops.rs").read_bytes())
    assert not result.parse_errors
    assert [_row(site) for site in result.sites] == OPS_SITES
    assert {site.severity for site in result.sites} == {"error"}


def test_thiserror_golden_sites() -> None:
    assert [_row(site) for site in _sites("errors.rs")] == ERRORS_SITES


@pytest.mark.parametrize("line", sorted(RUNTIME))
def test_patterns_match_runtime_messages(line: int) -> None:
    site = next(site for site in _sites("ops.rs") if site.line == line)
    pattern = compile_pattern(site.template.pattern())
    accepted, rejected = RUNTIME[line]
    for message in accepted:
        assert pattern.fullmatch(message), message
    for message in rejected:
        assert not pattern.fullmatch(message), message


def test_hole_names_follow_the_arguments() -> None:
    by_line = {site.line: site for site in _sites("ops.rs")}
    names = {line: [hole.name for hole in by_line[line].template.holes]
             for line in (15, 20, 42, 56, 30)}
    assert names == {
        15: ["dtype"],
        20: ["x.name", "x.rank()", "weight.rank()"],
        42: ["kind"],
        56: ["dims.len()", "8"],
        30: ["error"],
    }
    errors = {site.line: [hole.name for hole in site.template.holes]
              for site in _sites("errors.rs")}
    assert errors == {8: ["0"], 10: ["expected", "actual"], 12: ["0", ".1.len()", "LIMIT"],
                      19: ["name", "code"]}


def test_expect_renders_with_and_without_error() -> None:
    template = next(site for site in _sites("ops.rs") if site.line == 30).template
    assert template.render([None]) == "failed to open the tensor file"
    assert template.render(["Os { code: 2 }"]) == "failed to open the tensor file: Os { code: 2 }"


def test_messageless_macros_are_not_sites_but_a_bare_assert_is() -> None:
    """``panic!()``, ``todo!()``… print the same words everywhere: not sites. A bare
    ``assert!(cond)`` prints its condition (``assertion failed: x > 0``): a site."""
    source = b"""
fn quiet(x: u8) {
    panic!();
    todo!();
    unreachable!();
    unimplemented!();
    assert!(x > 0);
    assert_eq!(x, 1);
    debug_assert_ne!(x, 2,);
    anyhow::ensure!(x < 9);
    let _ = value.expect(&message);
    panic!(payload);
}
"""
    sites = extract(source).sites
    assert [(site.line, site.template.written, site.error_type) for site in sites] == [
        (7, "assertion failed: x > 0", "panic")]


def test_test_code_is_not_a_site() -> None:
    source = b"""
#[cfg(test)]
mod tests {
    fn helper() { panic!("in a test module"); }
}

#[cfg(all(test, feature = "slow"))]
fn slow_helper() { panic!("in a test-only fn"); }

#[tokio::test]
async fn runs() { None::<u8>.expect("in an async test"); }

#[cfg(not(test))]
fn product() { panic!("kept outside tests"); }
"""
    assert [site.template.written for site in extract(source).sites] == ["kept outside tests"]
    assert extract(b'#![cfg(test)]\nfn f() { panic!("test file"); }\n').sites == []


def test_syntax_error_keeps_good_sites() -> None:
    result = extract((FIXTURES / "broken.rs").read_bytes())
    assert result.parse_errors
    assert [(site.line, site.template.written, site.symbol) for site in result.sites] == [
        (2, "good site {}", "good"),
        (10, "still found", "also_good"),
    ]


def test_err_of_anyhow_is_one_site() -> None:
    source = b'fn f() -> Result<()> {\n    Err(anyhow!("no {}", 1))\n}\n'
    sites = extract(source).sites
    assert [(site.line, site.template.written, site.error_type) for site in sites] == [
        (2, "no {}", "error"),
    ]


def test_err_of_other_values_is_not_a_site() -> None:
    source = b"""
fn f() -> Result<(), E> {
    Err(e)?;
    Err(b"bytes".to_vec())?;
    Err(Box::from("boxed"))?;
    Err(format!("{}", x).into())
}
"""
    assert [site.template.written for site in extract(source).sites] == ["{}"]


def test_string_escapes_are_decoded() -> None:
    source = (
        b'fn f() { panic!("a\\n\\t\\\\ \\"q\\" \\\'s\\\' \\0 \\x41 \\u{e9}\\u{1F600} \\\n'
        b'        continued {{literal}}"); panic!(r#"raw \\n "x""#); }\n'
    )
    written = [site.template.written for site in extract(source).sites]
    assert written == [
        "a\n\t\\ \"q\" 's' \0 A \u00e9\U0001f600 continued {{literal}}",
        'raw \\n "x"',
    ]
    pattern = compile_pattern(extract(source).sites[0].template.pattern())
    assert pattern.fullmatch("a\n\t\\ \"q\" 's' \0 A \u00e9\U0001f600 continued {literal}")


def test_symbols_of_impls_traits_and_nested_fns() -> None:
    source = b"""
impl<'a, T> fmt::Display for &'a crate::m::Wrapper<T> {
    fn fmt(&self) { panic!("in display"); }
}
trait Kernel {
    fn run(&self) { todo!("default run"); }
}
fn outer() {
    fn inner() { panic!("nested"); }
    let closure = || panic!("in closure");
}
static TABLE: Lazy<u8> = Lazy::new(|| panic!("in a static"));
"""
    assert [site.symbol for site in extract(source).sites] == [
        "Wrapper::fmt", "Kernel::run", "inner", "outer", None,
    ]


# --- context.rs: context/adapters, constructors, log macros (golden: context.rs.expected.json)

# line → (messages rustc 1.95 printed for the same code, near misses). The anyhow, serde
# and tracing lines print the message as written: anyhow's Display of a context error is
# the context text, serde's custom error is its Display argument.
CONTEXT_RUNTIME = {
    25: (["index of 0 entries is empty",
          'index of 0 entries is empty: Custom { kind: InvalidData, error: "index file is '
          'empty" }'],
         ["index of 0 entries", "index of 0 entries is empty Custom"]),
    36: (["index holds 1 entries, limit is 0"], ["index holds 1 entries"]),
    48: (["index file is empty"], ['Custom { kind: InvalidData, error: "index file is empty" }']),
    51: (['bad header "v9": x'], ['bad header "v9" x']),
    20: (["failed to parse index /srv/index.toml"], ["failed to parse /srv/index.toml"]),
}


def test_context_patterns_match_runtime_messages() -> None:
    by_line = {site.line: site for site in _sites("context.rs")}
    for line, (accepted, rejected) in CONTEXT_RUNTIME.items():
        pattern = compile_pattern(by_line[line].template.pattern())
        for message in accepted:
            assert pattern.fullmatch(message), (line, message)
        for message in rejected:
            assert not pattern.fullmatch(message), (line, message)


def test_context_kinds_and_classes() -> None:
    found = {(site.line, site.error_type, site.error_class) for site in _sites("context.rs")}
    assert {
        (18, "error", None), (25, "panic", None), (48, "error", "io::ErrorKind::InvalidData"),
        (51, "error", "io::ErrorKind::Other"), (53, "log", None), (54, "log", None),
        (61, "error", "de::Error"), (66, "error", "FetchError"),
    } <= found
    lines = {line for line, _, _ in found}
    assert (37, "panic", None) in found  # assert! without a message: its condition
    assert 55 not in lines  # std::process::exit prints nothing
    assert 70 not in lines  # error!("{}", url) has no text of its own


def test_log_macros_take_the_first_lone_literal() -> None:
    source = b"""
fn f(e: Error, path: &str) {
    tracing::error!(error = %e, path, "cannot open {}", path);
    error!(target: "db", "query failed: {e}");
    tracing::error!(name: "spanned", ?e, "lost {} rows", 3);
    error!(%e);
    eprintln!();
    eprintln!("{}", e);
}
"""
    found = [(site.error_type, site.template.written, [h.name for h in site.template.holes])
             for site in extract(source).sites]
    assert found == [
        ("log", "cannot open {}", ["path"]),
        ("log", "query failed: {e}", ["e"]),
        ("log", "lost {} rows", ["3"]),
    ]


def test_context_methods_read_closures_and_conversions() -> None:
    source = b"""
fn f(p: &Path) -> Result<()> {
    a.context(format!("reading {}", p.display()))?;
    b.with_context(|| { format!("writing {}", p.display()) })?;
    c.wrap_err("eyre context")?;
    d.wrap_err_with(|| "lazy eyre context".to_string())?;
    e.map_err(|_| "bad utf-8")?;
    g.map_err(|e| e.to_string())?;
    h.context(ReadSnafu { path: p })?;
    i.expect(format!("must hold {}", 1).as_str());
    j.ok_or(Error::Missing)?;
}
"""
    found = [(site.error_type, site.template.written) for site in extract(source).sites]
    assert found == [
        ("error", "reading {}"), ("error", "writing {}"), ("error", "eyre context"),
        ("error", "lazy eyre context"), ("error", "bad utf-8"), ("panic", "must hold {}"),
    ]


def test_constructors_need_an_error_type_or_err() -> None:
    source = b"""
fn f() {
    let r = Regex::new("a+b");
    let p = PathBuf::from("/etc/app.toml");
    let s = String::from("plain text");
    let e = syn::Error::new_spanned(tokens, "expected a struct");
    let m = anyhow::Error::msg("raw anyhow message");
    let x = fs::read("file");
    return Err(Problem::new(format!("problem {}", 1)));
}
"""
    found = [(site.error_class, site.template.written) for site in extract(source).sites]
    assert found == [
        ("syn::Error", "expected a struct"), ("anyhow::Error", "raw anyhow message"),
        ("Problem", "problem {}"),
    ]


def test_sites_inside_item_macros_are_mined_with_their_lines() -> None:
    """``cfg_rt! { … }`` bodies are tokens to tree-sitter: each is parsed as the items it
    holds (nested ones too); macros inside function bodies and test code stay out."""
    source = b"""cfg_rt! {
    impl Handle {
        pub fn current() -> Self {
            panic!("no runtime is running");
        }
    }
}

mod inner {
    cfg_net! {
        cfg_time! {
            fn deep() {
                panic!("deep inside two macros");
            }
        }
    }
}

fn select() {
    tokio::select! {
        _ = a => panic!("inside an expression macro"),
    }
}

#[cfg(test)]
mod tests {
    cfg_rt! {
        fn helper() { panic!("test only"); }
    }
}
"""
    sites = [(s.line, s.template.written, s.symbol) for s in extract(source).sites]
    assert sites == [(4, "no runtime is running", "Handle::current"),
                     (13, "deep inside two macros", "deep")]


def test_sites_in_macro_rules_transcribers_are_mined() -> None:
    """serde's ``declare_error_trait!`` writes the trait whose default methods make its
    best-known messages: a transcriber is mined as the items it writes, repetitions left
    out and ``$name`` read as ``name``, on its own lines."""
    source = b"""macro_rules! declare_error_trait {
    (Error: Sized $(+ $($supertrait:ident)::+)*) => {
        pub trait Error: Sized $(+ $($supertrait)::+)* {
            fn invalid_type(unexp: Unexpected, exp: &dyn Expected) -> Self {
                Error::custom(format_args!("invalid type: {}, expected {}", unexp, exp))
            }
            fn missing(field: &'static str) -> Self {
                $crate::de::Error::custom(format_args!("missing field `{}`", field))
            }
        }
    };
}
"""
    sites = [(s.line, s.template.written, s.symbol) for s in extract(source).sites]
    assert sites == [(5, "invalid type: {}, expected {}", "Error::invalid_type"),
                     (8, "missing field `{}`", "Error::missing")]


def test_a_panic_whose_location_the_paste_left_out_keeps_the_message_below() -> None:
    paste = ("thread 'main' panicked at ...\n"
             "the pool is not ready.: PoolError { kind: Closed }\n"
             "stack backtrace:\n   0:     0x5630 - std::panicking::begin_panic\n")
    (event,) = parse_events(paste)
    assert (event.kind, event.message) == (
        "rust-panic", "the pool is not ready.: PoolError { kind: Closed }")
    # a header with a message of its own keeps it
    (other,) = parse_events("thread 'main' panicked at 'boom'\n")
    assert other.message == "boom"
