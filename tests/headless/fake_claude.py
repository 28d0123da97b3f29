#!/usr/bin/env python3
"""A stand-in for `claude -p --input-format stream-json ...` used by the executor tests.

FAKE_CLAUDE_MODE picks the behaviour: `ask` (raise AskUserQuestion as a control request and
report the answer), `hang` (start a child that sleeps in a session of its own, never answer), `crash` (exit 3 with
stderr and no result).
"""

import json
import os
import subprocess
import sys
import time

mode = os.environ.get("FAKE_CLAUDE_MODE", "ask")
first = json.loads(sys.stdin.readline())
session = "fake-session"


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


emit({"type": "system", "subtype": "init", "cwd": os.getcwd(), "session_id": session, "plugins": [], "mcp_servers": [],
      "argv": sys.argv[1:], "home": os.environ.get("HOME"), "base_url": os.environ.get("ANTHROPIC_BASE_URL"),
      "guidance_env": sorted(k for k in os.environ if k.startswith("GUIDANCE_"))})
if mode == "crash":
    sys.stderr.write("fatal: something broke\n")
    sys.exit(3)
if mode == "hang":
    # like the real client's Bash tool: a child in a session of its own, holding our stdout
    subprocess.Popen(["sleep", "60"], start_new_session=True)
    time.sleep(60)
    sys.exit(0)
question = {"question": "Which database?", "header": "DB",
            "options": [{"label": "postgres", "description": "pg"}, {"label": "mysql", "description": "my"}]}
emit({"type": "assistant", "session_id": session, "message": {"role": "assistant", "content": [
    {"type": "tool_use", "id": "toolu_q", "name": "AskUserQuestion", "input": {"questions": [question]}}]}})
emit({"type": "control_request", "request_id": "r1", "request": {
    "subtype": "can_use_tool", "tool_name": "AskUserQuestion", "input": {"questions": [question]}, "tool_use_id": "toolu_q"}})
reply = json.loads(sys.stdin.readline())["response"]["response"]
if reply["behavior"] == "allow":
    content, error = "answered: " + json.dumps(reply["updatedInput"]["answers"]), False
else:
    content, error = reply["message"], True
emit({"type": "user", "session_id": session, "message": {"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "toolu_q", "content": content, "is_error": error}]}})
emit({"type": "result", "subtype": "success", "is_error": False, "result": first["message"]["content"], "session_id": session,
      "num_turns": 2, "total_cost_usd": 0, "usage": {"input_tokens": 1, "output_tokens": 1}, "permission_denials": []})
sys.stdin.read()  # like the real client: exit once stdin closes
