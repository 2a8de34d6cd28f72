"""The type checker over the solver package (STYLE, "Small habits": full type hints and a type checker in the tests).

The settings live in ``[tool.mypy]`` of pyproject.toml, so ``python -m mypy`` from the checkout gives the same
answer as this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_solver_package_type_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the paths in [tool.mypy] (files, exclude) are relative to the checkout
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "solver"])
    if status != 0:
        print(report, errors, sep="")
    assert status == 0, f"mypy found problems in solver/:\n{report}{errors}"
    assert report.startswith("Success: no issues found"), report
