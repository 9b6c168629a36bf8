"""The locks (requirements/*.txt, `make lock`) agree with pyproject.toml: every package pyproject.toml pins
for the lock's extras is in the lock at that version, so `make` installs what `pip install partygames`
would, with the transitive packages fixed too (issue #31, item 13)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCKS = sorted((ROOT / "requirements").glob("*.txt"))


def direct_pins(extras: set[str]) -> dict[str, str]:
    """pyproject.toml's pins for the project with `extras` (its own extras followed): name to `==` version."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins: dict[str, str] = {}
    seen: set[str] = set()
    todo = [*project["dependencies"], *(f"partygames[{extra}]" for extra in extras)]
    while todo:
        requirement = Requirement(todo.pop())
        if requirement.name == "partygames":
            for extra in requirement.extras - seen:
                seen.add(extra)
                todo += project["optional-dependencies"][extra]
            continue
        (specifier,) = requirement.specifier  # every dependency is pinned exactly
        assert specifier.operator == "==", requirement
        pins[canonicalize_name(requirement.name)] = specifier.version
    return pins


def locked(lock: Path) -> dict[str, list[str]]:
    """The lock's versions by package (a package may have one per environment marker)."""
    versions: dict[str, list[str]] = {}
    for match in re.finditer(r"(?m)^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", lock.read_text()):
        versions.setdefault(canonicalize_name(match[1]), []).append(match[2])
    return versions


def extras_of(lock: Path) -> set[str]:
    """The extras a lock is for, by its name: dev-rllib.txt for `dev` and `rllib`; runtime.txt for none."""
    return set() if lock.stem == "runtime" else set(lock.stem.split("-"))


def test_there_is_a_lock_for_the_suite_for_ci_and_for_the_image() -> None:
    # make's EXTRAS=dev, .ci/run's dev,rllib, deploy/Dockerfile's runtime
    assert [lock.name for lock in LOCKS] == ["dev-rllib.txt", "dev.txt", "runtime.txt"]
    assert "requirements/runtime.txt" in (ROOT / "deploy" / "Dockerfile").read_text()


@pytest.mark.parametrize("lock", LOCKS, ids=[lock.stem for lock in LOCKS])
def test_every_direct_pin_of_pyproject_is_in_the_lock_at_its_version(lock: Path) -> None:
    from packaging.specifiers import SpecifierSet

    pins = direct_pins(extras_of(lock))
    versions = locked(lock)
    assert "fastapi" in pins and ({"pytest", "ray", "pettingzoo"} <= pins.keys()) == bool(extras_of(lock))
    # (`==2.13.0` takes the lock's 2.13.0+cpu: PyTorch's CPU build of the same release)
    wrong = {name: (version, versions.get(name)) for name, version in pins.items()
             if not any(SpecifierSet(f"=={version}").contains(v) for v in versions.get(name, []))}
    assert wrong == {}, f"{lock.name} disagrees with pyproject.toml (run `make lock`): {wrong}"


@pytest.mark.parametrize("lock", LOCKS, ids=[lock.stem for lock in LOCKS])
def test_every_locked_package_has_its_hashes(lock: Path) -> None:
    entries = re.split(r"(?m)^(?=[A-Za-z0-9])", lock.read_text())[1:]
    assert entries and all("--hash=sha256:" in entry for entry in entries)
