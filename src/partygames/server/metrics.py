"""What `/metrics` tells Prometheus about this process (prometheus-client, one registry per app).

Rooms owned and followed, sockets, accepted actions, commit latency and batch sizes, takeovers of rooms
whose owner died or stopped, actions forwarded to other processes, and the relay lag: from the owner's
commit to this process hearing of it.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.owned = Gauge("partygames_rooms_owned", "Playing rooms this process owns.", registry=registry)
        self.followed = Gauge("partygames_rooms_followed", "Rooms this process follows (another owns them).",
                              registry=registry)
        self.sockets = Gauge("partygames_sockets", "Open WebSocket connections.", registry=registry)
        self.actions = Counter("partygames_steps", "Log entries stored (actions and wake-ups).", registry=registry)
        self.commit_seconds = Histogram("partygames_commit_seconds", "Seconds a commit batch took.",
                                        buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
                                        registry=registry)
        self.takeovers = Counter("partygames_lease_takeovers", "Rooms this process took (a new epoch).",
                                 registry=registry)
        self.forwarded = Counter("partygames_forwarded_actions", "Actions forwarded to another process.",
                                 registry=registry)
        self.relay_lag = Histogram("partygames_relay_lag_seconds",
                                   "Seconds from the owner's commit to this process hearing of it.",
                                   buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 5),
                                   registry=registry)

    def committed(self, seconds: float, steps: int) -> None:
        self.commit_seconds.observe(seconds)
        self.actions.inc(steps)

    def rooms(self, hub: Any) -> None:
        """Takes the gauges' values from the hub's rooms."""
        rooms = list(hub.rooms.values())
        self.owned.set(sum(1 for r in rooms if r.owned))
        self.followed.set(sum(1 for r in rooms if not r.owned and r.status == "playing"))
        self.sockets.set(sum(len(r.delivery.conns) for r in rooms))

    def render(self) -> bytes:
        return generate_latest(self.registry)
