from django.core.management.base import BaseCommand

from director import demo


class Command(BaseCommand):
    help = "Load the demo: a director login, the demo tournaments and a club chouette (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete the demo tournament and make it again.")

    def handle(self, *args, reset: bool = False, **options):
        for tournament, created in demo.load(reset=reset):
            if created:
                self.stdout.write(self.style.SUCCESS(f"Demo loaded: {tournament.name}."))
            else:
                self.stdout.write(f"Already loaded: {tournament.name} (--reset makes the demo again).")
