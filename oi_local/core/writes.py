"""Code that changes files, written for a request that only asks a question.

Asked "How many different IP addresses appear in access.log?", the 0.5B model copied the shape of
its fix example and wrote `open("access.log", "w").write(...)`: the user's log, gone, for a
question. A question changes nothing, so code for one that overwrites, appends to or deletes a file
that exists is not run without a person's yes. Read, not run: literal paths only, like deletions.py.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from oi_local.core.deletions import _commands, _literal, _name, _read, deleted_paths

# A request that asks something and says to change nothing.
# People type "whats", "how's" and put the question first ("whats my average? it's all in rides.csv").
_QUESTION = re.compile(
    r"^\s*(how\b|what\b|which\b|who\b|when\b|where\b|why\b|is\b|are\b|does\b|do\b|did\b|was\b|were\b|"
    r"(?:what|how|where|who|which)'?s\b|count\b|tell me\b|show me\b|list\b|find out\b)|\?(?=\s|$)", re.I)
_STEMS = (  # verbs without a final e, so that one suffix list fits "save", "saves", "saved", "saving"
    "add append writ sav chang edit updat replac renam mov copy copi creat mak fix repair correct sort convert insert "
    "remov delet set put stor join merg split format clean fill modif modifi strip revers overwrit generat build "
    "install run execut compress zip unzip extract truncat empt empti clear reset drop keep turn undo encrypt decrypt "
    "download upload send appl appli patch resiz trim dedupl dedup lowercas uppercas capitaliz capitalis rotat crop "
    "tidy tidi organiz organis archiv backup back restor purg wip eras kill stop start restart chmod touch mkdir "
    # verbs of an edit that say nothing else ("could you combine a.txt and b.txt into one file?")
    "combin swap translat duplicat shorten rearrang reorder alphabetiz alphabetis normaliz normalis standardiz "
    "standardis anonymiz anonymis redact censor prepend indent uncomment renumber"
).split()
# Not the -s forms: they describe ("everyone adds one line per book", "the card machine adds them
# in") or are nouns ("downloads", "parkruns"); a request to change says "add", "added", "adding". Read
# as a change, "How many lines are in to_read.txt? Everyone adds one line per book" got an example
# that appends, and the 0.5B model appended a line to the person's list for a question.
# "mark that one as done", "tick it off": a change to a list, though "mark" alone is mostly a noun
# ("every mark is between 71 and 92"). Asked "..., can you mark that one as done in the file?", the
# write was refused as code for a question.
_MARK = (r"\b(?:mark|tick|cross)(?:s|ing)?\s+(?:[\w'-]+\s+){0,4}?(?:as\b|done\b|off\b|complete)|"
         r"\bcheck(?:s|ing)?\s+(?:[\w'-]+\s+){0,4}?off\b")
# "can you get rid of all of them? and how many were there?": a deletion asked for (read as a
# question, the deleting code was refused).
_RID = r"\bget(?:ting)?\s+rid\s+of\b|\bthrow(?:ing)?\s+(?:[\w'-]+\s+){0,3}?(?:away|out)\b"
_CHANGES = re.compile(r"\b(?:" + "|".join(_STEMS) + r")(?:e|ed|d|ing|ion|ions|y|ied)?\b|"
                      r"\b(?:written|wrote|made|kept|ran|put)\b|" + _MARK + "|" + _RID, re.I)

_SHELL_WRITERS = {"tee", "truncate", "dd"}
_REDIRECT = re.compile(r"(?<![0-9&<])>>?\s*([^\s;&|<>]+)")


# A verb said not to be done: "don't delete anything yet", "without changing the files".
_NEGATED = re.compile(r"\b(?:don['’]?t|do\s+not|never|without|no\s+need\s+to)\s+(?:(?:yet|ever|even|to|you|please|"
                      r"any(?:thing)?|\w+ly)\s+)?\w+", re.I)


def unnegated(text: str) -> str:
    """`text` without the verbs it says not to do."""
    return _NEGATED.sub(" ", text)


# Words that are not verbs there: a path ("archive/site_backup.tar.gz" read as "archive it") and
# the noun a question word asks about ("which crop gave the most?" read as "crop the picture").
# and a verb that says what the person (or others) do: "i keep one seed packet per line" is a habit,
# not an ask; read as one, the 0.5B model's `open(..., "w")` emptied seed_notes.txt for a line count.
# "can i add ..." still asks.
# After "a", "each", "my" ... a word is a thing, not a change: "the average distance of a run on each route"
# (read as a change, the question's answer "route" was never checked, ho37).
# "What do all the invoices add up to?" sums; it adds nothing (read as a change, the invoices example
# counted half and another came first).
# A verb after "are", "was", "been" ... says what happened, not what to do: "some pictures are saved twice ...
# Can you find which files are exact copies?" (read as a change, it ended "no file ... was changed", ho38).
_NOT_VERBS = re.compile(r"\badd(?:s|ed|ing)?\s+up\b|"
                        r"\b(?:a|an|the|each|every|per|my|your|our|their|its)\s+[\w-]+|"
                        r"\b(?:is|are|was|were|been|being)\s+(?:(?:\w+ly|all|also|not|already)\s+)?[a-z]+(?:ed|en)\b|"
                        r"[\w.-]*/[\w./-]*|\b[\w-]+\.[A-Za-z]\w{0,4}\b|"
                        r"\b(?:which|what|whose|how\s+many|how\s+much)\s+\w+|"
                        r"(?<!can )(?<!could )(?<!should )(?<!may )\b(?:i|we|they)\s+"
                        r"(?:(?:always|usually|normally|just|only|also|still|then)\s+)?\w+(?:\s+(?:or|and)\s+\w+)?", re.I)


# A past form inside a wh- question tells what happened, it asks for no change: "how many people
# joined in 2024?" was read as a join, and the honest end said "no file in the working folder was changed".
_WH_ASKED = re.compile(r"\b(?:how\s+(?:many|much|often|long)|which|what|who|when)\b[^?.!]*\?", re.I)


# So is a verb after "did"/"does" there: "how many new files did it copy in total?" asks what it did.
_DID = re.compile(r"\b(did|does|do)\s+((?:the\s+|my\s+|our\s+)?\w+(?:\s+\w+)??)\s+\w+", re.I)


# Irregular ones too: "who made the most commits in 2024?" was read as making something, and the
# recipe that turns a folder into a repository was picked over the one that counts commits per author.
_PAST = re.compile(r"\b(?:\w+ed|made|wrote|written|kept|ran|put)\b", re.I)


def _past_asked(text: str) -> str:
    return _WH_ASKED.sub(lambda m: _DID.sub(r"\1 \2 ", _PAST.sub(" ", m.group())), text)


def asks_change(request: str) -> bool:
    """The request asks for a change of some kind ("add", "save", "fix", "rename" ...), not only for an answer."""
    return bool(_CHANGES.search(_NOT_VERBS.sub(" ", _past_asked(unnegated(request)))))


def question(request: str) -> bool:
    """True for "How many lines does notes.txt have?", not for "Add a line to notes.txt"; "which
    files are old? don't delete anything" is a question."""
    return bool(_QUESTION.search(request)) and not asks_change(request)


