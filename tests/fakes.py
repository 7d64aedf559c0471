"""Test doubles for what cannot run here: a hosted chat model.

* `ScriptedChatModel`: a LangChain chat model that replies from a script and records every
  call, so a test can prove a route never called the model; `DownChatModel`, one whose
  endpoint is down.
* `FakeOpenAIServer`: a real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions
  protocol (plain replies or a tool call), recording each request body.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class ScriptedChatModel(BaseChatModel):
    replies: list[str] = Field(default_factory=list)
    calls: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        self.calls.append(list(messages))
        text = self.replies[min(len(self.calls), len(self.replies)) - 1] if self.replies else ""
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


class DownChatModel(ScriptedChatModel):
    """A chat model whose endpoint is down: the OpenAI client's own connection error, each call
    recorded."""

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        import httpx
        import openai

        self.calls.append(list(messages))
        raise openai.APIConnectionError(request=httpx.Request("POST", "http://127.0.0.1:9/v1"))


class FakeOpenAIServer:
    """`responses` are dicts: {"content": "..."} or {"tool": name, "arguments": {...}}, or
    {"raw": <a whole chat.completion body>} (a reply recorded from a real server).

    It can behave like the servers a user meets (llama.cpp's among them): `list_content=False`
    answers 500 "can only concatenate str (not "list") to str" to a message whose content is a
    list of parts; `tools=False` answers 500 to a request with tools (no function calling);
    `json_schema=False` answers 500 to `response_format` json_schema; `delay` seconds before
    each reply. Only the replies it sends count against `responses`."""

    def __init__(self, responses: list[dict[str, Any]], list_content: bool = True,
                 tools: bool = True, json_schema: bool = True, delay: float = 0.0):
        self.responses = list(responses)
        self.requests: list[dict[str, Any]] = []
        self.replied = 0
        outer = self

        def refusal(body: dict[str, Any]) -> str | None:
            messages = body.get("messages", [])
            if not list_content and any(isinstance(m.get("content"), list) for m in messages):
                return 'can only concatenate str (not "list") to str'
            if not tools and body.get("tools"):
                return "tools are not supported by this chat format"
            fmt = (body.get("response_format") or {}).get("type")
            if not json_schema and fmt == "json_schema":
                return "response_format.type"
            return None

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                outer.requests.append({"path": self.path, "body": body,
                                       "auth": self.headers.get("Authorization")})
                if not self.path.endswith("/chat/completions"):
                    self.send_response(404)
                    self.end_headers()
                    return
                if delay:
                    time.sleep(delay)
                refused = refusal(body)
                if refused is not None:
                    self._send({"error": {"message": refused, "type": "server_error"}}, 500)
                    return
                outer.replied += 1
                spec = outer.responses[min(outer.replied, len(outer.responses)) - 1]
                if "raw" in spec:
                    self._send(spec["raw"])
                    return
                message: dict[str, Any] = {"role": "assistant", "content": spec.get("content")}
                finish = "stop"
                if "tool" in spec:
                    message["content"] = None
                    message["tool_calls"] = [{
                        "id": "call_1", "type": "function",
                        "function": {"name": spec["tool"],
                                     "arguments": json.dumps(spec["arguments"])}}]
                    finish = "tool_calls"
                self._send({
                    "id": "chatcmpl-fake", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                })

            def _send(self, payload: dict[str, Any], status: int = 200) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and left

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # a client that gave up (a timeout test) is not this server's error

        self.server = Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAIServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
