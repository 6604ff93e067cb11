#===- tests/python/test_stubs.py - Stubs and docstrings --------------------===#
#
# The .pyi stubs name every public name and member the package has (and
# nothing it lacks), and every public name and member has a docstring;
# help(vf.Integrator) reads like vegas's (Args:, defaults, Raises:).
#
#===------------------------------------------------------------------------===#
import ast
import inspect
import pathlib
import pydoc

import vegasflow as vf
from vegasflow import _vegasflow

PACKAGE = pathlib.Path(vf.__file__).parent


def stub_names(path):
    """{top-level name: set of member names (classes) or None}."""
    tree = ast.parse(path.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            names[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = None
        elif isinstance(node, ast.AnnAssign):
            names[node.target.id] = None
    return names


def own_members(cls):
    """Public members a class defines itself (not inherited from builtins,
    not NamedTuple machinery such as _fields, count, index)."""
    base = set()
    for b in cls.__mro__[1:]:
        if b.__module__ == "builtins" or b.__module__.startswith("typing"):
            base |= set(vars(b))
    fields = set(getattr(cls, "__dataclass_fields__", {}))
    fields |= set(getattr(cls, "_fields", ()))
    names = {n for n in dir(cls) if not n.startswith("_")} - base
    return names | fields


def test_every_public_name_is_in_the_stub():
    stubs = stub_names(PACKAGE / "__init__.pyi")
    for name in vf.__all__:
        assert name in stubs, name
        obj = getattr(vf, name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            missing = own_members(obj) - stubs[name]
            assert not missing, f"{name}: {sorted(missing)} not in the stub"
    for name, members in stubs.items():
        if name.startswith("_"):
            continue
        assert hasattr(vf, name), f"stub names {name}, the package has not"
        obj = getattr(vf, name)
        for m in members or ():
            if m.startswith("__"):
                continue
            # A class attribute, a field, or an attribute set in __init__.
            source = inspect.getsource(obj) if inspect.isclass(obj) else ""
            assert (hasattr(obj, m) or m in own_members(obj)
                    or f"self.{m} " in source or f"self.{m}," in source), \
                f"the stub names {name}.{m}, the package has not"


def test_every_public_name_has_a_docstring():
    assert vf.__doc__ and "Integrator" in vf.__doc__
    for name in vf.__all__:
        obj = getattr(vf, name)
        assert inspect.getdoc(obj), name
        if inspect.isclass(obj):
            for m in own_members(obj):
                attr = inspect.getattr_static(obj, m, None)
                if callable(attr) or isinstance(attr, property):
                    assert inspect.getdoc(attr), f"{name}.{m}"


def test_help_reads_like_vegas():
    text = pydoc.render_doc(vf.Integrator, renderer=pydoc.plaintext)
    for phrase in ("Args:", "calls:", "default 10**6", "iterations:",
                   "warmup:", "devices:", "seed:", "alpha:", "beta:",
                   "Raises:", "run(self, iterations=None", "Returns:",
                   "sample(self, n)", "set_param"):
        assert phrase in text, phrase


def test_extension_stub_matches_the_extension():
    stubs = stub_names(PACKAGE / "_vegasflow.pyi")
    for name, members in stubs.items():
        obj = getattr(_vegasflow, name)
        for m in members or ():
            if not m.startswith("__"):
                assert hasattr(obj, m), f"_vegasflow.{name}.{m}"
    public = {n for n in dir(_vegasflow) if not n.startswith("__")}
    assert public - set(stubs) == set(), public - set(stubs)
