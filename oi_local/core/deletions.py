"""Which files a piece of code would delete, and whether the request asked for them.

A small model asked to "remove the .tmp files from build" wrote `rm build/a.tmp build/app.bin
build/b.tmp build/notes.txt`: every name it had been shown. Code is read, not run: only paths
written out literally are found (a loop over a glob is not), so this catches the slip above, not
every way code can delete files. It never runs anything.
"""
from __future__ import annotations

import ast
import re
import shlex
from pathlib import PurePosixPath
from typing import Callable, Iterator

_SHELL_DELETERS = {"rm", "unlink", "rmdir", "shred"}
_PY_FUNCS = {"remove", "unlink", "rmdir", "rmtree", "removedirs"}  # os.remove(p), shutil.rmtree(p), ...
_PY_METHODS = {"unlink", "rmdir"}  # Path(p).unlink()
_SEPARATORS = re.compile(r"&&|\|\||[;|\n&]")

# What a request names: files ("a.tmp"), extensions (".tmp", "tmp files") and folders are matched
# against each deleted path.
_FILE = re.compile(r"(?<![\w/.-])[\w./-]*\w\.[A-Za-z0-9]{1,8}\b")
_EXT = re.compile(r"(?<![\w/])\*?\.([A-Za-z0-9]{1,8})\b")
_EXT_WORD = re.compile(r"\b([A-Za-z0-9]{1,6})\s+files\b", re.I)


def deleted_paths(language: str, code: str) -> list[str]:
    """The literal paths `code` deletes (in the order written), or [] if it names none."""
    return _read(language, code, _shell, _python)


def _read(language: str, code: str, shell: Callable[[str], list[str]], python: Callable[[str], list[str]]) -> list[str]:
    try:
        if language in ("shell", "bash", "sh", "zsh"):
            return shell(code)
        if language == "python":
            return python(code)
    except (SyntaxError, ValueError):
        pass
    return []


# Words before a command in a loop, a test or a group: `for f in *.tmp; do rm "$f"; done`.
_SHELL_KEYWORDS = {"do", "then", "else", "{", "(", "!", "time", "exec", "nohup"}


def _commands(code: str) -> Iterator[tuple[str, list[str]]]:
    """(command name, arguments) of each simple command, after `VAR=x`, sudo, command, xargs and the
    shell's keywords (`then rm a.txt` is rm: the literal-path checks missed deletions in loops)."""
    for segment in _SEPARATORS.split(code):
        try:
            words = shlex.split(segment, comments=True)
        except ValueError:
            continue
        while words and ("=" in words[0] or words[0] in ("sudo", "command", "xargs") or words[0] in _SHELL_KEYWORDS):
            words = words[1:]
        if words:
            yield PurePosixPath(words[0]).name, words[1:]


def _shell(code: str) -> list[str]:
    found = []
    for cmd, args in _commands(code):
        if cmd in _SHELL_DELETERS:
            found += [w for w in args if not w.startswith("-") and not any(c in w for c in "*?[$`")]
    return found


def _literal(node: ast.AST, names: dict[str, list[str]]) -> list[str]:
    """The strings a path expression stands for: "a", Path("a"), Path("d") / "a", a loop variable."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return names.get(node.id, [])
    if isinstance(node, ast.Call) and len(node.args) == 1 and _name(node.func) in ("Path", "PurePath", "str"):
        return _literal(node.args[0], names)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _literal(node.left, names), _literal(node.right, names)
        return [f"{a}/{b}" for a in left for b in right]
    return []


def _name(func: ast.AST) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _python(code: str) -> list[str]:
    tree = ast.parse(code)
    names: dict[str, list[str]] = {}  # loop variables over literal lists: for f in ["a", "b"]
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name) \
                and isinstance(node.iter, (ast.List, ast.Tuple, ast.Set)):
            names[node.target.id] = [s for el in node.iter.elts for s in _literal(el, names)]
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _PY_METHODS and not node.args:
            found += _literal(func.value, names)  # Path("a").unlink()
        elif _name(func) in _PY_FUNCS and node.args:
            found += _literal(node.args[0], names)
    # if p.name in ["a.txt", "b.pdf"]: p.unlink() -- files picked by a literal list of names
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare) \
                and isinstance(node.test.ops[0], ast.In) and isinstance(node.test.comparators[0], (ast.List, ast.Tuple, ast.Set)) \
                and any(isinstance(n, ast.Call) and _is_deletion(n) for s in node.body for n in ast.walk(s)):
            found += [s for el in node.test.comparators[0].elts for s in _literal(el, {})]
    return found


_LISTINGS = {"glob", "rglob", "iterdir", "listdir", "scandir", "walk"}
_ALL_PATTERNS = {"*", "**/*", "*.*", "**"}
_TYPE_TESTS = {"is_file", "is_dir", "isfile", "isdir", "exists", "is_symlink", "islink"}
_FIND_FILTERS = {"-name", "-iname", "-empty", "-size", "-mtime", "-mmin", "-atime", "-newer", "-path",
                 "-ipath", "-regex", "-perm", "-user", "-links", "-ctime", "-cmin", "-amin"}


def wiped_folders(language: str, code: str) -> list[str]:
    """Folders whose every file `code` deletes, whatever the file: a loop over a whole listing
    with no test but the file's type, `rm DIR/*`, `rm -r DIR`, `find DIR -delete` with no filter."""
    return _read(language, code, _shell_wipes, lambda text: _python_wipes(ast.parse(text)))


