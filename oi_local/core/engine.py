"""The engine behind `OpenInterpreter`: settings, messages, prompt building and `chat()`.

Nothing here prints or prompts: display and confirmation are the terminal's job, plugged in by
`oi_local.interpreter.OpenInterpreter`.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

from oi_local.core import lmc
from oi_local.core.context import TokenCounter, Trimmed, fit
from oi_local.core.convert import Templates, append_user, to_chat
from oi_local.core.lmc import Message, chunk
from oi_local.core.loop import FAILED_SAID, Approver, respond
from oi_local.core.prompts import apply_template, fill, load_template_set
from oi_local.core.rules.base import Addition
from oi_local.llm.llm import EXECUTE_TOOL, Llm, parse_tool_arguments
from oi_local.settings import Checked

_UNSET = object()


# A reply that is one fenced code block, closed (the loop's ready block: core/rules/turn.py block_prefix).
WHOLE_BLOCK = re.compile(r"```[\w+-]*\n(?:(?!\n```).)*\n```", re.S)

class _TemplateSetting:
    """A prompt setting whose default comes from the template set for the current model
    (small local models get short prompts), until the user assigns a value."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__.get("_t_" + self.name, _UNSET)
        if value is _UNSET:
            return obj.template_set().get(self.name)
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__["_t_" + self.name] = value


