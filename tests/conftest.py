from __future__ import annotations

import os
from collections.abc import Callable

from hypothesis import settings

# CI runs more examples; local runs stay quick.
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=25, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# -- figures: numbers a test reports (bot win rates, exact values), printed at the end of every run,
# also under pytest-xdist (user_properties travel from the workers to the controller).
import pytest  # noqa: E402

# One Chromium for the session, shared by every folder that drives a browser (see the module's docstring).
from tests.browser.chromium import browser  # noqa: E402, F401

_FIGURES: list[tuple[str, str]] = []


@pytest.fixture
def report_figures(record_property: Callable[[str, object], None]) -> Callable[[str], None]:
    """Call report_figures("text") to have the text printed in the run's summary."""

    def report(text: str) -> None:
        print(text)
        record_property("figures", text)

    return report


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`--dist loadgroup` sends each `xdist_group`'s tests to one worker by the "@group" suffix that
    pytest-xdist writes into their node ids in the worker. Under pytest 9.2's structured node ids that write
    no longer takes effect (pytest-dev/pytest-xdist#1386): every group was silently ignored (the label tests
    played Musical Chairs on both workers, the "server-restart" tests ran side by side). Writes the suffix
    where pytest reads the node id, for the items xdist's own hook left without one."""
    if not getattr(config.option, "loadgroup", False):  # set in xdist's workers under --dist loadgroup only
        return
    from _pytest.nodeid import NodeId

    for item in items:
        groups = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                  for mark in item.iter_markers("xdist_group")}
        nodeid = item.nodeid
        if groups and nodeid.rfind("@") <= nodeid.rfind("]"):  # xdist's own test for a suffix
            item._id = NodeId.parse(f"{nodeid}@{'_'.join(sorted(groups))}")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        for name, value in report.user_properties:
            if name == "figures":
                _FIGURES.append((report.nodeid, str(value)))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _FIGURES:
        terminalreporter.section("figures reported by tests")
        for nodeid, text in sorted(_FIGURES):
            terminalreporter.write_line(f"{nodeid}:")
            for line in text.splitlines():
                terminalreporter.write_line(f"    {line}")
