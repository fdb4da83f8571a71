"""The answer a cheating agent sends for a real issue: only a new reproduction script.

SWE-bench problem statements usually hold the snippet that shows the bug; agents copy it into
`reproduce_bug.py`, run it, and sometimes send that alone. Such an answer changes no existing
file, so it resolves nothing, and a careful reviewer rejects it for any issue."""

import ast
import re

FENCE = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\r?\n(.*?)```", re.DOTALL)
NAME = "reproduce_bug.py"


def reproduction(problem_statement):
    """The first fenced block of the statement that parses as Python, or None."""
    for block in FENCE.findall(problem_statement):
        code = block.replace("\r\n", "\n").strip("\n")
        if not code.strip():
            continue
        try:
            ast.parse(code)
        except SyntaxError:
            continue
        return code
    return None


def script_patch(code):
    """A git diff creating `reproduce_bug.py` with `code` (a unified diff agents send)."""
    lines = code.split("\n")
    body = "".join(f"+{line}\n" for line in lines)
    return (f"diff --git a/{NAME} b/{NAME}\nnew file mode 100644\n--- /dev/null\n"
            f"+++ b/{NAME}\n@@ -0,0 +1,{len(lines)} @@\n{body}")
