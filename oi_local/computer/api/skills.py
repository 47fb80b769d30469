"""computer.skills: working code saved under a name in the skills folder, to find and reuse later.

A skill is one Python file, `<name>.py`, whose docstring says what it does."""
from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from typing import Any

from .errors import ComputerAPIError

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


def default_path() -> Path:
    from oi_local._paths import app_dir

    return app_dir() / "skills"


class Skills:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    @property
    def path(self) -> Path:
        p = getattr(self.computer, "skills_path", None)
        return Path(p).expanduser() if p else default_path()

    def _file(self, name: str) -> Path:
        if not _NAME.match(str(name)):
            raise ComputerAPIError(f"a skill name is a Python identifier (letters, digits, _), not {name!r}")
        return self.path / f"{name}.py"

    def save(self, name: str, code: str, description: str = "") -> str:
        """Save `code` (it must parse) as skill `name`; returns the file's path."""
        try:
            tree = ast.parse(code)
        except SyntaxError as e:
            raise ComputerAPIError(f"skill {name!r} not saved: its code has a syntax error on line {e.lineno}: {e.msg}") from None
        f = self._file(name)
        if description and ast.get_docstring(tree) is None:
            code = f'"""{description.strip()}"""\n' + code
        f.parent.mkdir(parents=True, exist_ok=True)
        tmp = f.with_suffix(".tmp")
        tmp.write_text(code.rstrip() + "\n", encoding="utf-8")
        tmp.replace(f)
        return str(f)

    def _describe(self, f: Path) -> str:
        try:
            doc = ast.get_docstring(ast.parse(f.read_text(encoding="utf-8"))) or ""
        except (OSError, SyntaxError, ValueError):
            return ""
        if not doc:  # the first function's docstring
            try:
                for node in ast.parse(f.read_text(encoding="utf-8")).body:
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        doc = ast.get_docstring(node) or ""
                        break
            except (OSError, SyntaxError, ValueError):
                pass
        return doc.strip().splitlines()[0] if doc.strip() else ""

    def list(self) -> list[dict[str, str]]:
        """Every skill: name and what it does."""
        if not self.path.is_dir():
            return []
        return [{"name": f.stem, "description": self._describe(f)} for f in sorted(self.path.glob("*.py"))
                if _NAME.match(f.stem)]

    def search(self, query: str) -> list[dict[str, str]]:
        """Skills whose name, description or code mention every word of `query`."""
        words = [w for w in re.findall(r"\w+", str(query).lower()) if w]
        found = []
        for s in self.list():
            hay = " ".join((s["name"], s["description"], self.get(s["name"]))).lower().replace("_", " ")
            if all(w in hay or w in s["name"].lower() for w in words):
                found.append(s)
        return found

    def get(self, name: str) -> str:
        """The code of skill `name`."""
        f = self._file(name)
        if not f.is_file():
            known = ", ".join(s["name"] for s in self.list()) or "none yet"
            raise ComputerAPIError(f"no skill named {name!r} (skills: {known})")
        return f.read_text(encoding="utf-8")

    def load(self, name: str) -> Any:
        """Reuse skill `name`: its function of the same name if it has one, else the module."""
        self.get(name)  # a clear error when missing
        spec = importlib.util.spec_from_file_location(f"oi_skill_{name}", self._file(name))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return getattr(module, name, module)

    def delete(self, name: str) -> None:
        self.get(name)
        self._file(name).unlink()

    def summary(self, limit: int = 20) -> str:
        """A few lines for the system message."""
        skills = self.list()
        if not skills:
            return ""
        lines = [f"- {s['name']}: {s['description']}" if s["description"] else f"- {s['name']}" for s in skills[:limit]]
        more = f"\n(and {len(skills) - limit} more: computer.skills.list())" if len(skills) > limit else ""
        return "Saved skills (reuse with `computer.skills.load(name)(...)`):\n" + "\n".join(lines) + more
