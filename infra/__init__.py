"""Project infrastructure, a Django app of its own (label ``config``, see ``apps.py``): the injected clock,
row locks, idempotency keys, the API's parsers, renderers, error handler and schema, authentication and the
login lockout, middleware, error pages, files kept in the database and the append-only base classes."""
