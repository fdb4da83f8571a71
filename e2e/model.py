"""A scripted model server on 127.0.0.1 for running real agent CLIs without their vendors.

It speaks the streaming APIs the agents use: Anthropic Messages (`POST /v1/messages`), OpenAI
Responses (`POST .../responses`) and Chat Completions (`POST .../chat/completions`), and Gemini
(`POST .../models/M:streamGenerateContent` and `:generateContent`). Every request is logged.

A request is part of the scripted conversation when it offers tools. The server counts the tool
calls the assistant already made in that conversation and answers with the next scripted one,
so the answer depends only on the request (agents retry and ask side questions, such as titles,
without tools). When the script is used up it answers with the text "done".
"""

import http.server
import json
import threading
import urllib.parse


class Script:
    """The tool calls to make, in order, and every request received."""

    def __init__(self):
        # Reentrant: `on_reach` runs under it, so no request is answered while it runs.
        self.lock = threading.RLock()
        self.calls = []  # [(tool name, arguments as a dict, or a string for custom tools)]
        self.requests = []  # [(api, path, body)]
        self.on_reach = None
        self.reached = set()

    def reset(self, calls, on_reach=None):
        """Script `calls`; `on_reach(n)` runs once, when the conversation first comes back with
        n calls made (so call n-1 has run and call n is about to be sent)."""
        with self.lock:
            self.calls = list(calls)
            self.requests = []
            self.on_reach = on_reach
            self.reached = set()

    def record(self, api, path, body):
        with self.lock:
            self.requests.append((api, path, body))

    def next_call(self, made):
        with self.lock:
            if made not in self.reached:
                self.reached.add(made)
                if self.on_reach:
                    self.on_reach(made)
            return self.calls[made] if made < len(self.calls) else None

    def conversation(self):
        """The scripted conversation's requests (those offering tools), in order."""
        with self.lock:
            return [(api, body) for api, _, body in self.requests if offers_tools(api, body)]


def offers_tools(api, body):
    if api == "gemini":
        return bool(body.get("tools")) and any(
            t.get("functionDeclarations") for t in body.get("tools", []))
    return bool(body.get("tools"))


# ---- what the conversation so far holds, per API ----

def calls_made(api, body):
    """How many tool calls the assistant has made in the conversation of `body`."""
    if api == "anthropic":
        return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant"
                   and isinstance(m.get("content"), list)
                   for b in m["content"] if b.get("type") == "tool_use")
    if api == "responses":
        return sum(1 for item in body.get("input", []) if isinstance(item, dict)
                   and item.get("type") in ("function_call", "custom_tool_call", "local_shell_call"))
    if api == "chat":
        return sum(len(m.get("tool_calls") or []) for m in body.get("messages", [])
                   if m.get("role") == "assistant")
    return sum(1 for c in body.get("contents", []) if c.get("role") == "model"
               for p in c.get("parts", []) if "functionCall" in p)


def history(api, body):
    """The conversation's entries (messages, items, contents) in order."""
    key = {"anthropic": "messages", "responses": "input", "chat": "messages"}.get(api, "contents")
    items = body.get(key, [])
    return items if isinstance(items, list) else [items]


def is_call(api, entry):
    """Whether a history entry is (or holds) an assistant tool call."""
    if not isinstance(entry, dict):
        return False
    if api == "anthropic":
        return entry.get("role") == "assistant" and isinstance(entry.get("content"), list) and any(
            b.get("type") == "tool_use" for b in entry["content"])
    if api == "responses":
        return entry.get("type") in ("function_call", "custom_tool_call", "local_shell_call")
    if api == "chat":
        return entry.get("role") == "assistant" and bool(entry.get("tool_calls"))
    return entry.get("role") == "model" and any("functionCall" in p for p in entry.get("parts", []))