def _shell_wipes(code: str) -> list[str]:
    found = []
    for cmd, args in _commands(code):
        if cmd == "rm":
            recursive = any(a.startswith("-") and ("r" in a or "R" in a) for a in args if not a.startswith("--")) \
                or "--recursive" in args
            for a in (a for a in args if not a.startswith("-")):
                if a in ("*", "./*") or a.endswith("/*"):
                    found.append(a[:-2] or ".") if a.endswith("/*") else found.append(".")
                elif recursive:
                    found.append(a.rstrip("/") or "/")
        elif cmd == "find" and ("-delete" in args or ("-exec" in args and "rm" in args)):
            if not _FIND_FILTERS & set(args):
                found.append(args[0] if args and not args[0].startswith("-") else ".")
    return found


def _listing_folder(node: ast.AST) -> str | None:
    """The folder a whole-folder listing lists: Path("x").glob("*"), os.listdir("x"), ..."""
    while isinstance(node, ast.Call) and _name(node.func) in ("sorted", "list") and node.args:
        node = node.args[0]
    if not isinstance(node, ast.Call) or _name(node.func) not in _LISTINGS:
        return None
    func = node.func
    if _name(func) in ("glob", "rglob"):
        pattern = node.args[0] if node.args else None
        if not (isinstance(pattern, ast.Constant) and pattern.value in _ALL_PATTERNS):
            return None  # glob("*.tmp") picks files: not a wipe
        base = func.value if isinstance(func, ast.Attribute) else None
        return (_literal(base, {}) or ["."])[0] if base is not None else None
    if _name(func) == "iterdir" and isinstance(func, ast.Attribute):
        return (_literal(func.value, {}) or ["?"])[0]
    if node.args:  # os.listdir("x"), os.scandir("x"), os.walk("x")
        return (_literal(node.args[0], {}) or ["?"])[0]
    return "."


def _narrows(test: ast.AST) -> bool:
    """Whether an `if` test picks some files (size, name, age...) rather than only their type."""
    calls = [n for n in ast.walk(test) if isinstance(n, ast.Call)]
    others = [n for n in ast.walk(test) if isinstance(n, (ast.Compare, ast.Constant))]
    return bool(others) or any(_name(c.func) not in _TYPE_TESTS for c in calls) or not calls


def _python_wipes(tree: ast.AST) -> list[str]:
    found = []
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For):
            continue
        folder = _listing_folder(loop.iter)
        if folder is None:
            continue
        if any(_deletes_unconditionally(stmt) for stmt in loop.body):
            found.append(folder)
    return found


def _deletes_unconditionally(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.If):
        if _narrows(stmt.test):
            return False
        return any(_deletes_unconditionally(s) for s in stmt.body)
    if isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try)):
        return any(_deletes_unconditionally(s) for s in stmt.body)
    return any(isinstance(node, ast.Call) and _is_deletion(node) for node in ast.walk(stmt))


def _is_deletion(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _PY_METHODS and not call.args:
        return True  # Path(...).unlink()
    if _name(func) not in _PY_FUNCS or not call.args:
        return False
    # os.remove(p), shutil.rmtree(p), remove(p) after `from os import remove`; not names.remove(x)
    return not isinstance(func, ast.Attribute) or _name(func.value) in ("os", "shutil")


def _asked(request: str) -> tuple[set[str], set[str]]:
    """The file names and extensions (lower case, no dot) a request names."""
    files = {PurePosixPath(f).name.lower() for f in _FILE.findall(request)}
    exts = {e.lower() for e in _EXT.findall(request)}
    exts |= {w.lower() for w in _EXT_WORD.findall(request) if w.isupper() or w.lower() in ("tmp", "log", "bak", "txt")}
    exts -= {f.rsplit(".", 1)[1] for f in files}  # "a.tmp" names a file, not every .tmp
    return files, exts


def asked(request: str) -> str:
    """What a request names for deletion, in words: "the .tmp files", "old.log and the .bak files"."""
    files, exts = _asked(request)
    parts = sorted(files) + [f"the .{e} files" for e in sorted(exts)]
    return " and ".join(parts)


def unasked_deletions(request: str, language: str, code: str) -> list[str]:
    """Paths `code` deletes that `request` does not name, when the request names what to delete
    (files or extensions); [] when it names neither, as then there is nothing to compare with."""
    files, exts = _asked(request)
    if not files and not exts:
        return []
    out = []
    for path in deleted_paths(language, code):
        name = PurePosixPath(path.rstrip("/")).name.lower()
        if name in files or any(name.endswith("." + e) for e in exts):
            continue
        if path not in out:
            out.append(path)
    return out
