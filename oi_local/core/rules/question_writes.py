"""Writes for a question: a question changes nothing, so code for one that overwrites, appends to
or deletes a file that exists is a slip (the 0.5B model, asked how many IPs were in access.log,
copied its fix example and overwrote the log; asked which photos were not backed up yet, it deleted
every .HEIC file of the backup folder in a loop). Code that deletes, moves or renames files counts
whatever its paths are. Code that makes a file at a path a run of the turn found is not there, for a
request that does not ask for that file to be made, is refused too, question or not (asked when the
dog's booster was due, "should be in pets/vet_records.csv", which was not there, the model's third try
made an empty one, and the turn ended "The code ran without errors"); so is code that makes a file a
question names that is not there (a made-up total appended to the missing invoices_2024.csv). Not auto-run: the first time,
the try is hidden and the request asked afresh; a person confirming is warned first."""
from __future__ import annotations

from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry

MADE = ("Not run: this code makes {paths}, which a run found is not there; the request reads it and does not ask "
        "for it to be made. If a file the request names is not there, say so.")
MADE_WARNING = "this code makes {paths}, which is not there; the request reads it and does not ask for it to be made."
NOTE = ("Not run: this code changes {paths}, but the request only asks a question. Write code that "
        "reads the files and prints the answer, without writing to any file.")
WARNING = "this code changes {paths}, but the request only asks a question."
FRESH = "(A first try was not run: {why} Write one ```python block that does what I asked.)"
REFUSED = "not run"  # the count shared with the deletion rule: the second refusal ends the turn


def refuse(turn: Turn, note: str, warning: str) -> Verdict:
    """Not run where no one confirms (the model hears why; the second time the turn ends); a
    person confirming sees the warning before the question."""
    if turn.approve is not None:
        return Verdict(warning="Careful: " + warning)
    turn.counts[REFUSED] += 1
    first = turn.counts[REFUSED] <= 1
    # Asked again with the refused code in view, the 0.5B model mostly stopped ("This is not done"),
    # and the refused code was mostly a worked example copied: the try is hidden, the examples
    # picked for the request left out, and the request asked afresh, sampled.
    why = note[len("Not run: "):] if note.startswith("Not run: ") else note
    fresh = Ask(FRESH.format(why=why), code_retry(turn.engine, 3),
                hide=True, drop_recipes=True) if first and turn.steps_left else None
    if not first:  # asked to fix a script, the loop's own repair instead of the end (ho40: two fixes written over the data)
        from oi_local.core.rules.crash_fix import offer

        fresh = offer(turn)
        first = fresh is not None
    return Verdict(note=note, shown="Not run: " + warning, again=first, stop=not first, ask=fresh)


def _made_missing(turn: Turn, block: Block) -> list[str]:
    """Paths the code writes that a failed run of this turn found not there."""
    from oi_local.core.errors import missing_paths
    from oi_local.core.rules.turn import error_line
    from oi_local.core.writes import changed_paths

    gone = set()
    for r in turn.runs:  # a file a run read and found missing (not one it wrote into a missing folder)
        for p in missing_paths(error_line(r.output)) if r.failed else []:
            try:
                written = changed_paths(r.lang, r.code)
            except SyntaxError:
                written = []
            if p not in written and Path(p).parent.is_dir():
                gone.add(p)
    try:
        return [p for p in dict.fromkeys(changed_paths(block.lang, block.code)) if p in gone and not Path(p).exists()]
    except SyntaxError:
        return []


def _named_missing(turn: Turn, block: Block) -> list[str]:
    """Paths the code writes that a question names and that are not there: asked what was invoiced in
    2024, "it should all be in freelance/invoices_2024.csv" (not there), the model's second try appended
    a made-up total to that file, and the answer read it back. A question reads the file it names."""
    import re

    from oi_local.core.rules.turn import instruction
    from oi_local.core.writes import changed_paths, question

    words = instruction(turn.request)
    if not question(words):
        return []
    try:
        written = dict.fromkeys(changed_paths(block.lang, block.code))
    except SyntaxError:
        return []
    return [p for p in written if "." in Path(p).name and not Path(p).exists() and Path(p).parent.is_dir()
            and re.search(rf"(?<![\w/.-]){re.escape(p)}(?![\w/-])", words)]


def _dirs_named_as_files(turn: Turn, block: Block) -> list[str]:
    """Folders the code makes under the name of a file the request names that is not there: asked to
    add up expenses_march.csv (not there), the 0.5B model wrote `os.makedirs("expenses_march.csv")`,
    then failed to open it (ho6-honest-missing-file)."""
    import ast
    import re

    if block.lang != "python":
        return []
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return []
    found = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        f = n.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if name in ("makedirs", "mkdir") and n.args and isinstance(n.args[0], ast.Constant):
            path = n.args[0].value
        elif name == "mkdir" and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call) and f.value.args \
                and isinstance(f.value.args[0], ast.Constant):
            path = f.value.args[0].value  # Path("x.csv").mkdir()
        else:
            continue
        if isinstance(path, str) and re.search(r"\.[A-Za-z][A-Za-z0-9]{1,4}$", path) and not Path(path).exists() \
                and re.search(rf"(?<![\w/.-]){re.escape(path)}(?![\w/-])", turn.request):
            found.append(path)
    return found


def _asked_for(request: str, path: str) -> bool:
    """The request asks for this file to be made ("save it as out/summary.csv", "create notes.txt")."""
    import re

    from oi_local.core.rules.outputs import TARGET

    made = {m.group(1).rstrip(".") for m in TARGET.finditer(request)}
    return path in made or Path(path).name in made or re.search(
        r"\b(?:create|make|start)\s+(?:(?:a|an|the|new|empty|blank)\s+)*(?:file|one|it)\b", request, re.I) is not None


def check(turn: Turn, block: Block) -> Verdict | None:
    from oi_local.core.rules.turn import instruction
    from oi_local.core.writes import changed_existing, question, removes_any

    made = [p for p in dict.fromkeys(_made_missing(turn, block) + _named_missing(turn, block)
                                     + _dirs_named_as_files(turn, block))
            if not _asked_for(turn.request, p)][:5]
    if made:  # a file the request reads, found missing: made empty, it hides that (question or not)
        return refuse(turn, MADE.format(paths=", ".join(made)), MADE_WARNING.format(paths=", ".join(made)))
    # the person's own words: a pasted ticket export's "Request a larger mailbox quota" made a question about it a
    # change, and the 0.5B model's code wrote over the saved paste (ho57, session 58's end run)
    if not question(instruction(turn.request)):
        return None
    changed = changed_existing(block.lang, block.code, Path.cwd())[:5]
    if not changed and not removes_any(block.lang, block.code):
        return None
    paths = ", ".join(changed) or "files (it deletes, moves or renames them)"
    return refuse(turn, NOTE.format(paths=paths), WARNING.format(paths=paths))


rule = Rule(
    name="writes for a question", guards=True, setting="confirm_destructive", check=check,
    summary="code written for a question (\"How many IPs are in access.log?\") that would overwrite, append to or "
            "delete a file that exists, or that deletes, moves or renames any file, is not auto-run: shown and "
            "confirmed, or, where no one can confirm, not run and the request asked afresh once (the try hidden, "
            "the reason named); so is code that makes a file a run of the turn found missing, or that a question "
            "names and that is not there (or a folder under the name of such a file: `os.makedirs(\"expenses_march.csv\")`), "
            "when the request does not ask for it to be made")
