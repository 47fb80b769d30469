"""Recipes: worked examples picked for the request at hand.

A small model writes much better code when it has just seen code for a similar request: shown how
to rename files by extension it uses `with_suffix` instead of slicing names by hand. The
fixed few-shot examples cannot cover every kind of task without making every prompt long, so a
small library (templates/recipes.yaml) is searched by word overlap and the best one or two go into
the prompt as earlier exchanges. Deterministic and cheap: no embeddings, no model call.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Any, Callable

_WORD = re.compile(r"[a-z0-9]+")
# Words that say nothing about the kind of task.
_STOP = frozenset(
    "a an the and or of to in on at for from by with into onto as is are be it its this that these those "
    "my me i you your we our please can could would should will do does did make made so then than "
    "there what which who how many much all every each new one two some any file files folder "
    "current named called has have had was were here if when where why about "
    "want need like just also only get give tell show put use using first time times number numbers "
    "long big no not they them their both".split()
    # "Looking at orders.csv, which month ...": how a request starts, not what it asks (it got the example whose
    # dates "look like 25/12/2023")
    + "look looks looking according".split()
    # Month names say when, not what kind of task: "100 days after 17 March" got the days-between
    # example for its "14 March", and the 0.5B model printed a weekday.
    + "january february march april may june july august september october november december".split()
)
MIN_SCORE = 2.5  # below this the best recipe shares only common words with the request
OTHER_MODE = 0.5  # score kept by a recipe that makes something for a request that asks (or the other way)


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def words(text: str) -> set[str]:
    """The words that tell what kind of task a text asks for (numbers say nothing about that, nor the
    "s" of "what's")."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP and not w.isdigit() and len(w) > 1}


# What is done to files: an example that does another thing to them misleads ("Move the PDF files
# into pdfs" got the example that copies nested PDFs into one folder, and the copy ran).
_ACTIONS = {
    "copy": re.compile(r"\b(?:cop(?:y|ies|ied|ying)|duplicate|back\s*up)\b", re.I),
    "move": re.compile(r"\bmov(?:e|es|ed|ing)\b", re.I),
    "delete": re.compile(r"\b(?:delet\w*|remov\w*|get\s+rid)\b", re.I),
    "rename": re.compile(r"\brenam\w*\b", re.I),
}


def actions(text: str) -> frozenset[str]:
    first = text.split("\n\n")[0]
    return frozenset(a for a, rx in _ACTIONS.items() if rx.search(first))


@lru_cache(maxsize=4)
def _actions(source: str) -> list[frozenset[str]]:
    return [actions(r["request"]) for r in _index(source)[0]]


@lru_cache(maxsize=4)
def _index(source: str) -> tuple[list[dict[str, Any]], list[set[str]], dict[str, float], list[set[str]]]:
    import yaml

    from oi_local._paths import bundled

    path = bundled("templates") / source
    recipes = [r for r in (yaml.safe_load(path.read_text(encoding="utf-8")) or []) if r.get("request") and r.get("code")]
    # Only a request's first paragraph: what follows would be file content it shows.
    bags = [_bag(r) for r in recipes]
    df = Counter(w for bag in bags for w in bag)
    idf = {w: math.log(1 + len(bags) / n) for w, n in df.items()}
    # The kind of the first file a recipe names is what it reads (people.json, not the no_email.txt
    # it writes): a recipe is for requests about that kind of file.
    return recipes, bags, idf, [_first_kind(r["request"]) for r in recipes]


def _bag(recipe: dict[str, Any]) -> set[str]:
    """A recipe's words: its request's first paragraph and its keywords, without the name of the folder it
    works in (an example's own name, replaced when adapted: "music" from "the music folder" took the
    folder-total example to "which folder inside ~/Music takes the most room")."""
    request = recipe["request"].split("\n\n")[0]
    own = set().union(*(words(f) for f in _slots(request)["folder"]))
    keywords = words(" ".join(map(str, recipe.get("keywords") or [])))
    return (words(request) - own) | keywords


@lru_cache(maxsize=4)
def _folders(source: str) -> list[bool]:
    """Which recipes are about a folder (its files), not a named file."""
    return [bool(_slots(r["request"])["folder"]) for r in _index(source)[0]]


@lru_cache(maxsize=4)
def _needs(source: str) -> list[list[set[str]]]:
    """A recipe's `needs`: groups of words ("copy|duplicate"), each of which the request must say one word of
    (stemmed as requests are)."""
    return [[words(str(g).replace("|", " ")) for g in r.get("needs") or []] for r in _index(source)[0]]


