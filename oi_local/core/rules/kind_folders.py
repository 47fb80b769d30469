"""Kind folders: "tidy up Downloads/ please: jpg and png files go into Downloads/pictures, pdfs into
Downloads/pdf. anything else stays where it is." The 0.5B model's code built each new path and never
moved a file, and its answer listed the names (ho41); for a port change in config/ it copied a worked
example that moved every file into a folder named after its ending. When the request says which kinds
of file (an ending: ".jpg", "jpg", "PDFs") go into which folder, with a word that moves or sorts them,
and the code does not move files into every folder named, the code is not run and the model is given
the code that does: each file of a named kind directly in the folder being sorted is moved (or copied,
when the request copies) into its folder, made when missing; a name already there is not overwritten;
each move is printed."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, careful, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: {plan}."
SHOWN = "Not run: the code does not {verb} the files into {folders}; asked afresh with the code that does."
ENDINGS = frozenset(
    "jpg jpeg png gif bmp webp heic tif tiff svg pdf doc docx odt rtf txt md csv tsv xls xlsx ods json xml yaml yml "
    "ppt pptx mp3 wav flac ogg m4a mp4 mov avi mkv webm zip tar gz rar 7z iso dmg exe msi deb py js html css log ini "
    "cfg conf epub".split())
_KIND = re.compile(r"(?<![\w/.-])\.?([A-Za-z][A-Za-z0-9]{1,5})(?:'s)?\b")
# "go into Downloads/pictures", "into a subfolder called images", "to a folder named docs", "in pdfs/"
_INTO = re.compile(r"\b(into|to|in|under)\s+(?:(?:a|the|new|its|their)\s+)*(?:(?:sub)?folders?\s+|director(?:y|ies)\s+|dir\s+)?"
                   r"(?:(?:called|named)\s+)?['\"`]?([\w.-]+(?:/[\w.-]+)*)/?['\"`]?", re.I)
_ACTION = re.compile(r"\b(?:mov(?:e|es|ing)|sort\w*|tid(?:y|ies|ying)|organi[sz]\w*|declutter\w*|go(?:es)?\s+(?:in|into|to)|"
                     r"belongs?\s+in|put|file\s+(?:them|these|those))\b|\bcop(?:y|ies|ying)\b", re.I)
_INSIDE = re.compile(r"\bsub-?folders?\b|\b(?:sort\w*|tid(?:y|ies|ying)|organi[sz]\w*|declutter\w*|clean\w*)\b", re.I)
_NARROWED = re.compile(r"\b(?:modified|created|edited|older|newer|bigger|larger|smaller|before|after|since|last\s+(?:week|month|year|\d+)|"
                       r"this\s+(?:week|month|year)|contain\w*|whose|(?:that|which)\s+(?:were|was|are|is|have|has|start|end|contain)|"
                       r"recursive\w*|sub-?folders?\s+(?:included|too|as\s+well)|(?:including|incl\.?|and|with)\s+(?:\w+\s+){0,4}sub-?folders|"
                       r"(?:19|20)\d\d)\b", re.I)
_HERE = re.compile(r"\b(?:this|the\s+current|current|working|the\s+working)\s+(?:folder|directory|dir)\b|\bhere\b", re.I)
_PLACE = re.compile(r"\b(?:folder|directory|dir|desktop|downloads|documents)\b|\w/", re.I)
_ELSE = re.compile(r"\b(?:everything|anything|all)\s+else\b|\bthe\s+rest\b|\b(?:all\s+)?(?:the\s+)?(?:other|remaining)\s+files\b", re.I)
_COPY = re.compile(r"\bcop(?:y|ies|ying)\b|\bduplicat\w*|\bback\s*up\b", re.I)
_MOVE = re.compile(r"\bmov(?:e|es|ing)\b|\bgo(?:es)?\s+(?:in|into|to)\b", re.I)
_SKIP = frozenset("a an the it them this that these those all my our your every each files file folder folders "
                  "subfolder subfolders directory directories one two other others rest".split())
_MOVES = re.compile(r"\b(?:shutil\.(?:move|copy\w*)|os\.(?:rename|replace)|\.rename|\.replace|copyfile)\s*\(|\b(?:mv|cp)\s")


def _kinds(text: str) -> list[str]:
    text = re.sub(r"\b(\w{2,5})/(?=(\w{2,5})\b)", lambda m: m.group(1) + " " if m.group(1).lower() in ENDINGS else m.group(0), text)
    found = []
    for m in _KIND.finditer(text):
        word = m.group(1).lower()
        word = word if word in ENDINGS else word[:-1] if word.endswith("s") and word[:-1] in ENDINGS else ""
        if word:
            found.append(word)
    return list(dict.fromkeys(found))


def plan(request: str, cwd: Path) -> tuple[str, dict[str, str], bool] | None:
    """(the folder sorted, {".jpg": "Downloads/pictures", ...}, copy) when the request sends kinds of file into
    folders; None when it does not, or says it in a way read two ways."""
    words = instruction(request)
    if not _ACTION.search(words) or careful(words) or _NARROWED.search(words) or "~" in words:
        return None  # only some of the kind ("modified last week", "the 2025 CSVs"), subfolders too, or a home folder
    pairs: dict[str, str] = {}
    spans = []
    start = 0
    for m in _INTO.finditer(words):
        folder = m.group(2).rstrip(".")
        named = bool(re.search(r"folder|director|\bdir\b|called|named", m.group(0), re.I))
        if m.group(1).lower() in ("in", "under") and (cwd / folder).is_dir() and not named:
            continue  # "the jpg files in Downloads go into pictures": where they are, not where they go
        if folder.lower() in _SKIP or folder.lower() in ENDINGS or (re.search(r"\.\w{1,5}$", folder) and not (cwd / folder).is_dir()):
            continue
        plain = not (named or "/" in m.group(0) or (cwd / folder).is_dir())
        if plain and (m.group(1).lower() != "into" or re.match(r"\s+(?:sub)?folders\b", words[m.end():])):
            continue  # "to total", "in the last", "into per-year folders": not a folder's name
        spans.append(m.span())
        kinds = _kinds(words[start:m.start()])
        if _ELSE.search(words[start:m.start()]) and not kinds:
            kinds = ["*"]  # "and everything else in inbox/other"
        start = m.end()
        for k in kinds:
            if pairs.setdefault(k if k == "*" else "." + k, folder) != folder:
                return None  # one kind sent to two folders
    if not pairs:
        return None
    targets = set(pairs.values())
    rest, at = "", 0
    for a, b in spans:  # the request without its "into <folder>" parts: where the files are now
        rest, at = rest + words[at:a] + " ", b
    rest += words[at:]
    others = [m.group(1).rstrip("/.") for m in re.finditer(r"(?<![\w./-])([\w.-]+(?:/[\w.-]+)*/?)", words)]
    sources = [s for s in dict.fromkeys(others) if s not in targets and (cwd / s).is_dir() and not s.startswith(".")]
    parents = {str(Path(t).parent) for t in targets if "/" in t}
    if len(sources) == 1:
        source = sources[0]
    elif not sources and len(parents) == 1 and (cwd / next(iter(parents))).is_dir():
        source = next(iter(parents))
    elif not sources and (_HERE.search(rest) or not _PLACE.search(rest)):
        source = "."  # "in this folder", or no folder said: the working folder
    else:
        return None  # two folders that are there, neither a target: which is sorted is not clear
    # "tidy up Downloads: pdfs into pdf" means Downloads/pdf; "copy the PDFs from Downloads into backup" a backup here
    inside = bool(_INSIDE.search(words))
    placed = {}
    for kind, t in pairs.items():
        placed[kind] = f"{source}/{t}" if inside and source != "." and "/" not in t and not (cwd / t).is_dir() else t
    from oi_local.core.writes import unnegated

    kept = re.sub(r"\bnot\s+(?:to\s+)?mov\w*", " ", unnegated(words), flags=re.I)  # "copy, not move"
    copy = bool(_COPY.search(words)) and not _MOVE.search(kept)
    return source, placed, copy


def ready_code(source: str, placed: dict[str, str], copy: bool) -> str:
    verb, call = ("copied", "shutil.copy2(p, to / p.name)") if copy else ("moved", "shutil.move(str(p), str(to / p.name))")
    return (f"import shutil\nfrom pathlib import Path\n\nfolders = {placed!r}\ndone = 0\n"
            f"for p in sorted(Path({source!r}).iterdir()):\n"
            f"    to = folders.get(p.suffix.lower(), folders.get('*'))  # '*': every other file\n"
            f"    if not p.is_file() or to is None or p.name.startswith('.'):\n        continue\n"
            f"    to = Path(to)\n    to.mkdir(parents=True, exist_ok=True)\n"
            f"    if (to / p.name).exists():\n        print('kept', p, '-', to / p.name, 'is already there')\n        continue\n"
            f"    {call}\n    done += 1\n    print(p, '->', to / p.name)\n"
            f"print(done, 'files {verb}')")


def _describe(placed: dict[str, str], copy: bool) -> str:
    by: dict[str, list[str]] = {}
    for kind, folder in placed.items():
        by.setdefault(folder, []).append("other" if kind == "*" else kind)
    verb = "copy" if copy else "move"
    return f"{verb} " + "; ".join(f"the {' and '.join(kinds)} files into {folder}/" for folder, kinds in by.items())


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["kind folders"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = plan(turn.request, Path.cwd())
    if found is None:
        return None
    source, placed, copy = found
    folders = sorted(set(placed.values()))
    if _MOVES.search(block.code) and all(re.search(rf"(?<![\w.]){re.escape(Path(f).name)}(?![\w.])", block.code) for f in folders):
        return None  # the code moves files into the folders itself (sorted kinds checks each loop's folder)
    turn.counts["kind folders"] += 1
    ask = own_code(turn.engine, NOTE.format(plan=_describe(placed, copy)), ready_code(source, placed, copy))
    return Verdict(note=SHOWN.format(verb="copy" if copy else "move", folders=", ".join(folders)), ask=ask)


rule = Rule(
    name="kind folders", setting="repair_slips", check=check,
    summary="asked to move (or copy) kinds of file into folders (\"jpg and png files go into Downloads/pictures, pdfs into "
            "Downloads/pdf\"), code that does not move files into every folder named is not run; the model is given the "
            "code that does: each file of a named kind in the folder sorted goes into its folder (made when missing, "
            "nothing overwritten), each move printed")