class Engine(Checked):  # assignments to settings are type-checked (oi_local/settings.py)
    system_message = _TemplateSetting()
    user_message_template = _TemplateSetting()
    always_apply_user_message_template = _TemplateSetting()
    code_output_template = _TemplateSetting()
    empty_code_output_template = _TemplateSetting()
    code_output_sender = _TemplateSetting()
    examples = _TemplateSetting()
    file_hints = _TemplateSetting()
    code_first = _TemplateSetting()
    fresh_retries = _TemplateSetting()
    max_failed_runs = _TemplateSetting()
    second_opinions = _TemplateSetting()
    recipes = _TemplateSetting()
    prefill_code = _TemplateSetting()
    error_notes = _TemplateSetting()
    retry_at_once = _TemplateSetting()
    computed_answers = _TemplateSetting()

    def __init__(self, **settings: Any) -> None:
        from oi_local.computer import Computer

        self.messages: list[Message] = []
        self.llm = Llm()
        self.computer = Computer()
        self.llm.link_max_output(self.computer)  # the spec's llm.max_output is the same setting
        self.custom_instructions: str = ""
        self.auto_run: bool = False
        self.offline: bool = True
        self.verbose: bool = False
        self.loop: bool = False
        self.loop_message: str = (
            "Proceed. You CAN run code on my machine. If the entire task I asked for is done, say exactly "
            "'The task is done.' If it's impossible, say 'The task is impossible.' Otherwise keep going."
        )
        self.loop_breakers: list[str] = ["The task is done.", "The task is impossible."]
        self.max_code_steps: int = 10
        # Code for a request to delete/wipe/encrypt broadly ("every file", "my home folder", "/") is
        # confirmed even with auto_run; with no one to confirm it is not run (core/rules/destructive.py).
        self.confirm_destructive: bool = True
        self.one_block_per_turn: bool = True
        # A request to fix a named script ends with the script changed: asked once more otherwise
        # (core/fixes.py).
        self.check_fixes: bool = True
        self.template: str | None = None  # name of the prompt set; None: chosen from the model
        self.last_trim: Trimmed | None = None
        self._stable_messages = 0  # leading prompt messages every chat shares (set by build_prompt)
        self._counter: tuple[Any, TokenCounter] | None = None
        # What each prompt rule (core/rules/) added for the newest request: computed once per request,
        # so later steps of a turn keep the same text (the model may have changed the files since, and
        # an unchanged prompt prefix keeps llama.cpp's cache warm).
        self._additions: dict[str, tuple[Any, Addition | None]] = {}
        # Each request as the model first saw it (index -> (stored text, text shown)): later turns
        # show it the same way, so llama.cpp keeps the state of the whole history between turns.
        self._shown: dict[int, tuple[str, str]] = {}
        # Kept for compatibility: the loop now passes the messages a turn hides to stream_reply
        # (`hide`) instead of setting this; it stays None.
        self.hidden: tuple[int, int] | None = None
        # The request of the turn whose worked examples the model copied from: while it is in
        # `messages` (this chat), later turns leave the examples out too.
        self.examples_dropped_with: dict[str, Any] | None = None
        # Earlier turns' hidden tries (first and last message, the loop's note): later turns' prompts
        # leave them out too, as the turn's own last call did (core/loop.py).
        self.past_hides: list[tuple[dict[str, Any], dict[str, Any], str | None]] = []
        # Switches of the loop's rules that apply to every model (core/rules/; README "Small models").
        self.module_fallback: bool = True
        self.relabel_shell: bool = True
        self.stop_repeats: bool = True
        self.skip_cut_off: bool = True
        self.check_answers: bool = True
        self.widen_rounding: bool = True
        self.check_outputs: bool = True
        self.correct_paths: bool = True
        self.repair_slips: bool = True
        self.asked_column: bool = True
        self.honest_end: bool = True
        self.save_long_requests: bool = True
        self.plain_words: bool = True
        for key, value in settings.items():
            if not hasattr(self, key) and key not in type(self).__dict__:
                raise TypeError(f"unknown setting {key!r}")
            setattr(self, key, value)

    # --- settings that live on the computer or llm but the spec also puts on the interpreter ---
    @property
    def max_output(self) -> int:
        return self.computer.max_output

    @max_output.setter
    def max_output(self, value: int) -> None:
        self.computer.max_output = int(value)

    def template_set(self) -> dict[str, Any]:
        # A user's own completions function gets the spec's plain prompts: it may be any model.
        name = self.template or ("small" if self.llm.is_local() else "large")
        base = load_template_set(name)
        if self.template is not None or not self.llm.capabilities().family_prompts:
            return base  # a set the user chose, or a model whose family we do not manage
        try:  # the model family's own adjustments (templates/families/), e.g. who sends code output
            from oi_local.local.families import prompt_overrides

            overrides = prompt_overrides(self.llm.model)
        except Exception:  # noqa: BLE001 - a broken family file must not stop the chat
            overrides = {}
        return {**base, **overrides} if overrides else base

    def language_names(self) -> list[str]:
        return [getattr(lang, "name", str(lang)) for lang in self.computer.languages]

    # --- prompt ---
    def full_system_message(self) -> str:
        parts = [fill(self.system_message or "", self.language_names())]
        if self.custom_instructions:
            parts.append(self.custom_instructions)
        lang_msg = getattr(self.computer, "system_message", "")
        if lang_msg:
            parts.append(lang_msg)
        if getattr(self.computer, "import_computer_api", False):  # the Computer API and saved skills
            parts.append(self.computer.api_system_message(self.template_set().get("computer_api") or ""))
        ei = self.llm.execution_instructions
        if ei is None:
            ei = self.template_set().get("execution_instructions") or ""
        if isinstance(ei, str) and ei and not self.llm.functions_enabled():  # (True would have broken the join)
            parts.append(ei)
        return "\n\n".join(p for p in parts if p)

    def templates(self) -> Templates:
        return Templates(
            user_message_template=self.user_message_template or "{content}",
            always_apply_user_message_template=bool(self.always_apply_user_message_template),
            code_output_template=self.code_output_template or "{content}",
            empty_code_output_template=self.empty_code_output_template or "",
            code_output_sender=self.code_output_sender or "user",
        )

    def _newest_request(self) -> int | None:
        i = next((i for i in range(len(self.messages) - 1, -1, -1)
                  if self.messages[i]["role"] == "user" and self.messages[i]["type"] == "message"), None)
        if i is None or not isinstance(self.messages[i].get("content"), str):
            return None
        return i

    def _prompt_additions(self) -> tuple[int | None, str, list[dict[str, str]], str | None]:
        """What the prompt rules (core/rules/: file hints, recipes, long requests) add for the newest
        request: the index of that request, a hint to append to it, worked examples, and the request
        as the model sees it when a rule rewrote it (else None)."""
        i = self._newest_request()
        if i is None:
            return None, "", [], None
        from oi_local.core.rules import active

        last = self.messages[i]
        earlier = next((m["content"] for m in reversed(self.messages[:i]) if m["role"] == "user"
                        and m["type"] == "message" and isinstance(m.get("content"), str)), "")
        hints, examples, request = [], [], None
        for rule in active(self, "prompt"):
            key = (id(last), last["content"], getattr(self, rule.setting, None))
            if rule.name not in self._additions or self._additions[rule.name][0] != key:
                self._additions[rule.name] = (key, rule.prompt(self, last["content"], earlier))  # type: ignore[misc]
            added = self._additions[rule.name][1]
            if added is not None:
                hints += [added.hint] if added.hint else []
                examples += [dict(m) for m in added.examples]
                request = added.request if added.request is not None else request
        return i, "\n\n".join(hints), examples, request

    def shown_examples(self) -> list[dict[str, str]]:
        """The worked examples the model sees before the conversation: the template's and the
        recipes picked for the newest request."""
        return [dict(e) for e in (self.examples or [])] + self._prompt_additions()[2]

    def _describe_images(self) -> Any:
        """For a model without vision: how each image becomes text (core/images.py)."""
        if self.llm.sees_images():
            return None
        if getattr(self, "_image_describer", None) is None:
            from oi_local.core.images import ImageDescriber

            self._image_describer = ImageDescriber(self.computer)
        return self._image_describer

    def _as_shown(self, i: int | None, hint: str, request: str | None) -> list[Message]:
        """The messages with the newest request as the model sees it (a rule's rewrite, the hint)
        and each earlier request as it was shown in its own turn (its template, its hint). A copy:
        none of it is ever stored."""
        messages = list(self.messages)
        if i is None:
            return messages
        for j in range(i):  # the loop's failure statement of an earlier turn: its first line, not the traceback
            content = messages[j].get("content")
            if messages[j]["role"] == "assistant" and isinstance(content, str) and content.startswith(FAILED_SAID):
                messages[j] = {**messages[j], "content": content.split("\n\n", 1)[0]}
        text = messages[i]["content"] if request is None else request
        text = f"{text}\n\n{hint}" if hint else text
        if text != messages[i]["content"]:
            messages[i] = {**messages[i], "content": text}
        t = self.templates()
        if t.always_apply_user_message_template:
            return messages  # every request gets the template anyway
        for j, (stored, shown) in list(self._shown.items()):
            same = j < i and messages[j]["role"] == "user" and messages[j].get("content") == stored
            if same:
                messages[j] = {**messages[j], "content": shown}
            elif j != i:
                del self._shown[j]
        self._shown[i] = (self.messages[i]["content"], apply_template(t.user_message_template, text))
        return messages

    def build_prompt(self, extra_user: str | None = None,
                     hide: tuple[Any, ...] | None = None, recipes: bool = True) -> list[dict[str, Any]]:
        """System message, few-shot examples and the conversation, fitted to the context budget;
        messages [a, b) of `hide` are left out (a turn the loop asked the model to start afresh), and
        those from its fourth index on, when it has one."""
        functions = self.llm.functions_enabled()
        system = [{"role": "system", "content": self.full_system_message()}]
        if not functions:
            system += [dict(e) for e in (self.examples or [])]
        i, hint, picked, request = self._prompt_additions()
        messages = self._as_shown(i, hint, request)
        if hide is not None:
            # The loop's ask stays right after the request in every later call of the turn: said once
            # and dropped again, it made llama.cpp re-read the new attempt (4,121 tokens of 23,090
            # read in the 30-task run were such re-reads).
            note = [{"role": "user", "type": "note", "content": hide[2]}] if len(hide) > 2 and hide[2] else []
            # A fourth index: what came after it is left out too (core/rules/second_opinions.py).
            messages = messages[:hide[0]] + note + messages[hide[1]:hide[3] if len(hide) > 3 else None]
        messages = self._past_hidden(messages)
        conversation = to_chat(messages, self.templates(), vision=self.llm.sees_images(), functions=functions,
                               describe=self._describe_images())
        if extra_user:
            # Added after the conversation as it always reads: rendered as the newest user message
            # instead, it took the request's template away, and llama.cpp re-read the prompt from
            # the request on (9,124 of 28,217 tokens read in the 30-task run, 86 s).
            conversation = append_user(conversation, extra_user)
        budget = self.llm.effective_context_window() - self.llm.effective_max_tokens()
        # recipes=False: the loop found the model copying one, and asks again without them
        shown = [] if functions or not recipes else picked
        prompt, info = fit(system + shown, conversation, budget, self._token_counter())
        if shown and (info.dropped_messages or info.shortened_messages):
            prompt, info = fit(system, conversation, budget, self._token_counter())  # the conversation first
        self.last_trim = info
        # The system message and fixed examples are the same in every chat: the embedded model keeps
        # their state on disk (llm/backends/_prefix_cache.py). Folded into a user turn, they are not.
        self._stable_messages = len(system) if prompt[:len(system)] == system else 0
        if self.template_set().get("system_role") is False:
            prompt = _fold_system(prompt)
            self._stable_messages = 0
        return prompt

    def keep_hidden(self, first: dict[str, Any], last: dict[str, Any], note: str | None) -> None:
        """A turn ended with messages first..last left out of its prompts (a try it asked afresh) and
        `note` said after its request: later turns' prompts read the same. Shown again, they made
        llama.cpp re-read the whole earlier turn (and the model saw a try it had been told to drop)."""
        self.past_hides = [h for h in self.past_hides if any(m is h[0] for m in self.messages)]
        self.past_hides.append((first, last, note))

    def _past_hidden(self, messages: list[Message]) -> list[Message]:
        for first, last, note in self.past_hides:
            a = next((k for k, m in enumerate(messages) if m is first), None)
            b = next((k for k, m in enumerate(messages) if m is last), None)
            if a is None or b is None or b < a:
                continue
            said = [{"role": "user", "type": "note", "content": note}] if note else []
            messages = messages[:a] + said + messages[b + 1:]
        return messages

    def stop_strings(self) -> list[str] | None:
        """The user's `llm.stop`, else the model family's (local models only)."""
        if self.llm.stop is not None or not self.llm.capabilities().family_prompts:
            return self.llm.stop
        try:
            from oi_local.local.families import stop_strings

            return stop_strings(self.llm.model) or None
        except Exception:  # noqa: BLE001 - a broken family file must not stop the chat
            return None

    def _token_counter(self) -> TokenCounter:
        backend_key = (self.llm.kind(), self.llm.model, self.llm.api_base, id(self.llm._completions))
        if self._counter is None or self._counter[0] != backend_key:
            self._counter = (backend_key, TokenCounter(self.llm.count_tokens if self.llm.capabilities().counts_tokens else None))
        return self._counter[1]

    # --- one model reply as LMC chunks ---
    def stream_reply(self, extra_user: str | None = None, *, temperature: float | None = None,
                     seed: int | None = None, reply_prefix: str | None = None,
                     hide: tuple[Any, ...] | None = None, recipes: bool = True) -> Iterator[Message]:
        from oi_local.llm.parser import CodeBlockParser

        aliases = self._aliases()
        parser = CodeBlockParser(aliases=aliases)
        if reply_prefix and WHOLE_BLOCK.fullmatch(reply_prefix.strip()):
            # The loop's own block, sent back whole: no model call. Called, llama.cpp began reading the
            # prompt and was stopped at once, and the next call re-read ~550 tokens it had held
            # (5 of 30 tasks in session 36's speed run, ~30 s).
            for ev in [*parser.feed(reply_prefix.strip() + "\n"), *parser.finish()]:
                yield {"role": "assistant", **ev}
            return
        prompt = self.build_prompt(extra_user, hide, recipes)
        functions = self.llm.functions_enabled()
        tool_args: dict[int, str] = {}
        tool_emitted: dict[int, tuple[str, int]] = {}
        stream = self.llm.stream_text(prompt, tools=[EXECUTE_TOOL] if functions else None, stop=self.stop_strings(),
                                      temperature=temperature, seed=seed, reply_prefix=reply_prefix,
                                      stable_messages=self._stable_messages)
        try:
            for delta in stream:
                if "content" in delta:
                    for ev in parser.feed(delta["content"]):
                        yield {"role": "assistant", **ev}
                elif "tool_call" in delta:
                    tc = delta["tool_call"]
                    idx = tc.get("index", 0) or 0
                    tool_args[idx] = tool_args.get(idx, "") + ((tc.get("function") or {}).get("arguments") or "")
                    lang, code = parse_tool_arguments(tool_args[idx])
                    if lang is None or code is None:
                        continue
                    lang = aliases.get(lang.lower(), lang.lower())
                    if idx not in tool_emitted:
                        for ev in parser.finish():
                            yield {"role": "assistant", **ev}
                        parser = CodeBlockParser(aliases=aliases)
                        yield chunk("assistant", "code", lang, start=True)
                        tool_emitted[idx] = (lang, 0)
                    sent = tool_emitted[idx][1]
                    if len(code) > sent:
                        yield chunk("assistant", "code", lang, content=code[sent:])
                        tool_emitted[idx] = (lang, len(code))
            for ev in parser.finish():
                yield {"role": "assistant", **ev}
            for idx, (lang, _) in sorted(tool_emitted.items()):
                _, code = parse_tool_arguments(tool_args[idx])
                sent = tool_emitted[idx][1]
                if code and len(code) > sent:
                    yield chunk("assistant", "code", lang, content=code[sent:])
                yield chunk("assistant", "code", lang, end=True, closed=True)
        finally:
            close = getattr(stream, "close", None)  # a generator: stops the model's reply
            if close is not None:
                close()

    def _aliases(self) -> dict[str, str]:
        from oi_local.llm.parser import DEFAULT_ALIASES

        names = {}
        for lang in self.computer.languages:
            name = getattr(lang, "name", "")
            if not name:
                continue
            names[name.lower()] = name
            for alias in getattr(lang, "aliases", []) or []:
                names[alias.lower()] = name
        # Well-known languages are always recognized as code, even when this computer lacks them,
        # so that the loop can tell the model which languages it has instead of ignoring the block.
        for alias, canonical in DEFAULT_ALIASES.items():
            names.setdefault(alias, canonical)
        from oi_local.computer.languages import known_names

        for alias, canonical in known_names().items():  # R, PowerShell, ... where not installed
            names.setdefault(alias, canonical)
        return names

    # --- the public loop ---
    def _start(self, message: Any) -> None:
        if message is None:
            return
        if isinstance(message, str):
            self.messages.append({"role": "user", "type": "message", "content": message})
        elif isinstance(message, dict):
            self.messages.extend(lmc.normalize([message]))
        elif isinstance(message, list):
            self.messages = lmc.normalize(message)
        else:
            raise TypeError("message must be a str, an LMC message dict, or a list of them")

    def respond(self, approve: Approver | None = None) -> Iterator[Message]:
        return respond(self, approve)

    def reset(self) -> None:
        self.computer.terminate()
        self.messages = []

    def close(self) -> None:
        self.computer.terminate()
        self.llm.close()


def _fold_system(prompt: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For chat templates without a system role: the system text opens the first user turn."""
    if not prompt or prompt[0]["role"] != "system":
        return prompt
    system, rest = prompt[0]["content"], [dict(m) for m in prompt[1:]]
    if rest and rest[0]["role"] == "user" and isinstance(rest[0]["content"], str):
        rest[0]["content"] = f"{system}\n\n{rest[0]['content']}"
        return rest
    return [{"role": "user", "content": system}] + rest
