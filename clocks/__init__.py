"""Game clocks: time controls, clock state and the Celery tasks that enforce timeouts.

The clocks arrive with the clocks issue; the app is installed now so that its place in
the project is fixed.
"""
