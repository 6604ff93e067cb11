#===- python/vegasflow/_format.py - Numbers and tables for results --------===#
#
# How results print: a value with its error in the compact notation vegas
# users read (gvar's "1.0012(34)": the error's two leading digits in
# parentheses, in units of the value's last digit), and the iteration table
# of Result.summary() in plain text and HTML.
#
#===------------------------------------------------------------------------===#
"""Formatting of values with errors and of iteration tables."""

import html
import math


def fmt_value(mean, sdev):
    """'1.0012(34)': mean with sdev's two leading digits in parentheses."""
    if not (math.isfinite(mean) and math.isfinite(sdev)) or sdev <= 0:
        return f"{mean:.6g}({sdev:.2g})" if sdev else f"{mean:.6g}(0)"
    # Decimal places that show two significant digits of the error.
    decimals = 1 - math.floor(math.log10(sdev))
    if round(sdev, decimals) >= 10 ** (2 - decimals):
        decimals -= 1  # 0.0996 rounds to 0.100: keep two digits
    if decimals > 0:
        err = round(sdev * 10 ** decimals)
        return f"{mean:.{decimals}f}({err})"
    return f"{mean:.0f}({sdev:.0f})"


def fmt_values(means, sdevs):
    """One value, or '[a(1) b(2) ...]' for a vector."""
    if len(means) == 1:
        return fmt_value(means[0], sdevs[0])
    return "[" + " ".join(fmt_value(m, s) for m, s in zip(means, sdevs)) + "]"


_HEADER = ("itn", "integral", "wgt average", "chi2/dof", "Q")


def table_rows(result):
    """The summary's rows: tuples of strings, one per iteration and
    component (warm-up iterations marked 'w', without averages)."""
    rows = []
    k = result.outputs
    for row in result.iterations:
        for c in range(k):
            itn = f"{row.index}{'w' if row.warmup else ''}"
            if k > 1:
                itn += f"[{c}]"
            mean = row.mean[c] if k > 1 else row.mean
            sdev = row.sdev[c] if k > 1 else row.sdev
            if row.warmup:
                avg, chi2, q = "-", "-", "-"
            else:
                cm = row.cum_mean[c] if k > 1 else row.cum_mean
                cs = row.cum_sdev[c] if k > 1 else row.cum_sdev
                avg = fmt_value(cm, cs)
                chi2, q = f"{row.chi2_dof:.2f}", f"{row.Q:.2f}"
            rows.append((itn, fmt_value(mean, sdev), avg, chi2, q))
    return rows


def summary_text(result):
    """vegas's summary table: itn, integral, wgt average, chi2/dof, Q."""
    lines = [f"{_HEADER[0]:<6}{_HEADER[1]:<16}{_HEADER[2]:<16}"
             f"{_HEADER[3]:>8}{_HEADER[4]:>9}", "-" * 55]
    for itn, val, avg, chi2, q in table_rows(result):
        lines.append(f"{itn:>3}   {val:<16}{avg:<16}{chi2:>8}{q:>9}")
    return "\n".join(lines) + "\n"


def summary_html(result):
    """The summary as an HTML table, with the combined result above it."""
    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in _HEADER)
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(cell)}</td>" for cell in row) + "</tr>"
        for row in table_rows(result))
    caption = (f"{esc(result.name)} = {esc(str(result))}, "
               f"chi2/dof = {result.chi2_dof:.2f}, Q = {result.Q:.2f}, "
               f"{result.evaluations:,} evaluations in {result.wall_s:.3g} s")
    return (f"<table><caption>{caption}</caption><thead><tr>{head}</tr>"
            f"</thead><tbody>{body}</tbody></table>")
