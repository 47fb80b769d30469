"""The server with the real embedded model (SmolLM2 through llama.cpp): a WebSocket turn and the
official `openai` client. Replies are a few tokens; what matters is that real inference flows
through the server, and that conversations share one model worker."""
from __future__ import annotations

import asyncio

import openai
import pytest
from test_server_ws import COMPLETE, KEY, connect, say, until_complete

from oi_local.server.async_interpreter import AsyncInterpreter
from oi_local.server.config import ServerConfig
from oi_local.server.server import Server

pytestmark = [pytest.mark.model, pytest.mark.slow]


@pytest.fixture(scope="module")
def model_server(smollm2_path, tmp_path_factory):
    ai = AsyncInterpreter(auto_run=False)
    ai.llm.model = str(smollm2_path)
    ai.llm.max_tokens = 12
    ai.llm.context_window = 2048
    ai.conversation_history = False
    srv = Server(ai, ServerConfig.from_env(api_key=KEY, upload_dir=tmp_path_factory.mktemp("up"))).start(port=0)
    yield srv
    srv.stop()
    ai.llm.close()


def test_websocket_turn_with_the_embedded_model(model_server) -> None:
    async def main() -> tuple[list, list]:
        async with connect(model_server, session="m1") as ws:
            await say(ws, "Say hello.")
            first = await until_complete(ws, timeout=120)
            shared = model_server.sessions["m1"].interp.llm._backend
            assert shared is model_server.template.llm._backend  # one model worker for all conversations
            await say(ws, "Say it again.")
            return first, await until_complete(ws, timeout=120)

    for msgs in asyncio.run(main()):
        assert msgs[-1] == COMPLETE
        assert not [m for m in msgs if m.get("type") == "error"], msgs
        starts = [m for m in msgs if m.get("start")]
        assert starts and starts[0]["role"] == "assistant"
        text = "".join(m.get("content") or "" for m in msgs if m.get("role") == "assistant" and isinstance(m.get("content"), str))
        assert text.strip()  # the model said something


def test_openai_client_with_the_embedded_model(model_server) -> None:
    client = openai.OpenAI(base_url=model_server.url + "/openai", api_key=KEY, max_retries=0, timeout=120)
    r = client.chat.completions.create(model="local", max_tokens=8,
                                       messages=[{"role": "user", "content": "What is the capital of France?"}])
    assert r.choices[0].message.content.strip()
    pieces = [c.choices[0].delta.content or "" for c in client.chat.completions.create(
        model="local", max_tokens=8, stream=True, messages=[{"role": "user", "content": "Name a colour."}])]
    assert "".join(pieces).strip()
