from django.db import models


class Heartbeat(models.Model):
    """The last sign of life of one background role ("worker", "beat"), in the database web, worker and beat share.

    Works the same on Redis and on the embedded filesystem broker, and on any number of machines:
    /healthz reads it and judges how old it is (monitoring.health).
    """

    name = models.CharField(max_length=20, primary_key=True)
    at = models.DateTimeField()

    def __str__(self):
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


class LiveWorker(models.Model):
    """One running worker process, the work it holds, and when it last said so (monitoring.workers).

    Each worker's main process rewrites its own row every TOPOS_WORKER_BEAT_SECONDS, and at once when it takes a
    task that is sent again if its worker dies (`held`: [{"id", "task", "args", "kwargs", "eta"}], the messages it
    has taken and not finished).  A row older than TOPOS_WORKER_LOST_SECONDS is a dead worker's: the beat's sweep
    sends its held tasks again and deletes it, whichever broker took the messages away.
    """

    name = models.CharField(max_length=200, primary_key=True)
    beat_at = models.DateTimeField(db_index=True)
    held = models.JSONField(default=list)

    def __str__(self):
        return f"{self.name} at {self.beat_at:%Y-%m-%d %H:%M:%S} ({len(self.held)} held)"
