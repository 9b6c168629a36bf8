"""Token buckets for per-connection rates. Time is passed in, so tests can drive it."""

from __future__ import annotations


class TokenBucket:
    """Allows `rate` events a second on average with bursts of `burst`."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class ClientBuckets:
    """One bucket per client address (for HTTP requests that write), forgetting idle clients."""

    def __init__(self, rate: float, burst: float, max_clients: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_clients = max_clients
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, client: str, now: float) -> bool:
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= self.max_clients:
                # Full buckets are indistinguishable from new ones: dropping them forgets nothing.
                idle = [k for k, b in self._buckets.items() if b.tokens + (now - b.stamp) * b.rate >= b.burst]
                for key in idle or list(self._buckets)[: self.max_clients // 2]:
                    del self._buckets[key]
            bucket = self._buckets[client] = TokenBucket(self.rate, self.burst, now)
        return bucket.allow(now)

    def has_token(self, client: str, now: float) -> bool:
        """Whether `client` could make one more request now (nothing is spent)."""
        bucket = self._buckets.get(client)
        return bucket is None or min(bucket.burst, bucket.tokens + (now - bucket.stamp) * bucket.rate) >= 1.0