@lru_cache(maxsize=4)
def _files(source: str) -> list[list[str]]:
    """The files each recipe's request names (worked out once, not for each request)."""
    return [_slots(r["request"])["file"] for r in _index(source)[0]]


@lru_cache(maxsize=4)
def _asks(source: str) -> list[bool]:
    """Which recipes answer a question (the others make or change something)."""
    from oi_local.core.writes import question

    return [question(r["request"].split("\n\n")[0]) for r in _index(source)[0]]


def pick(request: str, n: int, source: str = "recipes.yaml",
         allow: Callable[[dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    """Up to `n` recipes most like `request` (best first), none if nothing is close enough; only those
    `allow` lets through, when given."""
    if n <= 0 or not request.strip():
        return []
    from oi_local.core.writes import question

    recipes, bags, idf, recipe_kinds = _index(source)
    needs = _needs(source)
    asked = words(request)
    kinds = _file_kinds(request)
    names_files = any(v for k, v in _slots(request).items() if k != "quoted")
    files = _slots(request)["file"]
    recipe_files = _files(source)
    given = len(re.findall(r"(?<![\w.])\d+(?:\.\d+)?", request))
    asking, asks = question(request), _asks(source)
    doing, does = actions(request), _actions(source)
    folders = _slots(request)["folder"]
    recipe_folders = _folders(source)
    scored = []
    for i, bag in enumerate(bags):
        score = sum(idf[w] for w in asked & bag)
        theirs = recipe_kinds[i]
        if kinds and theirs and not kinds & theirs and not recipes[i].get("any_kind"):
            continue  # about another kind of file (a CSV recipe for a script, a log recipe for JSON)
        if allow is not None and not allow(recipes[i]):
            continue
        if any(not asked & group for group in needs[i]):
            continue  # a narrow example for a request that does not say its words (a copy that is changed, a merge)
        if names_files and recipes[i].get("calculation"):
            continue  # a calculation for a request about files (the loan formula for a broken script)
        if not names_files and recipe_files[i] and given >= 2:
            # A file's example for a sum of the numbers the request gives: asked what 575 km cost at
            # 6.4 l per 100 km, the fuel-spending CSV example came first.
            continue
        if _other_kinds(files, recipe_files[i]) and not recipes[i].get("any_kind"):
            # Adapted, it would write the rows of a CSV "into a new file temps.png": asked for a chart
            # saved as temps.png, the 0.5B model copied that example's row filter and ran away in it.
            continue
        if kinds and not theirs and not recipes[i].get("any_kind") and not folders and recipe_folders[i]:
            continue  # a named file is not a folder's files (".txt files in the notes folder" for notes.txt)
        if asks[i] != asking:
            # A question shown an example that writes a file copied it: asked how much was spent on
            # takeaways, the 0.5B model wrote the rows to takeaways.json (the CSV-to-JSON example, tied
            # with the spending one) and answered "25 rows written."
            score *= OTHER_MODE
        if doing and does[i] and not doing & does[i]:
            score *= OTHER_MODE
        if score >= MIN_SCORE:
            # a tie goes to the example about a folder's files for a request about a folder (and the
            # other way): "every .log file in the server folder" tied with one about build.log
            scored.append((-score, bool(folders) != recipe_folders[i], i))
    scored.sort()
    # Further picks only when nearly as close as the best: a weak second example misleads. And only
    # when they share a word with the request that the best does not: asked "How many lines are in
    # server.log?", the 0.5B model shown "How many lines does app.log have?" and "How many lines in
    # build.log contain the word WARNING?" copied the WARNING filter; the second added only a condition.
    best = asked & bags[scored[0][2]] if scored else set()
    return [recipes[i] for k, (neg, _, i) in enumerate(scored[:n])
            if k == 0 or (-neg >= 0.6 * -scored[0][0] and not asked & bags[i] <= best)]


# Names a request and a recipe can both hold: a small model copies a recipe's file and folder names
# along with its code, so the recipe is shown with the user's own names where they map one to one.
# A file name with its folders ("birding/sightings_2025.txt"): with the folders left out, a path named
# no file, so no kind of file either, and a recipe for a folder's files was picked for it.
_FILE = re.compile(r"(?<![\w./-])(?:[\w-]+/)*[\w-]+\.[A-Za-z][\w]{0,4}\b")
_EXT = re.compile(r"(?<![\w.])\.[A-Za-z][\w]{0,4}\b")
_EXT_WORD = re.compile(r"\b([A-Z][A-Z0-9]{1,3})\s+(?:files|images|documents)\b")  # "PDF files"
_FOLDER = re.compile(r"\b([\w-]+)\s+(?:sub)?(?:folder|directory)\b")  # "the notes folder"
_FOLDER_CALLED = re.compile(r"\b(?:sub)?(?:folder|directory)\s+(?:called|named)\s+([\w-]+)")
_QUOTED = re.compile(r'"([^"\n]{1,60})"')  # the text to add, search for or set
# "contain the word ERROR": shown the recipe for "the word WARNING" as it was, the 0.5B model counted WARNING
_WORD_NAMED = re.compile(r"\bthe\s+(?:word|text|string|phrase)\s+['\"`]?([\w-]+)")
_HERE = re.compile(r"\b(?:this|the current|current)\s+(?:folder|directory)\b", re.I)
_NOT_NAMES = frozenset("this the a an current new same home my your that its their each every one".split())


def _slots(text: str) -> dict[str, list[str]]:
    first = text.split("\n\n")[0]
    files = _FILE.findall(first)
    exts = [e for e in _EXT.findall(first) if not any(f.endswith(e) for f in files)]
    exts += ["." + w.lower() for w in _EXT_WORD.findall(first)]
    found = [(m.start(1), m.group(1)) for rx in (_FOLDER, _FOLDER_CALLED) for m in rx.finditer(first)]
    folders = [name for _, name in sorted(found) if name.lower() not in _NOT_NAMES]
    if not folders and _HERE.search(first):
        folders = ["."]  # "in this folder": a recipe's "reports" folder becomes "."
    return {
        "file": list(dict.fromkeys(files)),
        "ext": list(dict.fromkeys(exts)),
        "folder": list(dict.fromkeys(folders)),
        "quoted": [q for q in dict.fromkeys(_QUOTED.findall(first) + _WORD_NAMED.findall(first)) if not _FILE.fullmatch(q)],
    }


_PLAIN_TEXT = {"txt", "log", "md", "text"}  # lines of text, one kind for recipes


def _kind(name: str) -> str:
    ext = name.rsplit(".", 1)[1].lower()
    return "txt" if ext in _PLAIN_TEXT else ext


def _first_kind(text: str) -> set[str]:
    files = _slots(text)["file"]
    return {_kind(files[0])} if files else set()


def _file_kinds(text: str) -> set[str]:
    return {_kind(f) for f in _slots(text)["file"]}


def _other_kinds(ours: list[str], theirs: list[str]) -> bool:
    """The request and a recipe name as many files, and one the recipe would be adapted to has another
    kind (its sales_staff.csv would become the request's temps.png)."""
    return len(ours) == len(theirs) and any(_kind(a) != _kind(b) for a, b in zip(theirs, ours))


def adapt(recipe: dict[str, Any], request: str) -> dict[str, Any]:
    """The recipe with its file names, extensions, folder names and quoted text replaced by the
    request's, for each kind where both name the same number of them (else that kind is left alone)."""
    theirs, ours = _slots(recipe["request"]), _slots(request)
    mapping = {}
    for kind, names in theirs.items():
        if names and len(names) == len(ours[kind]):
            mapping.update({a: b for a, b in zip(names, ours[kind]) if a != b})
    if not mapping:
        return recipe
    keys = sorted(mapping, key=len, reverse=True)  # "todo.txt" before ".txt"
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(k)}(?![\w-])" for k in keys))

    def sub(text: str) -> str:
        return pattern.sub(lambda m: mapping[m.group(0)], text)

    request = recipe["request"]
    for a, b in mapping.items():
        if b == ".":  # "the reports folder" reads "this folder", not "the . folder"
            request = re.sub(rf"\bthe {re.escape(a)} (folder|directory)\b", r"this \1", request)
    return {**recipe, "request": sub(request), "code": sub(recipe["code"])}


def as_messages(recipes: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Chat messages showing each recipe as a request and the code block that answered it."""
    out = []
    for r in recipes:
        lang = r.get("language") or "python"
        out.append({"role": "user", "content": r["request"].strip()})
        out.append({"role": "assistant", "content": f"```{lang}\n{r['code'].rstrip()}\n```"})
    return out
