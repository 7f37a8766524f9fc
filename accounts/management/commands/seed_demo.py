"""`python manage.py seed_demo`: the demo account of the one-command start (safe to run again)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import IntegrityError
from django.urls import reverse

from accounts.services import demo_user_ensure

USERNAME, PASSWORD, EMAIL = "demo", "topos-demo", "demo@topos.localhost"


class Command(BaseCommand):
    help = "Create the demo user (demo / topos-demo), or put its password and email back; prints how to log in."

    def handle(self, *args, **options):
        try:
            user, created = demo_user_ensure(username=USERNAME, email=EMAIL, password=PASSWORD)
        except IntegrityError as exc:
            raise CommandError(f"Another account already uses {EMAIL}; rename it first ({exc}).") from exc
        if created:
            self.stdout.write(self.style.SUCCESS(f"Created the demo account '{user.username}'."))
        else:
            self.stdout.write(
                self.style.SUCCESS(f"The demo account '{user.username}' exists; its password and email are set back.")
            )
        self.stdout.write(f"Log in at {settings.SITE_URL}{reverse('login')}")
        self.stdout.write(f"  username: {USERNAME}")
        self.stdout.write(f"  password: {PASSWORD}")
