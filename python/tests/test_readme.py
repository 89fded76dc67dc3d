"""The Python example of README.md runs as written (in an empty folder)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def python_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^### Python\n(.*?)(?=^##|\Z)", text, re.S | re.M)
    assert section, "README.md has no '### Python' section"
    block = re.search(r"```python\n(.*?)```", section.group(1), re.S)
    assert block, "the Python section of README.md has no ```python example"
    return block.group(1)


def test_readme_example_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = python_example()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, "README.md (Python example)", "exec"), {"__name__": "__readme__"})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "loss" in out
