"""Plot columns: "Plot the daily high and low temperatures from weather.csv on one chart and save it as
april_temps.png" (columns date, high_c, low_c, rain_mm). The 0.5B model adapted a one-series example to
four values a row, the unpacking failed, and its next try typed the CSV into code to write it back over
weather.csv (ho50). When a request asks for a chart of the one CSV it names, saved as the one picture it
names, the columns of numbers its words name (or the file's only one) are known, and the last run failed,
never read the CSV or left no picture there, the loop offers its own code that draws them, once a turn:
a line over the date column (sorted by date), bars per value of a column of words (summed, or averaged
when asked), a histogram, a pie or a line (over a column of words, in the file's order) when asked."""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(That did not save {picture} with {columns} of {file}."
HOW = "This block draws it and saves it; reply with it, then say what the chart shows, and answer anything else I asked, in one sentence."
PLOT = re.compile(r"\b(?:plot\w*|chart\w*|graph\w*|histogram|visuali[sz]\w*|draw)\b", re.I)
_BAR, _HIST, _PIE = (re.compile(rf"\b(?:{w})\b", re.I) for w in ("bars?|bar\\s*chart|bar\\s*graph", "hist\\w*|distribution",
                                                                "pie"))
# "a line chart of the monthly visitors" (month names are words): the kind named is the kind drawn (ho54 dev,
# session 55: bars were drawn).
_LINE = re.compile(r"\bline\s*(?:chart|graph|plot|diagram)s?\b|\bas\s+a\s+line\b", re.I)
_MEAN = re.compile(r"\b(?:average|mean)\b", re.I)
DATE_FORMATS = ("%Y-%m-%d", "%Y/%m/%d", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S",
                "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%d %b %Y", "%b %d %Y", "%d %B %Y", "%B %d %Y", "%Y-%m")
MAX_SERIES = 4
_IMAGE_STARTS = (b"\x89PNG", b"\xff\xd8", b"%PDF", b"<?xml", b"<svg", b"RIFF")


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "").replace("$", "").replace("%", "").strip())
    except ValueError:
        return None


def date_format(values: list[str]) -> str | None:
    """The one strptime format every (non-blank) value is written in, or None."""
    filled = [v for v in values if v]
    for fmt in DATE_FORMATS:
        try:
            for v in filled:
                datetime.strptime(v, fmt)
        except ValueError:
            continue
        return fmt if filled else None
    return None


def _numeric(values: list[str]) -> bool:
    filled = [v for v in values if v]
    return bool(filled) and all(_number(v) is not None for v in filled)


def asked(request: str, cwd: Path) -> dict[str, Any] | None:
    """What such a request asks to draw: file, picture, x column and its date format (or None), the columns
    of numbers and the kind (line, bar, hist, pie); or None."""
    from oi_local.core.hints import by_stem, mentioned_paths
    from oi_local.core.rules.asked_column import _table, _tokens
    from oi_local.core.rules.plot_file import wanted

    words = instruction(request)
    picture = wanted(words)
    if not PLOT.search(words) or picture is None:
        return None
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in (".csv", ".tsv")]
    files = files or [p for p in by_stem(words, cwd) if p.suffix.lower() in (".csv", ".tsv")]
    if len(files) != 1:
        return None
    table = _table(files[0])
    numbers = [c for c, v in table.items() if _numeric(v)]
    dated = [c for c, v in table.items() if c not in numbers and date_format(v)]
    worded = [c for c in table if c not in numbers and c not in dated]
    x: str | None = (dated or worded)[0] if dated or worded else None
    # the words of the request, the file's and the picture's names left out ("weather" in weather.csv)
    said = re.sub(rf"{re.escape(files[0].name)}|{re.escape(picture)}", " ", words)
    wanted_words = _tokens(said)
    named = sorted((c for c in numbers if c != x and _tokens(c) & wanted_words), key=lambda c: _first(said, c))
    columns = named or ([c for c in numbers if c != x][:1] if len([c for c in numbers if c != x]) == 1 else [])
    if not columns or len(columns) > MAX_SERIES:
        return None
    kind = "hist" if _HIST.search(said) else "pie" if _PIE.search(said) else "bar" if _BAR.search(said) or (
        x is not None and x in worded and not _LINE.search(said)) else "line"
    if kind in ("bar", "pie") and (x is None or x not in worded and x not in dated):
        return None
    base = cwd.resolve()
    file = str(files[0].relative_to(base)) if files[0].is_relative_to(base) else str(files[0])
    return {"file": file, "picture": picture, "x": x, "format": date_format(table[x]) if x in dated else None,
            "columns": columns, "kind": kind, "mean": bool(_MEAN.search(said)),
            "delimiter": "\t" if files[0].suffix.lower() == ".tsv" else ","}


def _first(text: str, column: str) -> int:
    """Where the request first says a word of `column` (to draw them in the order asked)."""
    from oi_local.core.rules.asked_column import _tokens

    spots = [m.start() for t in _tokens(column) for m in re.finditer(rf"\b{re.escape(t)}", text, re.I)]
    return min(spots, default=len(text))


