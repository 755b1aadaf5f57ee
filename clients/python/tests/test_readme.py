"""The README's "A test in Python", run as written: it passes, and the same test expecting another mark fails with
a report a person reads (the expected beside the recorded, the state, the last marks, the timeline)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[3] / "README.md"


def readme_test() -> str:
    section = README.read_text().split("## A test in Python", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None, "README.md: no python block under 'A test in Python'"
    return found.group(1)


def test_the_readme_block_is_at_most_15_lines() -> None:
    assert len(readme_test().splitlines()) <= 15


def test_the_readme_test_passes_as_written(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_notes=readme_test())
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_the_readme_test_fails_readably_when_the_app_marks_something_else(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_notes=readme_test().replace('{"draft": "milk"})', '{"draft": "eggs"})', 1))
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E*ExpectationFailed: com.example.Notes did not meet the expectation (mark state-saved), *",
            "E*ok*callbacks*expected: willResignActive, didEnterBackground",
            "E*FAIL mark state-saved  expected: draft=milk",
            "E*recorded: draft=eggs",
            "E*callbacks:",
            "E*expected            recorded",
            "E*  willResignActive    willResignActive",
            "E*state: suspended",
            "E*last marks: state-saved",
            "E*timeline:",
            'E*com.example.Notes mark state-saved {"draft":"eggs"}',
            "*Captured stdout call*",
            "lifebus timeline:",
            "*com.example.Notes didFinishLaunching notRunning -> inactive (ok)",
        ]
    )
