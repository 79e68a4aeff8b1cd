"""Pure rules of clubbot: no I/O, no asyncio, no SQL, no clock (time is passed in)."""
