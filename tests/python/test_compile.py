#===- tests/python/test_compile.py - compile(), Module, Integrand ----------===#
import os
import pathlib

import numpy as np
import pytest

import vegasflow as vf
from conftest import GAUSS4, LEPAGE, MOMENTS


def test_compile_text_gives_the_integrands_shape_and_params():
    """ compile(text) """
    m = vf.compile(GAUSS4 + MOMENTS.replace("param b = 2", "param b = 3"))
    assert m.names == ["gauss", "moments"]
    assert len(m) == 2 and "gauss" in m and "nope" not in m
    assert [i.name for i in m] == m.names
    g = m["gauss"]
    assert g is m.gauss and m.integrands["gauss"] is g
    # Parameters belong to the file: every integrand has them all.
    assert (g.dim, g.outputs, g.params) == (4, 1, {"a": 0.1, "b": 3.0})
    assert (m.moments.dim, m.moments.outputs) == (2, 3)
    assert m.moments.params == {"a": 0.1, "b": 3.0}
    assert "gauss" in dir(m) and "gauss" in repr(m) and "dim=4" in repr(g)


def test_compile_file_str_and_pathlike():
    """ compile(path) """
    for src in (str(LEPAGE), LEPAGE, os.path.relpath(LEPAGE)):
        lepage = vf.compile(src).integrand()
        assert (lepage.name, lepage.dim, lepage.params) == ("lepage", 8,
                                                             {"a": 0.1})


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.vf"):
        vf.compile(str(tmp_path / "nope.vf"))
    with pytest.raises(TypeError, match="bytes"):
        vf.compile(b"integrand f(x in [0, 1]) = x[0]")


def test_compile_error_has_caret_and_locations(tmp_path):
    """ CompileError: message, errors, file, line, column """
    src = "param a = 1\nintegrand f(x in [0, 1]^2) =\n    exq(x[0]) + y\n"
    with pytest.raises(vf.CompileError) as info:
        vf.compile(src, name="bad.vf")
    e = info.value
    assert isinstance(e, vf.Error) and isinstance(e, RuntimeError)
    assert "unknown function 'exq'" in str(e) and "^" in str(e)
    assert (e.file, e.line, e.column) == ("bad.vf", 3, 5)
    assert [(d.line, d.column) for d in e.errors] == [(3, 5), (3, 17)]
    assert "'y'" in e.errors[1].message
    bad = tmp_path / "bad.vf"
    bad.write_text(src)
    with pytest.raises(vf.CompileError) as info:
        vf.compile(bad)
    assert info.value.file == str(bad) and info.value.line == 3


def test_integrand_domain_follows_parameters(moments):
    """ Integrand.domain """
    assert moments.domain().tolist() == [[0, 2], [0, 2]]
    assert moments.domain(b=5).tolist() == [[0, 5], [0, 5]]
    with pytest.raises(vf.Error, match="empty|inverted|interval"):
        moments.domain(b=-1)
    with pytest.raises(ValueError, match="no parameter 'c'"):
        moments.domain(c=1)


def test_integrand_call_evaluates_points(gauss, moments):
    """ Integrand.__call__ """
    x = np.random.default_rng(1).random((5, 4))
    want = np.prod(np.exp(-(x - 0.5) ** 2 / 0.01) / (0.1 * np.sqrt(np.pi)),
                   axis=1)
    np.testing.assert_allclose(gauss(x), want, rtol=1e-13)
    np.testing.assert_allclose(gauss(x, a=0.2)[0], np.prod(
        np.exp(-(x[0] - 0.5) ** 2 / 0.04) / (0.2 * np.sqrt(np.pi))),
        rtol=1e-13)
    assert isinstance(gauss(x[0]), float)
    v = moments([1.0, 0.5], b=4)
    assert v.shape == (3,) and v.tolist() == [0.25, 0.25, 0.25]
    assert moments(np.zeros((7, 2))).shape == (7, 3)
    with pytest.raises(ValueError, match=r"\(n, 4\)"):
        gauss(np.zeros((3, 2)))


def test_module_lookup_errors():
    m = vf.compile(GAUSS4 + MOMENTS)
    with pytest.raises(KeyError, match="'nope'.*gauss"):
        m["nope"]
    with pytest.raises(AttributeError):
        m.nope
    with pytest.raises(ValueError, match="2 integrands"):
        m.integrand()


def test_warnings_and_cache(tmp_path):
    """ Module.warnings, Module.from_cache, cache=, cache_dir= """
    src = "param unused = 1\nintegrand f(x in [0, 1]) = x[0]\n"
    m = vf.compile(src, cache_dir=tmp_path)
    assert "unused" in m.warnings and not m.from_cache
    assert vf.compile(src, cache_dir=tmp_path).from_cache
    assert not vf.compile(src, cache_dir=tmp_path, cache=False).from_cache
    assert vf.compile(GAUSS4).warnings == ""


TOY_SET = (pathlib.Path(__file__).resolve().parents[1] / "testdata" / "pdf" /
           "VFToyLO")
PDF_SRC = 'pdf p = "NoSuchSetHere"\nintegrand u(x in [1e-3, 1]) = ' \
    'xfx(p, 2, x, 100, 1) - xfx(p, 2, x, 100)\n'


def test_pdf_sets_replace_an_items_set():
    """ pdf_sets={item: folder} replaces the set the source names (which
    does not exist here): member 1 of the test set is member 0 with the
    gluon scaled, so the u quark is the same """
    m = vf.compile(PDF_SRC, pdf_sets={"p": TOY_SET})
    assert m.u(np.array([[0.1], [0.5]])).tolist() == [0.0, 0.0]
    with pytest.raises(vf.CompileError, match="NoSuchSetHere"):
        vf.compile(PDF_SRC)
    with pytest.raises(vf.CompileError, match="a PDF set was chosen for 'q'"):
        vf.compile(PDF_SRC, pdf_sets={"p": TOY_SET, "q": TOY_SET})
    with pytest.raises(TypeError, match="pdf_sets"):
        vf.compile(PDF_SRC, pdf_sets={"p": 3})
