"""The web platform's server: lobby, rooms, live play over WebSockets, durable matches.

See docs/protocol.md (the wire contract) and docs/server.md (architecture, storage, restart, clock).
"""
