"""clubbot: the chat bot around the engine."""
