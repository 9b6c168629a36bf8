"""partygames: seven Japanese gambling and party games with the rules enforced by software."""

__version__ = "0.1.0"
