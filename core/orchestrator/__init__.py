"""The orchestration graph (SPEC section 3) and the turn service that runs it."""
