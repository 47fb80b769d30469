"""Local vision models: a catalog vision model comes with its image projector (fetched, checked and
recorded like the model), the embedded back end loads the projector through llama.cpp's mtmd
(a wrong file is refused in one line at load time), the model then counts as seeing images, and
`--local` recommends vision models first when OS mode or vision is asked for.

Not here: a real image through a real vision model. No vision GGUF reaches this machine (the
catalog's are on the Hugging Face Hub); the image path is llama.cpp's own MTMDChatHandler."""
from __future__ import annotations

import os
import shutil

import pytest
from fakes_hub import HubServer
from local_orphans import no_orphans  # noqa: F401 - fixture

from oi_local._paths import models_dir
from oi_local.errors import LLMError
from oi_local.llm.backends.embedded import EmbeddedBackend
from oi_local.llm.llm import Llm
from oi_local.local import hardware, models, recommend, store

REPO = "someone/tiny-vision-GGUF"
pytestmark = pytest.mark.usefixtures("no_orphans")


def test_every_vision_model_in_the_catalog_has_its_projector():
    vision = [e for e in models.load_catalog() if e.has("vision")]
    assert vision
    for entry in vision:
        proj = entry.projector
        assert proj is not None and proj.file.endswith(".gguf") and proj.size_bytes > 0, entry.id
        assert any(s["type"] == "huggingface" for s in proj.sources), entry.id
    assert all(e.projector is None for e in models.load_catalog() if not e.has("vision"))


@pytest.fixture
def vision_catalog(tmp_path, monkeypatch, smollm2_path):
    projector = tmp_path / "served-mmproj.gguf"
    projector.write_bytes(b"GGUF" + os.urandom(300_000))
    cat = tmp_path / "extra.yaml"
    cat.write_text(f"""
- id: tiny-vision
  name: Tiny vision model
  family: llama
  parameters: 135M
  quantization: Q4_1
  file: tiny-vision.gguf
  size_bytes: {smollm2_path.stat().st_size}
  sha256: null
  context_length: 8192
  chat_template: chatml
  capabilities: [chat, vision]
  license: Apache-2.0
  sources:
    - {{type: huggingface, repo: {REPO}, filename: model.gguf}}
  projector:
    file: tiny-vision-mmproj.gguf
    size_bytes: {projector.stat().st_size}
    sha256: null
    sources:
      - {{type: huggingface, repo: {REPO}, filename: mmproj.gguf}}
""")
    monkeypatch.setenv("OI_LOCAL_CATALOG", str(cat))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return {f"{REPO}/model.gguf": smollm2_path, f"{REPO}/mmproj.gguf": projector}


def test_a_vision_model_is_fetched_with_its_projector(vision_catalog, monkeypatch):
    entry = models.get_entry("tiny-vision")
    with HubServer(vision_catalog) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        path = models.fetch(entry)
    proj = models_dir() / "tiny-vision-mmproj.gguf"
    assert path == models_dir() / "tiny-vision.gguf" and path.is_file()
    assert proj.read_bytes() == vision_catalog[f"{REPO}/mmproj.gguf"].read_bytes()
    assert models.projector_for(path) == proj
    assert store.load()["tiny-vision-mmproj.gguf"]["sha256"] == models.sha256_file(proj)
    llm = Llm()
    llm.model = str(path)
    assert llm.projector_file() == str(proj) and llm.sees_images()
    proj.unlink()  # without its projector the same model reads text only
    assert llm.projector_file() is None and not llm.sees_images()


def test_text_models_and_servers_have_no_projector(smollm2_path):
    llm = Llm()
    llm.model = str(smollm2_path)
    assert llm.projector_file() is None and not llm.sees_images()
    llm.supports_vision = True  # the user says it sees
    assert llm.sees_images()
    server = Llm()
    server.model, server.api_base, server.projector = "local", "http://127.0.0.1:9/v1", "/x/mmproj.gguf"
    assert server.projector_file() is None


def test_a_file_that_is_not_a_projector_is_refused_in_one_line_at_load(smollm2_path, tmp_path):
    """The real llama.cpp mtmd loader reads the file: a text model is no image projector."""
    wrong = tmp_path / "not-a-projector.gguf"
    shutil.copy(smollm2_path, wrong)
    backend = EmbeddedBackend(smollm2_path, n_ctx=512, projector=wrong)
    try:
        with pytest.raises(LLMError) as e:
            backend.load()
        msg = str(e.value)
        assert msg.startswith(f"Cannot use the image projector {wrong}") and "\n" not in msg
    finally:
        backend.close()
    missing = EmbeddedBackend(smollm2_path, n_ctx=512, projector=tmp_path / "nope.gguf")
    with pytest.raises(LLMError, match="nope.gguf"):
        missing.load()
    missing.close()


def _machine(ram_gib: float) -> hardware.Hardware:
    return hardware.Hardware(os="Linux", arch="x86_64", cpu_name="test", cores_physical=8, cores_logical=8,
                             cpu_flags=["avx2"], ram_total=int(ram_gib * 2**30), ram_available=int(ram_gib * 2**30 * 0.9),
                             disk_free=100 * 2**30, disk_path="/x", gpus=[])


def test_vision_models_come_first_when_the_screen_or_images_are_asked_for():
    hw = _machine(24)
    plain = recommend.recommend(hw)
    assert not plain[0].entry.has("vision")
    seeing = recommend.recommend(hw, vision=True)
    assert seeing[0].entry.has("vision") and "sees images" in seeing[0].why
    assert "sees images" in seeing[0].line()
    # The projector's size counts: a machine where the weights alone would fit, with it they do not.
    gemma = models.get_entry("gemma-3-4b-vision")
    assert gemma.projector is not None
    need = gemma.memory_needed(2048)
    tight = _machine((need + gemma.projector.size_bytes // 2) / 0.75 / 2**30)
    assert recommend.plan(gemma, tight, vision=True) is None
    assert recommend.plan(gemma, _machine(24), vision=True) is not None


def test_a_small_laptop_asking_for_vision_gets_the_small_vision_pair():
    # 4 GB of RAM: Gemma 3 4B with its projector does not fit, SmolVLM-500M (about 540 MB with its
    # projector) does, and comes before every text-only model because images were asked for.
    hw = _machine(4)
    assert recommend.plan(models.get_entry("gemma-3-4b-vision"), hw, vision=True) is None
    seeing = recommend.recommend(hw, vision=True)
    assert seeing[0].entry.id == "smolvlm-500m" and "sees images" in seeing[0].why
    assert models.get_entry("smolvlm").projector.file == "mmproj-SmolVLM-500M-Instruct-Q8_0.gguf"
    # Without vision asked for, a code model leads as before.
    assert not recommend.recommend(hw)[0].entry.has("vision")
