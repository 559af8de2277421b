"""The games the companion knows. Each is one subpackage that registers itself."""

from companion.games import first_island  # noqa: F401
