"""Moving an event between installations: one versioned JSON file (export, import, their pages).

``codec`` is pure (the file's envelope, values, and the ids inside draws); ``services`` reads and writes
the database; ``views`` are the organiser's download and upload pages.
"""
