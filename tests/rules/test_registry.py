"""The list of rules: every rule file is registered, tested, in the README, and can be switched off."""
from __future__ import annotations

import pkgutil
from pathlib import Path

import pytest

import oi_local.core.rules as rules_pkg
from oi_local.core.rules import HOOKS, RULES, Rule, active, hooks
from oi_local.interpreter import OpenInterpreter

ROOT = Path(__file__).resolve().parents[2]
NOT_RULES = {"base", "turn"}


def readme_table() -> list[str]:
    """The README's table of rules, as it must read (section "Small models")."""
    rows = ["| rule | switched off by | what it does |", "|---|---|---|"]
    return rows + [f"| {r.name} | `interpreter.{r.setting} = {r.off!r}` | {r.summary} |" for r in RULES]


def test_the_readme_table_is_the_list_of_rules() -> None:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## Small models\n")[1].split("\n## ")[0]
    found = [line for line in section.splitlines() if line.startswith("|")]
    expected = readme_table()
    assert found == expected, ("README.md's table of rules differs from core/rules/__init__.py; it should read:\n"
                               + "\n".join(expected))


def test_every_rule_file_is_registered_once_and_has_its_own_tests() -> None:
    modules = {m.name for m in pkgutil.iter_modules(rules_pkg.__path__)} - NOT_RULES
    registered = {r.name: r for r in RULES}
    assert len(registered) == len(RULES)
    for name in modules:
        module = __import__(f"oi_local.core.rules.{name}", fromlist=["rule"])
        assert isinstance(module.rule, Rule) and module.rule in RULES, name
        assert (ROOT / "tests" / "rules" / f"test_{name}.py").is_file(), name
    assert len(modules) == len(RULES)


def _on_value(rule: Rule) -> object:
    if rule.off == []:
        return None  # forbidden_commands: None is the built-in list
    return 1 if type(rule.off) is int else True


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_each_rule_is_switched_off_by_its_setting(rule: Rule) -> None:
    interp = OpenInterpreter(conversation_history=False)
    try:
        assert hasattr(interp, rule.setting), f"{rule.name}: no setting {rule.setting!r}"
        own = [h for h in HOOKS if getattr(rule, h) is not None]
        assert own, f"{rule.name} has no hook"
        setattr(interp, rule.setting, _on_value(rule))
        assert all(getattr(rule, h) in hooks(interp, h) for h in own)
        setattr(interp, rule.setting, rule.off)
        assert rule not in [r for h in HOOKS for r in active(interp, h)]
        assert not any(getattr(rule, h) in hooks(interp, h) for h in own)
    finally:
        interp.close()


def test_the_small_set_turns_its_rules_on_and_the_plain_set_leaves_them_off() -> None:
    interp = OpenInterpreter(conversation_history=False)
    try:
        interp.template = "small"
        small = {r.name for r in RULES if r.enabled(interp)}
        interp.template = "large"
        large = {r.name for r in RULES if r.enabled(interp)}
    finally:
        interp.close()
    assert {"code first", "fresh retries", "recipes", "file hints", "error notes"} <= small - large
    assert {"repeated code", "destructive requests", "safety review", "fix asks"} <= large  # every model
    assert "loop mode" not in small | large  # off unless asked for
