"""The model catalog's entries as data: every field a user or the recommender relies on, a prompt
template family for each chat template, the size tiers the hardware tiers need, and the
projector files vision models need."""
from __future__ import annotations

import re

import yaml

from oi_local._paths import bundled
from oi_local.local import families, models

_PARAMS = re.compile(r"^(\d+(?:\.\d+)?)([MB])$")


def _billions(entry: models.ModelEntry) -> float:
    m = _PARAMS.match(entry.parameters)
    assert m, (entry.id, entry.parameters)
    return float(m[1]) / (1000 if m[2] == "M" else 1)


def _raw() -> list[dict]:
    return yaml.safe_load((bundled("model_catalog") / "models.yaml").read_text(encoding="utf-8"))


def test_every_entry_has_licence_context_family_and_a_template():
    fams = families.load_families()
    for e in models.load_catalog():
        assert e.license and e.license.strip() == e.license, e.id
        assert e.context_length >= 2048, e.id
        assert e.family, e.id
        assert e.chat_template in fams, f"{e.id}: no templates/families file for {e.chat_template!r}"
        assert families.family_for(e.id) == e.chat_template, e.id
        assert isinstance(e.extra.get("size_estimate", False), bool), e.id


def test_estimated_sizes_are_marked_and_checksums_never_invented():
    for raw in _raw():
        if raw.get("size_estimate"):
            # An estimate is never checked against: the hub's own sha256 decides on download.
            assert raw.get("sha256") is None, raw["id"]
        if raw.get("sha256"):
            assert not raw.get("size_estimate"), raw["id"]


def test_every_size_tier_has_a_code_model():
    catalog = models.load_catalog()
    tiers = {"~0.5B": (0.3, 0.8), "~1.5B": (1.0, 2.0), "3-4B": (2.5, 4.5), "7-8B": (6.5, 9.0), "14B+": (12.0, 1000.0)}
    for tier, (lo, hi) in tiers.items():
        found = [e.id for e in catalog if lo <= _billions(e) <= hi and e.has("code")]
        assert found, f"no code model in the {tier} tier"
    newest = {e.id for e in catalog if e.id.startswith("qwen3")}
    assert {"qwen3-1.7b", "qwen3-4b-instruct-2507", "qwen3-8b", "qwen3-14b", "qwen3-coder-30b-a3b"} <= newest


def test_vision_models_carry_their_projector():
    vision = [e for e in models.load_catalog() if e.has("vision")]
    assert vision
    for e in vision:
        proj = e.extra.get("projector")
        assert isinstance(proj, dict), f"{e.id}: a vision model needs its projector (mmproj) file"
        assert set(proj) >= {"file", "size_bytes", "sha256", "sources"}, e.id
        assert proj["file"].endswith(".gguf") and "/" not in proj["file"] and proj["file"] != e.file
        assert isinstance(proj["size_bytes"], int) and proj["size_bytes"] > 0
        assert proj["sha256"] is None or re.fullmatch(r"[0-9a-f]{64}", proj["sha256"])
        assert proj["sources"] and all(s.get("type") == "huggingface" and s.get("repo") and s.get("filename")
                                       for s in proj["sources"])
    projector_files = [e.extra["projector"]["file"] for e in vision]
    model_files = {e.file for e in models.load_catalog()}
    assert not set(projector_files) & model_files
