#===- tests/integration/option_doors.py - Every option in every door -----===#
#
# The option table (vf/Options.def, read through the Python module's
# options()) names each option's vegasc flag, TOML key, Python keyword and
# JSON key: each must exist in its door, and docs/user-guide.md must hold
# the options table this script generates from it. After a change to the
# table, `option_doors.py VEGASC PYTHON_DIR --write-docs` rewrites that
# section of the docs.
#
# usage: option_doors.py VEGASC PYTHON_DIR [--write-docs]
#
#===----------------------------------------------------------------------===#
import inspect
import math
import os
import re
import subprocess
import sys

from vftest import check, finish, vegasc, workdir, write_source

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                    "user-guide.md")
BEGIN = ("<!-- The options table: generated from runtime/include/vf/"
         "Options.def by tests/integration/option_doors.py --write-docs. -->")
END = "<!-- End of the options table. -->"


def bound(v):
    """A range's end as the library's messages say it (rangeText)."""
    if v >= 1e7 and math.log10(v).is_integer():
        return f"1e{int(math.log10(v))}"
    return f"{v:.15g}"


def range_text(row):
    if row["lo"] == row["hi"]:
        return ""
    if math.isinf(row["hi"]):
        return f">= {bound(row['lo'])}"
    return f"{bound(row['lo'])} to {bound(row['hi'])}"


def docs_table(rows):
    """The markdown table of every option, one row each."""
    code = lambda s: f"`{s}`" if s else "-"
    lines = [BEGIN, "",
             "| option | type | range | default | unit | `vegasc` flag "
             "| TOML key | Python keyword | JSON key | meaning |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cells = [code(r["name"]), r["type"], range_text(r) or "-",
                 code(r["default"]), r["unit"] or "-", code(r["flag"]),
                 code(r["toml"]), code(r["python"]), code(r["json"]),
                 r["description"].replace("|", "\\|")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines + ["", END])


def check_docs(rows, write):
    with open(DOCS) as f:
        text = f.read()
    start, end = text.find(BEGIN), text.find(END)
    if not check(start >= 0 and end > start,
                 "docs/user-guide.md has the generated options table"):
        return
    want = text[:start] + docs_table(rows) + text[end + len(END):]
    if write:
        with open(DOCS, "w") as f:
            f.write(want)
    check(text == want, "docs/user-guide.md's options table is the "
          "table's (rerun with --write-docs)")


def check_flags(exe, rows):
    out = subprocess.run([exe, "--help"], capture_output=True,
                         text=True).stdout
    for r in rows:
        if r["flag"]:
            check(re.search(rf"(^|[\s,]){re.escape(r['flag'])}\b", out),
                  f"vegasc --help lists {r['flag']}")


def check_toml(exe, rows):
    # A value of a type no key takes: each key's own error, never "unknown".
    for r in rows:
        if not r["toml"]:
            continue
        path = os.path.join(workdir(), f"{r['name']}.toml")
        with open(path, "w") as f:
            f.write(f"[defaults]\n{r['toml']} = [[1]]\n\n[[run]]\n"
                    "source = \"integrand f(x in [0, 1]) = x\"\n")
        p = subprocess.run([exe, path], capture_output=True, text=True)
        check(p.returncode != 0 and f"'{r['toml']}'" in p.stderr
              and "unknown key" not in p.stderr,
              f"TOML key {r['toml']} is read (and its bad value refused)")


def check_python(rows):
    import vegasflow
    keywords = inspect.signature(vegasflow.Integrator).parameters
    for r in rows:
        if r["python"]:
            p = keywords.get(r["python"])
            shown = "none" if p is None or p.default is None else str(p.default)
            check(p is not None and shown == r["default"],
                  f"vegasflow.Integrator takes {r['python']}= "
                  f"(default {r['default']})")


def check_json(exe, rows):
    src = write_source("doors", "integrand f(x in [0, 1]) = x\n")
    run = vegasc(exe, [src, "-q", "--calls", "100", "--iterations", "1",
                       "--warmup", "0", "--devices", "cpu:1"])
    if not check(run.doc is not None, "vegasc writes the JSON result"):
        print(run)
        return
    for r in rows:
        if r["json"]:
            check(r["json"] in run.doc["settings"],
                  f"the JSON settings record {r['json']}")


def main():
    exe, pydir = sys.argv[1], sys.argv[2]
    sys.path.insert(0, pydir)
    from vegasflow import _vegasflow
    rows = _vegasflow.options()
    check(len(rows) >= 18, "the table has every option")
    check_docs(rows, "--write-docs" in sys.argv)
    check_flags(exe, rows)
    check_toml(exe, rows)
    check_python(rows)
    check_json(exe, rows)
    finish()


if __name__ == "__main__":
    main()
