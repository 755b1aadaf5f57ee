"""The private broker a test gets: its apps' state folder is its own, fresh and empty, and goes with it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

import lifebus as lb


def _environment(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as file:
        pairs = [entry.decode().split("=", 1) for entry in file.read().split(b"\0") if b"=" in entry]
    return dict(pairs)


def test_each_broker_gives_its_apps_a_fresh_state_folder_removed_with_it() -> None:
    folders = []
    for _ in range(2):
        with lb.BrokerProcess() as broker:
            state = _environment(broker.pid)["LIFEBUS_STATE_DIR"]
            assert state == broker.state_folder
            assert state.startswith(broker.folder + os.sep)
            assert os.listdir(state) == []
            assert state not in folders
            folders.append(state)
        assert not os.path.exists(state)


def test_a_missing_broker_program_leaves_no_folder_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIFEBUS_BIN_DIR", str(tmp_path))  # an empty folder: no lifebusd in it
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temporary"))
    os.mkdir(tmp_path / "temporary")
    with pytest.raises(FileNotFoundError, match="lifebusd is not in LIFEBUS_BIN_DIR"):
        lb.BrokerProcess()
    assert os.listdir(tmp_path / "temporary") == []
