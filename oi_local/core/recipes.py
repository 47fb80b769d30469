"""Recipes: worked examples picked for the request at hand.

A small model writes much better code when it has just seen code for a similar request: shown how
to rename files by extension it uses `with_suffix` instead of slicing names by hand; shown a fix
done with `str.replace` it edits the one broken line instead of copying the script unchanged. The
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
    "current named called so that it has have had was were there here if what when where why about "
    "want need like just also only get give tell show put use using many first time times number numbers "
    "long big".split()
)
MIN_SCORE = 2.5  # below this the best recipe shares only common words with the request


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def words(text: str) -> set[str]:
    """The words that tell what kind of task a text asks for (numbers say nothing about that)."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP and not w.isdigit()}


@lru_cache(maxsize=4)
def _index(source: str) -> tuple[list[dict[str, Any]], list[set[str]], dict[str, float]]:
    from oi_local._paths import bundled

    import yaml

    path = bundled("templates") / source
    recipes = [r for r in (yaml.safe_load(path.read_text(encoding="utf-8")) or []) if r.get("request") and r.get("code")]
    # Only a request's first paragraph: what follows is the file content it shows (fix recipes).
    bags = [words(r["request"].split("\n\n")[0] + " " + " ".join(map(str, r.get("keywords") or []))) for r in recipes]
    df = Counter(w for bag in bags for w in bag)
    idf = {w: math.log(1 + len(bags) / n) for w, n in df.items()}
    return recipes, bags, idf


def pick(request: str, n: int, source: str = "recipes.yaml") -> list[dict[str, Any]]:
    """Up to `n` recipes most like `request` (best first), none if nothing is close enough."""
    if n <= 0 or not request.strip():
        return []
    recipes, bags, idf = _index(source)
    asked = words(request)
    scored = []
    for i, bag in enumerate(bags):
        score = sum(idf[w] for w in asked & bag)
        if score >= MIN_SCORE:
            scored.append((-score, i))
    scored.sort()
    # Further picks only when nearly as close as the best: a weak second example misleads.
    return [recipes[i] for neg, i in scored[:n] if -neg >= 0.6 * -scored[0][0]]


def as_messages(recipes: list[dict[str, Any]], output_message: Callable[[str], str] = str) -> list[dict[str, str]]:
    """Chat messages showing each recipe as a request and the code block that answered it; a
    two-step recipe (`output`, `then`) also shows what the first block printed (as
    `output_message` words it) and the code that followed."""
    out = []
    for r in recipes:
        lang = r.get("language") or "python"
        out.append({"role": "user", "content": r["request"].strip()})
        out.append({"role": "assistant", "content": f"```{lang}\n{r['code'].rstrip()}\n```"})
        if r.get("then"):
            out.append({"role": "user", "content": output_message(str(r.get("output") or "").rstrip())})
            out.append({"role": "assistant", "content": f"```{r.get('then_language') or 'python'}\n{r['then'].rstrip()}\n```"})
    return out
