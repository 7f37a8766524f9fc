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
