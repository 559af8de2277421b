"""The game engine: the interface games implement, the event store, sessions."""