def changed_paths(language: str, code: str) -> list[str]:
    """The literal paths `code` writes, appends to or deletes (in the order written)."""
    return _read(language, code, _shell, _python) + deleted_paths(language, code)


def _shell(code: str) -> list[str]:
    found = [m.group(1) for m in _REDIRECT.finditer(code) if m.group(1) not in ("/dev/null", "&1", "&2")]
    for cmd, args in _commands(code):
        plain = [a for a in args if not a.startswith("-")]
        if cmd in _SHELL_WRITERS or (cmd == "sed" and any(a.startswith("-i") for a in args)):
            found += plain[1:] if cmd == "sed" else plain
        elif cmd in ("mv", "cp") and len(plain) >= 2:
            found.append(plain[-1])
    return found


_WRITE_METHODS = {"write_text", "write_bytes"}
# Methods that write to the path they are given first: plt.savefig("a.png"), df.to_csv("a.csv").
_SAVE_METHODS = {"savefig", "to_csv", "to_excel", "to_json", "to_parquet", "to_html", "to_markdown"}


def _python(code: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(code)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if _name(func) == "open":
            module_call = not isinstance(func, ast.Attribute) or _name(func.value) in ("io", "builtins", "codecs")
            # open("f", "w") / io.open("f", "w"), or Path("f").open("w")
            path, rest = (node.args[0] if node.args else None, node.args[1:]) if module_call else (func.value, node.args)
            mode = rest[0] if rest else next((k.value for k in node.keywords if k.arg == "mode"), None)
            if path is not None and isinstance(mode, ast.Constant) and isinstance(mode.value, str) \
                    and set(mode.value) & set("wax+"):
                found += _literal(path, {})
        elif isinstance(func, ast.Attribute) and func.attr in _WRITE_METHODS:
            found += _literal(func.value, {})
        elif isinstance(func, ast.Attribute) and func.attr in _SAVE_METHODS and node.args:
            found += _literal(node.args[0], {})
        elif _name(func) in ("move", "copy", "copyfile", "copy2", "rename", "replace") and len(node.args) >= 2 \
                and (not isinstance(func, ast.Attribute) or _name(func.value) in ("shutil", "os")):
            found += _literal(node.args[1], {})
    return found


_SHELL_REMOVERS = {"rm", "unlink", "rmdir", "shred", "mv", "truncate"}
_MOVERS = {"move", "rename", "replace"}  # shutil.move(a, b), os.rename(a, b), Path(a).rename(b)


def removes_any(language: str, code: str, moves: bool = True) -> bool:
    """The code deletes (or, with `moves`, moves or renames) files at all, wherever its paths come
    from (`os.remove(os.path.join(folder, name))` in a loop over a listing): literal paths are not
    needed to know that code for a question should not do it."""
    from oi_local.core.deletions import _is_deletion

    def shell(text: str) -> list[str]:
        found = []
        for cmd, args in _commands(text):  # `do rm "$f"` is rm (deletions._commands)
            if cmd in _SHELL_REMOVERS and (moves or cmd != "mv"):
                found.append("x")
        return found

    def python(text: str) -> list[str]:
        found = []
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            mover = isinstance(func, ast.Attribute) and func.attr in _MOVERS and (
                _name(func.value) in ("os", "shutil")
                or len(node.args) == 1 and not isinstance(node.args[0], ast.Dict))  # Path(a).rename(b), not s.replace(a, b)
            if _is_deletion(node) or moves and mover:
                found.append("x")
        return found

    return bool(_read(language, code, shell, python))


def changed_existing(language: str, code: str, cwd: Path) -> list[str]:
    """The paths among changed_paths() that exist under `cwd` now."""
    out = []
    for p in changed_paths(language, code):
        try:
            if (cwd / p).exists() and p not in out:
                out.append(p)
        except (OSError, ValueError):
            continue
    return out
