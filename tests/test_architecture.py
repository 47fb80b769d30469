"""The parts of oi_local import each other in one direction only, and nothing outside llm/ compares
back-end kind names. Imports inside functions count: the source is parsed with ast."""
from __future__ import annotations

import ast
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent / "oi_local"
# Lower parts never import higher ones (a part may import any part on a lower level).
LEVEL = {"local": 0, "computer": 0, "llm": 1, "core": 2, "server": 3, "terminal": 4}


def _imports(path: Path) -> list[tuple[str, int]]:
    rel = path.relative_to(ROOT).parts
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the file's own package upwards
                package = ["oi_local", *rel[:-1]][: len(rel) + 1 - node.level]
                out.append((".".join(package + ([node.module] if node.module else [])), node.lineno))
            else:
                out.append((node.module or "", node.lineno))
    return out


def import_graph() -> dict[tuple[str, str], list[str]]:
    edges: dict[tuple[str, str], list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        part = path.relative_to(ROOT).parts[0]
        if part not in LEVEL:
            continue
        for name, line in _imports(path):
            bits = name.split(".")
            if bits[0] == "oi_local" and len(bits) > 1 and bits[1] in LEVEL and bits[1] != part:
                edges.setdefault((part, bits[1]), []).append(f"{path.relative_to(ROOT)}:{line}")
    return edges


def test_parts_import_downwards_only() -> None:
    edges = import_graph()
    assert edges, "the parser found no imports between parts"
    upward = {f"{a} -> {b}": where for (a, b), where in edges.items() if LEVEL[b] >= LEVEL[a]}
    assert upward == {}


def test_no_two_parts_import_each_other() -> None:
    edges = import_graph()
    both = sorted(f"{a} <-> {b}" for (a, b) in edges if (b, a) in edges and a < b)
    assert both == []


def test_the_graph_parser_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    # a check that cannot fail is no check: the parser must see an import inside a function
    found = dict(_imports(ROOT / "core" / "engine.py"))
    assert any(n.startswith("oi_local.local.families") for n in found)  # inside template_set()
    rel = dict(_imports(ROOT / "computer" / "computer.py"))
    assert "oi_local.computer.languages" in rel  # `from .languages import ...`


def _is_llm(node: ast.expr) -> bool:
    """`llm`, `self.llm`, `interp.llm` ... (the sandbox has a kind() of its own)."""
    return (isinstance(node, ast.Name) and node.id == "llm") or (isinstance(node, ast.Attribute) and node.attr == "llm")


def test_no_back_end_kind_names_compared_outside_llm() -> None:
    """Outside llm/, what a back end can do comes from Llm.capabilities(), not from kind()."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.relative_to(ROOT).parts[0] == "llm":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                calls = [n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                         and n.func.attr == "kind" and _is_llm(n.func.value)]
                if calls:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_error_types_live_below_every_part() -> None:
    import oi_local.errors as errors

    assert [n for n, _ in _imports(ROOT / "errors.py") if n.startswith("oi_local")] == []
    # the settings schema sits just above it, below every part
    assert [n for n, _ in _imports(ROOT / "settings.py") if n.startswith("oi_local")] == ["oi_local.errors"]
    from oi_local.llm.backends.base import LLMError

    assert LLMError is errors.LLMError


def test_bundled_family_files_use_known_prompt_keys() -> None:
    # (local/families.py cannot import core/prompts.py to check this itself)
    from oi_local.core.prompts import TEMPLATE_KEYS

    folder = ROOT.parent / "templates" / "families"
    files = sorted(folder.glob("*.yaml"))
    assert files
    for f in files:
        prompt = (yaml.safe_load(f.read_text(encoding="utf-8")) or {}).get("prompt") or {}
        assert set(prompt) <= set(TEMPLATE_KEYS), f
