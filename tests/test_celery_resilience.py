"""Every Celery task is idempotent and acknowledged late, rejected back to the broker when its worker dies
(issue 17, item 4)."""
from config.celery import IDEMPOTENT_TASKS, app


def test_every_registered_task_is_listed_as_idempotent_and_survives_a_lost_worker():
    app.loader.import_default_modules()
    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    assert set(ours) == set(IDEMPOTENT_TASKS), "a new task must say why running it twice is harmless"
    for name, task in ours.items():
        assert task.acks_late, name
        assert task.reject_on_worker_lost, name
