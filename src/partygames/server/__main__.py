"""`python -m partygames.server [--host H] [--port P] [--public-url URL] [--database-url URL] [--bot-delay S]
[--data-dir D] [--json-logs] ...`: `partygames serve`'s options, plus some for tests and benchmarks. As there,
PARTYGAMES_DATABASE_URL, PARTYGAMES_PUBLIC_URL, PARTYGAMES_DATA_DIR, PARTYGAMES_JSON_LOGS and
PARTYGAMES_TRUST_PROXY stand for the options left out (deploy/compose.yaml)."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
from pathlib import Path

from partygames.server.address import check_public_url, check_trusted_proxies
from partygames.server.main import serve
from partygames.server.settings import DEFAULT_BOT_DELAY, KNOBS, Settings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m partygames.server", description="Serve the partygames platform.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--public-url", type=_public_url, default=os.environ.get("PARTYGAMES_PUBLIC_URL"),
                        help="the address people open, for share links and QR codes (default: the bound address; "
                             "the LAN address when bound to 0.0.0.0)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="a page origin besides the server's own whose WebSockets are taken (repeatable; *: any)")
    parser.add_argument("--trust-proxy", type=_trusted_proxies,
                        default=os.environ.get("PARTYGAMES_TRUST_PROXY", os.environ.get("FORWARDED_ALLOW_IPS")),
                        help="the proxies whose X-Forwarded-For names the client: IP addresses or networks, "
                             "comma-separated, or * (default: 127.0.0.1,::1)")
    parser.add_argument("--database-url", default=os.environ.get("PARTYGAMES_DATABASE_URL"),
                        help="postgresql://... (default: SQLite in --data-dir)")
    parser.add_argument("--bot-delay", type=float, default=DEFAULT_BOT_DELAY, help="seconds a bot thinks before acting")
    parser.add_argument("--data-dir", type=Path, default=os.environ.get("PARTYGAMES_DATA_DIR"))
    parser.add_argument("--json-logs", action="store_true", default=_flag(os.environ.get("PARTYGAMES_JSON_LOGS")),
                        help="log one JSON object per line")
    parser.add_argument("--deadline-scale", type=float, default=1.0, help="multiplies engine deadlines (tests)")
    parser.add_argument("--reveal-scale", type=float, default=1.0,
                        help="multiplies the games' reveal durations the server waits for (0: no waiting)")
    parser.add_argument("--rate-limit", type=float, default=None,
                        help="frames a second per connection (default 20, bursts of twice that); for benchmarks")
    for knob in KNOBS.values():  # the cluster's settings (docs/scaling.md), or their PARTYGAMES_* variables
        parser.add_argument(knob.option, type=_number, default=os.environ.get(knob.env),
                            metavar="COUNT" if knob.whole else "SECONDS", help=f"{knob.en} (env {knob.env})")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="override a Settings field, e.g. --set max_catchup=10 (tests)")
    parser.add_argument("--games-module", default=None,
                        help="module:attr holding a {id: Game} mapping to serve instead of the registry (tests)")
    args = parser.parse_args(argv)
    overrides: dict[str, object] = {"deadline_scale": args.deadline_scale, "reveal_scale": args.reveal_scale,
                                    "json_logs": args.json_logs, **_knobs(args)}
    if args.allow_origin:
        overrides["allowed_origins"] = tuple(args.allow_origin)
    if args.trust_proxy is not None:
        overrides["trusted_proxies"] = args.trust_proxy
    overrides.update(_settings_overrides(args.set))
    if args.rate_limit is not None:
        overrides.update(rate_per_second=args.rate_limit, rate_burst=2 * args.rate_limit)
    games = None
    if args.games_module:
        # Tests and benchmarks serve test-only games through a real process without registering them.
        module, _, attr = args.games_module.partition(":")
        games = getattr(importlib.import_module(module), attr)
    serve(args.host, args.port, args.database_url, args.bot_delay, args.data_dir, games, args.public_url, **overrides)


def _settings_overrides(pairs: list[str]) -> dict[str, object]:
    types = {f.name: f.type for f in dataclasses.fields(Settings)}
    overrides: dict[str, object] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        kind = types.get(name)
        if kind is None:
            raise SystemExit(f"--set: no setting {name!r} (settings: {', '.join(types)})")
        if kind == "bool":
            overrides[name] = _flag(value)
        elif kind in ("int", "int | None"):
            overrides[name] = int(value)
        elif kind == "float":
            overrides[name] = float(value)
        elif kind.startswith("tuple"):  # a list of strings: comma-separated
            overrides[name] = tuple(part.strip() for part in value.split(",") if part.strip())
        else:
            overrides[name] = value
    return overrides


def _knobs(args: argparse.Namespace) -> dict[str, object]:
    """The cluster settings given (`--lease-seconds`, or PARTYGAMES_LEASE_SECONDS, ...: settings.KNOBS)."""
    # A count given as a whole number becomes an int; any other is left for `check_settings` to refuse in words.
    return {knob.name: _whole(value) if knob.whole else value
            for knob in KNOBS.values() if (value := getattr(args, knob.name)) is not None}


def _whole(value: float) -> float | int:
    return int(value) if value.is_integer() else value


def _number(value: str) -> float:
    """A number of seconds as ASCII digits (checked against its range when the settings are made)."""
    try:
        if not value.isascii():
            raise ValueError(value)
        return float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number / {value!r} は数ではありません") from None


def _flag(value: str | None) -> bool:
    """An environment variable's yes or no, read as `partygames serve` (Click) reads it."""
    return (value or "").strip().lower() in ("1", "true", "t", "yes", "y", "on")


def _trusted_proxies(value: str) -> tuple[str, ...]:
    try:
        return check_trusted_proxies(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _public_url(value: str) -> str:
    try:
        return check_public_url(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


if __name__ == "__main__":
    main()
