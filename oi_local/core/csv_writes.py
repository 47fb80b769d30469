"""A CSV written with DictWriter and no column names: `csv.DictWriter(f).writeall(stock)` fails with
"missing 1 required positional argument: 'fieldnames'" (and there is no writeall). Asked to set one item's
stock in stock.csv, the 0.5B model failed so, and its run had emptied the file (ho46, a development run of
session 50). The columns are the rows' own keys; the header is written first, then the rows."""
from __future__ import annotations

import re

MISSING = "DictWriter.__init__() missing 1 required positional argument: 'fieldnames'"
# `csv.DictWriter(f).writerows(rows)` on one line
_INLINE = re.compile(r"(?m)^([ \t]*)csv\.DictWriter\(\s*(\w+)\s*\)\.(?:writeall|writerows|write_rows)\(\s*(\w+)\s*\)[ \t]*$")
# `w = csv.DictWriter(f)`, with `w.writerows(rows)` (or writeall) later
_NAMED = re.compile(r"(?m)^([ \t]*)(\w+)\s*=\s*csv\.DictWriter\(\s*(\w+)\s*\)[ \t]*$")


def fieldnames_given(code: str) -> str | None:
    """The code with the writer given the rows' keys as its columns and the header written, or None."""
    fixed = _INLINE.sub(lambda m: f"{m[1]}writer = csv.DictWriter({m[2]}, fieldnames=list({m[3]}[0]))\n"
                                  f"{m[1]}writer.writeheader()\n{m[1]}writer.writerows({m[3]})", code)
    for m in reversed(list(_NAMED.finditer(fixed))):
        writer = m[2]
        rows = re.search(rf"\b{re.escape(writer)}\.(?:writeall|writerows)\(\s*(\w+)\s*\)", fixed[m.end():])
        if rows is None:
            continue
        header = "" if re.search(rf"\b{re.escape(writer)}\.writeheader\(", fixed) else f"\n{m[1]}{writer}.writeheader()"
        fixed = (fixed[:m.start()] + f"{m[1]}{writer} = csv.DictWriter({m[3]}, fieldnames=list({rows[1]}[0])){header}"
                 + fixed[m.end():])
    fixed = re.sub(r"\.writeall\(", ".writerows(", fixed)
    if fixed == code:
        return None
    if not re.search(r"^\s*import (?:[\w, ]*, )?csv\b", fixed, re.M):
        fixed = "import csv\n" + fixed
    return fixed.strip()
