#!/usr/bin/env python3
#===- tests/integration/library_exports.py - libvegasflow.so's exports ---===#
#
# Usage: library_exports.py NM LIBVEGASFLOW.so VERSION_SCRIPT HEADER...
#
# cmake/vegasflow.map, which decides what libvegasflow.so exports, is kept
# by hand; a function added to an installed header and forgotten there
# links in the tree (tests link the static layers) and fails only for an
# outside user. This test makes forgetting it fail here instead:
#  1. every function the C API (vf_c.h) declares is exported (nm -D);
#  2. every C++ free function of namespace vf that an installed header
#     declares without a body is exported: an inline one is compiled by
#     the user and needs no export;
#  3. every C++ pattern of the version script matches an exported symbol,
#     so a renamed function does not leave a stale entry behind.
# Members of the classes are exported by the map's vf::Class::* patterns;
# a class that grows out-of-line members needs its own pattern, which 3
# cannot tell (that is what the embed and C API example tests cover).
#
#===----------------------------------------------------------------------===#
import fnmatch
import re
import subprocess
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def nm(tool, lib, *flags):
    """(type, name) of each symbol the library defines."""
    out = subprocess.run([tool, "--defined-only", *flags, lib], check=True,
                         capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            syms.append((parts[1], parts[2]))
    return syms


# A declaration at the start of a line (namespace scope: class members are
# indented, and access specifiers, which start a line, begin class text)
# that ends in `;` (no body): the last name before its `(`.
FREE_FN = re.compile(r"^(?![\s#}]|class\b|struct\b|enum\b|using\b|namespace\b"
                     r"|template\b|typedef\b|inline\b|constexpr\b|static\b"
                     r"|extern\b|public:|protected:|private:)"
                     r"[^;{}()]*?\b(\w+)\s*\([^;{}]*\)\s*;",
                     re.M)


def declared(headers):
    c_api, cxx = set(), set()
    for path in headers:
        text = strip_comments(open(path, encoding="utf-8").read())
        for name in FREE_FN.findall(text):
            (c_api if name.startswith("vf_") else cxx).add(name)
    return c_api, cxx


def main():
    tool, lib, script, headers = sys.argv[1], sys.argv[2], sys.argv[3], \
        sys.argv[4:]
    c_api, cxx = declared(headers)
    # A regex that stopped matching would pass vacuously.
    if "vf_run" not in c_api or "listDevices" not in cxx:
        sys.exit(f"FAIL: the headers' declarations were not found "
                 f"(C: {sorted(c_api)}, C++: {sorted(cxx)})")
    exported = [s for t, s in nm(tool, lib, "-D") if t in "TWiVDBR"]
    demangled = [s for t, s in nm(tool, lib, "-D", "-C") if t in "TWiVDBR"]
    problems = []
    for name in sorted(c_api - set(exported)):
        problems.append(f"C API function {name} (vf_c.h) is not exported")
    for name in sorted(cxx):
        # In vf or a namespace inside it (vf::detail).
        qualified = re.compile(rf"vf::(\w+::)*{name}(\(|\[abi:)")
        if not any(qualified.match(s) for s in demangled):
            problems.append(f"vf::{name} is declared in an installed header "
                            f"but not exported: add `vf::{name}*;` to "
                            f"cmake/vegasflow.map")
    body = strip_comments(open(script, encoding="utf-8").read())
    block = re.search(r'extern\s+"C\+\+"\s*\{(.*?)\}', body, flags=re.S)
    patterns = re.findall(r"([^\s;]+)\s*;", block.group(1)) if block else []
    if not patterns:
        problems.append("no extern \"C++\" patterns found in the map")
    for pat in patterns:
        if not any(fnmatch.fnmatchcase(s, pat) for s in demangled):
            problems.append(f"map pattern {pat} matches no exported symbol")
    for p in problems:
        print("FAIL:", p)
    if problems:
        sys.exit(1)
    print(f"ok: {len(c_api)} C functions, {len(cxx)} C++ free functions, "
          f"{len(patterns)} C++ patterns")


if __name__ == "__main__":
    main()
