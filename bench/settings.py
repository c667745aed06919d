"""Settings for the bench's gunicorn only: production settings plus the bare yardstick view's URL."""
from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bare"
