"""The event simulator (issue 43 item 1): seeded random events through the services, every page, API read,
printout and export opened at each change of state, and checked (see docs/ARCHITECTURE.md)."""
