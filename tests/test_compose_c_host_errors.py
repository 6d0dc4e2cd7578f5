"""An extension's error raised with its host language's exception class
(``PyErr_SetString(PyExc_ValueError, "…")``, ``rb_raise(rb_eArgError, "…")``) is that
class's record, so a pasted ``ValueError: …`` finds it; the patterns are checked against
what a built Python extension raises. Fixtures written here."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

import errdex
from tests.compose_steps import any_fullmatch, line_with, mine_once, missing, one_record_at
from tests.conftest import GitRepo

SPANS_C = """\
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *
spans_make(PyObject *self, PyObject *args)
{
    int n;
    if (!PyArg_ParseTuple(args, "i", &n))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "span length must be non-negative");
        return NULL;
    }
    if (n > 100)
        return PyErr_Format(PyExc_OverflowError, "span of %d items is too long (at most %d)",
                            n, 100);
    return PyLong_FromLong(n);
}

static PyObject *
spans_get(PyObject *self, PyObject *args)
{
    PyObject *key;
    if (!PyArg_ParseTuple(args, "O", &key))
        return NULL;
    return PyErr_Format(PyExc_KeyError, "no span named %R in %d shelves", key, 3);
}

static PyMethodDef spans_methods[] = {
    {"make", spans_make, METH_VARARGS, "Make a span."},
    {"get", spans_get, METH_VARARGS, "Get a span."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef spans_module = {PyModuleDef_HEAD_INIT, "spans", NULL, -1,
                                          spans_methods};

PyMODINIT_FUNC PyInit_spans(void) { return PyModule_Create(&spans_module); }
"""

RANGE_C = """\
#include <ruby.h>

static VALUE
range_step(VALUE self, VALUE step)
{
    if (NUM2INT(step) == 0)
        rb_raise(rb_eArgError, "step can't be 0");
    return self;
}
"""


def test_an_extension_error_is_its_host_class(
    make_repo: Callable[..., GitRepo], tmp_path: Path
) -> None:
    root, records = mine_once(make_repo, tmp_path, {"src/spans.c": SPANS_C,
                                                     "ext/range.c": RANGE_C})
    negative = one_record_at(records, "src/spans.c", line_with(SPANS_C, "non-negative"))
    assert (negative.record.error_class, negative.record.error_type) == ("ValueError",
                                                                         "exception")
    too_long = one_record_at(records, "src/spans.c", line_with(SPANS_C, "PyExc_OverflowError"))
    assert too_long.record.error_class == "OverflowError"
    named = one_record_at(records, "src/spans.c", line_with(SPANS_C, "no span named"))
    assert named.record.error_class == "KeyError"
    assert any_fullmatch([named], "no span named 'coat' in 3 shelves")  # %R: the object's repr
    step = one_record_at(records, "ext/range.c", line_with(RANGE_C, "rb_raise"))
    assert (step.record.error_class, step.record.error_message) == ("ArgumentError",
                                                                    "step can't be 0")
    paste = ("Traceback (most recent call last):\n"
             '  File "run.py", line 3, in <module>\n'
             "    spans.make(-1)\n"
             "ValueError: span length must be non-negative")
    top = errdex.resolve(paste, db=tmp_path / "once.sqlite").matches[0]
    assert (top.record.file_path, top.record.error_class) == ("src/spans.c", "ValueError")
    if missing("gcc"):
        return
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        return
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    subprocess.run(["gcc", "-shared", "-fPIC", f"-I{include}", "-o", f"spans{suffix}",
                    "src/spans.c"], cwd=root, check=True, capture_output=True)
    for call, record in (("make(-1)", negative), ("make(500)", too_long),
                         ("get('coat')", named)):
        done = subprocess.run(
            [sys.executable, "-c", f"import spans; spans.{call}"], cwd=root,
            capture_output=True, text=True)
        last = done.stderr.strip().splitlines()[-1]
        error_class, _, message = last.partition(": ")
        assert error_class == record.record.error_class, last
        # Python prints a KeyError's message as the repr of its text
        message = message[1:-1].replace("\\'", "'") if error_class == "KeyError" else message
        assert any_fullmatch([record], message), last
