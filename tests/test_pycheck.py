"""Problems in a script found by reading it (pyflakes), as shown to a model asked to fix it."""
from __future__ import annotations

import pytest

from oi_local.core.pycheck import corrected, problems


@pytest.mark.parametrize("code, expected", [
    ('def greet(name):\n    return "Hi " + name\n\npritn(greet("Ada"))\n', ["line 4: pritn is not defined (did you mean print?)"]),
    ("prices = [3, 4]\nprint(sum(price))\n", ["line 2: price is not defined (did you mean prices?)"]),
    ('values = [3, 4]\nprint("Mean:", statistics.mean(values))\n',
     ["line 2: statistics is not defined (it needs `import statistics`)"]),
    ("n = 0\ndef f():\n    print(n)\n    n = 1\n", ["line 3: n is used before it is given a value"]),
    ("for w in ['a']:\nprint(w)\n", ["line 2: expected an indented block after 'for' statement on line 1"]),
    ("print(undefined_thing_xyz)\n", ["line 1: undefined_thing_xyz is not defined"]),
])
def test_what_would_make_the_script_fail_is_found(code: str, expected: list[str]) -> None:
    assert problems(code) == expected


def test_style_issues_and_working_code_are_not_problems() -> None:
    assert problems("import os\nimport sys\nx = 1\nprint(x)\n") == []  # unused imports are fine
    assert problems("try:\n    import numpy\nexcept ImportError:\n    numpy = None\n") == []
    assert len(problems("\n".join(f"print(a{i})" for i in range(10)))) == 3  # a few, not a flood


def test_problems_with_one_obvious_correction_are_corrected() -> None:
    code = 'def greet(name):\n    return "Hi " + name\n\npritn(greet("Ada"))  # pritnx stays\n'
    assert corrected(code) == 'def greet(name):\n    return "Hi " + name\n\nprint(greet("Ada"))  # pritnx stays\n'
    code = 'values = [3, 4]\nprint("Mean:", statistics.mean(values), math.pi)\n'
    assert corrected(code) == "import statistics\nimport math\n" + code
    # Nothing to correct, or no single obvious correction: None.
    assert corrected("print(1)\n") is None
    assert corrected("print(undefined_thing_xyz)\n") is None
    assert corrected("for w in ['a']:\nprint(w)\n") is None
