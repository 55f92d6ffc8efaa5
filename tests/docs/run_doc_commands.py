#!/usr/bin/env python3
"""tests/docs/run_doc_commands.py — every command in the ```sh blocks of README.md and docs/*.md
is run, from the repository root, and must exit as the text says (0, or the code a trailing
"# exit N" comment names). Lines continued with a backslash or a trailing pipe are joined.
The README's test command (scripts/test) is what runs this, so it is not run again here; the
main job (scripts/mxfp4-table) writes its certificate to a temporary file, `cmake --install`
goes to a temporary prefix, and `mxcert-opt` / `mlir-runner-22` are the build's and Debian's.

Usage: run_doc_commands.py REPO_ROOT BUILD_DIR"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def blocks(path):
    """The ```sh blocks of a Markdown file, as lists of (line number, text)."""
    out, cur, start = [], None, 0
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("```sh"):
            cur, start = [], n
        elif line.startswith("```") and cur is not None:
            out.append((start, cur))
            cur = None
        elif cur is not None:
            cur.append((n, line.rstrip("\n")))
    return out


def commands(block):
    """Joins continuation lines; drops comment-only lines."""
    cmds, acc, first = [], "", None
    for n, text in block:
        stripped = text.strip()
        if not acc and (not stripped or stripped.startswith("#")):
            continue
        code = re.sub(r"\s+#.*$", "", text) if "#" in text and not acc.endswith("'") else text
        if first is None:
            first = n
        acc += (" " if acc else "") + code.strip()
        if acc.endswith("\\"):
            acc = acc[:-1].rstrip()
            continue
        if acc.endswith("|"):
            continue
        expect = 0
        m = re.search(r"#\s*exit (\d+)", text)
        if m:
            expect = int(m.group(1))
        cmds.append((first, acc, expect))
        acc, first = "", None
    return cmds


def main():
    root, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="mxcert-docs-")
    env = dict(os.environ, MXCERT_TABLE_OUT=os.path.join(tmp, "mxfp4.json"), MXCERT_CHECK_CACHE="none")
    files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    ran = failed = 0
    for path in files:
        rel = os.path.relpath(path, root)
        for start, block in blocks(path):
            prefix = ""  # variable assignments of the block so far (B=build/src/mxcert)
            for line, cmd, expect in commands(block):
                if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$", cmd):
                    prefix += cmd + "\n"
                    continue
                if cmd.startswith("./scripts/test"):
                    continue  # the test command itself (it runs this script)
                run = cmd.replace("/opt/mxcert", os.path.join(tmp, "prefix"))
                # build/..., `cmake --install build`, PYTHONPATH=build/python: the build under test
                run = re.sub(r"(^|\s|=)build(?=/|\s|$)", r"\1" + build, run)
                run = re.sub(r"(^|\|\s*)mxcert-opt ", r"\1" + os.path.join(build, "mlir_pass", "mxcert-opt") + " ", run)
                t0 = time.time()
                r = subprocess.run(["bash", "-o", "pipefail", "-c", prefix + run], cwd=root, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
                secs = time.time() - t0
                ran += 1
                if r.returncode != expect:
                    failed += 1
                    print("FAIL %s:%d: exit %d, expected %d: %s\n  stderr: %s" %
                          (rel, line, r.returncode, expect, cmd, r.stderr.strip()[-400:]))
                else:
                    print("ok   %s:%d (%.1f s): %s" % (rel, line, secs, cmd[:100]))
    shutil.rmtree(tmp, ignore_errors=True)
    print("run_doc_commands: %d commands run, %d failed" % (ran, failed))
    sys.exit(1 if failed or ran == 0 else 0)


if __name__ == "__main__":
    main()
