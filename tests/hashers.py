"""The tests' password hasher: Django's PBKDF2 with a thousand iterations instead of a million.

The hashes it writes carry its algorithm's name and their iteration count, so Django's own hasher (a server
or worker the tests start in another process) checks them as they are; a login there stores the password
anew at the full count. Hashing at the full count took 0.2 s a user, and the suite makes thousands."""
from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1000
