"""Tasks as data: load `tasks/*.yaml`, normalise the shorthand forms, select by name/glob/category.

A YAML file is {category: NAME, tasks: [TASK, ...]}. A task:
  name: unique-name
  category: optional, overrides the file's
  files: {path: content | {repeat: str, times: n}}   # "~/x" seeds the task's fake HOME
  setup: optional shell script run in the task folder before the model starts
  env: optional {VAR: value} for the interpreter process
  prompt: "..."  or  prompts: ["...", {text: "...", answer_contains: [...]}, ...]
  check: {answer_contains: [...], file: [...], command: [...], not_exists: [...]}
  oracle: {steps: [{python: code} | {language: l, code: c, say: s}], answer: "..."}  or a list, one per prompt
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
CHECK_KEYS = {"answer_contains", "file", "command", "not_exists"}


@dataclass
class Task:
    name: str
    category: str
    prompts: list[str]
    turn_answers: list[list[Any]]  # per-prompt answer_contains (the last one includes check.answer_contains)
    check: dict[str, Any]
    oracle: list[dict[str, Any]]  # one {steps: [{language, code, say}], answer} per prompt
    files: dict[str, Any] = field(default_factory=dict)
    setup: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    source: str = ""

    def to_job(self) -> dict[str, Any]:
        return {"task": self.name, "prompts": self.prompts, "oracle": self.oracle}


class TaskError(ValueError):
    pass


def _steps(raw: list[Any], where: str) -> list[dict[str, str]]:
    out = []
    for s in raw or []:
        if not isinstance(s, dict):
            raise TaskError(f"{where}: a step must be a mapping")
        s = dict(s)
        say = s.pop("say", "")
        if "code" in s:
            out.append({"language": s.get("language", "python"), "code": str(s["code"]), "say": say})
        elif len(s) == 1:  # shorthand {python: "..."}: the key is the fence label
            (lang, code), = s.items()
            out.append({"language": lang, "code": str(code), "say": say})
        else:
            raise TaskError(f"{where}: step needs `code` or one `<language>: code` key")
    return out


def _task(raw: dict[str, Any], category: str, source: str) -> Task:
    name = raw.get("name")
    if not name:
        raise TaskError(f"{source}: a task without a name")
    where = f"{source}:{name}"
    prompts_raw = raw.get("prompts") or ([raw["prompt"]] if "prompt" in raw else [])
    if not prompts_raw:
        raise TaskError(f"{where}: no prompt")
    prompts, turn_answers = [], []
    for p in prompts_raw:
        if isinstance(p, dict):
            prompts.append(str(p["text"]))
            turn_answers.append(list(p.get("answer_contains") or []))
        else:
            prompts.append(str(p))
            turn_answers.append([])
    check = dict(raw.get("check") or {})
    unknown = set(check) - CHECK_KEYS
    if unknown:
        raise TaskError(f"{where}: unknown check keys {sorted(unknown)}")
    if not check and not any(turn_answers):
        raise TaskError(f"{where}: no check")
    for key in ("answer_contains", "file", "command", "not_exists"):
        if key in check and not isinstance(check[key], list):
            check[key] = [check[key]]
    turn_answers[-1] = turn_answers[-1] + list(check.get("answer_contains") or [])
    oracle_raw = raw.get("oracle")
    if oracle_raw is None:
        raise TaskError(f"{where}: no oracle")
    if isinstance(oracle_raw, dict):
        oracle_raw = [oracle_raw]
    if len(oracle_raw) != len(prompts):
        raise TaskError(f"{where}: {len(prompts)} prompts but {len(oracle_raw)} oracle turns")
    oracle = [{"steps": _steps(t.get("steps") or [], where), "answer": str(t.get("answer") or "")} for t in oracle_raw]
    for path in list(raw.get("files") or {}) + [c.get("path", "") for c in check.get("file", [])] + list(check.get("not_exists", [])):
        if str(path).startswith("/") or ".." in Path(str(path)).parts:
            raise TaskError(f"{where}: paths must stay inside the task folder or ~: {path}")
    return Task(name=str(name), category=str(raw.get("category") or category), prompts=prompts,
                turn_answers=turn_answers, check=check, oracle=oracle, files=dict(raw.get("files") or {}),
                setup=raw.get("setup"), env={k: str(v) for k, v in (raw.get("env") or {}).items()}, source=source)


def load_tasks(folder: Path = TASKS_DIR) -> list[Task]:
    tasks: list[Task] = []
    for f in sorted(folder.glob("*.yaml")):
        try:
            doc = yaml.safe_load(f.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            raise TaskError(f"{f.name}: {e}") from None
        for raw in doc.get("tasks") or []:
            tasks.append(_task(raw, str(doc.get("category") or f.stem), f.name))
    seen: set[str] = set()
    for t in tasks:
        if t.name in seen:
            raise TaskError(f"duplicate task name {t.name}")
        seen.add(t.name)
    return tasks


def select(tasks: list[Task], spec: str | None) -> list[Task]:
    """`spec` is a comma list of task names, globs (compute-*) or category names."""
    if not spec:
        return tasks
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    out = [t for t in tasks if any(t.category == w or fnmatch.fnmatchcase(t.name, w) for w in wanted)]
    missing = [w for w in wanted if not any(t.category == w or fnmatch.fnmatchcase(t.name, w) for t in tasks)]
    if missing:
        raise TaskError(f"no task matches: {', '.join(missing)}")
    return out
