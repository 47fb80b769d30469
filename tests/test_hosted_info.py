"""A hosted model's context window and function calling come from litellm's bundled model map
(offline), not a fixed guess."""
from __future__ import annotations

from oi_local.llm.backends.litellm_backend import import_litellm
from oi_local.llm.llm import Llm


def test_a_known_hosted_model_gets_its_real_context_window_and_functions() -> None:
    known = import_litellm().get_model_info("gpt-4o")
    llm = Llm()
    llm.model = "gpt-4o"
    assert llm.kind() == "hosted"
    assert llm.effective_context_window() == known["max_input_tokens"] != 8000
    assert llm.functions_enabled() is bool(known["supports_function_calling"]) is True


def test_an_unknown_hosted_model_falls_back_quietly() -> None:
    llm = Llm()
    llm.model = "nosuchprovider/nosuchmodel"
    assert llm.effective_context_window() == 8000 and llm.functions_enabled() is False