def texts(value):
    """Every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v)


def after_call(api, body, n):
    """The text of everything the conversation holds after the assistant's n-th tool call
    (0-based) and before its next one: what the model was told about that call."""
    seen = -1
    told = []
    for entry in history(api, body):
        if is_call(api, entry):
            seen += 1
            if seen > n:
                break
            continue
        if seen == n:
            told.extend(texts(entry))
    return "\n".join(told)


def whole_text(api, body):
    return "\n".join(t for entry in history(api, body) for t in texts(entry))


# ---- the server ----

class Handler(http.server.BaseHTTPRequestHandler):
    script = None  # set by `serve`
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        # Model lists and health checks: an empty but valid answer.
        self.reply_json({"data": [], "models": [], "object": "list"})

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = urllib.parse.urlparse(self.path).path
        api = ("anthropic" if path.endswith("/messages") else
               "count" if path.endswith("count_tokens") else
               "responses" if path.endswith("/responses") else
               "chat" if path.endswith("/chat/completions") else
               "gemini" if "/models/" in path else "other")
        self.script.record(api, path, body)
        if api == "count":
            return self.reply_json({"input_tokens": 1})
        if api == "gemini" and path.endswith(":countTokens"):
            return self.reply_json({"totalTokens": 1})
        call = None
        if offers_tools(api, body):
            call = self.script.next_call(calls_made(api, body))
        n = calls_made(api, body) if api != "other" else 0
        if api == "anthropic":
            return self.answer_anthropic(call, n)
        if api == "responses":
            return self.answer_responses(call, n)
        if api == "chat":
            return self.answer_chat(call, n, bool(body.get("stream")))
        if api == "gemini":
            return self.answer_gemini(call, path.endswith(":streamGenerateContent"))
        return self.reply_json({})

    def reply_json(self, value):
        data = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True

    def event(self, name, data):
        head = f"event: {name}\n" if name else ""
        self.wfile.write(f"{head}data: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()

    # Anthropic Messages, streamed.
    def answer_anthropic(self, call, n):
        self.start_stream()
        usage = {"input_tokens": 1, "output_tokens": 1}
        message = {"id": f"msg_{n}", "type": "message", "role": "assistant",
                   "model": "claude-test", "content": [], "stop_reason": None,
                   "stop_sequence": None, "usage": usage}
        self.event("message_start", {"type": "message_start", "message": message})
        if call:
            start = {"type": "tool_use", "id": f"toolu_{n}", "name": call[0], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(call[1])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": "done"}
        self.event("content_block_start",
                   {"type": "content_block_start", "index": 0, "content_block": start})
        self.event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                           "delta": delta})
        self.event("content_block_stop", {"type": "content_block_stop", "index": 0})
        self.event("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": "tool_use" if call else "end_turn",
                                               "stop_sequence": None},
                                     "usage": {"output_tokens": 1}})
        self.event("message_stop", {"type": "message_stop"})

    # OpenAI Responses, streamed.
    def answer_responses(self, call, n):
        self.start_stream()
        rid = f"resp_{n}_{id(self)}"
        if call and isinstance(call[1], str):
            item = {"type": "custom_tool_call", "id": f"ctc_{n}", "call_id": f"call_{n}",
                    "name": call[0], "input": call[1], "status": "completed"}
        elif call:
            item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}",
                    "name": call[0], "arguments": json.dumps(call[1]), "status": "completed"}
        else:
            item = {"type": "message", "id": f"m_{n}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]}
        response = {"id": rid, "object": "response", "status": "in_progress", "output": [],
                    "model": "gpt-test"}
        self.event("response.created", {"type": "response.created", "response": response})
        self.event("response.output_item.added",
                   {"type": "response.output_item.added", "output_index": 0, "item": item})
        self.event("response.output_item.done",
                   {"type": "response.output_item.done", "output_index": 0, "item": item})
        done = dict(response, status="completed", output=[item],
                    usage={"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                           "input_tokens_details": {"cached_tokens": 0},
                           "output_tokens_details": {"reasoning_tokens": 0}})
        self.event("response.completed", {"type": "response.completed", "response": done})

    # OpenAI Chat Completions, streamed or not.
    def answer_chat(self, call, n, stream):
        base = {"id": f"chatcmpl_{n}", "object": "chat.completion.chunk", "created": 0,
                "model": "gpt-test"}
        if call:
            tool = {"index": 0, "id": f"call_{n}", "type": "function",
                    "function": {"name": call[0], "arguments": json.dumps(call[1])}}
            message, finish = {"role": "assistant", "content": None, "tool_calls": [tool]}, \
                "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": "done"}, "stop"
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        if not stream:
            if call:
                message["tool_calls"][0].pop("index")
            return self.reply_json(dict(base, object="chat.completion", usage=usage, choices=[
                {"index": 0, "message": message, "finish_reason": finish}]))
        self.start_stream()
        self.event(None, dict(base, choices=[{"index": 0, "delta": message,
                                              "finish_reason": None}]))
        self.event(None, dict(base, choices=[{"index": 0, "delta": {},
                                              "finish_reason": finish}]))
        self.event(None, dict(base, choices=[], usage=usage))
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    # Gemini generateContent, streamed or not.
    def answer_gemini(self, call, stream):
        part = {"functionCall": {"name": call[0], "args": call[1]}} if call else {"text": "done"}
        answer = {"candidates": [{"content": {"role": "model", "parts": [part]},
                                  "finishReason": "STOP", "index": 0}],
                  "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
                                    "totalTokenCount": 2},
                  "modelVersion": "gemini-test"}
        if not stream:
            return self.reply_json(answer)
        self.start_stream()
        self.event(None, answer)


def serve(script):
    """Start the server on a free loopback port; returns (server, port)."""
    handler = type("ScriptedModel", (Handler,), {"script": script})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]
