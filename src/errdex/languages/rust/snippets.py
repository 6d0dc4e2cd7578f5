"""Rust's code fields: ``if``/``else``, a ``can_<name>`` function, ``catch_unwind`` for a
panic and ``match`` on the ``Result`` for an error."""

from __future__ import annotations

from errdex.languages._engine.snippets import GuardFacts, Snippets, TryFacts, braced_if, words


def _type_guard(guard: GuardFacts) -> str:
    params = ", ".join(guard.declarations)
    return f"/// {guard.doc}\nfn can_{guard.name}({params}) -> bool {{\n    {guard.negated}\n}}"


def _try_catch(at: TryFacts) -> str | None:
    facts, note, call = at.facts, at.note, at.call
    # A thiserror ``#[error]`` site belongs to a type, not a function: there is no call
    # to wrap (``SqliteDatasetError()`` would be noise).
    if not call or (facts.error_class or "").split("::")[0] == facts.function:
        return None
    if facts.error_type == "panic":
        return (f"let outcome = std::panic::catch_unwind(|| {{\n    {call}\n}});\n"
                f"if let Err(panic) = outcome {{\n    // {note}\n}}")
    expr = call.rstrip(";")
    return (f"match {expr} {{\n    Ok(value) => {{ let _ = value; }}\n"
            f"    Err(err) => {{\n        // {note}\n        let _ = err;\n    }}\n}}")


SNIPPETS = Snippets(
    wrap={"statements": "fn __errdex() {\n%s\n}", "member": "%s"},
    validation=braced_if, type_guard=_type_guard, try_catch=_try_catch, snake_case=True,
    associated="::",
    library=words("""
        std core alloc Vec String Box Rc Arc Cell RefCell HashMap HashSet BTreeMap Default Clone
        Debug Display From Into TryFrom TryInto AsRef panic catch_unwind AssertUnwindSafe assert
        assert_eq assert_ne debug_assert matches format println eprintln unreachable todo
        unimplemented vec write writeln unwrap expect unwrap_or unwrap_or_else unwrap_or_default
        is_some is_none is_ok is_err map map_err and_then ok_or ok_or_else ok err iter into_iter
        collect len is_empty contains get to_string to_owned clone into from as_ref as_str
        usize isize u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 io fmt error Error ErrorKind"""),
)
