"""What an operator runs the server with (issue #20): `--json-logs`, the PARTYGAMES_* environment variables
the deploy files set, `/healthz`, `/readyz` and the Prometheus metrics at `/metrics`, on a real process."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import ROOT, LiveServer, free_port


def json_lines(log: Path) -> list[dict[str, Any]]:
    """The log's lines, every one a JSON object (standard output and standard error both: --json-logs)."""
    found = []
    for line in log.read_text().splitlines():
        assert line.startswith("{"), f"a line that is not JSON: {line!r}"
        found.append(json.loads(line))  # a line that starts as JSON and does not parse fails here
    return found


def metric_samples(url: str) -> dict[str, float]:
    """Every sample of `/metrics`, parsed as Prometheus parses it, by name and labels."""
    response = httpx.get(f"{url}/metrics", timeout=10)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[sample.name + (f"{{{labels}}}" if labels else "")] = sample.value
    return samples


def test_json_logs_write_one_parseable_object_per_line(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    server.args.append("--json-logs")
    server.start()
    try:
        lines = json_lines(server.log)
        node = httpx.get(f"{server.url}/healthz", timeout=5).json()["node"]
    finally:
        server.stop()
    serving = [line for line in lines if line["message"] == "serving"]
    assert len(serving) == 1, lines
    assert serving[0]["level"] == "INFO" and serving[0]["name"] == "partygames.server"
    assert serving[0]["address"] == server.url and serving[0]["node"] == node
    assert serving[0]["database"].endswith("partygames.sqlite3") and "time" in serving[0]


def test_partygames_serve_takes_its_settings_from_the_environment(tmp_path: Path) -> None:
    """deploy/compose.yaml configures `partygames serve` by PARTYGAMES_DATABASE_URL, PARTYGAMES_PUBLIC_URL
    (and the Dockerfile asks for JSON logs); the data folder can come from PARTYGAMES_DATA_DIR."""
    data, database = tmp_path / "data", tmp_path / "elsewhere" / "rooms.sqlite3"
    database.parent.mkdir()
    server = LiveServer(tmp_path, games=None)
    server.args = [sys.executable, "-m", "partygames.cli.main", "serve", "--port", str(server.port)]
    env = {"PARTYGAMES_DATABASE_URL": f"sqlite:///{database}", "PARTYGAMES_PUBLIC_URL": "https://games.example",
           "PARTYGAMES_DATA_DIR": str(data), "PARTYGAMES_JSON_LOGS": "1"}
    server.start(env)
    try:
        lobby = Lobby(server.url)
        created = lobby.create("dice-derby", 6, name="Aki")
        lobby.http.close()
        assert created["link"].startswith("https://games.example/")  # share links from the public URL
        assert database.exists() and not (data / "partygames.sqlite3").exists()
        assert (data / "node-0.id").read_text() == httpx.get(f"{server.url}/healthz", timeout=5).json()["node"]
    finally:
        server.stop()
    serving = [line for line in json_lines(server.log) if line["message"] == "serving"]
    assert [line["address"] for line in serving] == ["https://games.example"]


def test_a_database_that_does_not_answer_is_said_in_one_line_and_serving_never(tmp_path: Path) -> None:
    """With a database nobody answers at, the process says so in one line (en and ja), never that it
    serves, and exits with status 3; under --json-logs that line is JSON like every other."""
    nobody = f"postgresql://partygames@127.0.0.1:{free_port()}/partygames"
    for json_logs in (True, False):
        server = LiveServer(tmp_path / str(json_logs), database_url=nobody)
        server.data_dir.mkdir()
        if json_logs:
            server.args.append("--json-logs")
        server.launch()
        assert server.proc is not None
        assert server.proc.wait(60) == 3
        text = server.log.read_text()
        assert "Traceback" not in text and "serving" not in text and "partygames: open" not in text, text
        if json_logs:
            (line,) = json_lines(server.log)
            assert line["level"] == "ERROR" and "could not be opened" in line["message"]
            assert "Connection refused" in line["message"] and "開けませんでした" in line["ja"]
        else:
            assert text.splitlines() == [
                line for line in text.splitlines() if line.startswith("partygames: ")], text
            assert len(text.splitlines()) == 2 and "開けませんでした" in text, text


def test_db_upgrade_of_a_database_that_does_not_answer_says_so_without_a_traceback(tmp_path: Path) -> None:
    nobody = f"postgresql://partygames:secret@127.0.0.1:{free_port()}/partygames"
    upgrade = subprocess.run([sys.executable, "-m", "partygames.cli.main", "db", "upgrade", "--database-url", nobody],
                             env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "COLUMNS": "200"},
                             capture_output=True, text=True, timeout=60)
    assert upgrade.returncode == 1
    assert "Traceback" not in upgrade.stderr and "secret" not in upgrade.stderr
    en, ja = upgrade.stderr.strip().splitlines()
    assert "could not be upgraded" in en and "Connection refused" in en and "更新できませんでした" in ja


