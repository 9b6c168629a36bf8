"""Analysis built on the engine: simulation and tournaments (games add exact odds and policies)."""
