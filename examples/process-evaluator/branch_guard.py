#!/usr/bin/env python3
"""An out-of-process Warrant evaluator: guards protected git branches.

Speaks the JSON-lines protocol of plugins/PROTOCOL.md on stdin/stdout (logs go to stderr):

- `git push` to a protected branch is a hard deny;
- `git push --force` (or `-f`) to any branch must be approved by the user;
- everything else: abstain.

Configure it in warrant.toml:

    [[plugins.process]]
    name = "branch_guard"
    command = "python3"
    args = ["/absolute/path/to/examples/process-evaluator/branch_guard.py"]
    config = { protected = ["main", "release"] }
"""
import json
import shlex
import sys

PROTOCOL = 1
SHELL_TOOLS = {"Bash", "bash", "shell"}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def pushes(command):
    """Yields the argument lists of every `git push` in a shell command."""
    try:
        words = shlex.split(command.replace(";", " ; ").replace("&&", " ; ").replace("|", " ; "))
    except ValueError:
        return
    part = []
    for word in words + [";"]:
        if word == ";":
            if part[:2] == ["git", "push"]:
                yield part[2:]
            part = []
        else:
            part.append(word)


def judge(call, protected):
    if call.get("toolName") not in SHELL_TOOLS:
        return {"type": "abstain"}
    command = (call.get("input") or {}).get("command", "")
    for args in pushes(command):
        forced = any(a in ("--force", "-f") or a.startswith("--force-") for a in args)
        targets = {a.split(":")[-1].lstrip("+") for a in args if not a.startswith("-")}
        hit = sorted(targets & protected)
        if hit:
            return decision("hard_deny", "policy_protected_branch_push", "high",
                            f"Pushing to the protected branch {hit[0]} is not allowed.")
        if forced:
            return decision("require_ask", "policy_force_push", "high",
                            "A force push rewrites published history, so it needs approval.")
    return {"type": "abstain"}


def decision(stance, code, risk, reason):
    return {"type": "decision", "stance": stance, "reasonCode": code, "risk": risk, "reason": reason}


def main():
    protected = {"main", "master"}
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except json.JSONDecodeError as error:
            print(f"branch_guard: ignoring a malformed line: {error}", file=sys.stderr)
            continue
        if message.get("type") == "hello":
            if message.get("protocol") != PROTOCOL:
                send({"type": "error", "message": f"speaks protocol {PROTOCOL} only"})
                return
            protected = set((message.get("config") or {}).get("protected", protected))
            send({"type": "hello", "protocol": PROTOCOL, "name": "branch_guard",
                  "version": "1.0.0", "description": "Guards protected git branches."})
        elif message.get("type") == "evaluate":
            reply = judge(message["call"], protected)
            reply["id"] = message["id"]
            send(reply)


if __name__ == "__main__":
    main()