def ready_code(found: dict[str, Any]) -> str:
    file, picture, x, columns, kind = found["file"], found["picture"], found["x"], found["columns"], found["kind"]
    head = ["import csv"] + (["from collections import defaultdict"] if kind in ("bar", "pie") else []) + (
        ["from datetime import datetime"] if found["format"] else []) + [
        "import matplotlib", "matplotlib.use('Agg')  # no window: draw straight into the file",
        "import matplotlib.pyplot as plt", "",
        "def number(text):",
        "    text = (text or '').replace(',', '').replace('$', '').replace('%', '').strip()",
        "    return float(text) if text else float('nan')", "",
        f"with open({file!r}, newline='', encoding='utf-8', errors='replace') as f:",
        f"    rows = list(csv.DictReader(f, delimiter={found['delimiter']!r}))"]
    body: list[str] = []
    if kind == "hist":
        body += [f"plt.hist([number(r[{c!r}]) for r in rows], bins=10, alpha=0.6, label={c!r})" for c in columns]
        body += [f"plt.xlabel({' / '.join(columns)!r})", "plt.ylabel('count')"]
    elif kind in ("bar", "pie"):
        how = "average" if found["mean"] else "total"
        body += ["groups = defaultdict(list)", "for r in rows:",
                 f"    groups[r[{x!r}].strip()].append(number(r[{columns[0]!r}]))",
                 f"values = {{k: {'sum(v) / len(v)' if found['mean'] else 'sum(v)'} for k, v in groups.items()}}",
                 f"print({how!r}, {columns[0]!r}, 'per', {x!r}, {{k: round(v, 2) for k, v in values.items()}})"]
        body += ["plt.pie(list(values.values()), labels=list(values), autopct='%1.0f%%')"] if kind == "pie" else [
            "plt.bar(list(values), list(values.values()))", f"plt.xlabel({x!r})", f"plt.ylabel({how + ' ' + columns[0]!r})",
            "plt.xticks(rotation=45, ha='right')"]
    else:
        if found["format"]:
            body += [f"for r in rows:\n    r['when'] = datetime.strptime(r[{x!r}].strip(), {found['format']!r})",
                     "rows.sort(key=lambda r: r['when'])", "xs = [r['when'] for r in rows]"]
        else:
            body += [f"xs = [r[{x!r}].strip() for r in rows]" if x else "xs = list(range(1, len(rows) + 1))"]
        body += [f"plt.plot(xs, [number(r[{c!r}]) for r in rows], marker='o', label={c!r})" for c in columns]
        body += [f"plt.xlabel({x or 'row'!r})"] + (["plt.gcf().autofmt_xdate()  # slanted date labels"] if x else [])
        if found["format"]:
            body += ["print(len(rows), 'rows from', xs[0].date(), 'to', xs[-1].date())"]
            # the highest and lowest points, for the answer to name: asked for a line chart of monthly visitors "and
            # tell me which month was the busiest", this code printed the range alone (ho57, session 58's start run)
            for c in columns:
                body += [f"known = [r for r in rows if number(r[{c!r}]) == number(r[{c!r}])]",
                         f"top = max(known, key=lambda r: number(r[{c!r}]))",
                         f"low = min(known, key=lambda r: number(r[{c!r}]))",
                         f"print('highest {c}:', top[{x!r}].strip(), number(top[{c!r}]), '| lowest:', low[{x!r}].strip(), "
                         f"number(low[{c!r}]))"]
        elif x:  # the points drawn, for the answer to name
            body += [f"print({c!r}, 'per', {x!r}, dict(zip(xs, [number(r[{c!r}]) for r in rows])))" for c in columns]
    if len(columns) > 1 and kind != "pie":
        body += ["plt.legend()"]
    body += ["plt.tight_layout()", f"plt.savefig({picture!r})", f"print('saved', {picture!r}, 'with', {', '.join(columns)!r})"]
    return "\n".join(head + body)


def _drawn(picture: str) -> bool:
    try:
        with open(picture, "rb") as f:
            return f.read(8).startswith(_IMAGE_STARTS)
    except OSError:
        return False


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["plot columns"]:
        return None
    try:
        found = asked(turn.request, Path.cwd())
    except (OSError, UnicodeError):
        return None
    if found is None:
        return None
    read = Path(found["file"]).name in last.code or Path(found["file"]).stem in last.code
    if not last.failed and read and _drawn(found["picture"]):
        return None
    turn.counts["plot columns"] += 1
    return own_code(turn.engine, NOTE.format(picture=found["picture"], columns=" and ".join(found["columns"]),
                                             file=found["file"]), ready_code(found), HOW)


rule = Rule(
    name="plot columns", setting="check_outputs", after_run=after_run,
    summary="asked for a chart of the one CSV a request names, saved as the one picture it names, of the columns of "
            "numbers its words name (or the file's only one): a run that failed, never read the CSV or left no picture "
            "gets the loop's own code that draws them (a line over the date column, bars per value of a column of words, "
            "a histogram, a pie or a line over words when asked) and saves the picture (once a turn)")