def test_the_cluster_settings_are_serve_options_and_environment_variables_checked_at_start(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "COLUMNS": "200"}

    def refused(args: list[str], **more: str) -> str:
        run = subprocess.run([sys.executable, "-m", *args, "--port", str(free_port()), "--data-dir", str(tmp_path)],
                             env={**env, **more}, capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
        return run.stderr

    said = refused(["partygames.cli.main", "serve", "--lease-seconds", "0.2"])
    assert "--lease-seconds (PARTYGAMES_LEASE_SECONDS) must be a number of at least 1" in said and "以上" in said
    said = refused(["partygames.cli.main", "serve"], PARTYGAMES_SWEEP_SECONDS="9")  # the lease is 4 s
    assert "--sweep-seconds (9) must be at most --lease-seconds (4)" in said and "以下" in said
    assert "--follower-idle-seconds" in refused(["partygames.server", "--follower-idle-seconds", "nan"])
    said = refused(["partygames.cli.main", "serve", "--review-workers", "65"])
    assert "--review-workers (PARTYGAMES_REVIEW_WORKERS) must be a whole number from 0 to 64" in said and "整数" in said
    assert "--review-workers" in refused(["partygames.server"], PARTYGAMES_REVIEW_WORKERS="1.5")
    # Given through the environment, a setting takes effect: the room's lease in the database is that long.
    server = LiveServer(tmp_path / "served", games=None)
    server.data_dir.mkdir()
    server.args = [sys.executable, "-m", "partygames.cli.main", "serve", "--port", str(server.port),
                   "--data-dir", str(server.data_dir), "--abandon-seconds", "3600"]
    server.start({"PARTYGAMES_LEASE_SECONDS": "77"})
    try:
        lobby = Lobby(server.url)
        created = lobby.create("dice-derby", 6, name="Aki", seat_kinds=["human"] + ["bot:random"] * 5)
        lobby.start(created["code"], created["host_token"])
        lobby.http.close()
        with sqlite3.connect(server.data_dir / "partygames.sqlite3") as db:
            (lease_until,) = db.execute("SELECT lease_until FROM rooms").fetchone()
        assert 60 < lease_until - time.time() <= 77
    finally:
        server.stop()


def test_health_readiness_and_metrics_of_a_serving_process(server: LiveServer, lobby: Lobby) -> None:
    assert httpx.get(f"{server.url}/healthz", timeout=5).json()["ok"] is True
    ready = httpx.get(f"{server.url}/readyz", timeout=5)
    assert ready.status_code == 200 and ready.json()["ready"] is True
    before = metric_samples(server.url)
    created, tokens = human_room(lobby)
    sockets = [Socket(server.ws_url, created["code"], token) for token in tokens]
    for sock in sockets:
        sock.update(0)
    sockets[0].act({"type": "bid", "amount": 3}, "a")
    sockets[0].until(lambda f: f["type"] == "update" and "a" in f["acks"])
    after = metric_samples(server.url)
    # This process (SQLite: alone) owns the playing room and holds its two sockets (others' rooms of the
    # module's shared server may count too: at least).
    assert after["partygames_rooms_owned"] >= 1 and after["partygames_sockets"] >= 2
    assert after["partygames_steps_total"] >= before["partygames_steps_total"] + 1
    assert after["partygames_commit_seconds_count"] > before["partygames_commit_seconds_count"]
    assert after["partygames_commit_seconds_bucket{le=+Inf}"] == after["partygames_commit_seconds_count"]
    # Alone, nothing is taken over, forwarded or relayed; the series are there, at zero.
    assert after["partygames_lease_takeovers_total"] == 0 and after["partygames_forwarded_actions_total"] == 0
    assert after["partygames_relay_lag_seconds_count"] == 0 and "partygames_rooms_followed" in after
